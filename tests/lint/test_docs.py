"""docs/quality.md stays in step with the registry, the heuristics and the smell mapping."""

from __future__ import annotations

from pathlib import Path

from mcptest.checks.lint import RULES, tdqs
from mcptest.checks.lint.smells import SMELLS, smell_of
from mcptest.run.tool_quality import TARGET_ROOTS

DOC = (Path(__file__).resolve().parents[2] / "docs" / "quality.md").read_text(encoding="utf-8")


def test_the_rules_table_lists_every_rule_as_the_registry_does() -> None:
    for r in RULES:
        row = f"| {r.code} | {r.severity.value} | `{r.name}` | {r.summary} | {smell_of(r.code) or '—'} |"
        assert row in DOC, row


def test_every_heuristic_smell_and_target_is_documented() -> None:
    assert all(f"| `{h.__name__}` |" in DOC for h in tdqs.HEURISTICS)
    assert all(f"| `{name}` | {', '.join(codes)} |" in DOC for name, codes in SMELLS.items())
    assert all(f"`{root}" in DOC for root in TARGET_ROOTS)


def test_the_word_lists_that_decide_a_finding_are_documented_word_for_word() -> None:
    from mcptest.checks.lint import bound_rules, text

    section = DOC[DOC.index("- DESC-010 counts as") : DOC.index("- DESC-011")]
    assert all(verb in section for verb in text.READ_VERBS)
    sch004 = DOC[DOC.index("- SCH-004 (ours") :]
    for words in (bound_rules.LABEL_WORDS, bound_rules.LOOKUP_VERBS, bound_rules.CREATE_VERBS):
        assert all(f" {w}" in sch004 for w in words), sorted(w for w in words if f" {w}" not in sch004)


def test_every_pedantic_rule_is_in_the_pedantic_table() -> None:
    table = DOC[DOC.index("### The pedantic tier") :]
    assert all(f"| {r.code} |" in table for r in RULES if r.pedantic)
