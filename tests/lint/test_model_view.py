"""The model view: the catalog as a model reads it, pinned whole, with its token costs and folded types.

Regenerate the goldens after an intended change with `MCPTEST_UPDATE_GOLDEN=1 pytest tests/lint/test_model_view.py`.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from mcptest.checks.lint.model_view import model_view, render
from mcptest.checks.lint.shapes import type_label
from mcptest.checks.lint.surface import catalog_tokens, tool_tokens
from mcptest.records.catalog import Tool, from_wire, load_catalog

HERE = Path(__file__).parent
CATALOG = HERE / "fixtures" / "model-view" / "projects.json"
GOLDEN = HERE / "golden" / "model-view"


def _golden(name: str, actual: str) -> str:
    path = GOLDEN / name
    if os.environ.get("MCPTEST_UPDATE_GOLDEN"):
        path.write_text(actual, encoding="utf-8")
    return path.read_text(encoding="utf-8")


def test_the_text_view_of_the_fixture_is_the_golden_text() -> None:
    text = render(model_view(load_catalog(CATALOG)))
    assert text == _golden("projects.txt", text)


def test_the_json_view_of_the_fixture_is_the_golden_json() -> None:
    data = json.dumps(model_view(load_catalog(CATALOG)).to_json(), indent=2, ensure_ascii=False) + "\n"
    assert data == _golden("projects.json", data)


def test_tokens_are_the_surface_count_and_the_managed_cost_is_what_dropping_the_fields_saves() -> None:
    catalog = load_catalog(CATALOG)
    view = model_view(catalog)
    assert view.tokens == catalog_tokens(catalog) == sum(tool_tokens(t) for t in catalog.tools)
    raw = json.loads(CATALOG.read_text())["tools"][0]
    del raw["inputSchema"]["properties"]["owner_id"]
    del raw["inputSchema"]["$defs"]["Member"]["properties"]["assignee_id"]
    assert view.tools[0].server_managed_tokens == tool_tokens(catalog.tools[0]) - tool_tokens(Tool(raw))
    assert view.server_managed_tokens == view.tools[0].server_managed_tokens > 0


def test_a_custom_list_marks_other_fields_and_an_empty_one_marks_none() -> None:
    catalog = load_catalog(CATALOG)
    marked = [p.name for p in model_view(catalog, ["tags"]).tools[0].params if p.server_managed]
    assert marked == ["tags"]
    view = model_view(catalog, [])
    assert view.server_managed_tokens == 0 and view.server_managed == ()
    assert render(view).endswith("no server-managed fields exposed\n")


ROOT: dict[str, Any] = {"$defs": {"Op": {"type": "string", "enum": ["=", ">="]}}}


@pytest.mark.parametrize(
    ("schema", "label"),
    [
        ({"type": "string"}, "string"),
        ({"enum": ["numeric", "categorical"]}, '"numeric" | "categorical"'),
        ({"enum": [1, 2, None]}, "1 | 2"),
        ({"anyOf": [{"type": "integer"}, {"type": "null"}]}, "integer"),
        ({"type": ["number", "null"]}, "number"),
        ({"anyOf": [{"$ref": "#/$defs/Op"}, {"type": "null"}]}, '"=" | ">="'),
        ({"type": "array", "items": {"enum": ["a", "b"]}}, 'array of "a" | "b"'),
        ({"anyOf": [{"type": "string"}, {"type": "integer"}]}, "string | integer"),
        ({"const": "fixed"}, '"fixed"'),
        ({"properties": {"x": {}}}, "object"),
        ({}, "any"),
    ],
)
def test_types_are_folded_as_document_002_schema_type_does(schema: dict[str, Any], label: str) -> None:
    assert type_label(schema, ROOT) == label


def test_a_self_referencing_schema_is_shown_once_not_forever() -> None:
    node = {"type": "object", "properties": {"child": {"$ref": "#/$defs/Node"}}, "required": []}
    catalog = from_wire(
        [{"name": "add_tree", "description": "Add a tree.", "inputSchema": {**node, "$defs": {"Node": node}}}]
    )
    (child,) = model_view(catalog).tools[0].params
    assert (child.name, child.type, [p.name for p in child.params]) == ("child", "object", ["child"])
    assert child.params[0].params == ()


def test_a_schema_that_refers_to_itself_renders_and_ends() -> None:
    """A tree whose items are trees and a self-union: the model view names the recursion instead of recursing
    without end (a bare reference cycle is refused when the catalog is read, and SCH-008 reports it on a tool)."""
    schema = {
        "type": "object",
        "properties": {
            "tree": {"$ref": "#/$defs/Node"},
            "self": {"anyOf": [{"$ref": "#/$defs/S"}, {"type": "null"}]},
        },
        "required": ["tree"],
        "$defs": {
            "Node": {"type": "array", "items": {"$ref": "#/$defs/Node"}},
            "S": {"anyOf": [{"$ref": "#/$defs/S"}, {"type": "string"}]},
        },
    }
    assert type_label(schema["properties"]["tree"], schema) == "array of recursive"
    assert type_label(schema["properties"]["self"], schema) == "recursive | string"
    text = render(model_view(from_wire({"tools": [{"name": "t", "inputSchema": schema}]})))
    assert "- tree (required) [array of recursive]" in text
