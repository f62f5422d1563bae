"""Token efficiency: F1 with the per-correct price of the tool surface (spec 000 and 004)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pydantic import ValidationError

from mcptest.core.tokens import count_tokens
from mcptest.gates.token_efficiency import TokenEfficiencyConfig, grade, surface_tokens, tool_tokens
from mcptest.records.trace import CatalogTool, load_traces
from tests.gates.build import classes, evaluate, run

FIXTURES = Path(__file__).parent / "fixtures"
SPEC = {"classes": classes(search=["search"], fetch=["fetch"])}
TOOLS = [
    CatalogTool(
        server="s", tool={"name": "search", "description": "Search documents.", "inputSchema": {"type": "object"}}
    ),
    CatalogTool(server="s", tool={"name": "fetch", "description": "Fetch a document by id."}),
]


def test_a_tool_costs_its_name_description_and_compact_input_schema():
    schema = {"type": "object", "properties": {"q": {"type": "string"}}}
    tool = CatalogTool(tool={"name": "search", "description": "Search documents.", "inputSchema": schema})
    expected = (
        count_tokens("search")
        + count_tokens("Search documents.")
        + count_tokens(json.dumps(schema, separators=(",", ":")))
    )
    assert tool_tokens(tool) == expected
    assert surface_tokens([tool, tool]) == 2 * expected


def test_a_tool_without_an_input_schema_is_priced_as_an_empty_object_schema():
    assert tool_tokens(TOOLS[1]) == sum(map(count_tokens, ("fetch", "Fetch a document by id.", '{"type":"object"}')))


def test_the_spec_suite_over_three_priced_runs():
    surface = surface_tokens(TOOLS)
    traces = [run("s.search", "s.fetch", catalog=TOOLS, cost_usd=0.002)] * 3
    outcome = evaluate("token_efficiency", SPEC, traces, label="search stays efficient")
    assert outcome.targets == {
        "token_efficiency.f1": 100,
        "token_efficiency.correct_selections": 6,
        "token_efficiency.tool_surface_tokens": surface,
        "token_efficiency.tokens_per_correct": round(3 * surface / 6, 2),
        "token_efficiency.cost": 0.006,
        "token_efficiency.cost_per_correct": 0.001,
    }
    assert outcome.passed and outcome.default_gate == ["token_efficiency.f1 >= 50"]
    assert outcome.lines == [
        f"token efficiency [PASS] search stays efficient: grade A, F1 100, {surface} tool-surface tokens, 6 correct, "
        f"{surface / 2:g} tokens per correct, cost $0.0060, $0.0010 per correct"
    ]


def test_tokens_per_correct_does_not_shrink_as_runs_grow():
    one = evaluate("token_efficiency", SPEC, [run("s.search", "s.fetch", catalog=TOOLS)])
    five = evaluate("token_efficiency", SPEC, [run("s.search", "s.fetch", catalog=TOOLS)] * 5)
    assert one.targets["token_efficiency.tokens_per_correct"] == five.targets["token_efficiency.tokens_per_correct"]


def test_per_correct_figures_are_absent_when_nothing_was_selected_correctly():
    outcome = evaluate("token_efficiency", SPEC, [run("s.other", catalog=TOOLS, cost_usd=0.01)])
    assert outcome.targets["token_efficiency.correct_selections"] == 0
    assert "token_efficiency.tokens_per_correct" not in outcome.targets
    assert "token_efficiency.cost_per_correct" not in outcome.targets
    assert outcome.undefined["token_efficiency.tokens_per_correct"] == "nothing was selected correctly"


def test_cost_per_correct_is_absent_on_a_free_run_and_cost_is_absent_when_unpriced():
    free = evaluate("token_efficiency", SPEC, [run("s.search", catalog=TOOLS, cost_usd=0.0)])
    assert free.targets["token_efficiency.cost"] == 0 and "token_efficiency.cost_per_correct" in free.undefined
    unpriced = evaluate(
        "token_efficiency", SPEC, [run("s.search", catalog=TOOLS, cost_usd=0.1), run("s.search", catalog=TOOLS)]
    )
    assert "token_efficiency.cost" in unpriced.undefined


def test_an_absent_target_fails_an_assertion_with_the_reason_instead_of_dividing_by_zero():
    expect = [{"target": "token_efficiency.tokens_per_correct", "matcher": {"schema": {"maximum": 1500}}}]
    outcome = evaluate("token_efficiency", {**SPEC, "expect": expect}, [run("s.other", catalog=TOOLS)], label="t")
    assert outcome.lines[-1] == (
        "  token_efficiency.tokens_per_correct: target not found: token_efficiency.tokens_per_correct is undefined: "
        "nothing was selected correctly"
    )


def test_without_a_recorded_catalog_the_surface_figures_are_absent_but_f1_still_scores():
    outcome = evaluate("token_efficiency", SPEC, [run("s.search", "s.fetch")], label="t")
    assert outcome.targets["token_efficiency.f1"] == 100
    assert "token_efficiency.tool_surface_tokens" in outcome.undefined
    assert outcome.lines == ["token efficiency [PASS] t: grade A, F1 100, 2 correct"]


def test_the_gate_fires_on_a_replayed_trace_file_because_the_trace_carries_its_catalog():
    traces = load_traces(FIXTURES / "research_runs.json")
    config = {"classes": classes(search=["brave.web_search", "google.search"], fetch=["http.get"])}
    outcome = evaluate("token_efficiency", config, traces)
    assert outcome.targets["token_efficiency.f1"] == 75  # TP 3, FP 1, FN 1
    assert outcome.targets["token_efficiency.tool_surface_tokens"] == surface_tokens(traces[0].catalog or [])
    assert outcome.targets["token_efficiency.cost"] == 0.0134


@pytest.mark.parametrize(
    ("f1", "letter"), [(100, "A"), (90, "A"), (89, "B"), (80, "B"), (70, "C"), (60, "D"), (59, "F"), (0, "F")]
)
def test_the_letter_grade(f1, letter):
    assert grade(f1) == letter


def test_the_classes_list_must_not_be_empty():
    with pytest.raises(ValidationError):
        TokenEfficiencyConfig.model_validate({"classes": []})


def test_a_tool_seen_again_is_not_re_encoded():
    from mcptest.gates.token_efficiency import _tokens

    tool = CatalogTool(tool={"name": "rare_tool_for_cache_test", "description": "Counted once."})
    surface_tokens([tool])
    before = _tokens.cache_info()
    surface_tokens([tool] * 5)
    after = _tokens.cache_info()
    assert (after.misses, after.hits) == (before.misses, before.hits + 5)
