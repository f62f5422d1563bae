"""A server that completes the handshake, then answers `spew` with bytes that are not UTF-8 and never a result."""

from __future__ import annotations

import os
import time

from mcp.server.mcpserver import MCPServer

WIRE = os.dup(1)  # the SDK diverts fd 1 to stderr while it serves; this copy still reaches the client
server = MCPServer("binary-midcall")


@server.tool()
def spew() -> str:
    """Write binary to stdout instead of an answer, then hang."""
    os.write(WIRE, b"\xff\xd8\xff\xe0 a JPEG where JSON-RPC belongs\n")
    time.sleep(600)
    return "never"


if __name__ == "__main__":
    server.run()
