"""A tool only its MCP Apps UI calls (`_meta.ui.visibility: ["app"]`) is kept out of the model's tool list by the
host, so the description lint, which judges how an agent reads and fills a tool, leaves it alone."""

from __future__ import annotations

from mcptest.checks.lint import lint_tools
from mcptest.records.catalog import Tool

# @modelcontextprotocol/server-pdf's submit_page_data (real): no annotations, no result, open schemas.
BARE = {
    "name": "submit_page_data",
    "description": "Submit rendered page data",
    "inputSchema": {"type": "object", "properties": {"pages": {"type": "array", "items": {"type": "object"}}}},
}


def _tool(visibility: list[str] | None) -> Tool:
    return Tool({**BARE, "_meta": {"ui": {"visibility": visibility}}} if visibility is not None else dict(BARE))


def test_an_app_only_tool_is_not_linted_and_says_why() -> None:
    [findings] = lint_tools([_tool(["app"])])
    hidden = "hidden from the model (_meta.ui.visibility): not linted"
    assert [(f.rule, f.message) for f in findings] == [("PASS", hidden)]


def test_a_tool_the_model_sees_is_linted_whatever_its_ui_metadata() -> None:
    for visibility in (None, [], ["model"], ["model", "app"]):
        [findings] = lint_tools([_tool(visibility)])
        assert {f.rule for f in findings} >= {"DESC-012", "SCH-002"}, visibility
