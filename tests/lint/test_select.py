"""Choosing rules: exact codes, family prefixes, comma lists, and a helpful error for a typo."""

from __future__ import annotations

import pytest

from mcptest.checks.lint import assess, get_rule, select_rules
from mcptest.core.errors import UserError
from mcptest.records.catalog import from_wire


def codes(select: list[str] = [], ignore: list[str] = []) -> list[str]:  # noqa: B006 (never mutated)
    return [r.code for r in select_rules(select, ignore)]


def test_no_flags_select_every_rule_but_the_pedantic_tier() -> None:
    assert len(codes()) == 22 and "DESC-008" not in codes()
    assert len(select_rules(strict=True)) == 30  # pedantic: DESC-004, -007, -008, SCH-005 to -007, -012, -013


def test_a_pedantic_rule_joins_by_its_exact_code_or_strict_never_by_a_prefix() -> None:
    assert "DESC-008" not in codes(["DESC"]) and "DESC-008" not in codes(["DESC-00"])
    assert codes(["DESC-008"]) == ["DESC-008"]
    assert "DESC-008" in [r.code for r in select_rules(["DESC"], strict=True)]
    pedantic = ["DESC-004", "DESC-007", "DESC-008", "SCH-005", "SCH-006", "SCH-007", "SCH-012", "SCH-013"]
    assert [r.code for r in select_rules([], pedantic, strict=True)] == codes()
    assert "SCH-012" not in codes(["SCH"]) and codes(["SCH-012"]) == ["SCH-012"]


def test_prefixes_codes_and_comma_lists_combine() -> None:
    assert codes(["SCH"]) == [
        "SCH-001",
        "SCH-002",
        "SCH-003",
        "SCH-004",
        "SCH-008",
        "SCH-009",
        "SCH-010",
        "SCH-011",
    ]
    assert codes(["desc-01", "SCH-003"]) == [
        "DESC-010",
        "DESC-011",
        "DESC-012",
        "DESC-013",
        "DESC-014",
        "DESC-015",
        "DESC-016",
        "DESC-017",
        "SCH-003",
    ]
    assert codes(["DESC-001,DESC-003"], ["DESC-003"]) == ["DESC-001"]
    assert codes([], ["DESC", "SCH-0"]) == []


def test_an_unknown_code_is_a_user_error_with_a_suggestion() -> None:
    with pytest.raises(UserError, match=r"unknown rule or prefix 'DSC-009' \(did you mean 'DESC-009'\?\)"):
        select_rules(["DSC-009"])
    with pytest.raises(UserError, match=r"unknown rule 'SCH-9'"):
        get_rule("SCH-9")


def test_a_clean_tool_under_the_selected_rules_gets_one_pass_finding() -> None:
    catalog = from_wire([{"name": "a", "description": "a"}], shorthand=True)
    report = assess(catalog, select_rules(["DESC-012"], []))
    assert [f.to_json() for f in report.findings] == [
        {
            "rule": "DESC-012",
            "severity": "warning",
            "tool": "a",
            "message": "tool declares no annotations",
            "suggestion": "Add annotations with readOnlyHint, destructiveHint, idempotentHint and openWorldHint.",
            "pointer": "/annotations",
        }
    ]
    report = assess(catalog, select_rules(["DESC-002"], []))
    assert [f.to_json() for f in report.findings] == [
        {"rule": "PASS", "severity": "pass", "tool": "a", "message": "meets every rule that ran"}
    ]
    assert report.rules == ("DESC-002",)
