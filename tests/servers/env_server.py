"""A stdio MCP server whose one tool reports an environment variable as the server process sees it."""

from __future__ import annotations

import os

from mcp.server.mcpserver import MCPServer

server = MCPServer("env-server")


@server.tool()
def env_var(name: str) -> str:
    """The variable's value in this server's environment, or `(unset)`."""
    return os.environ.get(name, "(unset)")


if __name__ == "__main__":
    server.run()
