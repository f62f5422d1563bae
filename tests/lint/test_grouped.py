"""Grouping findings for the text output: field names from pointers, tools ranked by severity, one line per rule."""

from __future__ import annotations

from mcptest.checks.lint import assess
from mcptest.checks.lint.grouped import field_name, group, per_rule
from mcptest.records.catalog import from_wire


def test_field_names_drop_the_schema_keywords() -> None:
    assert field_name("/inputSchema/properties/entities/items/properties/name") == "entities.name"
    assert field_name("/inputSchema/properties/a~1b/anyOf/0") == "a/b"
    assert field_name("/inputSchema") == "inputSchema"
    assert field_name("/description") == ""


def test_tools_rank_by_criticals_then_warnings_and_clean_tools_are_set_apart() -> None:
    ann = {"readOnlyHint": True}
    catalog = from_wire(
        [
            {"name": "clean", "description": "Get the forecast for a city.", "annotations": ann},
            {"name": "warned", "description": "Toggle the logging of the server.", "annotations": ann},
            {
                "name": "bad",
                "description": "Run it.",
                "annotations": ann,
                "inputSchema": {
                    "type": "object",
                    "properties": {"a_path": {"type": "string"}, "b_path": {"type": "string"}},
                    "required": ["a_path", "b_path"],
                    "additionalProperties": False,
                },
            },
        ],
        shorthand=True,
    )
    groups, clean = group(assess(catalog))
    assert [g.tool.name for g in groups] == ["bad", "warned"] and [t.name for t in clean] == ["clean"]
    lines = groups[0].lines
    assert [line.rule for line in lines][:2] == ["DESC-001", "DESC-006"]
    assert lines[1].summary("A required argument has no description.") == (
        "2× A required argument has no description: a_path, b_path"
    )
    assert per_rule(assess(catalog))[0][:3] == ("DESC-006", "critical", 2)
