"""Distractor accuracy, the certified floor, and deterministic distractor tools."""

from __future__ import annotations

import pytest
from jsonschema.validators import validator_for
from pydantic import ValidationError

from mcptest.gates.distractors import DistractorsConfig, certified_percent, distractor_names, generate
from mcptest.records.catalog import from_wire
from mcptest.records.distractor_tools import bundled_tools, near_duplicates, pluralized, recased
from mcptest.records.trace import CatalogTool, Trace
from tests.gates.build import evaluate, run

CATALOG = {"count": 4, "source": {"from": "catalog"}, "correct": ["catalog.search_products"]}
NEAR = {
    "count": 3,
    "source": {"from": "near_duplicate", "of": ["search_products", "get_product"]},
    "correct": ["catalog.search_products", "catalog.get_product"],
    "complexity": "parallel",
}


def config(data):
    return DistractorsConfig.model_validate(data)


def test_a_bundled_distractor_chosen_alongside_the_correct_tool_halves_accuracy():
    outcome = evaluate("distractors", CATALOG, [run("catalog.search_products", "get_current_weather")], label="d")
    assert outcome.targets["distractors.accuracy"] == 50
    assert outcome.targets["distractors.chose_distractor"] == 1
    assert outcome.targets["distractors.certified_lower"] == 0
    assert outcome.lines == [
        "distractors [PASS] d: accuracy 50% (1 correct, 1 distractor: get_current_weather), certified lower 0% "
        "(0 of 1 runs chose only correct tools) [4 from catalog]"
    ]


def test_tools_outside_both_sets_are_ignored():
    outcome = evaluate("distractors", CATALOG, [run("catalog.search_products", "catalog.get_product")])
    assert outcome.targets["distractors.accuracy"] == 100
    assert outcome.detail["runs"][0]["ignored"] == ["catalog.get_product"]


@pytest.mark.parametrize(
    ("correct", "calls", "accuracy"),
    [
        pytest.param(["catalog.search_products"], [], 0, id="nothing chosen scores 0"),
        pytest.param(["catalog.search_products"], ["other.tool"], 0, id="nothing in scope scores 0"),
        pytest.param([], [], 100, id="no correct ids declared is vacuously 100"),
        pytest.param([], ["get_current_weather"], 0, id="no correct ids but a distractor chosen scores 0"),
        pytest.param(["search_products"], ["catalog.search_products", "catalog.search_products"], 100, id="repeats"),
    ],
)
def test_accuracy_edge_cases(correct, calls, accuracy):
    outcome = evaluate("distractors", {**CATALOG, "correct": correct}, [run(*calls)])
    assert outcome.targets["distractors.accuracy"] == accuracy


def test_accuracy_over_runs_is_the_mean_of_run_accuracies_so_an_empty_run_counts():
    traces = [run("catalog.search_products")] * 3 + [run()]
    outcome = evaluate("distractors", CATALOG, traces)
    assert outcome.targets["distractors.accuracy"] == 75
    assert outcome.targets["distractors.successes"] == 3


def test_the_spec_example_with_a_certified_floor():
    traces = [run("catalog.search_products")] * 4
    outcome = evaluate("distractors", {**CATALOG, "complexity": "serial"}, traces, label="resists bundled distractors")
    assert outcome.targets["distractors.accuracy"] == 100
    assert outcome.targets["distractors.certified_lower"] == 47  # 0.05 ** (1/4) = 0.4729
    assert outcome.lines[0].endswith("(4 of 4 runs chose only correct tools) [4 from catalog, serial]")


@pytest.mark.parametrize(
    ("successes", "n", "floor"),
    [(0, 10, 0), (1, 1, 5), (5, 5, 54), (10, 10, 74), (8, 10, 49), (0, 0, 0)],
)
def test_the_certified_floor_is_the_one_sided_95_percent_clopper_pearson_bound_rounded_down(successes, n, floor):
    assert certified_percent(successes, n) == floor


def test_the_default_gate_is_accuracy_at_least_50():
    outcome = evaluate(
        "distractors", CATALOG, [run("get_current_weather", "convert_currency", "catalog.search_products")]
    )
    assert outcome.default_gate == ["distractors.accuracy >= 50"]
    assert not outcome.passed


def test_the_spec_expect_block_gates_on_chose_distractor():
    expect = [
        {"target": "distractors.accuracy", "matcher": {"schema": {"minimum": 80}}},
        {"target": "distractors.chose_distractor", "matcher": {"schema": {"maximum": 0}}},
    ]
    good = evaluate("distractors", {**CATALOG, "expect": expect}, [run("catalog.search_products")] * 4)
    bad = evaluate("distractors", {**CATALOG, "expect": expect}, [run("catalog.search_products", "send_email")] * 4)
    assert good.passed
    assert [f.target for f in bad.failures] == ["distractors.accuracy", "distractors.chose_distractor"]


