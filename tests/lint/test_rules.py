"""Every rule proves itself on its case file: tools that must fire it (at these pointers) and tools that must not."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mcptest.checks.findings import Severity
from mcptest.checks.lint import RULES, get_rule, select_rules
from mcptest.records.catalog import Tool

CASES = Path(__file__).parent / "cases"
SECTIONS = ("What it flags:", "Why it matters:", "Example:", "Fix:")


def _cases() -> list[pytest.param]:
    params = []
    for path in sorted(CASES.glob("*.json")):
        case = json.loads(path.read_text(encoding="utf-8"))
        for kind in ("fires", "passes"):
            for item in case[kind]:
                params.append(pytest.param(case["rule"], kind, item, id=f"{case['rule']}-{kind}-{item['why']}"))
    return params


@pytest.mark.parametrize(("code", "kind", "case"), _cases())
def test_rule_case(code: str, kind: str, case: dict) -> None:
    """A case marked `strict` runs the rule as `--strict` configures it (DESC-002's bound is 500 there)."""
    rule = select_rules([code], strict=True)[0] if case.get("strict") else get_rule(code)
    findings = rule.run(Tool(case["tool"]))
    if kind == "passes":
        assert findings == []
    else:
        assert [p for f in findings for p in f.pointers or (f.pointer,)] == case["pointers"]
        assert len(findings) == case.get("findings", len(case["pointers"]))
        assert all(f.rule == code and f.tool == case["tool"]["name"] and f.message for f in findings)


def test_every_rule_has_a_case_file_with_both_kinds_and_no_case_file_is_orphaned() -> None:
    """`CODE.json` is the rule's own case file; `CODE-<change>.json` pins one refinement (what fires, what not)."""
    files = {p.stem: json.loads(p.read_text(encoding="utf-8")) for p in CASES.glob("*.json")}
    assert {r.code for r in RULES} <= set(files)
    assert all(stem.split("-")[:2] == case["rule"].split("-") for stem, case in files.items())
    assert all(case["fires"] and case["passes"] for case in files.values())


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.code)
def test_every_rule_documents_what_why_example_and_fix(rule) -> None:
    assert rule.summary and not rule.summary.startswith(rule.code)
    positions = [rule.docs.find(section) for section in SECTIONS]
    assert all(p > 0 for p in positions) and positions == sorted(positions), rule.docs
    # issue 33: the condition under which a finding is worth acting on, stated before the example
    assert positions[0] < rule.docs.find("Worth acting on:") < positions[2], rule.docs


def test_registry_codes_are_unique_well_formed_and_in_order() -> None:
    codes = [r.code for r in RULES]
    assert len(set(codes)) == len(codes)
    assert codes == [f"DESC-{i:03d}" for i in range(1, 18)] + [f"SCH-{i:03d}" for i in range(1, 14)]
    assert len({r.name for r in RULES}) == len(RULES)


def test_severities_follow_the_spec_and_the_reference() -> None:
    critical = {r.code for r in RULES if r.severity is Severity.CRITICAL}
    # DESC-014 is ours: a description that contradicts its schema is a defect (see its docstring); SCH-008 too:
    # a $ref that never resolves leaves a client unable to validate the call at all.
    assert critical == {"DESC-001", "DESC-003", "DESC-006", "DESC-014", "SCH-003", "SCH-008"}
    assert all(r.severity is Severity.WARNING for r in RULES if r.code not in critical)
