"""Loading and saving catalogs: both wire shapes, every problem at once, JSON errors at line:col, atomic saves."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mcptest.core.errors import UserError
from mcptest.records.catalog import Catalog, Tool, from_wire, load_catalog, read_wire, save_catalog, tool_problems

TOOL = {"name": "echo", "description": "Echo the message back.", "inputSchema": {"type": "object"}}


def _messages(exc: pytest.ExceptionInfo[UserError]) -> list[str]:
    return [str(p) for p in exc.value.problems]


def test_a_tools_list_result_and_a_bare_array_load_alike(tmp_path: Path) -> None:
    (tmp_path / "result.json").write_text(json.dumps({"tools": [TOOL], "nextCursor": None}))
    (tmp_path / "bare.json").write_text(json.dumps([TOOL]))
    assert load_catalog(tmp_path / "result.json") == load_catalog(tmp_path / "bare.json") == Catalog((Tool(TOOL),))


def test_a_json_syntax_error_points_at_its_line_and_column(tmp_path: Path) -> None:
    path = tmp_path / "tools.json"
    path.write_text('{\n  "tools": [\n    {"name": "a",}\n  ]\n}\n')
    with pytest.raises(UserError) as exc:
        load_catalog(path)
    assert _messages(exc) == [f"{path}:3:18: JSON syntax error: Expecting property name enclosed in double quotes"]


def test_every_bad_tool_is_reported_at_once() -> None:
    data = {"tools": [{"description": "no name"}, 7, {"name": "x", "description": 3, "inputSchema": []}]}
    with pytest.raises(UserError) as exc:
        from_wire(data, "t.json")
    assert _messages(exc) == [
        "t.json: tools[0].name: every tool needs a non-empty string name",
        't.json: tools[0]: missing \'inputSchema\' (MCP requires one; write {"type": "object"} for no arguments)',
        "t.json: tools[1]: a tool must be an object, found a JSON number",
        "t.json: tools[2] (x).description: must be a string, found a JSON number",
        "t.json: tools[2] (x).inputSchema: must be an object, found a JSON array",
    ]


def test_read_wire_keeps_every_readable_tool_and_names_what_is_wrong_with_each() -> None:
    untyped = {"name": "untyped", "inputSchema": {"properties": {}}}
    data = {"tools": [TOOL, {"name": "bad", "inputSchema": "object"}, untyped, 7]}
    catalog = read_wire(data, "server 'x'")
    assert [t.name for t in catalog.tools] == ["echo", "untyped"]
    assert catalog.wire() == data and catalog.left_out == 2
    assert [str(p) for p in catalog.problems] == [
        "server 'x': tools[1] (bad).inputSchema: must be an object, found a JSON string",
        'server \'x\': tools[2] (untyped).inputSchema: must be an object schema ("type": "object"), found no type',
        "server 'x': tools[3]: a tool must be an object, found a JSON number",
    ]


def test_a_ref_that_points_nowhere_or_only_at_refs_is_named_once_and_a_long_name_is_cut() -> None:
    defs = {"p": {"$ref": "#/$defs/q"}, "q": {"$ref": "#/$defs/p"}, "node": {"type": "array", "items": {"$ref": "#"}}}
    props = {"a": {"$ref": "#/$defs/x"}, "b": {"$ref": "#/$defs/p"}, "c": {"$ref": "#/$defs/node"}}
    name = "n" * 10_000
    tool = {"name": name, "inputSchema": {"type": "object", "properties": props, "$defs": defs}}
    assert tool_problems(tool, 0) == [
        f'tools[0] ({"n" * 80}… (10000 characters)).inputSchema.properties.a.$ref: $ref "#/$defs/x" points nowhere '
        "in the schema",
        f"tools[0] ({'n' * 80}… (10000 characters)).inputSchema.properties.b.$ref: $ref cycle that never reaches a "
        "schema: #/$defs/p → #/$defs/q → #/$defs/p",
    ]


@pytest.mark.parametrize(
    ("data", "found"),
    [({"result": []}, "an object without a 'tools' array"), ("tools", "a JSON string"), (None, "a JSON null")],
)
def test_a_file_that_is_not_a_catalog_says_what_it_found(data: object, found: str) -> None:
    with pytest.raises(UserError) as exc:
        from_wire(data, "t.json")
    assert _messages(exc) == [f't.json: expected {{"tools": [...]}} or an array of tools, found {found}']


def test_a_missing_file_is_a_user_error(tmp_path: Path) -> None:
    with pytest.raises(UserError) as exc:
        load_catalog(tmp_path / "nope.json")
    assert _messages(exc) == [f"{tmp_path / 'nope.json'}: no such file"]


def test_null_optional_fields_count_as_absent_and_defaults_apply() -> None:
    tool = from_wire([{"name": "t", "description": None, "annotations": None}], shorthand=True).tools[0]
    assert (tool.description, tool.input_schema, tool.annotations, tool.output_schema) == (
        "",
        {"type": "object"},
        None,
        None,
    )


def test_save_writes_the_exact_wire_json_and_leaves_no_temp_file(tmp_path: Path) -> None:
    raw = {**TOOL, "x-vendor": {"kept": True}, "title": "Écho"}
    path = tmp_path / "out.json"
    path.write_text("old")
    save_catalog(from_wire([raw]), path)
    assert json.loads(path.read_text(encoding="utf-8")) == {"tools": [raw]}
    assert [p.name for p in tmp_path.iterdir()] == ["out.json"]


def test_save_into_a_file_where_a_directory_should_be_is_a_user_error(tmp_path: Path) -> None:
    (tmp_path / "f").write_text("")
    with pytest.raises(UserError) as exc:
        save_catalog(from_wire([TOOL]), tmp_path / "f" / "out.json")
    assert _messages(exc)[0].startswith(f"{tmp_path / 'f' / 'out.json'}: cannot write the catalog")
