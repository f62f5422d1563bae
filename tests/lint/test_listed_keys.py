"""A number key whose object another tool of the catalog lists is not asked about (DESC-006): the listing gives it.

The shapes are mcp-jama's (held_out_56, real): Japanese descriptions, so the key's object words are in no English
text of the tool, and the labellers called an undescribed `test_plan_id` beside `get_test_plans` evident, while an
`item_type_id` no tool lists stayed a defect.
"""

from __future__ import annotations

from mcptest.checks.lint import lint_tool, lint_tools, select_rules
from mcptest.checks.lint.arg_rules import lists_object
from mcptest.records.catalog import Tool

RULES = select_rules(["DESC-006"], ())


def _tool(name: str, description: str, *keys: str) -> Tool:
    props = {k: {"type": "integer"} for k in keys}
    return Tool(
        {
            "name": name,
            "description": description,
            "inputSchema": {"type": "object", "properties": props, "required": list(keys)},
        }
    )


def _asked(tools: list[Tool]) -> set[tuple[str, str]]:
    return {(f.tool, f.pointer or "") for fs in lint_tools(tools, RULES) for f in fs if f.rule == "DESC-006"}


def test_a_number_key_a_listing_tool_gives_is_left_alone_and_one_no_tool_lists_is_asked_about() -> None:
    cycles = _tool("get_test_cycles", "テストプランに属するテストサイクル一覧を取得する", "test_plan_id")
    create = _tool(
        "create_relationship",
        "2つのアイテム間にトレーサビリティリンクを作成する",
        "from_item_id",
        "relationship_type_id",
    )
    listings = [_tool("get_test_plans", "テストプラン一覧を取得する"), _tool("get_items", "アイテム一覧を取得する")]
    listings.append(_tool("get_relationships", "アイテムのリレーション一覧を取得する", "item_id"))
    asked = _asked([cycles, create, *listings])
    assert ("get_test_cycles", "/inputSchema/properties/test_plan_id") not in asked
    assert ("create_relationship", "/inputSchema/properties/from_item_id") not in asked  # `from_` names a role
    assert ("create_relationship", "/inputSchema/properties/relationship_type_id") in asked  # relationships, no types
    assert ("get_relationships", "/inputSchema/properties/item_id") not in asked


def test_without_the_listing_or_alone_the_key_is_still_asked_about() -> None:
    cycles = _tool("get_test_cycles", "テストプランに属するテストサイクル一覧を取得する", "test_plan_id")
    assert ("get_test_cycles", "/inputSchema/properties/test_plan_id") in _asked([cycles, _tool("get_items", "一覧")])
    assert [f.pointer for f in lint_tool(cycles, RULES)] == ["/inputSchema/properties/test_plan_id"]  # no catalog


def test_a_tool_that_does_not_say_what_it_does_keeps_its_finding() -> None:
    """listmonk-mcp-bridge (held_out_43, real): an empty description, the key's object named nowhere in the tool."""
    summary = _tool("audience_summary", "", "listIds")
    assert ("audience_summary", "/inputSchema/properties/listIds") in _asked([summary, _tool("get_mailing_lists", "")])


def test_a_listing_is_a_listing_verb_and_the_object_in_the_plural() -> None:
    assert lists_object("get_test_plans", ("test", "plan"))
    assert lists_object("discourse_filter_topics", ("topic",))
    assert lists_object("list_categories", ("category",))
    assert not lists_object("template_catalog", ("template",))  # no verb, no plural
    assert not lists_object("get_relationships", ("relationship", "type"))
    assert not lists_object("get_test_plan", ("test", "plan"))  # one plan, not a listing
