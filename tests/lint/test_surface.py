"""Tool-surface tokens: name + description + compact inputSchema JSON, counted with the shared cl100k counter."""

from __future__ import annotations

import json
from pathlib import Path

from mcptest.checks.lint.surface import catalog_tokens, surface_parts, tool_tokens
from mcptest.core.tokens import count_tokens
from mcptest.records.catalog import Tool, load_catalog

TOOL = Tool(
    {
        "name": "get_weather",
        "description": "Get the weather for a city.",
        "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}}},
        "title": "ignored",
    }
)


def test_the_three_parts_are_the_name_the_description_and_compact_schema_json() -> None:
    assert surface_parts(TOOL) == (
        "get_weather",
        "Get the weather for a city.",
        '{"type":"object","properties":{"city":{"type":"string"}}}',
    )


def test_a_tool_costs_the_sum_of_its_parts() -> None:
    assert tool_tokens(TOOL) == sum(count_tokens(p) for p in surface_parts(TOOL)) == 2 + 7 + 14


def test_a_catalog_costs_the_sum_of_its_tools() -> None:
    catalog = load_catalog(Path(__file__).parent / "fixtures" / "mcp-server-time.json")
    assert catalog_tokens(catalog) == sum(tool_tokens(t) for t in catalog.tools) == 238
    assert json.dumps(catalog.tools[0].input_schema)  # the schema is the wire one, untouched
