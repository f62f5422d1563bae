"""docs/quality.md stays in step with the registry, the heuristics and the smell mapping."""

from __future__ import annotations

from pathlib import Path

from mcptest.lint import RULES, tdqs
from mcptest.lint.gate import TARGET_ROOTS
from mcptest.lint.smells import SMELLS, smell_of

DOC = (Path(__file__).resolve().parents[2] / "docs" / "quality.md").read_text(encoding="utf-8")


def test_the_rules_table_lists_every_rule_as_the_registry_does() -> None:
    for r in RULES:
        row = f"| {r.code} | {r.severity.value} | `{r.name}` | {r.summary} | {smell_of(r.code) or '—'} |"
        assert row in DOC, row


def test_every_heuristic_smell_and_target_is_documented() -> None:
    assert all(f"| `{h.__name__}` |" in DOC for h in tdqs.HEURISTICS)
    assert all(f"| `{name}` | {', '.join(codes)} |" in DOC for name, codes in SMELLS.items())
    assert all(f"`{root}" in DOC for root in TARGET_ROOTS)
