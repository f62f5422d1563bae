"""`tool_quality:` with a rule selection, run as a user runs it: the counts follow it and the report names it."""

from __future__ import annotations

import json

from mcptest.core.exit_codes import ExitCode
from tests.conftest import ROOT, run_cli

WEAK = ROOT / "examples" / "tool-quality" / "weak-tickets.json"


def _suite(write, blocks: str) -> str:
    return str(
        write(
            "suite.yml",
            f'servers:\n  weak: {{ command: ["mcptest", "mock", "--tools-from", "{WEAK}"] }}\ntool_quality:\n{blocks}',
        )
    )


def test_each_block_counts_over_its_selection_and_the_report_says_which(write) -> None:
    blocks = """  - name: default
    server: weak
    expect: [{ target: warning_count, matcher: { "<=": 0 } }]
  - name: strict
    server: weak
    strict: true
    expect: [{ target: warning_count, matcher: { "<=": 0 } }]
  - name: schema only
    server: weak
    select: [SCH]
    ignore: [SCH-002]
    expect: [{ target: schema_warnings, matcher: { "<=": 0 } }]
"""
    ran = run_cli("run", _suite(write, blocks), "-r", "json")
    assert ran.code == ExitCode.FAILED
    rows = {r["name"]: r for r in json.loads(ran.stdout)["results"]}
    assert {name: r["selection"] for name, r in rows.items()} == {
        "default": "default",
        "strict": "strict",
        "schema only": "default; select SCH; ignore SCH-002",
    }
    assert [rows[n]["failures"][0]["actual"] for n in rows] == [11, 13, 1]  # SCH-004: create_ticket.title
    assert rows["strict"]["failures"][0]["message"].endswith("(rules: strict)")


def test_an_unknown_rule_in_a_block_is_a_load_error_at_its_line(write) -> None:
    suite = _suite(write, "  - name: q\n    server: weak\n    select: [DESC-99]\n")
    ran = run_cli("validate", suite)
    assert ran.code == ExitCode.USAGE
    assert ran.stderr == (
        f"{suite}:6:13: tool_quality[0].select: unknown rule or prefix 'DESC-99' (did you mean 'DESC-009'?)\n"
    )
