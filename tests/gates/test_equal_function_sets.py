"""Selection F1 over equal-function sets: spec 000's counting rule, examples and edge cases."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from mcptest.gates.equal_function_sets import EqualFunctionSetsConfig
from tests.gates.build import call, classes, evaluate, run

SPEC_CLASSES = classes(search=["brave.web_search", "google.search"], fetch=["http.get"])


def scores(outcome):
    t = outcome.targets
    return t["tool_selection.precision"], t["tool_selection.recall"], t["tool_selection.f1"]


def test_the_spec_run_that_reaches_both_classes_scores_100_everywhere():
    outcome = evaluate("equal_function_sets", {"classes": SPEC_CLASSES}, [run("brave.web_search", "http.get")])
    assert scores(outcome) == (100, 100, 100)
    assert (outcome.detail["tp"], outcome.detail["fp"], outcome.detail["fn"]) == (2, 0, 0)


def test_the_spec_run_with_a_miss_and_an_extra_scores_50_and_names_both():
    outcome = evaluate(
        "equal_function_sets", {"classes": SPEC_CLASSES}, [run("google.search", "shell.exec")], label="r"
    )
    assert scores(outcome) == (50, 50, 50)
    assert outcome.detail["missed_classes"] == {"fetch": 1}
    assert outcome.detail["unexpected_tools"] == ["shell.exec"]
    assert outcome.lines == [
        "selection F1 [PASS] r: F1 50, precision 50, recall 50 (1 TP, 1 FP, 1 FN); missed class: fetch; "
        "unexpected tool: shell.exec"
    ]


@pytest.mark.parametrize(
    ("declared", "calls", "expected"),
    [
        pytest.param([], [], (100, 100, 100), id="no classes and no calls is vacuously perfect"),
        pytest.param([], ["a.x"], (0, 0, 0), id="no classes but a call: zero recall denominator gives 0"),
        pytest.param(classes(s=["a.x"]), [], (0, 0, 0), id="a class but no calls: zero precision denominator gives 0"),
        pytest.param(classes(s=["a.x", "b.x"]), ["a.x", "b.x", "a.x"], (100, 100, 100), id="repeats count once"),
        pytest.param(classes(s=["a.x"]), ["a.y", "a.y"], (0, 0, 0), id="every unmatched call is a false positive"),
        pytest.param(classes(s=["a.x"], f=["a.y"]), ["a.x", "z.z", "z.z"], (33, 50, 40), id="two FPs, one FN"),
    ],
)
def test_counting_edge_cases(declared, calls, expected):
    assert scores(evaluate("equal_function_sets", {"classes": declared}, [run(*calls)])) == expected


def test_repeating_a_matched_class_neither_inflates_nor_penalizes():
    once = evaluate("equal_function_sets", {"classes": SPEC_CLASSES}, [run("google.search", "shell.exec")])
    again = evaluate(
        "equal_function_sets",
        {"classes": SPEC_CLASSES},
        [run("google.search", "brave.web_search", "google.search", "shell.exec")],
    )
    assert scores(once) == scores(again)


def test_a_qualified_member_keeps_two_servers_with_the_same_tool_name_apart():
    outcome = evaluate("equal_function_sets", {"classes": classes(search=["brave.search"])}, [run("google.search")])
    assert scores(outcome) == (0, 0, 0)
    assert outcome.detail["unexpected_tools"] == ["google.search"]


def test_a_bare_member_matches_the_tool_on_any_server_and_without_one():
    declared = {"classes": classes(search=["search"])}
    for tool_id in ("brave.search", "google.search", "search"):
        assert scores(evaluate("equal_function_sets", declared, [run(tool_id)])) == (100, 100, 100)


def test_one_call_can_reach_every_class_that_lists_its_tool():
    outcome = evaluate("equal_function_sets", {"classes": classes(a=["t.x"], b=["x"])}, [run("t.x")])
    assert scores(outcome) == (100, 100, 100)


def test_runs_are_micro_averaged_by_summing_counts_before_dividing():
    traces = [run("brave.web_search", "http.get"), run("google.search", "shell.exec"), run("shell.exec", "x.y")]
    outcome = evaluate("equal_function_sets", {"classes": SPEC_CLASSES}, traces)
    # TP 2+1+0 = 3, FP 0+1+2 = 3, FN 0+1+2 = 3: the mean of the per-run F1s (100, 50, 0) happens to agree;
    # precision is 3/6, recall 3/6.
    assert (outcome.detail["tp"], outcome.detail["fp"], outcome.detail["fn"]) == (3, 3, 3)
    assert scores(outcome) == (50, 50, 50)
    skewed = evaluate(
        "equal_function_sets", {"classes": SPEC_CLASSES}, [run("google.search", "http.get"), run(*["z.z"] * 6)]
    )
    # micro: TP 2, FP 6, FN 2 -> precision 25, recall 50, F1 4/12 = 33 (a macro mean of F1s would say 50)
    assert scores(skewed) == (25, 50, 33)


def test_run_order_does_not_change_the_aggregate():
    traces = [run("google.search"), run("http.get", "q.q"), run()]
    forward = evaluate("equal_function_sets", {"classes": SPEC_CLASSES}, traces)
    backward = evaluate("equal_function_sets", {"classes": SPEC_CLASSES}, traces[::-1])
    assert forward.targets == backward.targets


def test_a_multi_run_line_counts_how_many_runs_missed_each_class():
    outcome = evaluate(
        "equal_function_sets", {"classes": SPEC_CLASSES}, [run("google.search"), run("http.get")], label="x"
    )
    assert outcome.lines[0].endswith(
        "(2 TP, 0 FP, 2 FN over 2 runs); missed classes: search (1 of 2 runs), fetch (1 of 2 runs)"
    )


def test_the_default_gate_is_f1_at_least_50_when_expect_is_omitted_or_empty():
    for config in ({"classes": SPEC_CLASSES}, {"classes": SPEC_CLASSES, "expect": []}):
        failing = evaluate("equal_function_sets", config, [run("shell.exec", "google.search", "x.y")])
        assert failing.default_gate == ["tool_selection.f1 >= 50"]
        assert not failing.passed
        assert [f.target for f in failing.failures] == ["tool_selection.f1"]


def test_an_expect_list_replaces_the_default_gate_in_both_spellings():
    expect = [
        {"tool_selection.f1": {">=": 80}},
        {"target": "tool_selection.recall", "matcher": {"schema": {"minimum": 100}}},
    ]
    outcome = evaluate(
        "equal_function_sets",
        {"classes": SPEC_CLASSES, "expect": expect},
        [run("google.search", "shell.exec")],
        label="r",
    )
    assert outcome.default_gate == []
    assert [f.target for f in outcome.failures] == ["tool_selection.f1", "tool_selection.recall"]
    assert outcome.lines[0].startswith("selection F1 [FAIL] r:")
    assert outcome.lines[1] == "  tool_selection.f1: 50 is not >= 80"


def test_an_unknown_target_fails_with_the_list_of_targets():
    outcome = evaluate(
        "equal_function_sets",
        {"classes": SPEC_CLASSES, "expect": [{"tool_selection.f2": {">=": 1}}]},
        [run("http.get")],
    )
    assert "tool_selection.f2 is not a target of equal_function_sets" in outcome.failures[0].message
    assert "tool_selection.f1" in outcome.failures[0].message


@pytest.mark.parametrize(
    "config",
    [
        pytest.param({}, id="classes is required"),
        pytest.param({"classes": [{"name": "a", "members": []}]}, id="a class needs members"),
        pytest.param({"classes": classes(a=["x"]) * 2}, id="class names are unique"),
        pytest.param({"classes": [], "clases": []}, id="unknown keys are rejected"),
    ],
)
def test_invalid_blocks_are_rejected(config):
    with pytest.raises(ValidationError):
        EqualFunctionSetsConfig.model_validate(config)


def test_a_gate_over_no_runs_is_a_caller_bug():
    with pytest.raises(ValueError, match="at least one run"):
        evaluate("equal_function_sets", {"classes": SPEC_CLASSES}, [])


def test_a_call_without_a_server_is_identified_by_its_bare_name():
    assert call("search").id == "search"
    assert call("brave.search").id == "brave.search"
