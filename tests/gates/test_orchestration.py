"""The five orchestration diagnostics and name-free discovery: spec 000's examples and edge cases."""

from __future__ import annotations

import pytest

from mcptest.gates.equal_function_sets import FunctionClass
from mcptest.records.trace import ToolCall
from tests.gates.build import call, classes, evaluate, run

SPEC_CLASSES = [
    FunctionClass.model_validate(c)
    for c in classes(search=["catalog.search", "catalog.web_search"], fetch=["fulfillment.fetch", "fulfillment.get"])
]
PROMPT = "Find the current population of Paris and pull the source document for it."


def diagnostics(traces, declared=SPEC_CLASSES, expect=None):
    config = {} if expect is None else {"expect": expect}
    return evaluate("orchestration", config, traces, classes=declared, label="o").targets


def test_reaching_both_declared_classes_scores_discovery_100_and_one_of_two_scores_50():
    assert diagnostics([run("catalog.search", "fulfillment.get")])["orchestration.discovery"] == 100
    assert diagnostics([run("catalog.web_search")])["orchestration.discovery"] == 50


def test_two_classes_over_three_calls_rounds_efficiency_to_67():
    assert (
        diagnostics([run("catalog.search", "catalog.web_search", "fulfillment.fetch")])["orchestration.efficiency"]
        == 67
    )


@pytest.mark.parametrize(
    ("calls", "declared", "efficiency"),
    [
        pytest.param(["catalog.search", "fulfillment.get"], SPEC_CLASSES, 100, id="one call per class is 100"),
        pytest.param(["catalog.search"], SPEC_CLASSES, 100, id="fewer calls than classes is capped at 100"),
        pytest.param(["catalog.search"] * 8, SPEC_CLASSES, 25, id="extra calls lower it"),
        pytest.param(["catalog.search"], [], 0, id="no expected classes scores 0"),
        pytest.param([], SPEC_CLASSES, 0, id="no calls scores 0"),
    ],
)
def test_efficiency_edge_cases(calls, declared, efficiency):
    assert diagnostics([run(*calls)], declared)["orchestration.efficiency"] == efficiency


def test_an_empty_trace_scores_100_on_parameterization_syntax_and_error_recovery():
    t = diagnostics([run()])
    assert (t["orchestration.parameterization"], t["orchestration.syntax"], t["orchestration.error_recovery"]) == (
        100,
        100,
        100,
    )


def test_parameterization_counts_calls_whose_args_are_a_non_empty_object():
    traces = [run(call("a.x", {"q": 1}), call("a.x", {}), call("a.x", ["q"]), call("a.x", {"k": None}))]
    assert diagnostics(traces)["orchestration.parameterization"] == 50


def test_syntax_needs_a_non_empty_name_and_object_args_that_parsed():
    traces = [
        run(
            call("a.x", {}),
            ToolCall(name="", args={}),
            call("a.x", '{"q": '),
            call("a.x", {}, unparseable_arguments=True),
        )
    ]
    outcome = evaluate("orchestration", {}, traces, classes=SPEC_CLASSES)
    assert outcome.targets["orchestration.syntax"] == 25
    assert outcome.detail["runs"][0]["malformed"] == [1, 2, 3]


def test_an_unknown_tool_with_object_args_is_still_well_formed():
    assert diagnostics([run(call("a.nope", {"q": 1}, unknown_tool=True))])["orchestration.syntax"] == 100


@pytest.mark.parametrize(
    ("calls", "recovery"),
    [
        pytest.param([call("catalog.search")], 100, id="no errors scores 100"),
        pytest.param([call("catalog.search", error=True), call("catalog.search")], 100, id="same tool later succeeds"),
        pytest.param([call("catalog.search", error=True), call("catalog.web_search")], 100, id="same class succeeds"),
        pytest.param([call("catalog.search", error=True), call("fulfillment.get")], 0, id="another class does not"),
        pytest.param([call("catalog.search"), call("catalog.search", error=True)], 0, id="an earlier success does not"),
        pytest.param([call("x.y", error=True), call("x.y", error=True), call("x.y")], 100, id="both errors recovered"),
        pytest.param([call("x.y", error=True), call("x.z", error=True), call("x.y")], 50, id="one of two recovered"),
    ],
)
def test_error_recovery(calls, recovery):
    assert diagnostics([run(*calls)])["orchestration.error_recovery"] == recovery


