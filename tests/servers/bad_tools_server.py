"""A raw stdio MCP server whose `tools/list` the SDK's models reject: good tools beside bad ones, over two pages.

Run as `python bad_tools_server.py`; it answers `initialize`, `tools/list` (page 1, then page 2 by cursor),
`tools/call` of the good tools, and exits when stdin closes. `BAD_TOOLS_NAME` sets its `serverInfo.name`.
"""

from __future__ import annotations

import json
import os
import sys

PAGES = [
    [
        {
            "name": "echo",
            "description": "Echo the text back unchanged, for checking that the server answers at all.",
            "inputSchema": {
                "type": "object",
                "properties": {"text": {"type": "string", "maxLength": 100, "description": "What to echo."}},
                "required": ["text"],
                "additionalProperties": False,
            },
        },
        {"name": "stringly", "description": "A tool whose input schema is a string.", "inputSchema": "object"},
        {"description": "A tool with no name.", "inputSchema": {"type": "object"}},
    ],
    [
        {
            "name": "untyped",
            "description": "A tool whose schema has no type, as zod-to-json-schema once wrote it.",
            "inputSchema": {"$schema": "http://json-schema.org/draft-07/schema#"},
        },
        "not a tool",
        {
            "name": "add",
            "description": "Add two integers and return their sum as text.",
            "inputSchema": {
                "type": "object",
                "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}},
                "required": ["a", "b"],
                "additionalProperties": False,
            },
        },
    ],
]


def answer(request: dict) -> dict:
    """The result for one request."""
    method, params = request.get("method"), request.get("params") or {}
    if method == "initialize":
        return {
            "protocolVersion": params.get("protocolVersion", "2025-06-18"),
            "capabilities": {"tools": {}},
            "serverInfo": {"name": os.environ.get("BAD_TOOLS_NAME", "bad-tools"), "version": "1.0.0"},
        }
    if method == "tools/list":
        page = int(params.get("cursor") or 0)
        return {"tools": PAGES[page]} | ({"nextCursor": str(page + 1)} if page + 1 < len(PAGES) else {})
    if method == "tools/call":
        args = params.get("arguments") or {}
        text = args.get("text", "") if params.get("name") == "echo" else str(args.get("a", 0) + args.get("b", 0))
        return {"content": [{"type": "text", "text": text}]}
    return {}


def main() -> None:
    """Answer requests, one JSON-RPC message a line, until stdin closes."""
    for line in sys.stdin:
        message = json.loads(line)
        if "id" in message and "method" in message:
            print(json.dumps({"jsonrpc": "2.0", "id": message["id"], "result": answer(message)}), flush=True)


if __name__ == "__main__":
    main()
