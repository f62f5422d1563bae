"""The `coverage:` block of a suite: per server, gates on what the run reached of its catalog."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr

from mcptest.expect.assertions import Assertion

TARGET_ROOTS = ("coverage",)
"""The first segment of every `coverage:` target: `coverage.tools`, `coverage.arguments`, ..."""


class CoverageGate(BaseModel):
    """One entry of the top-level `coverage:` list: the server, and the assertions over its coverage figures."""

    model_config = ConfigDict(extra="forbid")

    server: str = Field(description="A key of `servers:`.")
    expect: list[Assertion] = Field(
        min_length=1,
        description="Assertions over `coverage.tools`, `coverage.arguments`, `coverage.enums`, ... (integer "
        "percents; null when the catalog has nothing of that kind).",
    )
    _line: int = PrivateAttr(0)