def test_recovery_does_not_cross_runs():
    assert diagnostics([run(call("x.y", error=True)), run("x.y")])["orchestration.error_recovery"] == 0


def test_counts_are_pooled_over_runs():
    traces = [run("catalog.search", "fulfillment.get"), run("catalog.search", "catalog.search", "x.y", "x.y")]
    t = diagnostics(traces)
    assert t["orchestration.discovery"] == 75  # 3 of 4 class-runs reached
    assert t["orchestration.efficiency"] == 67  # optimal 2 x 2 runs over 6 calls


def test_the_spec_expect_block_and_the_summary_line():
    expect = [
        {"target": "orchestration.discovery", "matcher": {"schema": {"minimum": 100}}},
        {"target": "orchestration.syntax", "matcher": {"schema": {"minimum": 100}}},
        {"target": "orchestration.error_recovery", "matcher": {"schema": {"minimum": 100}}},
        {"target": "orchestration.efficiency", "matcher": {"schema": {"minimum": 50}}},
    ]
    traces = [run("catalog.search", call("fulfillment.fetch", error=True), "fulfillment.get")]
    outcome = evaluate("orchestration", {"expect": expect}, traces, classes=SPEC_CLASSES, label="intent-only")
    assert outcome.passed
    assert outcome.lines == [
        "orchestration [PASS] intent-only: discovery 100, parameterization 100, syntax 100, error recovery 100, "
        "efficiency 67 (2 classes, 3 calls, 1 error, 1 recovered)"
    ]


def test_orchestration_has_no_default_gate():
    outcome = evaluate("orchestration", {}, [run("x.y")], classes=SPEC_CLASSES)
    assert outcome.default_gate == [] and outcome.passed


def test_a_name_free_prompt_that_names_nothing_passes_the_default_gate():
    outcome = evaluate("discovery", {"name_free": True}, [run()], classes=SPEC_CLASSES, prompt=PROMPT, label="n")
    assert outcome.passed
    assert outcome.default_gate == ["discovery.named_in_prompt <= 0"]
    assert outcome.lines == ["name-free discovery [PASS] n: the prompt names no tool and no server"]


def test_a_name_free_prompt_that_names_a_tool_or_a_server_fails_and_says_which():
    prompt = "Use the Catalog server to web_search for Paris, then fetch it."
    outcome = evaluate("discovery", {"name_free": True}, [run()], classes=SPEC_CLASSES, prompt=prompt, label="n")
    assert not outcome.passed
    assert (
        outcome.lines[0]
        == "name-free discovery [FAIL] n: the prompt names catalog (server), web_search (tool), fetch (tool)"
    )


def test_names_match_whole_words_only():
    prompt = "Researching fetchers and searchlights"
    outcome = evaluate("discovery", {"name_free": True}, [run()], classes=SPEC_CLASSES, prompt=prompt)
    assert outcome.targets["discovery.named_in_prompt"] == 0


def test_recorded_catalog_tools_count_as_names_and_the_trace_prompt_is_used_when_the_suite_has_none():
    from mcptest.records.trace import CatalogTool, Trace

    trace = Trace(prompt="please call lookup_city", catalog=[CatalogTool(server="geo", tool={"name": "lookup_city"})])
    outcome = evaluate("discovery", {"name_free": True}, [trace], classes=SPEC_CLASSES)
    assert outcome.detail["named_in_prompt"] == {"lookup_city": "tool"}


def test_without_name_free_the_promise_is_not_checked():
    outcome = evaluate("discovery", {}, [run()], classes=SPEC_CLASSES, prompt="call catalog.search", label="n")
    assert outcome.passed and outcome.default_gate == []
    assert outcome.targets["discovery.name_free"] == 0
    assert outcome.lines == ["name-free discovery [PASS] n: not declared name-free"]


def test_name_free_without_classes_is_a_breach_and_an_unknown_prompt_is_not_checked():
    outcome = evaluate("discovery", {"name_free": True}, [run()], label="n")
    assert not outcome.passed
    assert outcome.lines == [
        "name-free discovery [FAIL] n: prompt unknown, promise not checked",
        "  name_free: true needs an equal_function_sets: block to judge the tool path against",
    ]
