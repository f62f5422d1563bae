"""The lint findings as an author reads them: per tool, most severe first, one line per rule (pure data, no I/O)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import cached_property

from mcptest.checks.findings import Finding, Severity
from mcptest.checks.lint.engine import QualityReport, ToolReport
from mcptest.checks.lint.registry import PASS_RULE

_SKIP = frozenset({"inputSchema", "properties", "items", "anyOf", "oneOf", "allOf", "additionalProperties"})


@dataclass(frozen=True)
class RuleLine:
    """One rule on one tool: every finding it made there, summed up in one line."""

    rule: str
    severity: Severity
    findings: tuple[Finding, ...]

    @property
    def fields(self) -> list[str]:
        """The fields the findings point at, as dotted names (`entities.name`), in order, without repeats."""
        names = [field_name(p) for f in self.findings for p in (f.pointers or (f.pointer or "",))]
        return list(dict.fromkeys(n for n in names if n))

    def summary(self, rule_summary: str) -> str:
        """The finding's own message when there is one, else the rule's summary with the fields it concerns."""
        if len(self.findings) == 1:
            return self.findings[0].message
        fields = self.fields
        shown = ", ".join(fields[:6]) + (f", +{len(fields) - 6} more" if len(fields) > 6 else "")
        return f"{len(self.findings)}× {rule_summary.rstrip('.')}" + (f": {shown}" if fields else "")


@dataclass(frozen=True)
class ToolGroup:
    """One tool's findings grouped by rule, the most severe rule first."""

    tool: ToolReport
    lines: tuple[RuleLine, ...]

    @cached_property
    def counts(self) -> Counter[Severity]:
        """Findings per severity (asked for twice by the sort, once by the text: counted once)."""
        return Counter(f.severity for line in self.lines for f in line.findings)


def field_name(pointer: str) -> str:
    """A readable field name from a finding's JSON pointer: `/inputSchema/properties/a/items/properties/b` -> `a.b`,
    `/inputSchema` -> `inputSchema`; empty for a pointer outside the input schema (`/description`)."""
    parts = [p.replace("~1", "/").replace("~0", "~") for p in pointer.split("/")[1:]]
    if not parts or parts[0] != "inputSchema":
        return ""
    name = ".".join(p for p in parts if p not in _SKIP and not p.isdigit() and p not in ("$defs", "definitions"))
    return name or "inputSchema"


def group(report: QualityReport) -> tuple[list[ToolGroup], list[ToolReport]]:
    """The tools with findings, most severe first (criticals, then warnings, then catalog order), and the clean ones."""
    groups, clean = [], []
    for tool in report.tools:
        real = [f for f in tool.findings if f.rule != PASS_RULE]
        if not real:
            clean.append(tool)
            continue
        by_rule: dict[str, list[Finding]] = {}
        for finding in real:
            by_rule.setdefault(finding.rule, []).append(finding)
        lines = [RuleLine(code, fs[0].severity, tuple(fs)) for code, fs in by_rule.items()]
        lines.sort(key=lambda line: -line.severity.rank)
        groups.append(ToolGroup(tool, tuple(lines)))
    order = {id(g): i for i, g in enumerate(groups)}
    groups.sort(key=lambda g: (-g.counts[Severity.CRITICAL], -g.counts[Severity.WARNING], order[id(g)]))
    return groups, clean


def per_rule(report: QualityReport) -> list[tuple[str, Severity, int, int]]:
    """Each rule that fired: its code, severity, findings and tools, the most severe and most frequent first."""
    findings: Counter[str] = Counter()
    tools: dict[str, set[str]] = {}
    severity: dict[str, Severity] = {}
    for f in report.findings:
        if f.rule != PASS_RULE:
            findings[f.rule] += 1
            tools.setdefault(f.rule, set()).add(f.tool)
            severity[f.rule] = f.severity
    rows = [(code, severity[code], n, len(tools[code])) for code, n in findings.items()]
    return sorted(rows, key=lambda r: (-r[1].rank, -r[2], r[0]))
