"""Trace gates through `mcptest run`: committed trace files, the spec's report lines, exit codes, the JSON report."""

from __future__ import annotations

import json

from mcptest.core.exit_codes import ExitCode
from tests.conftest import ROOT, run_cli

EXAMPLES = ROOT / "examples" / "agent-gates"


def test_the_passing_gates_example_exits_0_with_the_floor_line_on_stderr() -> None:
    ran = run_cli("run", str(EXAMPLES / "mcptest.yml"), "-r", "json", "-q")  # stderr: the gate lines alone
    assert ran.code == ExitCode.OK, ran.stderr
    lines = ran.stderr.splitlines()
    assert lines[0] == (
        "tool-selection floor [PASS] weather selection: selection 9/10 (90%), pass^k 90%, tokens 1700 median / 1880 max"
    )
    assert lines[-1] == (
        "selection F1 [PASS] inline run reaches both classes: F1 100, precision 100, recall 100 (2 TP, 0 FP, 0 FN)"
    )
    report = json.loads(ran.stdout)  # stdout carries only the report
    floor = next(g for g in report["gates"] if g["block"] == "tool_selection")
    assert floor["targets"]["tool_selection.selection_rate"] == 90
    assert (floor["test"], floor["runs"], floor["status"]) == ("weather selection", 10, "passed")
    assert sum(r["name"] == "weather selection" for r in report["results"]) == 10


def test_the_breaching_example_exits_1_naming_each_missed_run() -> None:
    ran = run_cli("run", str(EXAMPLES / "breaching.yml"), "-q")
    assert ran.code == ExitCode.FAILED
    assert ran.stderr.splitlines() == [
        "tool-selection floor [FAIL] weather selection: selection 6/10 (60%), pass^k 30%, "
        "tokens 1500 median / 3120 max",
        "FLOOR weather selection: selection rate 60% is below the 80% floor (6 of 10 runs selected `get_weather`)",
        "FLOOR weather selection: 3 of 10 runs exceeded the 2000-token budget (worst run 3120 tokens)",
        "  run 2: did not select `get_weather`, called search",
        "  run 4: 2400 tokens, over budget",
        "  run 5: did not select `get_weather`, called search",
        "  run 6: 3120 tokens, over budget",
        "  run 7: did not select `get_weather`, called search",
        "  run 9: did not select `get_weather`, called search",
        "  run 10: 2100 tokens, over budget",
    ]
    assert "FAIL  weather selection [claude-sonnet-4-5] · tool_selection" in ran.stdout


def test_a_per_run_assertion_fails_only_its_run(write) -> None:
    suite = write(
        "suite.yml",
        f"""
agents:
  - name: budget per run
    traces: [{EXAMPLES / "traces" / "weather-breach.json"}]
    expect:
      - conversation.tokens.total: {{ "<=": 2000 }}
""",
    )
    ran = run_cli("run", str(suite), "-r", "json")
    assert ran.code == ExitCode.FAILED
    failed = [r["run"] for r in json.loads(ran.stdout)["results"] if r["status"] == "failed"]
    assert failed == [4, 6, 10]


def test_a_missing_trace_file_is_a_load_error(write) -> None:
    suite = write(
        "suite.yml",
        """
agents:
  - name: recorded
    traces: [nope.json]
""",
    )
    ran = run_cli("validate", str(suite))
    assert ran.code == ExitCode.USAGE
    assert ran.stderr.startswith(f"{suite}:3:14: agents[0].traces[0]: no trace file 'nope.json'")


def test_cross_block_mistakes_and_unknown_agent_targets_are_load_errors(write) -> None:
    suite = write(
        "suite.yml",
        """
agents:
  - name: name-free without classes
    prompt: find it
    tool_calls: [{ name: search }]
    discovery: { name_free: true }
    expect:
      - target: toolcalls[0].name
        matcher: { exact: search }
""",
    )
    ran = run_cli("validate", str(suite))
    assert ran.code == ExitCode.USAGE
    assert ran.stderr.splitlines() == [
        f"{suite}:2:5: agents[0]: discovery.name_free: true needs an equal_function_sets: block to judge the tool "
        "path against",
        f"{suite}:7:17: agents[0].expect[0].target: unknown target 'toolcalls[0].name' (did you mean 'tool_calls'?)",
    ]
