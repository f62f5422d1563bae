"""The `tool_quality:` gate: a catalog's TDQS scores, lint counts, smells and tokens as named targets."""

from __future__ import annotations

import re
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr

from mcptest.catalog import Catalog
from mcptest.expect import Assertion, TargetMissing, check, resolve
from mcptest.lint.engine import QualityReport, assess
from mcptest.report.model import AssertionFailure

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
)
"""The first segment of every valid `tool_quality:` target, for the suite loader's "unknown target" check."""

_TOOL_TARGET = re.compile(r"""^tool\[(?:"(?P<dq>[^"]*)"|'(?P<sq>[^']*)')\]\.(?P<field>\w+)$""")


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
    _line: int = PrivateAttr(0)

    @property
    def assertions(self) -> list[Assertion]:
        """The block's assertions, or the default gate when `expect:` is omitted or empty."""
        return self.expect or default_gate()


def default_gate() -> list[Assertion]:
    """The default gate as Assertion models."""
    return [Assertion.model_validate(a) for a in DEFAULT_GATE]


def quality_targets(report: QualityReport) -> dict[str, Any]:
    """Every target value: the catalog summary plus `tool` -> name -> {score, tokens, critical_count, ...}."""
    tools: dict[str, Any] = {}
    for t in report.tools:
        per_tool = QualityReport((t,), report.rules)
        tools.setdefault(t.name, {"score": t.score, "tokens": t.tokens} | _counts(per_tool) | t.heuristics)
    return report.summary() | {"tool": tools}


def lookup(targets: dict[str, Any], path: str) -> Any:
    """The value of a target path: `tool["name"].score` (any tool name) or a dotted path like `smells.verbose`."""
    m = _TOOL_TARGET.match(path)
    if m is None:
        return resolve(targets, path)
    name = m.group("dq") if m.group("dq") is not None else m.group("sq")
    if name not in targets["tool"]:
        raise TargetMissing(f"no tool named {name!r} in the catalog ({len(targets['tool'])} tools)")
    per_tool = targets["tool"][name]
    if m.group("field") not in per_tool:
        raise TargetMissing(f"tool[{name!r}].{m.group('field')} is absent (fields: {', '.join(per_tool)})")
    return per_tool[m.group("field")]


def evaluate(catalog: Catalog, block: ToolQualityBlock) -> tuple[dict[str, Any], list[AssertionFailure]]:
    """Score `catalog`, then check the block's assertions: the targets and every failed assertion (none = PASS)."""
    targets = quality_targets(assess(catalog))
    return targets, check(block.assertions, lambda path: lookup(targets, path))


def _counts(report: QualityReport) -> dict[str, int]:
    summary = report.summary()
    keys = ("critical_count", "warning_count", "schema_criticals", "schema_warnings", "smell_total")
    return {k: summary[k] for k in keys}
