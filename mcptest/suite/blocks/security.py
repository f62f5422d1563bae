"""The `security:` block of a suite: light on purpose (no rules imported), since every suite load builds it."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr

from mcptest.expect.assertions import Assertion

DEFAULT_GATE: tuple[dict[str, Any], ...] = ({"target": "critical_count", "matcher": {"schema": {"maximum": 0}}},)
"""Applied when a block omits `expect:` (or leaves it empty): no critical finding, as `mcptest security` exits."""

TARGET_ROOTS = ("critical_count", "warning_count", "finding_count", "entries", "rules")
"""The first segment of every valid `security:` target, for the suite loader's "unknown target" check."""


class SecurityBlock(BaseModel):
    """One entry of the top-level `security:` list: scan servers' catalogs with the SEC rules and gate on them."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    name: str = Field(min_length=1, description="The row name in the report.")
    servers: list[str] | None = Field(
        None,
        description="Keys of `servers:` scanned together (name collisions span them). Omitted: every server.",
    )
    tags: list[str] = Field(default_factory=list, description="For `--tag` / `--skip-tag`.")
    select: list[str] = Field(default_factory=list, description="Only these rule codes or prefixes (`SEC-00`).")
    ignore: list[str] = Field(default_factory=list, description="Skip these rule codes or prefixes.")
    expect: list[Assertion] | None = Field(
        None,
        description='Assertions over critical_count, warning_count, finding_count, entries and rules["SEC-001"] '
        "(findings per rule). Omitted or empty: critical_count <= 0.",
    )
    _line: int = PrivateAttr(0)

    @property
    def assertions(self) -> list[Assertion]:
        """The block's assertions, or the default gate when `expect:` is omitted or empty."""
        return self.expect or [Assertion.model_validate(a) for a in DEFAULT_GATE]
