"""`expect:` of a call test (tool, resource, prompt): a list of assertions or `{ assertions, max_duration_ms }`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

from pydantic import Discriminator, Field, PrivateAttr, Tag

from mcptest.expect.assertions import Assertion
from mcptest.suite.strict import Strict


class ExpectBlock(Strict):
    """The long form of `expect`: assertions plus a latency budget."""

    assertions: list[Assertion] = Field(default_factory=list)
    max_duration_ms: float | None = Field(None, gt=0, description="The call must answer within this many ms.")
    _at: dict[str, tuple[int, int]] = PrivateAttr(default_factory=dict)  # where each key is written (line, col)


def _expect_form(value: Any) -> str | None:
    return "list" if isinstance(value, list) else "block" if isinstance(value, dict) else None


Expect = Annotated[
    Annotated[list[Assertion], Tag("list")] | Annotated[ExpectBlock, Tag("block")],
    Discriminator(
        _expect_form,
        custom_error_type="expect_form",
        custom_error_message="expect is a list of assertions or a mapping `{ assertions: [...], max_duration_ms: N }`",
    ),
]


class HasExpect:
    """The reading of `expect` shared by every test that makes one call."""

    if TYPE_CHECKING:  # a field of each test model, declared there (after its own fields, in YAML order)
        expect: list[Assertion] | ExpectBlock | None

    @property
    def assertions(self) -> list[Assertion]:
        """The assertions, whichever form `expect` was written in."""
        if isinstance(self.expect, ExpectBlock):
            return self.expect.assertions
        return self.expect or []

    @property
    def max_duration_ms(self) -> float | None:
        """The latency budget, if any."""
        return self.expect.max_duration_ms if isinstance(self.expect, ExpectBlock) else None

    @property
    def max_duration_at(self) -> tuple[int, int] | None:
        """Where the latency budget is written (line, col), for its failure."""
        return self.expect._at.get("max_duration_ms") if isinstance(self.expect, ExpectBlock) else None
