"""Resource and prompt tests: siblings of a tool test that read a resource or render a prompt once."""

from __future__ import annotations

from typing import Any

from pydantic import Field, PrivateAttr, ValidationInfo, field_validator, model_validator

from mcptest.core.uri_template import TemplateError, expand, variables
from mcptest.suite.blocks.expect import Expect, HasExpect
from mcptest.suite.blocks.latency import LATENCY_DOC, Latency
from mcptest.suite.strict import Strict

Scalar = str | int | float | bool


class ResourceTest(Strict, HasExpect):
    """Read one resource (`resources/read`) and assert on its contents."""

    name: str = Field(min_length=1, description="Unique within the suite.")
    server: str = Field(description="A key of `servers:`.")
    uri: str | None = Field(None, min_length=1, description="A concrete resource URI, e.g. `file:///docs/README.md`.")
    template: str | None = Field(
        None, min_length=1, description='An RFC 6570 resource template, e.g. `"notes://{owner}/{id}"`, filled by args.'
    )
    args: dict[str, Scalar] = Field(
        default_factory=dict,
        validate_default=True,
        description="Values for the template's variables (numbers as their decimal text).",
    )
    tags: list[str] = Field(default_factory=list, description="For `--tag` / `--skip-tag`.")
    latency: Latency | None = Field(None, description=LATENCY_DOC)
    weight: int = Field(
        1, ge=1, le=1000, description="`mcptest load`: how often users pick this test, relative to others."
    )
    expect: Expect | None = Field(
        None, description="A list of assertions, or `{ assertions: [...], max_duration_ms: N }`."
    )
    _line: int = PrivateAttr(0)

    @field_validator("template")
    @classmethod
    def _parses(cls, value: str | None) -> str | None:
        if value is not None:
            try:
                variables(value)
            except TemplateError as exc:
                raise ValueError(str(exc)) from None
        return value

    @field_validator("args", mode="after")
    @classmethod
    def _fills_template(cls, args: dict[str, Scalar], info: ValidationInfo) -> dict[str, Scalar]:
        template = info.data.get("template")
        if template is None:
            if args and info.data.get("uri") is not None:
                raise ValueError("args fill a `template:`; a concrete `uri:` takes none (drop args, or use template)")
            return args
        try:
            names = variables(template)
        except TemplateError:
            return args
        missing = [n for n in names if n not in args]
        unknown = [n for n in args if n not in names]
        if missing:
            them = "it" if len(missing) == 1 else "them"
            raise ValueError(f"template {template!r} needs {', '.join(missing)}: add {them} under `args:`")
        if unknown:
            raise ValueError(f"template {template!r} has no variable {', '.join(unknown)} (it has {', '.join(names)})")
        return args

    @model_validator(mode="after")
    def _one_address(self) -> ResourceTest:
        if (self.uri is None) == (self.template is None):
            given = "both `uri:` and `template:`" if self.uri else "neither `uri:` nor `template:`"
            raise ValueError(f"a resource test names exactly one of `uri:` or `template:` (with args); got {given}")
        return self

    @property
    def resolved_uri(self) -> str:
        """The URI to read: `uri`, or the template expanded with `args`."""
        return self.uri if self.uri is not None else expand(self.template or "", dict(self.args))


class PromptTest(Strict, HasExpect):
    """Render one prompt (`prompts/get`) and assert on its messages."""

    name: str = Field(min_length=1, description="Unique within the suite.")
    server: str = Field(description="A key of `servers:`.")
    prompt: str = Field(min_length=1, description="The prompt's name, as `prompts/list` gives it.")
    args: dict[str, Scalar] = Field(
        default_factory=dict, description="The prompt's arguments (sent as strings; numbers as their decimal text)."
    )
    tags: list[str] = Field(default_factory=list, description="For `--tag` / `--skip-tag`.")
    latency: Latency | None = Field(None, description=LATENCY_DOC)
    weight: int = Field(
        1, ge=1, le=1000, description="`mcptest load`: how often users pick this test, relative to others."
    )
    expect: Expect | None = Field(
        None, description="A list of assertions, or `{ assertions: [...], max_duration_ms: N }`."
    )
    _line: int = PrivateAttr(0)


def string_args(args: dict[str, Any]) -> dict[str, str]:
    """Prompt arguments as MCP sends them: strings."""
    from mcptest.core.uri_template import text

    return {k: text(v) for k, v in args.items()}
