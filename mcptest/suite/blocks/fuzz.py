"""The `fuzz:` block of a suite: fuzz one server's tools from their inputSchemas (as `mcptest fuzz` does) and gate
on what it finds. Light on purpose (nothing of the fuzzer imported), since every suite load builds it."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr

from mcptest.expect.assertions import Assertion

DEFAULT_GATE: tuple[dict[str, Any], ...] = ({"target": "error_count", "matcher": {"schema": {"maximum": 0}}},)
"""Applied when a block omits `expect:` (or leaves it empty): no error-class finding, as `mcptest fuzz` exits."""

TARGET_ROOTS = ("error_count", "warning_count", "info_count", "finding_count", "cases", "classes")
"""The first segment of every valid `fuzz:` target, for the suite loader's "unknown target" check."""


class FuzzBlock(BaseModel):
    """One entry of the top-level `fuzz:` list: fuzz a server's tools and gate on the findings."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    name: str = Field(min_length=1, description="The row name in the report.")
    server: str = Field(description="The key of `servers:` to fuzz (started on its own: a crash harms no test).")
    tools: list[str] = Field(default_factory=list, description="Only these tools. Empty: every read-only tool.")
    cases: int = Field(100, ge=1, description="Calls per tool.")
    seed: int = Field(0, description="The same seed makes the same inputs.")
    max_call_ms: int = Field(5000, ge=1, description="No answer after this long is a hang (scaled by load).")
    allow_writes: bool = Field(False, description="Fuzz tools that may change state too.")
    tags: list[str] = Field(default_factory=list, description="For `--tag` / `--skip-tag`.")
    expect: list[Assertion] | None = Field(
        None,
        description='Assertions over error_count, warning_count, info_count, finding_count, cases and classes["crash"] '
        "(calls showing each finding class). Omitted or empty: error_count <= 0.",
    )
    _line: int = PrivateAttr(0)

    @property
    def assertions(self) -> list[Assertion]:
        """The block's assertions, or the default gate when `expect:` is omitted or empty."""
        return self.expect or [Assertion.model_validate(a) for a in DEFAULT_GATE]
