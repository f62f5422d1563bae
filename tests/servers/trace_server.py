"""An SDK server that shows the trace context each request brought: `context` answers the `traceparent` and
`tracestate` it found in the request's `_meta`; `broken` fails (an `isError` result); `greet` is a prompt.

Run with no argument for stdio, or `http PORT` for Streamable HTTP on 127.0.0.1."""

from __future__ import annotations

import json
import sys

from mcp.server.mcpserver import Context, MCPServer
from mcp.types import CallToolResult, TextContent


def build() -> MCPServer:
    """The trace-context server."""
    server = MCPServer("trace-server")

    @server.tool()
    def context(ctx: Context) -> str:
        """The W3C trace context this request carried in `params._meta`, as JSON."""
        meta = ctx.request_context.meta or {}
        return json.dumps({key: meta.get(key) for key in ("traceparent", "tracestate")})

    @server.tool()
    def broken() -> CallToolResult:
        """Always fails (an `isError` result, without the traceback the SDK logs for a raised error)."""
        return CallToolResult(content=[TextContent(type="text", text="broken on purpose")], is_error=True)

    @server.prompt()
    def greet(name: str) -> str:
        """A greeting."""
        return f"Hello {name}"

    return server


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "http":
        build().run("streamable-http", host="127.0.0.1", port=int(sys.argv[2]))
    else:
        build().run()
