"""Every SEC rule proves itself on its case file (tools that must fire it, at these pointers, and tools that must not)
and documents itself like the lint rules."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mcptest.checks.security.registry import SEC_RULES, get_sec_rule, with_scope
from mcptest.checks.security.scope import Scope
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
    scope = Scope({name: frozenset(servers) for name, servers in case.get("scope", {}).items()})
    [rule] = with_scope([get_sec_rule(code)], scope)
    findings = rule.run(Tool(case["tool"]))
    if kind == "passes":
        assert findings == []
    else:
        assert [f.pointer for f in findings] == case["pointers"]
        assert all(f.rule == code and f.tool == case["tool"]["name"] and f.message for f in findings)


def test_every_rule_has_a_case_file_with_both_kinds_and_no_case_file_is_orphaned() -> None:
    files = {p.stem: json.loads(p.read_text(encoding="utf-8")) for p in CASES.glob("*.json")}
    assert sorted(files) == sorted(r.code for r in SEC_RULES)
    assert all(case["rule"] == code and case["fires"] and case["passes"] for code, case in files.items())


@pytest.mark.parametrize("rule", SEC_RULES, ids=lambda r: r.code)
def test_every_rule_documents_what_why_example_and_fix(rule) -> None:
    assert rule.summary and not rule.summary.startswith(rule.code)
    positions = [rule.docs.find(section) for section in SECTIONS]
    assert all(p > 0 for p in positions) and positions == sorted(positions), rule.docs


def test_codes_are_unique_well_formed_in_order_and_apart_from_the_lint_codes() -> None:
    from mcptest.checks.lint import RULES

    codes = [r.code for r in SEC_RULES]
    assert codes == [f"SEC-{i:03d}" for i in range(1, len(codes) + 1)]
    assert len({r.name for r in SEC_RULES}) == len(SEC_RULES)
    assert not set(codes) & {r.code for r in RULES}
