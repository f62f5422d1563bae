"""Invariants of the path gates (trajectory, workflow order, golden path, stability), on generated traces."""

from __future__ import annotations

import itertools

import pytest

hypothesis = pytest.importorskip("hypothesis")  # a dev dependency: see pyproject's [dev] extra
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from mcptest.gates.golden_path import walk  # noqa: E402
from mcptest.gates.sequence import MODES, align, step_holds  # noqa: E402
from mcptest.gates.stability import SUB_SCORES, measure  # noqa: E402
from mcptest.gates.workflow import order_holds  # noqa: E402
from mcptest.records.trace import ToolCall  # noqa: E402
from mcptest.suite.blocks.trajectory import Step  # noqa: E402

TOOLS = ["a", "b", "c", "s.a"]
calls_st = st.lists(
    st.builds(
        lambda tool, q, error: ToolCall(
            server=tool.rpartition(".")[0] or None, name=tool.rpartition(".")[2], args={"q": q}, is_error=error
        ),
        st.sampled_from(TOOLS),
        st.integers(0, 2),
        st.booleans(),
    ),
    max_size=7,
)
steps_st = st.lists(
    st.builds(
        lambda tool, q: Step.model_validate({"tool": tool, "args": {} if q is None else {"q": q}}),
        st.sampled_from(TOOLS),
        st.none() | st.integers(0, 2),
    ),
    max_size=5,
)


def itself(calls: list[ToolCall]) -> list[Step]:
    return [Step.model_validate({"tool": c.id, "args": {"q": {"exact": c.args["q"]}}}) for c in calls]


@settings(max_examples=300, deadline=None)
@given(calls_st)
def test_a_trajectory_always_matches_itself_in_every_mode(calls):
    for mode in MODES:
        a = align(itself(calls), calls, mode)
        assert a.matched and a.matched_steps == len(calls), mode


@settings(max_examples=500, deadline=None)
@given(steps_st, calls_st)
def test_a_looser_mode_is_never_stricter(steps, calls):
    got = {mode: align(steps, calls, mode) for mode in MODES}
    assert got["strict"].matched <= got["subsequence"].matched <= got["subset"].matched
    assert got["strict"].matched <= got["unordered"].matched <= got["subset"].matched
    counts = {mode: a.matched_steps for mode, a in got.items()}
    assert counts["strict"] <= counts["subsequence"] <= counts["subset"] == counts["unordered"]


@settings(max_examples=300, deadline=None)
@given(steps_st, calls_st)
def test_subsequence_and_subset_count_the_best_possible_alignment(steps, calls):
    ok = [[step_holds(s, c) for c in calls] for s in steps]
    best_in_order = max(
        (
            len(chosen)
            for k in range(len(steps) + 1)
            for chosen in itertools.combinations(range(len(steps)), k)
            for positions in itertools.combinations(range(len(calls)), k)
            if all(ok[i][j] for i, j in zip(chosen, positions, strict=True))
        ),
        default=0,
    )
    assert align(steps, calls, "subsequence").matched_steps == best_in_order
    a = align(steps, calls, "subset")
    assert all(ok[i][j] for i, j in enumerate(a.pairs) if j is not None)
    assert len({j for j in a.pairs if j is not None}) == a.matched_steps


def _old_order_holds(calls, order, match):
    """workflow's order check as it was before it shared trajectory's matching (names only)."""
    names = [c.name for c in calls]
    if match == "subset":
        return set(order) <= set(names)
    if match == "strict":
        listed = [n for n in names if n in order]
        collapsed = [n for i, n in enumerate(listed) if i == 0 or listed[i - 1] != n]
        return collapsed == list(order)
    it = iter(names)
    return all(step in it for step in order)


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from(["a", "b", "c", "d"]), unique=True, max_size=4), calls_st)
def test_workflow_order_on_the_shared_matching_agrees_with_the_old_rules(order, calls):
    for match in ("subsequence", "strict", "subset"):
        assert order_holds(calls, order, match) == _old_order_holds(calls, order, match), match


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(TOOLS), min_size=1, max_size=4), calls_st)
def test_every_call_either_advances_the_golden_path_or_is_extra(golden, calls):
    w = walk(golden, calls)
    assert w.reached + len(w.extra) == len(calls)
    assert set(w.backtracks) <= set(w.extra)
    assert 0 <= w.efficiency(len(golden)) <= 1


@settings(max_examples=300, deadline=None)
@given(calls_st, st.none() | st.integers(0, 5))
def test_stability_sub_scores_stay_within_0_and_100(calls, turns):
    from mcptest.records.trace import Trace

    scores = measure(Trace(tool_calls=calls, turns=turns)).scores()
    assert set(scores) == set(SUB_SCORES)
    assert all(0 <= v <= 100 for v in scores.values())
