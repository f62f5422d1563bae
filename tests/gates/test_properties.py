"""Invariants of the gates, checked on generated traces."""

from __future__ import annotations

import pytest

hypothesis = pytest.importorskip("hypothesis")  # a dev dependency: see pyproject's [dev] extra
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from mcptest.gates.distractors import certified_percent  # noqa: E402
from mcptest.gates.equal_function_sets import FunctionClass, Selection, score  # noqa: E402
from mcptest.records.trace import ToolCall, Trace  # noqa: E402

TOOL_IDS = ["a.x", "a.y", "b.x", "b.z", "x", "c.w"]
tool_ids = st.sampled_from(TOOL_IDS)
classes_st = st.lists(
    st.builds(
        lambda i, m: FunctionClass(name=f"c{i}", members=m), st.integers(), st.lists(tool_ids, min_size=1, max_size=3)
    ),
    max_size=4,
    unique_by=lambda c: c.name,
)
runs_st = st.lists(st.lists(tool_ids, max_size=8), min_size=1, max_size=5)


def trace(ids: list[str]) -> Trace:
    calls = []
    for tool_id in ids:
        server, _, name = tool_id.rpartition(".")
        calls.append(ToolCall(server=server or None, name=name))
    return Trace(tool_calls=calls)


@settings(max_examples=200, deadline=None)
@given(classes_st, runs_st)
def test_percents_stay_within_0_and_100_and_recall_never_exceeds_100(declared, runs):
    precision, recall, f1 = score(declared, [trace(r) for r in runs]).percents()
    assert all(0 <= p <= 100 for p in (precision, recall, f1))


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 50), st.integers(0, 50), st.integers(0, 50))
def test_f1_is_symmetric_in_precision_and_recall(tp, fp, fn):
    from mcptest.gates.equal_function_sets import RunSelection

    def selection(tp: int, fp: int, fn: int) -> Selection:
        return Selection([RunSelection({f"c{i}": "t" for i in range(tp)}, ["m"] * fn, ["u"] * fp)])

    p1, r1, f1 = selection(tp, fp, fn).percents()
    p2, r2, f2 = selection(tp, fn, fp).percents()
    assert (p1, r1, f1) == (r2, p2, f2)
    assert min(p1, r1) <= f1 <= max(p1, r1) or tp + fp + fn == 0


@settings(max_examples=200, deadline=None)
@given(classes_st, runs_st, st.data())
def test_repeating_a_matched_class_call_never_changes_the_score(declared, runs, data):
    before = score(declared, [trace(r) for r in runs]).percents()
    matched = [
        (i, j)
        for i, r in enumerate(runs)
        for j, tool_id in enumerate(r)
        if any(tool_id in c.members or tool_id.rpartition(".")[2] in c.members for c in declared)
    ]
    if matched:
        i, j = data.draw(st.sampled_from(matched))
        runs = [list(r) for r in runs]
        runs[i].insert(data.draw(st.integers(j + 1, len(runs[i]))), runs[i][j])
    assert score(declared, [trace(r) for r in runs]).percents() == before


@settings(max_examples=200, deadline=None)
@given(classes_st, runs_st, st.randoms())
def test_the_aggregate_does_not_depend_on_run_order(declared, runs, rnd):
    shuffled = list(runs)
    rnd.shuffle(shuffled)
    assert (
        score(declared, [trace(r) for r in runs]).percents() == score(declared, [trace(r) for r in shuffled]).percents()
    )


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 200).flatmap(lambda n: st.tuples(st.integers(0, n), st.just(n))))
def test_the_certified_floor_never_exceeds_the_observed_success_rate(pair):
    successes, n = pair
    assert certified_percent(successes, n) <= successes * 100 / n
    if successes < n:
        assert certified_percent(successes, n) <= certified_percent(successes + 1, n)
