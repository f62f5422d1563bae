"""The gate registry: every gate documents itself, rejects unknown keys, and runs through one entry point."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from pydantic import ValidationError

from mcptest.gates import GATES, GateOutcome, block_problems, blocks_of, classes_for, evaluate_blocks, gate
from mcptest.suite.agents import AgentTest
from mcptest.suite.blocks.registry import BLOCKS
from tests.gates.build import classes, run

DOCS = Path(__file__).resolve().parents[2] / "docs" / "gates.md"
MINIMAL = {
    "equal_function_sets": {"classes": classes(search=["search"])},
    "tool_selection": {"expected_tool": "search", "min_selection_rate": 1.0},
    "distractors": {"count": 2, "source": {"from": "catalog"}, "correct": ["search"]},
    "discovery": {"name_free": True},
    "orchestration": {},
    "token_efficiency": {"classes": classes(search=["search"])},
    "calls": {},
    "workflow": {"order": ["search"], "ids": [{"to": "fetch.url", "from": "search"}]},
    "trajectory": {"steps": [{"tool": "search", "args": {"q": {"exact": "x"}}}]},
    "golden_path": {"calls": ["search"]},
    "tool_edges": {"allowed": ["search"], "restricted": ["delete"]},
    "stability": {},
    "narrative": {},
}


def test_the_registry_lists_each_block_once_in_a_fixed_order():
    assert [g.name for g in GATES] == list(MINIMAL)


def test_the_suite_blocks_and_the_scoring_registry_agree():
    assert [(g.name, g.config) for g in GATES] == list(BLOCKS.items())
    for name, config in BLOCKS.items():  # every block is a key of an agent test, typed by its config model
        assert config in _types_of(AgentTest.model_fields[name].annotation)


def _types_of(annotation: object) -> tuple[object, ...]:
    return getattr(annotation, "__args__", (annotation,))


@pytest.mark.parametrize("g", GATES, ids=lambda g: g.name)
def test_every_gate_documents_its_formula_and_cites_the_spec(g):
    assert re.search(r"spec 00[024]", g.doc), "the docstring cites its source document"
    assert re.search(r"[=/]", g.doc), "the docstring gives the formula"
    assert all(f.description for f in g.config.model_fields.values()), "every YAML key is documented"


@pytest.mark.parametrize("g", GATES, ids=lambda g: g.name)
def test_every_gate_has_a_section_in_the_docs_naming_its_targets(g):
    text = DOCS.read_text(encoding="utf-8")
    section = text.split(f"(`{g.name}:`)\n", 1)[1].split("\n## ", 1)[0]
    outcome = evaluate_blocks(blocks_of({g.name: g.config.model_validate(MINIMAL[g.name])}), [run("search")])[0]
    for target in [*outcome.targets, *outcome.undefined]:
        assert target in section, f"docs/gates.md does not document {target}"


@pytest.mark.parametrize("g", GATES, ids=lambda g: g.name)
def test_every_block_rejects_an_unknown_key_and_accepts_an_expect_list(g):
    with pytest.raises(ValidationError):
        g.config.model_validate({**MINIMAL[g.name], "expcet": []})
    assert g.config.model_validate({**MINIMAL[g.name], "expect": []}).expect == []


@pytest.mark.parametrize("g", GATES, ids=lambda g: g.name)
def test_every_default_gate_is_an_assertion_on_one_of_its_own_targets(g):
    answered = run("search", final_response="I searched.")
    outcome = g.evaluate([answered], g.config.model_validate(MINIMAL[g.name]), _context(prompt="hi"))
    for assertion in g.default_gate:
        assert assertion.target in outcome.targets


def test_evaluate_blocks_runs_the_declared_blocks_in_registry_order_sharing_the_classes():
    blocks = {
        name: gate(name).config.model_validate(MINIMAL[name]) for name in ("orchestration", "equal_function_sets")
    }
    outcomes = evaluate_blocks(blocks, [run("search")], label="t", prompt="find it")
    assert [o.block for o in outcomes] == ["equal_function_sets", "orchestration"]
    assert outcomes[1].targets["orchestration.discovery"] == 100
    assert all(isinstance(o, GateOutcome) and o.passed for o in outcomes)


def test_blocks_of_reads_a_model_or_a_mapping_and_skips_absent_blocks():
    class AgentTest:
        equal_function_sets = gate("equal_function_sets").config.model_validate(MINIMAL["equal_function_sets"])
        distractors = None

    assert list(blocks_of(AgentTest())) == ["equal_function_sets"]
    assert list(blocks_of({"discovery": None, "orchestration": gate("orchestration").config()})) == ["orchestration"]


def test_the_classes_come_from_equal_function_sets_first_then_token_efficiency():
    te = gate("token_efficiency").config.model_validate({"classes": classes(fetch=["fetch"])})
    efs = gate("equal_function_sets").config.model_validate({"classes": classes(search=["search"])})
    assert [c.name for c in classes_for({"token_efficiency": te}) or []] == ["fetch"]
    assert [c.name for c in classes_for({"token_efficiency": te, "equal_function_sets": efs}) or []] == ["search"]
    assert classes_for({}) is None


def test_a_name_free_scenario_without_classes_is_a_cross_block_problem():
    discovery = gate("discovery").config.model_validate({"name_free": True})
    assert block_problems({"discovery": discovery}) == [
        "discovery.name_free: true needs an equal_function_sets: block to judge the tool path against"
    ]
    efs = gate("equal_function_sets").config.model_validate(MINIMAL["equal_function_sets"])
    assert block_problems({"discovery": discovery, "equal_function_sets": efs}) == []


def test_an_outcome_dumps_to_plain_json():
    outcome = evaluate_blocks(
        {"distractors": gate("distractors").config.model_validate(MINIMAL["distractors"])}, [run("search")]
    )[0]
    again = GateOutcome.model_validate_json(outcome.model_dump_json())
    assert again == outcome


def _context(**kwargs):
    from mcptest.gates import GateContext

    return GateContext(classes=[], **kwargs)
