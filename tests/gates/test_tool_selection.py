"""The pass^k tool-selection floor: spec 000's report lines, the all-or-nothing budget, exact rate comparison."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from mcptest.gates.tool_selection import ToolSelectionConfig
from tests.gates.build import evaluate, run

WEATHER = {"expected_tool": "get_weather", "min_selection_rate": 0.8, "max_total_tokens": 2000}


def runs(*spec: tuple[str, int | None]):
    """One run per (tool called, total tokens) pair."""
    return [run(f"weather.{tool}", tokens=None if tokens is None else {"total": tokens}) for tool, tokens in spec]


def test_the_spec_pass_line_for_nine_of_ten():
    tokens = [1500, 1520, 1510, 1530, 1840, 1490, 1525, 1520, 1600, 1450]
    traces = runs(*[("search" if i == 6 else "get_weather", t) for i, t in enumerate(tokens)])
    outcome = evaluate("tool_selection", WEATHER, traces, label="weather selection")
    assert outcome.passed
    assert outcome.lines == [
        "tool-selection floor [PASS] weather selection: selection 9/10 (90%), pass^k 90%, tokens 1520 median / 1840 max"
    ]
    assert outcome.targets == {
        "tool_selection.selection_rate": 90,
        "tool_selection.pass_k": 90,
        "tool_selection.selected": 9,
        "tool_selection.runs": 10,
        "tool_selection.tokens_median": 1520,
        "tool_selection.tokens_max": 1840,
    }


def test_the_spec_floor_lines_name_each_failed_condition_and_each_missing_run():
    spec = [("get_weather", 1500)] * 10
    for i in (1, 4, 6, 8):
        spec[i] = ("search", 1500)
    spec[3], spec[5], spec[9] = ("get_weather", 2400), ("get_weather", 3120), ("get_weather", 2100)
    outcome = evaluate("tool_selection", WEATHER, runs(*spec), label="weather selection")
    assert not outcome.passed
    assert outcome.lines == [
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
    assert outcome.breaches == outcome.lines[1:3]


def test_one_run_over_budget_fails_the_floor_even_at_full_selection():
    outcome = evaluate("tool_selection", WEATHER, runs(*[("get_weather", 100)] * 9, ("get_weather", 2001)), label="w")
    assert not outcome.passed
    assert outcome.targets["tool_selection.selection_rate"] == 100
    assert outcome.targets["tool_selection.pass_k"] == 90
    assert outcome.breaches == ["FLOOR w: 1 of 10 runs exceeded the 2000-token budget (worst run 2001 tokens)"]


def test_a_run_exactly_at_the_budget_stays_within_it():
    outcome = evaluate("tool_selection", WEATHER, runs(("get_weather", 2000)))
    assert outcome.passed and outcome.targets["tool_selection.pass_k"] == 100


def test_all_runs_over_budget_give_pass_k_zero():
    outcome = evaluate("tool_selection", WEATHER, runs(*[("get_weather", 5000)] * 3), label="w")
    assert outcome.targets["tool_selection.pass_k"] == 0
    assert outcome.breaches == ["FLOOR w: 3 of 3 runs exceeded the 2000-token budget (worst run 5000 tokens)"]


def test_without_a_budget_tokens_never_fail_the_floor():
    config = {"expected_tool": "get_weather", "min_selection_rate": 0.5}
    outcome = evaluate("tool_selection", config, runs(("get_weather", 10**6), ("search", 5)))
    assert outcome.passed and outcome.targets["tool_selection.pass_k"] == 50


def test_a_run_with_no_recorded_tokens_cannot_meet_a_budget():
    outcome = evaluate("tool_selection", WEATHER, runs(("get_weather", None), ("get_weather", 10)), label="w")
    assert not outcome.passed
    assert outcome.breaches == [
        "FLOOR w: 1 of 2 runs recorded no token usage, so the 2000-token budget cannot be checked"
    ]
    assert outcome.lines[-1] == "  run 1: no token usage recorded"


def test_tokens_are_reported_as_na_and_absent_when_no_run_recorded_them():
    config = {"expected_tool": "get_weather", "min_selection_rate": 1.0}
    outcome = evaluate("tool_selection", config, runs(("get_weather", None)), label="w")
    assert outcome.lines == ["tool-selection floor [PASS] w: selection 1/1 (100%), pass^k 100%, tokens n/a"]
    assert "tool_selection.tokens_median" in outcome.undefined


def test_the_rate_is_compared_exactly_so_seven_of_ten_meets_a_point_seven_floor():
    config = {"expected_tool": "get_weather", "min_selection_rate": 0.7}
    traces = runs(*[("get_weather", 1)] * 7, *[("other", 1)] * 3)
    assert evaluate("tool_selection", config, traces).passed


def test_a_rate_just_below_the_floor_is_never_shown_as_meeting_it():
    config = {"expected_tool": "get_weather", "min_selection_rate": 0.8}
    traces = runs(*[("get_weather", 1)] * 799, *[("other", 1)] * 201)
    outcome = evaluate("tool_selection", config, traces, label="w")
    assert outcome.breaches == [
        "FLOOR w: selection rate 79.9% is below the 80% floor (799 of 1000 runs selected `get_weather`)"
    ]


def test_an_even_number_of_runs_takes_the_mean_of_the_middle_two_as_median():
    outcome = evaluate("tool_selection", WEATHER, runs(("get_weather", 1000), ("get_weather", 1001)))
    assert outcome.targets["tool_selection.tokens_median"] == 1000.5


def test_a_qualified_expected_tool_only_counts_that_server():
    config = {"expected_tool": "weather.get_weather", "min_selection_rate": 1.0}
    assert evaluate("tool_selection", config, [run("weather.get_weather")]).passed
    assert not evaluate("tool_selection", config, [run("other.get_weather")]).passed


def test_a_run_that_called_nothing_says_so():
    config = {"expected_tool": "get_weather", "min_selection_rate": 1.0}
    outcome = evaluate("tool_selection", config, [run()], label="w")
    assert outcome.lines[-1] == "  run 1: did not select `get_weather`, called no tool"


def test_the_floor_has_no_default_gate_but_accepts_expect():
    config = {**WEATHER, "expect": [{"tool_selection.pass_k": {">=": 100}}]}
    outcome = evaluate("tool_selection", config, runs(("get_weather", 1), ("x", 1)))
    assert outcome.default_gate == []
    # the expect: assertion, then the floor (1 of 2 runs selected, below WEATHER's floor) as a failure of its own
    assert [f.target for f in outcome.failures] == ["tool_selection.pass_k", "tool_selection.selection_rate"]


def test_per_run_rows_land_in_the_detail():
    outcome = evaluate("tool_selection", WEATHER, runs(("search", 2500)))
    assert outcome.detail["runs"] == [
        {"run": 1, "selected": False, "tokens": 2500, "over_budget": True, "called": ["search"]}
    ]


@pytest.mark.parametrize(
    "config",
    [
        {"min_selection_rate": 0.8},
        {"expected_tool": "x"},
        {"expected_tool": "x", "min_selection_rate": 1.5},
        {"expected_tool": "x", "min_selection_rate": 0.5, "max_total_tokens": 0},
        {"expected_tool": "", "min_selection_rate": 0.5},
    ],
)
def test_invalid_floors_are_rejected(config):
    with pytest.raises(ValidationError):
        ToolSelectionConfig.model_validate(config)


def test_a_committed_trace_file_reproduces_the_spec_breach():
    from pathlib import Path

    from mcptest.records.trace import load_traces

    traces = load_traces(Path(__file__).parent / "fixtures" / "weather_runs.json")
    outcome = evaluate("tool_selection", WEATHER, traces, label="weather selection")
    assert outcome.lines[:3] == [
        "tool-selection floor [FAIL] weather selection: selection 6/10 (60%), pass^k 30%, "
        "tokens 1500 median / 3120 max",
        "FLOOR weather selection: selection rate 60% is below the 80% floor (6 of 10 runs selected `get_weather`)",
        "FLOOR weather selection: 3 of 10 runs exceeded the 2000-token budget (worst run 3120 tokens)",
    ]
