"""The `tool_quality:` block of a suite: light on purpose (no rules imported), since every suite load needs it."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, field_validator

from mcptest.expect.assertions import Assertion

DEFAULT_GATE: tuple[dict[str, Any], ...] = (
    {"target": "min_score", "matcher": {"schema": {"minimum": 0.50}}},
    {"target": "mean_score", "matcher": {"schema": {"minimum": 0.70}}},
    {"target": "critical_count", "matcher": {"schema": {"maximum": 0}}},
)
"""Applied when a block omits `expect:` (or leaves it empty): spec 000's defaults."""

TARGET_ROOTS = (
    "min_score",
    "mean_score",
    "tool",
    "critical_count",
    "warning_count",
    "schema_criticals",
    "schema_warnings",
    "smells",
    "smell_total",
    "tool_surface_tokens",
    "rules",
)
"""The first segment of every valid `tool_quality:` target, for the suite loader's "unknown target" check."""


class ToolQualityBlock(BaseModel):
    """One entry of the top-level `tool_quality:` list: score a server's tool descriptions and gate on them."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    name: str = Field(min_length=1, description="The row name in the report.")
    server: str = Field(description="A key of `servers:`: the server whose `tools/list` is scored.")
    tags: list[str] = Field(default_factory=list, description="For `--tag` / `--skip-tag`.")
    expect: list[Assertion] | None = Field(
        None,
        description='Assertions over min_score, mean_score, tool["NAME"].score, critical_count, warning_count, '
        "schema_criticals, schema_warnings, smells.NAME, smell_total, tool_surface_tokens. Omitted or empty: "
        "min_score >= 0.50, mean_score >= 0.70, critical_count <= 0.",
    )
    server_managed: list[str] | None = Field(
        None,
        description="Field names the server assigns (SCH-005 flags them when exposed as inputs). Omitted: id, "
        "nano_id, user_id, organization_id, owner_id, assignee_id, status_id. A list replaces those; [] turns "
        "the check off.",
    )
    select: list[str] | None = Field(
        None,
        description="Only these rule codes or prefixes (`DESC`, `SCH-004`); a pedantic rule needs its exact code. "
        "Omitted: the default tier.",
    )
    ignore: list[str] | None = Field(None, description="Skip these rule codes or prefixes.")
    strict: bool = Field(False, description="Also run the pedantic tier (rules right by definition, rarely acted on).")
    _line: int = PrivateAttr(0)

    @field_validator("select", "ignore")
    @classmethod
    def _known_codes(cls, codes: list[str] | None) -> list[str] | None:
        if codes:
            from mcptest.checks.lint.registry import select_rules
            from mcptest.core.errors import UserError

            try:
                select_rules(codes)
            except UserError as exc:
                raise ValueError(exc.problems[0].message) from None
        return codes

    @property
    def assertions(self) -> list[Assertion]:
        """The block's assertions, or the default gate when `expect:` is omitted or empty."""
        return self.expect or default_gate()


def default_gate() -> list[Assertion]:
    """The default gate as Assertion models."""
    return [Assertion.model_validate(a) for a in DEFAULT_GATE]
