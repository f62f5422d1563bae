"""`trajectory:` — four match modes with per-argument matchers, hand-computed, and per-position diffs."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from mcptest.gates.sequence import align
from mcptest.records.trace import Trace
from mcptest.suite.blocks.trajectory import Step, TrajectoryConfig
from tests.gates.build import call, evaluate, run

SEARCH = {"tool": "search", "args": {"query": {"icontains": "revenue"}}}
FETCH = {"tool": "fetch", "args": {"url": {"regex": "^https://"}}}


def s(q: str = "Q3 revenue") -> Any:
    return call("search", {"query": q})


def f(url: str = "https://example.test/q3") -> Any:
    return call("fetch", {"url": url})


def targets(mode: str, steps: list[dict[str, Any]], *calls: Any) -> dict[str, int | float]:
    return evaluate("trajectory", {"mode": mode, "steps": steps}, [run(*calls)]).targets


@pytest.mark.parametrize(
    ("calls", "expected"),
    [
        ([s(), f()], {"strict": (1, 2), "subsequence": (1, 2), "subset": (1, 2), "unordered": (1, 2)}),
        ([f(), s()], {"strict": (0, 0), "subsequence": (0, 1), "subset": (1, 2), "unordered": (1, 2)}),
        ([s(), call("other"), f()], {"strict": (0, 1), "subsequence": (1, 2), "subset": (1, 2), "unordered": (0, 2)}),
        ([s(), f("ftp://x")], {"strict": (0, 1), "subsequence": (0, 1), "subset": (0, 1), "unordered": (0, 1)}),
        ([s("weather"), f()], {"strict": (0, 1), "subsequence": (0, 1), "subset": (0, 1), "unordered": (0, 1)}),
        ([s()], {"strict": (0, 1), "subsequence": (0, 1), "subset": (0, 1), "unordered": (0, 1)}),
    ],
    ids=["exact", "swapped", "one call between", "bad url", "bad query", "one step missing"],
)
def test_each_mode_by_hand(calls: list[Any], expected: dict[str, tuple[int, int]]) -> None:
    for mode, (matched, steps) in expected.items():
        t = targets(mode, [SEARCH, FETCH], *calls)
        assert (t["trajectory.matched"], t["trajectory.matched_steps"]) == (matched, steps), mode
        assert t["trajectory.expected_steps"] == 2


def test_repeats_of_an_interchangeable_step_need_their_own_steps_in_strict_and_unordered() -> None:
    calls = [s(), s("revenue again"), f()]
    assert {m: targets(m, [SEARCH, FETCH], *calls)["trajectory.matched"] for m in ("strict", "unordered")} == {
        "strict": 0,
        "unordered": 0,
    }
    assert {m: targets(m, [SEARCH, FETCH], *calls)["trajectory.matched"] for m in ("subsequence", "subset")} == {
        "subsequence": 1,
        "subset": 1,
    }
    assert targets("unordered", [SEARCH, SEARCH, FETCH], *calls)["trajectory.matched"] == 1
    assert targets("subset", [SEARCH, SEARCH, FETCH], s(), f())["trajectory.matched_steps"] == 2


def test_a_step_whose_arguments_fail_can_still_be_matched_by_a_later_call_except_in_strict() -> None:
    calls = [s(), f("ftp://x"), f()]
    assert targets("subsequence", [SEARCH, FETCH], *calls)["trajectory.matched"] == 1
    assert targets("subset", [SEARCH, FETCH], *calls)["trajectory.matched"] == 1
    assert targets("strict", [SEARCH, FETCH], *calls)["trajectory.matched_steps"] == 1
    assert targets("unordered", [SEARCH, FETCH], *calls)["trajectory.matched_steps"] == 2


def test_an_empty_trace_fails_every_mode_and_empty_steps_match_it_in_every_mode() -> None:
    for mode in ("strict", "subsequence", "subset", "unordered"):
        assert targets(mode, [SEARCH]) == {
            "trajectory.matched": 0,
            "trajectory.matched_runs": 0,
            "trajectory.matched_steps": 0,
            "trajectory.expected_steps": 1,
        }
        assert targets(mode, [])["trajectory.matched"] == 1
    assert targets("subsequence", [], s())["trajectory.matched"] == 1
    assert targets("strict", [], s())["trajectory.matched"] == 0


def test_more_calls_than_steps_fail_strict_and_unordered_only() -> None:
    calls = [s(), f(), call("summarize")]
    assert [targets(m, [SEARCH, FETCH], *calls)["trajectory.matched"] for m in ("strict", "unordered")] == [0, 0]
    assert [targets(m, [SEARCH, FETCH], *calls)["trajectory.matched"] for m in ("subsequence", "subset")] == [1, 1]


def test_subsequence_counts_the_most_steps_in_order_not_the_first_greedy_ones() -> None:
    steps = [{"tool": "a"}, {"tool": "b"}, {"tool": "c"}]
    assert targets("subsequence", steps, call("b"), call("c"), call("a"))["trajectory.matched_steps"] == 2


def test_a_plain_value_is_exact_a_path_may_go_deeper_and_an_absent_argument_fails() -> None:
    step = Step.model_validate({"tool": "book", "args": {"city": "Paris", "when.day": {">=": 3}}})
    assert step.args["city"].kind == "exact"
    ok = call("book", {"city": "Paris", "when": {"day": 4}})
    assert align([step], [ok], "strict").matched
    assert not align([step], [call("book", {"city": "Paris"})], "strict").matched
    assert not align([step], [call("book", {"city": "paris", "when": {"day": 4}})], "strict").matched


def test_tool_ids_match_qualified_or_bare() -> None:
    calls = [call("brave.search", {"query": "revenue"})]
    assert targets("strict", [{"tool": "search"}], *calls)["trajectory.matched"] == 1
    assert targets("strict", [{"tool": "brave.search"}], *calls)["trajectory.matched"] == 1
    assert targets("strict", [{"tool": "google.search"}], *calls)["trajectory.matched"] == 0


def test_runs_fold_matched_only_when_every_run_matched_and_sum_the_steps() -> None:
    config = {"mode": "subsequence", "steps": [SEARCH, FETCH]}
    outcome = evaluate("trajectory", config, [run(s(), f()), run(f(), s()), run(s(), call("x"), f())], label="t")
    assert outcome.targets == {
        "trajectory.matched": 0,
        "trajectory.matched_runs": 2,
        "trajectory.matched_steps": 5,
        "trajectory.expected_steps": 6,
    }
    assert outcome.lines == [
        "trajectory [FAIL] t: matched 2 of 3 runs (subsequence), 5 of 6 steps",
        "  trajectory.matched: 0 is not >= 1",
        "run 2: step 2: expected fetch(url ~ ^https://), got no call to fetch after call 2",
    ]


def test_the_report_names_each_position_that_did_not_match() -> None:
    calls = [s(), f("ftp://files.example.test/q3.pdf"), call("summarize", {"text": "Q3 revenue was 4.2M."})]
    outcome = evaluate("trajectory", {"steps": [SEARCH, FETCH]}, [run(*calls)], label="research then answer")
    assert outcome.passed is False
    assert outcome.default_gate == ["trajectory.matched >= 1"]
    assert outcome.lines == [
        "trajectory [FAIL] research then answer: matched 0 of 1 run (strict), 1 of 2 steps",
        "  trajectory.matched: 0 is not >= 1",
        'step 2: expected fetch(url ~ ^https://), got fetch(url="ftp://files.example.test/q3.pdf")',
        '  url: "ftp://files.example.test/q3.pdf" does not match /^https:///',
        'call 3: unexpected summarize(text="Q3 revenue was 4.2M.") (strict allows no other call)',
    ]


def test_diffs_for_the_looser_modes_name_the_nearest_call_or_its_absence() -> None:
    long_url = "ftp://" + "x" * 60
    out = evaluate("trajectory", {"mode": "subset", "steps": [SEARCH, FETCH]}, [run(f(long_url))])
    assert out.lines[2:] == [
        'step 1: expected search(query icontains "revenue"), got no call to search',
        f'step 2: expected fetch(url ~ ^https://), got fetch(url="{long_url[:39]}…")',
        f'  url: "{long_url}" does not match /^https:///',
    ]
    out = evaluate("trajectory", {"mode": "unordered", "steps": [FETCH]}, [run(call("search"), f())])
    assert out.lines[2:] == ['call 1: unexpected search(q="x") (unordered allows no other call)']
    out = evaluate("trajectory", {"steps": [FETCH, SEARCH]}, [run(f())])
    assert out.lines[2:] == ['step 2: expected search(query icontains "revenue"), got nothing']


def test_an_expect_list_replaces_the_default_gate() -> None:
    config = {"mode": "subsequence", "steps": [SEARCH, FETCH], "expect": [{"trajectory.matched_steps": {">=": 1}}]}
    outcome = evaluate("trajectory", config, [run(s())])
    assert outcome.passed and outcome.default_gate == []


def test_a_bad_mode_or_matcher_is_a_validation_error() -> None:
    with pytest.raises(ValidationError, match="strict"):
        TrajectoryConfig.model_validate({"mode": "exact", "steps": []})
    with pytest.raises(ValidationError, match="invalid regex"):
        TrajectoryConfig.model_validate({"steps": [{"tool": "a", "args": {"x": {"regex": "("}}}]})
    with pytest.raises(ValidationError, match="malformed target path"):
        TrajectoryConfig.model_validate({"steps": [{"tool": "a", "args": {"x..y": 1}}]})


def test_trajectory_reads_failed_calls_too() -> None:
    calls = [s(), call("fetch", {"url": "https://a"}, error=True)]
    assert targets("strict", [SEARCH, FETCH], *calls)["trajectory.matched"] == 1
    assert Trace(tool_calls=calls).tool_calls[1].is_error


def test_strict_names_the_wrong_tool_at_each_position() -> None:
    outcome = evaluate("trajectory", {"steps": [SEARCH, FETCH]}, [run(f("https://a"), s("revenue"))])
    assert outcome.lines[2:] == [
        'step 1: expected search(query icontains "revenue"), got fetch(url="https://a")',
        "  fetch is not search",
        'step 2: expected fetch(url ~ ^https://), got search(query="revenue")',
        "  search is not fetch",
    ]
