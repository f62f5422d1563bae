"""A low-level SDK server that lists its 25 tools 10 per page (cursor pagination), for in-process tests."""

from __future__ import annotations

from typing import Any

from mcp import types
from mcp.server.lowlevel import Server

PAGE = 10
TOOLS = [
    types.Tool(name=f"tool_{i:02d}", description=f"Tool number {i}.", input_schema={"type": "object"})
    for i in range(25)
]


async def _list_tools(ctx: Any, params: types.PaginatedRequestParams | None) -> types.ListToolsResult:
    start = int(params.cursor) if params and params.cursor else 0
    end = start + PAGE
    return types.ListToolsResult(tools=TOOLS[start:end], next_cursor=str(end) if end < len(TOOLS) else None)


async def _call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
    return types.CallToolResult(content=[types.TextContent(type="text", text=f"called {params.name}")])


def build() -> Server[Any]:
    """The paginating server."""
    return Server("paged-server", on_list_tools=_list_tools, on_call_tool=_call_tool)
