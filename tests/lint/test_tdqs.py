"""TDQS: each heuristic's formula at its boundaries, and the score as their mean."""

from __future__ import annotations

import pytest

from mcptest.checks.lint import tdqs
from mcptest.records.catalog import Tool


def tool(description: str = "", schema: dict | None = None, **kw: object) -> Tool:
    return Tool({"name": "get_weather", "description": description, "inputSchema": schema or {"type": "object"}, **kw})


@pytest.mark.parametrize(
    ("description", "expected"),
    [
        ("", 0.0),
        ("   ", 0.0),
        ("Get weather.", 0.0),
        ("x" * 10, 0.25),
        ("x" * 20, 0.5),
        ("x" * 40, 1.0),
        ("x" * 90, 1.0),
    ],
)
def test_description_length_is_zero_without_signal_then_chars_over_40(description: str, expected: float) -> None:
    assert tdqs.description_length(tool(description)) == expected


def test_parameter_docs_is_the_documented_fraction_and_1_without_arguments() -> None:
    props = {"a": {"description": "A"}, "b": {"title": "B"}, "c": {"description": " "}, "d": {"description": "D"}}
    assert tdqs.parameter_docs(tool(schema={"properties": props})) == 0.5
    assert tdqs.parameter_docs(tool()) == 1.0


@pytest.mark.parametrize(("chars", "expected"), [(0, 1.0), (500, 1.0), (750, 0.75), (1500, 0.0), (4000, 0.0)])
def test_conciseness_falls_linearly_from_500_to_1500_chars(chars: int, expected: float) -> None:
    assert tdqs.conciseness(tool("x" * chars)) == expected


def test_return_format_needs_a_return_word_or_an_output_schema() -> None:
    assert tdqs.return_format(tool("Create an invoice.")) == 0.0
    assert tdqs.return_format(tool("Create an invoice. Returns its id.")) == 1.0
    assert tdqs.return_format(tool("Create an invoice.", outputSchema={"type": "object"})) == 1.0


def test_annotation_hints_score_half_for_the_object_and_an_eighth_per_boolean_hint() -> None:
    assert tdqs.annotation_hints(tool()) == 0.0
    assert tdqs.annotation_hints(tool(annotations={})) == 0.5
    assert tdqs.annotation_hints(tool(annotations={"readOnlyHint": True, "openWorldHint": "no"})) == 0.625
    hints = dict.fromkeys(("readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"), False)
    assert tdqs.annotation_hints(tool(annotations=hints)) == 1.0


@pytest.mark.parametrize(
    ("description", "expected"),
    [
        ("", 0.0),
        ("Information about the weather.", 0.5),
        ("Information about the weather, see above.", 0.0),
        ("Get weather, see above.", 0.5),
        ("Get the weather.", 1.0),
    ],
)
def test_purpose_rewards_an_action_verb_and_a_self_contained_text(description: str, expected: float) -> None:
    assert tdqs.purpose(tool(description)) == expected


def test_the_score_is_the_mean_of_the_six_heuristics() -> None:
    t = tool("Set the weather", annotations={})
    # description 15/40, parameters 1, conciseness 1, return 0, annotations 0.5, purpose 1
    assert tdqs.heuristics(t) == {
        "description_length": 0.375,
        "parameter_docs": 1.0,
        "conciseness": 1.0,
        "return_format": 0.0,
        "annotation_hints": 0.5,
        "purpose": 1.0,
    }
    assert tdqs.score(t) == round((0.375 + 1 + 1 + 0 + 0.5 + 1) / 6, 4) == 0.6458


def test_every_heuristic_documents_its_formula() -> None:
    assert len(tdqs.HEURISTICS) == 6
    assert all(h.__doc__ and any(ch.isdigit() for ch in h.__doc__) for h in tdqs.HEURISTICS)
