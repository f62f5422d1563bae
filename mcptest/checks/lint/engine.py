"""Run the rules and the scores over a catalog: one QualityReport shared by doctor and `tool_quality:`."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from mcptest.checks.findings import Finding, Rule, Severity
from mcptest.checks.lint import tdqs
from mcptest.checks.lint.registry import DEFAULT_RULES, PASS_RULE
from mcptest.checks.lint.smells import smell_counts
from mcptest.checks.lint.surface import tool_tokens
from mcptest.records.catalog import Catalog, Tool


def lint_tool(tool: Tool, rules: Sequence[Rule] = DEFAULT_RULES) -> list[Finding]:
    """Every finding the rules report on `tool`, in registry order; one synthetic Pass when none fire."""
    findings = [f for rule in rules for f in rule.run(tool)]
    return findings or [Finding(PASS_RULE, Severity.PASS, tool.name, "meets every rule that ran")]


@dataclass(frozen=True)
class ToolReport:
    """One tool's findings, TDQS score (with its six heuristics) and surface tokens."""

    name: str
    findings: tuple[Finding, ...]
    score: float
    heuristics: dict[str, float]
    tokens: int

    def to_json(self) -> dict[str, Any]:
        """The tool report as JSON."""
        return {
            "name": self.name,
            "score": self.score,
            "heuristics": self.heuristics,
            "tokens": self.tokens,
            "findings": [f.to_json() for f in self.findings],
        }


@dataclass(frozen=True)
class QualityReport:
    """The lint findings, scores, smells and token cost of a whole catalog."""

    tools: tuple[ToolReport, ...]
    rules: tuple[str, ...]
    """The codes of the rules that ran (after --select/--ignore)."""

    @property
    def findings(self) -> list[Finding]:
        """Every finding, tool by tool (synthetic Pass findings included)."""
        return [f for t in self.tools for f in t.findings]

    def count(self, severity: Severity, family: str = "DESC") -> int:
        """How many findings of a rule family (`DESC` or `SCH`) landed at `severity`."""
        return sum(1 for f in self.findings if f.severity is severity and f.rule.startswith(f"{family}-"))

    @property
    def mean_score(self) -> float:
        """The mean of the per-tool scores (1.0 for an empty catalog: nothing is badly described)."""
        return round(sum(t.score for t in self.tools) / len(self.tools), 4) if self.tools else 1.0

    @property
    def min_score(self) -> float:
        """The worst tool's score (1.0 for an empty catalog)."""
        return min((t.score for t in self.tools), default=1.0)

    @property
    def smells(self) -> dict[str, int]:
        """Findings per named smell."""
        return smell_counts(self.findings)

    @property
    def tokens(self) -> int:
        """The catalog's tool-surface tokens."""
        return sum(t.tokens for t in self.tools)

    def summary(self) -> dict[str, Any]:
        """The catalog-level figures: the `tool_quality:` targets that are not per tool."""
        smells = self.smells
        return {
            "tool_count": len(self.tools),
            "mean_score": self.mean_score,
            "min_score": self.min_score,
            "critical_count": self.count(Severity.CRITICAL),
            "warning_count": self.count(Severity.WARNING),
            "schema_criticals": self.count(Severity.CRITICAL, "SCH"),
            "schema_warnings": self.count(Severity.WARNING, "SCH"),
            "smells": smells,
            "smell_total": sum(smells.values()),
            "tool_surface_tokens": self.tokens,
        }

    def to_json(self) -> dict[str, Any]:
        """The whole report as JSON: rules that ran, the summary, then one entry per tool."""
        return {"rules": list(self.rules), "summary": self.summary(), "tools": [t.to_json() for t in self.tools]}


def assess(catalog: Catalog, rules: Sequence[Rule] = DEFAULT_RULES) -> QualityReport:
    """Lint, score and count every tool of `catalog` (with the default tier of rules unless told otherwise)."""
    return QualityReport(tuple(_tool_report(t, rules) for t in catalog.tools), tuple(r.code for r in rules))


def _tool_report(tool: Tool, rules: Sequence[Rule]) -> ToolReport:
    values = tdqs.heuristics(tool)
    return ToolReport(tool.name, tuple(lint_tool(tool, rules)), tdqs.mean(values), values, tool_tokens(tool))
