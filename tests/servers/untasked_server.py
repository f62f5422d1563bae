"""A 2025-11-25 server that lists a task-required tool but declares no `tasks` capability (a broken server)."""

from __future__ import annotations

from typing import Any

import anyio
from mcp import types
from mcp.server.lowlevel import Server
from mcp.server.runner import serve_loop
from mcp.server.stdio import stdio_server


async def _list_tools(ctx: Any, params: types.PaginatedRequestParams | None) -> types.ListToolsResult:
    tool = {"name": "research", "inputSchema": {"type": "object"}, "execution": {"taskSupport": "required"}}
    return types.ListToolsResult(tools=[types.Tool.model_validate(tool)])


async def main() -> None:
    server: Server[Any] = Server("untasked", on_list_tools=_list_tools)
    async with stdio_server() as (read, write), server.lifespan(server) as state:
        await serve_loop(server, read, write, lifespan_state=state, init_options=server.create_initialization_options())


if __name__ == "__main__":
    anyio.run(main)
