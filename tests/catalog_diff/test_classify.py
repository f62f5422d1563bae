"""Every change class `mcptest diff` knows, each on the smallest catalogs that show it, judged by code and impact."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from mcptest.diff.classify import diff
from mcptest.records.entries import from_json

SEARCH: dict[str, Any] = {
    "name": "search_issues",
    "description": "Search the issue tracker by keyword. Returns matching issues as JSON.",
    "inputSchema": {
        "type": "object",
        "properties": {
            "query": {"type": "string", "maxLength": 200, "description": "Words to look for."},
            "state": {"type": "string", "enum": ["open", "closed", "all"]},
            "limit": {"type": "integer", "maximum": 100, "minimum": 1},
            "labels": {"type": "array", "items": {"type": "string"}},
        },
        "required": ["query"],
    },
    "outputSchema": {
        "type": "object",
        "properties": {"issues": {"type": "array"}, "total": {"type": "integer"}},
        "required": ["issues", "total"],
    },
    "annotations": {"readOnlyHint": True, "destructiveHint": False, "openWorldHint": False},
}


def _edit(change: Any) -> dict[str, Any]:
    tool = copy.deepcopy(SEARCH)
    change(tool)
    return tool


def _codes(old: list[dict[str, Any]], new: list[dict[str, Any]]) -> list[tuple[str, str]]:
    report = diff(from_json({"tools": old}, "old.json"), from_json({"tools": new}, "new.json"))
    return sorted((c.impact.value, c.code) for c in report.changes)


CASES = [
    ("tool removed", lambda t: None, "breaking", "removed"),
    (
        "required argument added",
        lambda t: (
            t["inputSchema"]["properties"].update(repo={"type": "string"}),
            t["inputSchema"]["required"].append("repo"),
        ),
        "breaking",
        "required_argument_added",
    ),
    (
        "optional becomes required",
        lambda t: t["inputSchema"]["required"].append("state"),
        "breaking",
        "argument_now_required",
    ),
    (
        "enum value removed",
        lambda t: t["inputSchema"]["properties"]["state"].update(enum=["open", "closed"]),
        "breaking",
        "enum_value_removed",
    ),
    (
        "maxLength tightened",
        lambda t: t["inputSchema"]["properties"]["query"].update(maxLength=50),
        "breaking",
        "maxLength_tightened",
    ),
    (
        "maximum tightened",
        lambda t: t["inputSchema"]["properties"]["limit"].update(maximum=10),
        "breaking",
        "maximum_tightened",
    ),
    (
        "output field removed",
        lambda t: (t["outputSchema"]["properties"].pop("total"), t["outputSchema"]["required"].remove("total")),
        "breaking",
        "output_field_removed",
    ),
    ("argument removed", lambda t: t["inputSchema"]["properties"].pop("labels"), "breaking", "argument_removed"),
    (
        "description rewritten",
        lambda t: t.update(description="Look up issues. Returns them."),
        "risky",
        "description_rewritten",
    ),
    (
        "readOnlyHint true to false",
        lambda t: t["annotations"].update(readOnlyHint=False),
        "risky",
        "annotation_changed",
    ),
    (
        "destructiveHint false to true",
        lambda t: t["annotations"].update(destructiveHint=True),
        "risky",
        "annotation_changed",
    ),
    (
        "destructiveHint false to absent (defaults to true)",
        lambda t: t["annotations"].pop("destructiveHint"),
        "risky",
        "annotation_changed",
    ),
    (
        "optional argument added",
        lambda t: t["inputSchema"]["properties"].update(sort={"type": "string"}),
        "compatible",
        "optional_argument_added",
    ),
    (
        "type widened",
        lambda t: t["inputSchema"]["properties"]["limit"].update(type=["integer", "string"]),
        "compatible",
        "type_widened",
    ),
    (
        "enum value added",
        lambda t: t["inputSchema"]["properties"]["state"]["enum"].append("draft"),
        "compatible",
        "enum_value_added",
    ),
    (
        "maximum loosened",
        lambda t: t["inputSchema"]["properties"]["limit"].update(maximum=1000),
        "compatible",
        "maximum_loosened",
    ),
    (
        "required becomes optional",
        lambda t: t["inputSchema"].update(required=[]),
        "compatible",
        "argument_now_optional",
    ),
    (
        "output field added",
        lambda t: t["outputSchema"]["properties"].update(page={"type": "integer"}),
        "compatible",
        "output_field_added",
    ),
]


@pytest.mark.parametrize(("why", "edit", "impact", "code"), CASES, ids=[c[0] for c in CASES])
def test_each_change_is_classified(why: str, edit: Any, impact: str, code: str) -> None:
    new = [] if why == "tool removed" else [_edit(edit)]
    assert _codes([SEARCH], new) == [(impact, code)]


def test_an_unchanged_catalog_and_whitespace_only_edits_report_nothing() -> None:
    spaced = _edit(
        lambda t: t.update(description="Search the issue tracker   by keyword.\nReturns matching issues as JSON.")
    )
    assert _codes([SEARCH], [SEARCH]) == []
    assert _codes([SEARCH], [spaced]) == []


def test_type_narrowed_and_changed_are_breaking() -> None:
    narrowed = _edit(lambda t: t["inputSchema"]["properties"]["limit"].update(type="integer"))
    assert _codes([_edit(lambda t: t["inputSchema"]["properties"]["limit"].update(type="number"))], [narrowed]) == [
        ("breaking", "type_narrowed")
    ]
    retyped = _edit(
        lambda t: (
            t["inputSchema"]["properties"]["query"].update(type="integer")
            or t["inputSchema"]["properties"]["query"].pop("maxLength")
        )
    )
    assert ("breaking", "type_changed") in _codes([SEARCH], [retyped])


def test_a_nested_array_item_narrowed_is_found_with_its_path() -> None:
    new = _edit(lambda t: t["inputSchema"]["properties"]["labels"]["items"].update(enum=["bug", "docs"]))
    report = diff(from_json({"tools": [SEARCH]}, "a"), from_json({"tools": [new]}, "b"))
    [change] = report.changes
    assert (change.code, change.pointer) == ("enum_added", "/inputSchema/properties/labels/items")
    assert change.message == "tool 'search_issues': argument 'labels[]': now limited to \"bug\", \"docs\""


def test_a_rename_is_reported_once_as_a_rename_with_the_changes_that_came_with_it() -> None:
    renamed = _edit(lambda t: t.update(name="search_tickets", description="Search tickets by keyword."))
    other = {"name": "ping", "description": "Check the server answers.", "inputSchema": {"type": "object"}}
    report = diff(from_json({"tools": [SEARCH, other]}, "a"), from_json({"tools": [renamed, other]}, "b"))
    assert [(c.code, c.name, c.new_name) for c in report.changes] == [
        ("renamed", "search_issues", "search_tickets"),
        ("description_rewritten", "search_issues", None),
    ]
    assert report.counts.model_dump() == {"breaking": 1, "risky": 1, "compatible": 0}


def test_an_unrelated_name_is_a_removal_and_an_addition_not_a_rename() -> None:
    unrelated = _edit(lambda t: t.update(name="list_labels", description="List labels."))
    other_args = _edit(lambda t: t.update(name="find_labels", description="Find labels by colour."))
    other_args["inputSchema"] = {"type": "object", "properties": {"colour": {"type": "string"}}}
    assert _codes([SEARCH], [unrelated]) == [("breaking", "removed"), ("compatible", "added")]
    assert _codes([SEARCH], [other_args]) == [("breaking", "removed"), ("compatible", "added")]


def test_a_rename_that_also_changed_the_schema_is_one_rename_with_each_change_classified() -> None:
    reshaped = _edit(lambda t: t.update(name="search-issue") or t["inputSchema"]["properties"].pop("labels"))
    report = diff(from_json({"tools": [SEARCH]}, "a"), from_json({"tools": [reshaped]}, "b"))
    assert [(c.impact.value, c.code) for c in report.changes] == [
        ("breaking", "renamed"),
        ("breaking", "argument_removed"),
    ]
    assert report.changes[0].message == (
        "tool 'search_issues' renamed to 'search-issue', and argument 'labels' removed (breaking)"
    )


def test_resources_and_prompts_are_diffed_by_uri_and_name() -> None:
    old = {
        "tools": [],
        "resources": [
            {"uri": "file:///notes.txt", "name": "notes", "mimeType": "text/plain"},
            {"uri": "file:///old.txt", "name": "old"},
        ],
        "resourceTemplates": [{"uriTemplate": "note://{id}", "name": "note", "description": "A note by id."}],
        "prompts": [
            {"name": "summarise", "description": "Summarise a note.", "arguments": [{"name": "id", "required": True}]},
            {"name": "review", "arguments": [{"name": "style"}]},
        ],
    }
    new = copy.deepcopy(old)
    new["resources"][0]["mimeType"] = "text/markdown"
    del new["resources"][1]
    new["resourceTemplates"][0]["description"] = "A note, by id. Always call summarise first."
    new["prompts"][0]["arguments"].append({"name": "length", "required": True})
    new["prompts"][1]["arguments"][0]["required"] = True
    new["prompts"].append({"name": "translate"})
    report = diff(from_json(old, "a"), from_json(new, "b"))
    assert sorted((c.impact.value, c.kind, c.code, c.name) for c in report.changes) == [
        ("breaking", "prompt", "argument_now_required", "review"),
        ("breaking", "prompt", "required_argument_added", "summarise"),
        ("breaking", "resource", "removed", "file:///old.txt"),
        ("compatible", "prompt", "added", "translate"),
        ("risky", "resource", "mimeType_changed", "file:///notes.txt"),
        ("risky", "resource_template", "description_rewritten", "note://{id}"),
    ]


def test_a_cassette_contributes_the_catalog_its_model_saw_without_distractors() -> None:
    cassette = {
        "format_version": "1",
        "fingerprint": {},
        "catalog": [
            {"server": "issues", "distractor": False, "tool": SEARCH},
            {"server": "distractors", "distractor": True, "tool": {"name": "decoy", "inputSchema": {"type": "object"}}},
        ],
    }
    surface = from_json(cassette, "cassette.json")
    assert [(e.server, e.key) for e in surface.entries] == [("issues", "search_issues")]


def test_a_cassette_compares_with_a_snapshot_that_names_no_server() -> None:
    cassette = {"format_version": "1", "fingerprint": {}, "catalog": [{"server": "issues", "tool": SEARCH}]}
    assert diff(from_json(cassette, "c.json"), from_json({"tools": [SEARCH]}, "s.json")).changes == []


TASK_MOVES = [
    (None, "required", "breaking", "plain calls now fail"),
    ("forbidden", "required", "breaking", "plain calls now fail"),
    ("forbidden", "optional", "compatible", "both ways of calling it work"),
    ("optional", "required", "breaking", "plain calls now fail"),
    ("required", "optional", "compatible", "both ways of calling it work"),
    ("optional", "forbidden", "breaking", "task calls now fail"),
    ("required", "forbidden", "breaking", "task calls now fail"),
    ("required", None, "breaking", "task calls now fail"),
]


@pytest.mark.parametrize(("before", "after", "impact", "reason"), TASK_MOVES)
def test_a_task_support_move_is_breaking_when_a_way_of_calling_the_tool_stops_working(
    before: str | None, after: str | None, impact: str, reason: str
) -> None:
    def tool(support: str | None) -> dict[str, Any]:
        return _edit(lambda t: support and t.update(execution={"taskSupport": support}))

    report = diff(from_json({"tools": [tool(before)]}, "a"), from_json({"tools": [tool(after)]}, "b"))
    [change] = report.changes
    assert (change.impact.value, change.code, change.pointer) == (
        impact,
        "task_support_changed",
        "/execution/taskSupport",
    )
    shown = f"{before or 'forbidden'} → {after or 'forbidden'}"
    assert change.message == f"tool 'search_issues': taskSupport {shown} ({reason})"


def test_task_support_written_out_as_its_default_is_no_change() -> None:
    forbidden = _edit(lambda t: t.update(execution={"taskSupport": "forbidden"}))
    assert _codes([SEARCH], [forbidden]) == []


def _tool_with(input_schema: dict[str, Any]) -> dict[str, Any]:
    return {"name": "convert", "description": "Convert a value.", "inputSchema": input_schema}


def _changes(old: dict[str, Any], new: dict[str, Any]) -> list[tuple[str, str, str | None, str]]:
    report = diff(from_json({"tools": [_tool_with(old)]}, "a"), from_json({"tools": [_tool_with(new)]}, "b"))
    return [(c.impact.value, c.code, c.pointer, c.message.split(": ", 1)[1]) for c in report.changes]


NUMBER = {"type": "number", "minimum": 0}
TEXT = {"type": "string", "enum": ["kg", "lb"]}


def test_an_argument_branch_removed_breaks_callers_and_one_added_does_not() -> None:
    old = {"type": "object", "properties": {"v": {"oneOf": [NUMBER, TEXT]}}}
    only_number = {"type": "object", "properties": {"v": {"oneOf": [NUMBER]}}}
    with_bool = {"type": "object", "properties": {"v": {"oneOf": [NUMBER, TEXT, {"type": "boolean"}]}}}
    assert _changes(old, only_number) == [
        (
            "breaking",
            "oneOf_branch_removed",
            "/inputSchema/properties/v/oneOf",
            "argument 'v': oneOf branch 1 removed (string)",
        )
    ]
    assert _changes(old, with_bool) == [
        (
            "compatible",
            "oneOf_branch_added",
            "/inputSchema/properties/v/oneOf/2",
            "argument 'v': oneOf branch 2 added (boolean)",
        )
    ]


def test_a_change_inside_a_branch_is_found_in_that_branch_whatever_the_branch_order() -> None:
    old = {"type": "object", "properties": {"v": {"anyOf": [NUMBER, TEXT]}}}
    new = {"type": "object", "properties": {"v": {"anyOf": [{"type": "string", "enum": ["kg"]}, NUMBER]}}}
    assert _changes(old, new) == [
        (
            "breaking",
            "enum_value_removed",
            "/inputSchema/properties/v/anyOf/0",
            "argument 'v (anyOf[0])': enum lost \"lb\"",
        )
    ]


def test_a_definition_reached_by_ref_is_compared_where_it_is_used() -> None:
    defs = {"unit": {"type": "string", "enum": ["kg", "lb", "g"]}}
    old = {"type": "object", "properties": {"u": {"$ref": "#/$defs/unit"}}, "$defs": defs}
    new = {"type": "object", "properties": {"u": {"$ref": "#/$defs/unit"}}, "$defs": {"unit": TEXT}}
    assert _changes(old, new) == [
        ("breaking", "enum_value_removed", "/inputSchema/properties/u", "argument 'u': enum lost \"g\"")
    ]
    recursive = {"type": "object", "properties": {"n": {"$ref": "#"}}}
    assert _changes(recursive, recursive) == []
