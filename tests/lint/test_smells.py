"""Smells: every DESC rule feeds exactly one named smell; SCH rules feed none; counts are per finding."""

from __future__ import annotations

from mcptest.checks.lint import RULES, assess
from mcptest.checks.lint.smells import SMELLS, smell_of
from mcptest.records.catalog import from_wire

NAMES = (
    "underspecified",
    "verbose",
    "uninformative",
    "brittle",
    "missing_examples",
    "missing_return_format",
    "missing_annotations",
    "invalid_annotation",
)


def test_the_spec_names_the_eight_smells_in_this_order() -> None:
    assert tuple(SMELLS) == NAMES


def test_every_desc_rule_maps_to_exactly_one_smell_and_no_sch_rule_does() -> None:
    mapped = [code for codes in SMELLS.values() for code in codes]
    assert sorted(mapped) == sorted(r.code for r in RULES if r.code.startswith("DESC-"))
    assert all(smell_of(r.code) is None for r in RULES if r.code.startswith("SCH-"))


def test_the_mapping_is_the_documented_one() -> None:
    assert SMELLS == {
        "underspecified": ("DESC-001", "DESC-006", "DESC-007"),
        "verbose": ("DESC-002", "DESC-008"),
        "uninformative": ("DESC-003", "DESC-004"),
        "brittle": ("DESC-005", "DESC-013", "DESC-014", "DESC-017"),
        "missing_examples": ("DESC-009",),
        "missing_return_format": ("DESC-010",),
        "missing_annotations": ("DESC-012",),
        "invalid_annotation": ("DESC-011", "DESC-015", "DESC-016"),
    }


def test_smells_count_findings_and_the_total_is_their_sum() -> None:
    catalog = from_wire(
        [
            {
                "name": "a",
                "description": "a",
                "inputSchema": {
                    "type": "object",
                    "properties": {"x": {}, "y": {}, "since": {"type": "string"}},  # an optional `since`: DESC-009
                    "required": ["x", "y"],
                },
            },
            {"name": "b", "description": "Set the b record, see above.", "annotations": {"readOnlyHint": "yes"}},
        ],
        shorthand=True,
    )
    summary = assess(catalog).summary()
    assert summary["smells"] == {
        "underspecified": 3,
        "verbose": 0,
        "uninformative": 1,  # a's DESC-003; DESC-004 (no verb) is in the pedantic tier
        "brittle": 1,
        "missing_examples": 1,
        "missing_return_format": 2,
        "missing_annotations": 1,
        "invalid_annotation": 1,
    }
    assert summary["smell_total"] == 10
