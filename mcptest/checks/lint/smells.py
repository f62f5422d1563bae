"""Smells: the DESC findings grouped into the named categories of the description-smell studies."""

from __future__ import annotations

from collections.abc import Iterable

from mcptest.checks.findings import Finding

SMELLS: dict[str, tuple[str, ...]] = {
    "underspecified": ("DESC-001", "DESC-006", "DESC-007"),
    "verbose": ("DESC-002", "DESC-008"),
    "uninformative": ("DESC-003", "DESC-004"),
    "brittle": ("DESC-005", "DESC-013", "DESC-014", "DESC-017"),
    "missing_examples": ("DESC-009",),
    "missing_return_format": ("DESC-010",),
    "missing_annotations": ("DESC-012",),
    "invalid_annotation": ("DESC-011", "DESC-015", "DESC-016"),
}
"""Which rules feed which smell. Every DESC rule feeds exactly one smell; SCH rules feed none (they have their
own `schema_criticals`/`schema_warnings` targets). Smell names follow Hasan et al. (arXiv:2602.14878,
arXiv:2602.18914): `underspecified` is a tool or argument the agent cannot use without guessing, `verbose` text
that costs tokens without adding signal, `uninformative` text that gives no basis to choose, `brittle` text whose
meaning depends on things nothing validates (catalog order, values kept in prose, prose that contradicts the
schema it sits beside)."""

_SMELL_OF = {code: smell for smell, codes in SMELLS.items() for code in codes}


def smell_of(rule: str) -> str | None:
    """The smell a rule's findings count towards, if any."""
    return _SMELL_OF.get(rule)


def smell_counts(findings: Iterable[Finding]) -> dict[str, int]:
    """How many findings fall in each smell (every smell listed, zeros included, in SMELLS order)."""
    counts = dict.fromkeys(SMELLS, 0)
    for finding in findings:
        smell = _SMELL_OF.get(finding.rule)
        if smell is not None:
            counts[smell] += 1
    return counts
