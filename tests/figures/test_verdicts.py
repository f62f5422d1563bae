"""Issue 12: the figure a user reads (console, JSON) is the figure that was judged, and every breach is a failure."""

from __future__ import annotations

import json
from pathlib import Path

from mcptest.exit_codes import ExitCode
from tests.conftest import run_cli
from tests.providers.helpers import write_suite

SELECTED = "      - turns: [{ tool_calls: [{ name: get_weather, args: { city: Paris } }] }, { answer: done }]\n"
MISSED = "      - turns: [{ answer: no tool }]\n"


def _floor_suite(tmp_path: Path, extra: str = "") -> Path:
    """8 scripted runs on the real weather mock server, 7 of which call get_weather: 87.5%, against an 88% floor."""
    agents = (
        "agents:\n"
        "  - name: weather floor\n"
        "    provider: scripted\n"
        "    servers: [weather]\n"
        "    prompt: Weather in Paris?\n"
        "    runs: 8\n"
        "    tool_selection:\n"
        "      expected_tool: get_weather\n"
        "      min_selection_rate: 0.88\n"
        f"{extra}"
        "    script:\n" + SELECTED * 7 + MISSED
    )
    return write_suite(tmp_path, agents)


def test_a_floor_fails_while_its_figure_says_it_holds(tmp_path: Path) -> None:
    expect = "      expect:\n        - tool_selection.selection_rate: { \">=\": 88 }\n"
    suite = _floor_suite(tmp_path, expect)
    ran = run_cli("run", str(suite), "--reporter", "json", cwd=tmp_path)
    assert ran.code == ExitCode.FAILED, ran.stderr
    gate = json.loads(ran.stdout)["gates"][0]
    # the JSON figure is the compared one: 87.5, not a rounded 88 that would pass the `>= 88` next to it
    assert gate["targets"]["tool_selection.selection_rate"] == 87.5
    assert gate["status"] == "failed"
    assert [(f["target"], f["matcher"], f["expected"], f["actual"]) for f in gate["failures"]] == [
        ("tool_selection.selection_rate", ">=", 88, 87.5),  # the expect: assertion
        ("tool_selection.selection_rate", ">=", 88, 87.5),  # the built-in floor
    ]
    lines = ran.stderr.splitlines()
    assert "tool-selection floor [FAIL] weather floor: selection 7/8 (87.5%), pass^k 87.5%, tokens n/a" in lines
    assert (
        "FLOOR weather floor: selection rate 87.5% is below the 88% floor (7 of 8 runs selected `get_weather`)"
        in lines
    )
    pretty = run_cli("run", str(suite), cwd=tmp_path)
    assert "tool_selection.selection_rate 87.5" in pretty.stdout and "selection_rate 88" not in pretty.stdout


def test_a_failed_floor_has_a_non_empty_structured_failures_list(tmp_path: Path) -> None:
    suite = _floor_suite(tmp_path)
    ran = run_cli("run", str(suite), "--reporter", "json", cwd=tmp_path)
    gate = json.loads(ran.stdout)["gates"][0]
    floor_line = suite.read_text().splitlines().index("      min_selection_rate: 0.88") + 1
    assert gate["status"] == "failed" and gate["failures"] == [
        {
            "target": "tool_selection.selection_rate",
            "matcher": ">=",
            "expected": 88,
            "actual": 87.5,
            "message": "FLOOR weather floor: selection rate 87.5% is below the 88% floor "
            "(7 of 8 runs selected `get_weather`)",
            "line": floor_line,  # where the floor is written
            "col": 7,
        }
    ]
