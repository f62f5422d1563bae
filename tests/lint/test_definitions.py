"""The schema rules follow `$ref` and lint what a call can reach; a definition several tools share is reported once."""

from __future__ import annotations

import copy
import json
from pathlib import Path

from mcptest.checks.lint import lint_tool, lint_tools, select_rules
from mcptest.records.catalog import Tool

DEFS = {
    # no required list though its one field calls itself required, and open: SCH-001, SCH-002
    "Owner": {"type": "object", "properties": {"login": {"type": "string", "description": "Login (required)."}}},
    "Unused": {"type": "object", "properties": {"x": {}}},  # untyped x: linted only if something reached it
}


def _tool(name: str, refs_owner: bool) -> Tool:
    props: dict = {"q": {"type": "string", "description": "Search text", "maxLength": 200}}
    if refs_owner:
        props["owner"] = {"$ref": "#/$defs/Owner"}
    schema = {"type": "object", "properties": props, "required": ["q"], "additionalProperties": False}
    return Tool(
        {
            "name": name,
            "description": "Find items. Returns matches.",
            "inputSchema": schema | {"$defs": copy.deepcopy(DEFS)},
        }
    )


def test_a_reached_definition_is_linted_at_its_place_and_an_unreached_one_only_as_unused() -> None:
    rules = select_rules(["SCH"], ())
    findings = {(f.rule, f.pointer) for f in lint_tool(_tool("a", True), rules)}
    assert ("SCH-001", "/inputSchema/$defs/Owner") in findings
    assert ("SCH-002", "/inputSchema/$defs/Owner") in findings
    assert not any("Unused/" in (p or "") for _, p in findings)  # its untyped x is not SCH-003's: nothing reaches it
    assert ("SCH-011", "/inputSchema/$defs/Unused") in findings


def test_a_definition_shared_by_several_tools_is_reported_once_naming_them() -> None:
    tools = [_tool(n, refs) for n, refs in (("a", True), ("b", True), ("c", False), ("d", False))]
    found = lint_tools(tools, select_rules(["SCH"], ()))
    owner = [f for fs in found for f in fs if f.rule == "SCH-002" and f.pointer == "/inputSchema/$defs/Owner"]
    assert len(owner) == 1 and owner[0].tool == "a" and "2 tools share: a, b" in owner[0].message
    unused = [(f.tool, f.message) for fs in found for f in fs if f.rule == "SCH-011"]
    assert len(unused) == 2  # a and b leave Unused alone; c and d leave both: two defects, each reported once
    assert unused[0][0] == "a" and "1 of 2 definitions" in unused[0][1] and "2 tools share: a, b" in unused[0][1]
    assert unused[1][0] == "c" and "2 of 2 definitions" in unused[1][1] and "2 tools share: c, d" in unused[1][1]
    assert [f.rule for f in found[3]] == ["PASS"]  # d's one defect is the shared unused block, reported on c


def test_a_self_referencing_definition_is_walked_once() -> None:
    tree = {"type": "object", "properties": {"children": {"type": "array", "items": {"$ref": "#/$defs/Node"}}}}
    schema = {
        "type": "object",
        "properties": {"root": {"$ref": "#/$defs/Node"}},
        "required": ["root"],
        "$defs": {"Node": tree},
    }
    findings = lint_tool(
        Tool({"name": "t", "description": "Walk a tree. Returns it.", "inputSchema": schema}), select_rules(["SCH"], ())
    )
    assert [f.pointer for f in findings if f.rule == "SCH-002"].count("/inputSchema/$defs/Node") == 1


def _chart_tools(*names: str) -> list[Tool]:
    """Tools of a real catalog (@antv/mcp-server-chart 0.9.10) that writes the same `title` schema into each tool."""
    catalog = json.loads((Path(__file__).parent / "real" / "mcp-server-chart.json").read_text(encoding="utf-8"))
    return [Tool(t) for t in catalog["tools"] if t["name"] in names]


