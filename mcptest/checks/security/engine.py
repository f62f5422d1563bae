"""Run the SEC rules over catalogs: one SecurityReport shared by `mcptest security`, doctor and `security:` blocks."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from mcptest.checks.findings import Finding, Rule, Severity
from mcptest.checks.security.registry import SEC_RULES, with_scope
from mcptest.checks.security.scope import scope_of
from mcptest.records.entries import Entry, Surface

FAIL_ON = {"critical": 2, "warning": 1, "never": 99}
"""`--fail-on` values and the lowest severity rank that fails."""


@dataclass(frozen=True)
class Flagged:
    """One finding on one entry of one catalog."""

    source: str
    entry: Entry
    finding: Finding

    def to_json(self) -> dict[str, Any]:
        """The finding with where it is: source, server, kind and name of the entry."""
        where = {"source": self.source, "server": self.entry.server or None, "kind": self.entry.kind}
        return where | {"name": self.entry.key} | self.finding.to_json()


@dataclass(frozen=True)
class SecurityReport:
    """Every SEC finding over the scanned catalogs."""

    sources: tuple[str, ...]
    entries: int
    rules: tuple[str, ...]
    """The codes of the rules that ran (after --select/--ignore)."""
    flagged: tuple[Flagged, ...]

    def count(self, severity: Severity) -> int:
        """How many findings landed at `severity`."""
        return sum(1 for f in self.flagged if f.finding.severity is severity)

    def per_rule(self) -> dict[str, int]:
        """How many findings each rule that ran made."""
        counts = dict.fromkeys(self.rules, 0)
        for f in self.flagged:
            counts[f.finding.rule] += 1
        return counts

    def failed(self, fail_on: str) -> bool:
        """Whether a finding reaches `fail_on` (critical, warning or never)."""
        return any(f.finding.severity.rank >= FAIL_ON[fail_on] for f in self.flagged)

    def summary(self) -> dict[str, Any]:
        """The figures a `security:` block gates on."""
        return {
            "entries": self.entries,
            "critical_count": self.count(Severity.CRITICAL),
            "warning_count": self.count(Severity.WARNING),
            "finding_count": len(self.flagged),
            "rules": self.per_rule(),
        }

    def to_json(self) -> dict[str, Any]:
        """The report as JSON: sources, rules that ran, the summary, then every finding."""
        return {
            "sources": list(self.sources),
            "rules_run": list(self.rules),
            "summary": self.summary(),
            "findings": [f.to_json() for f in self.flagged],
        }


def scan(surfaces: Sequence[Surface], rules: Sequence[Rule] = SEC_RULES) -> SecurityReport:
    """Every finding of `rules` on every entry of `surfaces`, scanned together (collisions span them)."""
    scoped = with_scope(rules, scope_of(surfaces))
    flagged = [
        Flagged(s.source, e, f)
        for s in surfaces
        for e in s.entries
        for rule in scoped
        for f in rule.run(e.tool() if e.raw.get("name") else Entry(e.kind, {**e.raw, "name": e.key}).tool())
    ]
    total = sum(len(s.entries) for s in surfaces)
    return SecurityReport(tuple(s.source for s in surfaces), total, tuple(r.code for r in rules), tuple(flagged))
