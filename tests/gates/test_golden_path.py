"""`golden_path:` — reached, efficiency, extra calls, backtracks and repeats, hand-computed."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from mcptest.suite.blocks.golden_path import GoldenPathConfig
from tests.gates.build import call, evaluate, run

GOLDEN = {"calls": ["search", "fetch", "summarize"]}


def figures(*tools: str) -> tuple[int | float, ...]:
    t = evaluate("golden_path", GOLDEN, [run(*tools)]).targets
    return tuple(t[f"golden_path.{k}"] for k in ("reached", "efficiency", "extra", "backtracks", "repeats"))


@pytest.mark.parametrize(
    ("tools", "expected"),
    [
        (["search", "fetch", "summarize"], (1, 100, 0, 0, 0)),
        (["search", "search", "fetch", "search", "summarize", "translate"], (1, 50, 3, 1, 1)),
        (["list", "search", "fetch", "summarize"], (1, 75, 1, 0, 0)),
        (["search", "fetch", "fetch", "summarize"], (1, 75, 1, 0, 1)),
        (["search", "fetch", "search", "fetch", "summarize"], (1, 60, 2, 1, 0)),
        (["search", "summarize", "fetch"], (0, 0, 1, 0, 0)),
        (["fetch", "search"], (0, 0, 1, 0, 0)),
        ([], (0, 0, 0, 0, 0)),
        (["search", "fetch", "summarize", "summarize"], (1, 75, 1, 0, 1)),
        (["search", "fetch", "summarize", "search"], (1, 75, 1, 1, 0)),
    ],
    ids=[
        "golden",
        "the worked example",
        "one wasted step first",
        "a repeat of the furthest step is not a backtrack",
        "back to search after fetch",
        "out of order: not reached",
        "started at the wrong end",
        "empty trace",
        "a call after the goal is extra",
        "a backtrack after the goal",
    ],
)
def test_every_figure_by_hand(tools: list[str], expected: tuple[int, ...]) -> None:
    assert figures(*tools) == expected


def test_efficiency_rounds_half_up_and_an_unreached_run_scores_zero() -> None:
    assert figures("search", "x", "fetch", "y", "z", "w", "v", "summarize")[1] == 38  # 3/8 = 37.5 -> 38
    assert figures("search", "fetch", "x", "y", "z", "w", "v", "q", "r")[1] == 0


def test_a_failed_call_does_not_advance_the_path_it_is_extra() -> None:
    calls = [call("search"), call("fetch", error=True), call("fetch"), call("summarize")]
    t = evaluate("golden_path", GOLDEN, [run(*calls)]).targets
    assert (t["golden_path.reached"], t["golden_path.efficiency"], t["golden_path.extra"]) == (1, 75, 1)
    assert t["golden_path.repeats"] == 1
    only_failures = [call("search", error=True), call("fetch", error=True), call("summarize", error=True)]
    assert evaluate("golden_path", GOLDEN, [run(*only_failures)]).targets["golden_path.reached"] == 0


def test_a_repeated_golden_step_waits_for_both_calls() -> None:
    t = evaluate("golden_path", {"calls": ["search", "search", "fetch"]}, [run("search", "search", "fetch")]).targets
    assert (t["golden_path.reached"], t["golden_path.efficiency"], t["golden_path.extra"]) == (1, 100, 0)
    assert t["golden_path.repeats"] == 1


def test_qualified_golden_steps_match_that_server_only() -> None:
    calls = [call("brave.search"), call("http.fetch"), call("llm.summarize")]
    golden = {"calls": ["brave.search", "fetch", "summarize"]}
    assert evaluate("golden_path", golden, [run(*calls)]).targets["golden_path.reached"] == 1
    golden = {"calls": ["google.search", "fetch", "summarize"]}
    assert evaluate("golden_path", golden, [run(*calls)]).targets["golden_path.reached"] == 0


def test_runs_fold_reached_over_every_run_efficiency_as_the_mean_and_counts_summed() -> None:
    runs = [run("search", "fetch", "summarize"), run("search", "x", "fetch", "summarize"), run("search")]
    outcome = evaluate("golden_path", GOLDEN, runs, label="g")
    assert outcome.targets == {
        "golden_path.reached": 0,
        "golden_path.reached_runs": 2,
        "golden_path.efficiency": 58,  # (1 + 3/4 + 0) / 3 = 7/12 = 58.3
        "golden_path.extra": 1,
        "golden_path.backtracks": 0,
        "golden_path.repeats": 0,
    }
    assert outcome.lines == [
        "golden path [FAIL] g: reached in 2 of 3 runs, efficiency 58, 1 extra call, 0 backtracks, 0 repeats",
        "  golden_path.reached: 0 is not >= 1",
        "EXTRA run 2: calls 2:x",
        "MISSING run 3: never reached fetch → summarize (reached 1 golden step)",
    ]


def test_the_worked_example_passes_the_default_gate_at_exactly_50() -> None:
    tools = ["search", "search", "fetch", "search", "summarize", "translate"]
    outcome = evaluate("golden_path", GOLDEN, [run(*tools)], label="research then answer")
    assert outcome.passed
    assert outcome.default_gate == ["golden_path.reached >= 1", "golden_path.efficiency >= 50"]
    assert outcome.lines == [
        "golden path [PASS] research then answer: reached in 1 of 1 run, efficiency 50, 3 extra calls, "
        "1 backtrack, 1 repeat",
        "EXTRA calls 2:search, 4:search, 6:translate",
        "BACKTRACKS calls 4:search",
        "REPEATS calls 2:search",
    ]


def test_an_empty_golden_path_is_rejected() -> None:
    with pytest.raises(ValidationError):
        GoldenPathConfig.model_validate({"calls": []})