def test_a_schema_pattern_written_out_in_several_tools_is_reported_once_naming_them() -> None:
    tools = _chart_tools("generate_area_chart", "generate_bar_chart", "generate_pie_chart")
    found = lint_tools(tools, select_rules(["SCH-004"], ()))
    title = [f for fs in found for f in fs if f.pointer == "/inputSchema/properties/title"]
    assert len(title) == 1 and title[0].tool == "generate_area_chart"
    assert title[0].also == ("generate_bar_chart", "generate_pie_chart")
    assert "the same schema in 3 tools share" in title[0].message and title[0].to_json()["also"] == list(title[0].also)


def test_a_property_of_the_same_name_with_another_schema_is_its_own_defect() -> None:
    tools = _chart_tools("generate_area_chart", "generate_bar_chart")
    changed = copy.deepcopy(tools[1].raw)
    changed["inputSchema"]["properties"]["title"]["description"] = "The chart's heading."  # not the same text
    found = lint_tools([tools[0], Tool(changed)], select_rules(["SCH-004"], ()))
    title = [f for fs in found for f in fs if f.pointer == "/inputSchema/properties/title"]
    assert [f.tool for f in title] == ["generate_area_chart", "generate_bar_chart"] and not title[0].also


def test_one_field_of_one_kind_of_record_is_one_defect_in_every_tool_that_writes_it() -> None:
    """asana-mcp-server (real): `name` in create and update of a task, of a project and of a section, each unbounded
    and each written out in its own words: one defect per kind of record, on the tool that creates it."""
    catalog = json.loads((Path(__file__).parent / "real" / "asana-mcp-server.json").read_text(encoding="utf-8"))
    found = lint_tools([Tool(t) for t in catalog["tools"]], select_rules(["SCH-004"], ()))
    names = {f.tool: f for fs in found for f in fs if f.pointer == "/inputSchema/properties/name"}
    assert names["asana_create_task"].also == ("asana_update_task",)
    assert names["asana_create_project"].also == ("asana_update_project",)
    assert names["asana_create_section"].also == ("asana_update_section",)
    assert "one record's field, which 2 tools share" in names["asana_create_task"].message
    assert not {"asana_update_task", "asana_update_project", "asana_update_section"} & set(names)
    assert not names["asana_create_subtask"].also  # a subtask is another kind of record: its own defect


def test_a_tool_merged_twice_stays_named_where_its_finding_went() -> None:
    """anam-mcp (real): the optional `name` schema copied into update_persona, create_share_link and eight more tools
    is one finding on update_persona; that finding is then one record's field with create_persona's. Every tool of
    both merges is still named on the one finding left (the second merge once dropped the first one's tools)."""
    catalog = json.loads((Path(__file__).parent / "real" / "anam-mcp.json").read_text(encoding="utf-8"))
    tools = [Tool(t) for t in catalog["tools"]]
    found = [f for fs in lint_tools(tools, select_rules(["SCH-004"], ())) for f in fs]
    named = [f for f in found if f.pointer == "/inputSchema/properties/name"]
    covered = [n for f in named for n in (f.tool, *f.also)]
    assert {"create_share_link", "update_share_link", "update_persona", "create_persona"} <= set(covered)
    assert len(covered) == len(set(covered))  # each tool on one finding only
    persona = next(f for f in named if f.tool == "create_persona")
    assert "create_share_link" in persona.also and f"{len(persona.also) + 1} tools share" in persona.message


def test_one_record_inlined_at_several_places_of_a_tool_is_one_defect_there() -> None:
    """mcp-neo4j-data-modeling (real): Pydantic inlines the Property record at `key_property` and in each of
    `properties[]`, with a description only at the first; each open copy is the one defect, reported once."""
    catalog = json.loads((Path(__file__).parent / "real" / "mcp-neo4j-data-modeling.json").read_text(encoding="utf-8"))
    tools = [Tool(t) for t in catalog["tools"] if t["name"] == "validate_node"]
    found = [f for fs in lint_tools(tools, select_rules(["SCH-002"], ())) for f in fs]
    node = "/inputSchema/properties/node/anyOf/1/properties"
    record = [f for f in found if f.pointer == f"{node}/key_property"]
    assert len(record) == 1 and record[0].pointers == (f"{node}/key_property", f"{node}/properties/items")
    assert "(the same schema at 1 more place)" in record[0].message
    assert not any(f.pointer == f"{node}/properties/items" for f in found)
    assert len(found) == 3  # the node, the Property record, its PropertySource record: three open records
