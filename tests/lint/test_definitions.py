"""The schema rules follow `$ref` and lint what a call can reach; a definition several tools share is reported once."""

from __future__ import annotations

import copy

from mcptest.checks.lint import lint_tool, lint_tools, select_rules
from mcptest.records.catalog import Tool

DEFS = {
    "Owner": {"type": "object", "properties": {"login": {"type": "string"}}},  # no required, open: SCH-001, SCH-002
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
