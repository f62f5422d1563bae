"""`mcptest rules`: the registry listed, one rule's documentation, JSON, and a typo."""

from __future__ import annotations

import pytest

from mcptest.checks.lint import RULES
from tests.doctor.helpers import cli


def test_rules_lists_every_code_with_its_severity_and_summary(capsys: pytest.CaptureFixture[str]) -> None:
    out = cli(capsys, "rules", "--no-color")
    lines = out.stdout.splitlines()
    assert out.code == 0
    assert [line.split()[0] for line in lines[: len(RULES)]] == [r.code for r in RULES]
    assert lines[0].split(maxsplit=3) == ["DESC-001", "critical", "short-description", RULES[0].summary]


def test_rules_code_prints_the_whole_documentation(capsys: pytest.CaptureFixture[str]) -> None:
    out = cli(capsys, "rules", "desc-009", "--no-color")
    assert out.code == 0
    assert out.stdout.startswith("DESC-009 missing-examples (warning, smell: missing_examples)\n\n")
    assert out.stdout.rstrip().endswith(RULES[8].docs.splitlines()[-1])
    assert "72%" in out.stdout and "Fix:" in out.stdout


def test_rules_json_carries_docs_and_smells(capsys: pytest.CaptureFixture[str]) -> None:
    rows = cli(capsys, "rules", "--json").json()
    assert [(r["code"], r["smell"]) for r in rows][11:18] == [
        ("DESC-012", "missing_annotations"),
        ("DESC-013", "brittle"),
        ("DESC-014", "brittle"),
        ("DESC-015", "invalid_annotation"),
        ("DESC-016", "invalid_annotation"),
        ("DESC-017", "brittle"),
        ("SCH-001", None),
    ]
    assert all(r["docs"].startswith(r["summary"]) for r in rows)


def test_an_unknown_rule_exits_2_with_a_suggestion(capsys: pytest.CaptureFixture[str]) -> None:
    out = cli(capsys, "rules", "DESC-0013")
    assert (out.code, out.stdout, out.stderr) == (
        2,
        "",
        "mcptest: unknown rule 'DESC-0013' (did you mean 'DESC-013'?)\n",
    )


def test_the_pedantic_tier_is_shown_in_the_list_the_documentation_and_json(capsys: pytest.CaptureFixture[str]) -> None:
    lines = cli(capsys, "rules", "--no-color").stdout.splitlines()
    assert lines[7].split()[:3] == ["DESC-008", "warning", "pedantic"]
    assert [line.split()[0] for line in lines[: len(RULES)] if "pedantic" in line] == [
        "DESC-004",
        "DESC-007",
        "DESC-008",
        "SCH-005",
        "SCH-006",
        "SCH-007",
        "SCH-012",
        "SCH-013",
    ]
    doc = cli(capsys, "rules", "DESC-008", "--no-color").stdout
    assert doc.startswith(
        "DESC-008 inverted-information-density (warning, smell: verbose, pedantic: off by default, "
        "on with --strict or --select DESC-008)\n"
    )
    rows = cli(capsys, "rules", "--json").json()
    assert [r["code"] for r in rows if r["tier"] == "pedantic"] == [
        "DESC-004",
        "DESC-007",
        "DESC-008",
        "SCH-005",
        "SCH-006",
        "SCH-007",
        "SCH-012",
        "SCH-013",
    ]
