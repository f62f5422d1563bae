"""What every gate block under an agent test shares: the `GateConfig` base (its `expect:`) and the
`FunctionClass` of the blocks that name classes of interchangeable tools.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr

from mcptest.expect.assertions import Assertion


class GateConfig(BaseModel):
    """A gate block under an agent test; unknown keys are errors."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    expect: list[Assertion] | None = Field(
        None,
        description='Assertions over this block\'s targets, e.g. `- tool_selection.f1: { ">=": 80 }` or '
        "`{ target: ..., matcher: { schema: { minimum: 80 } } }`. Omitted or empty: the block's default gate applies.",
    )
    _pos: tuple[int, int] | None = PrivateAttr(None)
    _at: dict[str, tuple[int, int]] = PrivateAttr(default_factory=dict)


class FunctionClass(BaseModel):
    """A named group of interchangeable tools: calling any member reaches the capability."""

    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1, description="The capability, e.g. `search`.")
    members: list[str] = Field(
        min_length=1,
        description="Tool ids: `server.tool` matches that server's tool only; a bare `tool` matches it on any server.",
    )
