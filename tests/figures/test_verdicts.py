"""Issue 12: the figure a user reads (console, JSON) is the figure that was judged, and every breach is a failure."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from mcptest.core.exit_codes import ExitCode
from tests.conftest import Ran, run_cli
from tests.providers.fake_llm import FakeLLM, Turn, call, serve
from tests.providers.helpers import environ, write_suite

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
    expect = '      expect:\n        - tool_selection.selection_rate: { ">=": 88 }\n'
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
        "FLOOR weather floor: selection rate 87.5% is below the 88% floor (7 of 8 runs selected `get_weather`)" in lines
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


def _summary(ran: Ran) -> dict[str, Any]:
    return dict(json.loads(ran.stdout)["summary"])


def test_the_json_summary_carries_gate_counts_and_one_ok_verdict_matching_the_exit_code(tmp_path: Path) -> None:
    failing = run_cli("run", str(_floor_suite(tmp_path)), "-r", "json", cwd=tmp_path)
    summary = _summary(failing)
    assert failing.code == ExitCode.FAILED
    # every result row passed: only the gate says no, and the summary says so with the exit code
    assert (summary["failed"], summary["gates"], summary["ok"]) == (
        0,
        {"total": 1, "passed": 0, "failed": 1, "incomplete": 0},
        False,
    )
    (tmp_path / "suite.yml").write_text((tmp_path / "suite.yml").read_text().replace("0.88", "0.5"))
    passing = run_cli("run", str(tmp_path / "suite.yml"), "-r", "json", cwd=tmp_path)
    assert (passing.code, _summary(passing)["ok"], _summary(passing)["gates"]["passed"]) == (ExitCode.OK, True, 1)
    pretty = run_cli("run", str(tmp_path / "suite.yml"), cwd=tmp_path)
    assert pretty.stdout.splitlines()[-1].startswith("8 passed, 0 failed, 1 gate passed in ")


AGENT = """
agents:
  - name: weather
    model: gpt-4o-mini
    servers: [weather]
    prompt: Weather in Paris?
    runs: 3
    tool_selection: { expected_tool: get_weather, min_selection_rate: 0.5 }
"""
TURNS = [Turn(calls=[call("get_weather", city="Paris")]), Turn(text="Sunny.")]


def test_capped_runs_mark_the_gate_incomplete_not_pass(tmp_path: Path) -> None:
    suite = write_suite(tmp_path, AGENT)
    with serve(FakeLLM(TURNS)) as url:
        argv = ("run", str(suite), "--record", "--concurrency", "1", "--max-cost", "0.0001", "-r", "json")
        ran = run_cli(*argv, env=environ(url), cwd=tmp_path)
    assert ran.code == ExitCode.POLICY, ran.stderr
    report = json.loads(ran.stdout)
    gate = report["gates"][0]
    assert (gate["status"], gate["runs"], gate["runs_asked"]) == ("incomplete", 2, 3)
    assert report["summary"]["gates"] == {"total": 1, "passed": 0, "failed": 0, "incomplete": 1}
    assert report["summary"]["capped"] is True and report["summary"]["ok"] is False
    assert "tool-selection floor [INCOMPLETE] weather: selection 2/2 (100%)" in ran.stderr
    assert "  judged on 2 of 3 runs: the rest were not dispatched" in ran.stderr.splitlines()
    rendered = run_cli("report", str(_saved(tmp_path, ran.stdout)), cwd=tmp_path)
    assert "INCOMPLETE  weather [gpt-4o-mini] · tool_selection  2 runs of 3" in rendered.stdout
    assert "no verdict: judged on 2 of 3 runs" in rendered.stdout
    assert "1 of 1 gate incomplete" in rendered.stdout.splitlines()[-1]


def _saved(directory: Path, text: str) -> Path:
    path = directory / "run.json"
    path.write_text(text, encoding="utf-8")
    return path


TOOL_SUITE = """
tools:
  - name: forecast
    server: weather
    tool: get_weather
    args: { city: Paris }
    expect:
      - target: result.isError
        matcher: { exact: false }
      - target: result.structuredContent.city
        matcher: { exact: Lyon }
"""


def test_each_failure_carries_the_line_col_of_its_own_assertion_and_the_console_shows_it(tmp_path: Path) -> None:
    suite = write_suite(tmp_path, TOOL_SUITE)
    lines = suite.read_text().splitlines()
    test_line = lines.index("  - name: forecast") + 1
    assertion_line = lines.index("      - target: result.structuredContent.city") + 1
    ran = run_cli("run", str(suite), "-r", "json", cwd=tmp_path)
    (row,) = json.loads(ran.stdout)["results"]
    assert row["line"] == test_line
    assert [(f["target"], f["line"], f["col"]) for f in row["failures"]] == [
        ("result.structuredContent.city", assertion_line, 9)
    ]
    pretty = run_cli("run", str(suite), cwd=tmp_path).stdout
    assert f'✗ result.structuredContent.city exact "Lyon"  at {suite}:{assertion_line}:9' in pretty
    assert f"defined at {suite}:{test_line}" in pretty
