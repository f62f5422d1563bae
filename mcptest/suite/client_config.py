"""How mcptest answers a server's own requests (`client:`) and authenticates to it (`auth:`)."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Any

from pydantic import Discriminator, Field, PrivateAttr, Tag, field_validator, model_validator

from mcptest.expect.assertions import Matcher
from mcptest.suite.strict import Strict


class SamplingAnswer(Strict):
    """One answer to `sampling/createMessage`; the first whose `when` matches the request is given."""

    when: Matcher | None = Field(
        None, description="A matcher on the text of the request's last message, e.g. `{ contains: summarize }`."
    )
    text: str = Field(description="The assistant text mcptest answers with.")
    model: str = Field("mcptest-client", description="The model name reported in the answer.")
    stop_reason: str = Field("endTurn", alias="stopReason", description="The `stopReason` of the answer.")


class ElicitationAction(StrEnum):
    """What the user did with an elicitation form."""

    ACCEPT = "accept"
    DECLINE = "decline"
    CANCEL = "cancel"


class ElicitationAnswer(Strict):
    """An answer to `elicitation/create`: accept (with content), decline or cancel; in a list, the first whose
    `when` matches the request's message is given."""

    when: Matcher | None = Field(
        None, description="A matcher on the request's `message`, e.g. `{ contains: email }` (none: every request)."
    )
    action: ElicitationAction = Field(description="`accept`, `decline` or `cancel`.")
    content: dict[str, str | int | float | bool | list[str]] | None = Field(
        None, description="The form's values, for `accept`."
    )

    @field_validator("action", mode="before")
    @classmethod
    def _known(cls, value: Any) -> Any:
        allowed = [a.value for a in ElicitationAction]
        if isinstance(value, str) and value not in allowed:
            from mcptest.core.errors import did_you_mean

            hint = did_you_mean(value, allowed)
            raise ValueError(f"unknown elicitation action '{value}'{hint}; it is one of {', '.join(allowed)}")
        return value

    @model_validator(mode="after")
    def _content_only_on_accept(self) -> ElicitationAnswer:
        if self.content is not None and self.action != ElicitationAction.ACCEPT:
            raise ValueError(f"content goes with action accept, not {self.action.value}")
        return self


def _elicitation_form(value: Any) -> str | None:
    return "list" if isinstance(value, list) else "one" if isinstance(value, dict) else None


Elicitation = Annotated[
    Annotated[ElicitationAnswer, Tag("one")] | Annotated[list[ElicitationAnswer], Tag("list")],
    Discriminator(
        _elicitation_form,
        custom_error_type="elicitation_form",
        custom_error_message="elicitation is one answer `{ action: ... }` or a list of them (with `when:`)",
    ),
]


class ClientAnswers(Strict):
    """How mcptest answers the server's requests; a request with no answer here fails the test that caused it."""

    roots: list[str] | None = Field(None, description='The roots to list, e.g. `["file:///workspace"]`.')
    sampling: list[SamplingAnswer] = Field(
        default_factory=list, description="Answers to `sampling/createMessage`, first match wins."
    )
    elicitation: Elicitation | None = Field(
        None, description="The answer to `elicitation/create`, or a list of answers with `when:`, first match wins."
    )

    @property
    def elicitation_answers(self) -> list[ElicitationAnswer]:
        """The elicitation answers as a list, whichever form they were written in."""
        if self.elicitation is None:
            return []
        return self.elicitation if isinstance(self.elicitation, list) else [self.elicitation]


class ClientCredentials(Strict):
    """OAuth 2 client credentials: mcptest fetches (and refreshes) a token from `token_url`."""

    token_url: str = Field(pattern=r"^https?://", description="The authorization server's token endpoint.")
    client_id: str = Field(min_length=1)
    client_secret_env: str = Field(min_length=1, description="The environment variable holding the client secret.")
    scope: str | None = Field(None, description="The scope to ask for, space separated.")


class OAuth(Strict):
    """OAuth 2 through the `mcp` SDK's client provider."""

    client_credentials: ClientCredentials


class Auth(Strict):
    """How to authenticate to an HTTP server: a bearer token from the environment, or OAuth 2."""

    bearer_env: str | None = Field(None, min_length=1, description="The environment variable holding the token.")
    oauth: OAuth | None = None
    _secret: str = PrivateAttr("")

    @model_validator(mode="after")
    def _one_kind(self) -> Auth:
        if (self.bearer_env is None) == (self.oauth is None):
            raise ValueError("auth takes exactly one of `bearer_env:` or `oauth:`")
        return self
