"""`stability:` — thrash, failure loops, progress, recovery and drift flags, hand-computed."""

from __future__ import annotations

from typing import Any

from mcptest.gates.stability import call_tokens, measure
from mcptest.records.trace import ToolCall, Trace
from tests.gates.build import call, evaluate, run


def c(name: str, q: str = "x", *, error: bool = False, text: str = "") -> ToolCall:
    return call(name, {"q": q}, error=error, content=[{"type": "text", "text": text}] if text else [])


def scores(*calls: ToolCall, **trace: Any) -> dict[str, int | float]:
    t = evaluate("stability", {}, [Trace(tool_calls=list(calls), **trace)]).targets
    return {k.removeprefix("stability."): v for k, v in t.items()}


def test_a_steady_run_scores_100_everywhere() -> None:
    assert scores(c("search", "a"), c("fetch", "u"), c("summarize", "t")) == {
        "thrash": 100,
        "failure_loop": 100,
        "progress": 100,
        "recovery": 100,
        "score": 100,
        "drift_flags": 0,
    }


def test_ping_pong_back_to_an_identical_call_is_thrash_and_new_arguments_are_not() -> None:
    assert scores(c("search", "a"), c("fetch", "u"), c("search", "b"), c("fetch", "v"))["thrash"] == 100
    # calls 3 and 4 return to an identical call two back: 2 of 4 calls thrash -> 50
    assert scores(c("search", "a"), c("fetch", "u"), c("search", "a"), c("fetch", "u"))["thrash"] == 50
    # a repeat right after (A, A) is not ping-pong
    assert scores(c("search", "a"), c("search", "a"), c("search", "a"))["thrash"] == 100


def test_a_failed_call_right_after_a_failed_call_to_the_same_tool_is_a_loop_call() -> None:
    calls = [c("create", "1", error=True), c("create", "2", error=True), c("create", "3", error=True), c("create")]
    got = scores(*calls)
    assert got["failure_loop"] == 50  # 2 of 4
    assert got["recovery"] == 100
    assert got["steps_to_recover"] == 3
    interrupted = [c("create", "1", error=True), c("list"), c("create", "2", error=True)]
    assert scores(*interrupted)["failure_loop"] == 100


def test_recovery_is_per_tool_that_failed_and_steps_to_recover_is_toolmisusebench_time_to_recovery() -> None:
    calls = [c("a", error=True), c("b", error=True), c("c"), c("a")]
    got = scores(*calls)
    assert got["recovery"] == 50  # a recovered, b never did
    assert got["steps_to_recover"] == 2  # first failure at call 1, next success at call 3
    assert "steps_to_recover" not in scores(c("a"), c("b"))


def test_progress_weighs_each_call_by_its_tokens() -> None:
    big = "word " * 40
    calls = [c("search", "a", text=big), c("search", "a", text=big), c("fetch", "u", error=True)]
    weights = [call_tokens(x) for x in calls]
    got = scores(*calls)
    assert got["progress"] == round(100 * weights[0] / sum(weights))
    assert weights[0] == weights[1] > weights[2]


def test_a_run_of_one_turn_or_under_two_calls_scores_100_and_adds_nothing_to_the_pools() -> None:
    flaky = [c("a", error=True), c("a", error=True), c("a", error=True)]
    assert scores(*flaky, turns=1)["score"] == 100
    assert scores(c("a", error=True))["score"] == 100
    assert scores()["drift_flags"] == 0
    assert not measure(Trace()).measured
    assert scores(*flaky, turns=4)["failure_loop"] == 33


def test_drift_flags_count_sub_scores_below_the_threshold_per_run_and_pools_sum_the_runs() -> None:
    thrashing = run(c("a", "1"), c("b", "1"), c("a", "1"), c("b", "1"), c("a", "1"), c("b", "1"))
    steady = run(c("a", "1"), c("b", "2"), c("c", "3"), c("d", "4"), c("e", "5"), c("f", "6"))
    outcome = evaluate("stability", {"threshold": 50}, [steady, thrashing, run(c("x"))], label="s")
    assert outcome.targets["stability.thrash"] == 67  # 4 thrash calls of 12 pooled (the 1-call run adds nothing)
    assert outcome.targets["stability.progress"] == 67  # 8 of 12 equal-weight calls made progress
    assert outcome.targets["stability.score"] == 67  # the lowest pooled sub-score
    assert outcome.targets["stability.drift_flags"] == 2  # run 2: thrash 33 and progress 33 (two of six progressed)
    assert outcome.detail["runs"][1]["flags"] == ["thrashing", "stalled"]
    assert outcome.lines[-1] == "DRIFT run 2: thrashing (thrash 33), stalled (progress 33)"
    assert outcome.passed is False
    lenient = evaluate("stability", {"threshold": 30}, [steady, thrashing])
    assert lenient.targets["stability.drift_flags"] == 0


def test_the_summary_line_names_every_sub_score() -> None:
    outcome = evaluate("stability", {}, [run(c("a"), c("b"))], label="steady")
    assert outcome.lines == [
        "stability [PASS] steady: score 100 (thrash 100, failure loop 100, progress 100, recovery 100), 0 drift flags"
    ]
    assert outcome.default_gate == ["stability.drift_flags <= 0"]


def test_the_documented_example() -> None:
    failing = [call("c", error=True), call("c", error=True)]
    outcome = evaluate("stability", {}, [run("a", "b", "a", "b", *failing, "c")], label="flaky agent")
    assert outcome.lines == [
        "stability [FAIL] flaky agent: score 43 (thrash 71, failure loop 86, progress 43, recovery 100), 1 drift flag",
        "  stability.drift_flags: 1 is not <= 0",
        "DRIFT stalled (progress 43)",
    ]