def test_generation_is_deterministic_and_nested_across_counts():
    four = generate(config(CATALOG))
    assert four == generate(config(CATALOG))
    eight = generate(config({**CATALOG, "count": 8}))
    assert [t.name for t in four] == [t.name for t in eight[:4]]
    assert [t.name for t in four] == ["get_current_weather", "convert_currency", "create_calendar_event", "send_email"]
    assert all(t.distractor and t.server is None for t in eight)


def test_bundled_tools_that_collide_with_the_real_catalog_or_the_correct_set_are_skipped():
    real = [CatalogTool(server="w", tool={"name": "get_current_weather"})]
    names = [t.name for t in generate(config({**CATALOG, "correct": ["convert_currency"]}), real)]
    assert names == ["create_calendar_event", "send_email", "translate_text", "get_stock_quote"]


def test_near_duplicates_follow_the_variant_order_round_robin():
    names = [t.name for t in generate(config({**NEAR, "count": 9}))]
    assert names == [
        "search_products_v2",
        "get_product_v2",
        "search_products_internal",
        "get_product_internal",
        "searchProducts",
        "getProduct",
        "search_product",
        "get_products",
        "search_products_v3",
    ]


def test_a_near_duplicate_copies_the_real_definition_and_server():
    real = CatalogTool(
        server="catalog",
        tool={"name": "get_product", "description": "Get one product by id.", "inputSchema": {"type": "object"}},
    )
    [dup] = near_duplicates(["get_product"], 1, [real])
    assert dup.tool == {**real.tool, "name": "get_product_v2"}
    assert (dup.server, dup.distractor) == ("catalog", True)
    assert real.tool["name"] == "get_product"


def test_near_duplicate_variants_skip_taken_names_and_never_run_out():
    names = [t.name for t in near_duplicates(["x"], 12, exclude={"x_v2", "X"})]
    assert names[:4] == ["x_internal", "xes", "x_v3", "x_v4"]
    assert len(names) == 12 == len(set(names))


@pytest.mark.parametrize(
    ("name", "recased_name", "plural"),
    [
        ("search_products", "searchProducts", "search_product"),
        ("getProduct", "get_product", "getProducts"),
        ("search", "Search", "searches"),
        ("list_categories", "listCategories", "list_category"),
        ("get_entry", "getEntry", "get_entries"),
        ("Fetch", "FETCH", "Fetches"),
        ("query", "Query", "queries"),
        ("get_day", "getDay", "get_days"),
    ],
)
def test_casing_and_pluralization_variants(name, recased_name, plural):
    assert (recased(name), pluralized(name)) == (recased_name, plural)


def test_every_generated_distractor_is_a_full_valid_mcp_tool():
    tools = [t.tool for t in generate(config({**CATALOG, "count": len(bundled_tools())}))]
    tools += [t.tool for t in generate(config(NEAR))]
    catalog = from_wire({"tools": tools})
    assert len(catalog.tools) == len(bundled_tools()) + 3
    for tool in tools:
        assert tool["description"] and tool["inputSchema"]["type"] == "object"
        validator_for(tool["inputSchema"]).check_schema(tool["inputSchema"])
    assert len({t["name"] for t in tools}) == len(tools)


def test_distractors_flagged_in_a_recorded_catalog_count_even_if_the_config_would_not_generate_them():
    trace = Trace(catalog=[CatalogTool(tool={"name": "legacy_search"}, distractor=True)])
    assert "legacy_search" in distractor_names(config({**CATALOG, "count": 0}), [trace])


@pytest.mark.parametrize(
    "data",
    [
        pytest.param({**NEAR, "source": {"from": "near_duplicate"}}, id="near_duplicate needs of"),
        pytest.param({**NEAR, "source": {"from": "near_duplicate", "of": []}}, id="of must not be empty"),
        pytest.param({**CATALOG, "source": {"from": "catalog", "of": ["x"]}}, id="of only for near_duplicate"),
        pytest.param({**CATALOG, "source": {"from": "registry"}}, id="unknown source"),
        pytest.param({**CATALOG, "count": 41}, id="more than the bundled catalog"),
        pytest.param({**CATALOG, "count": -1}, id="negative count"),
        pytest.param({**CATALOG, "complexity": "nested"}, id="unknown complexity"),
        pytest.param({"count": 1, "source": {"from": "catalog"}}, id="correct is required"),
    ],
)
def test_invalid_blocks_are_rejected(data):
    with pytest.raises(ValidationError):
        config(data)
