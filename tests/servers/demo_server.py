"""A real MCP server written with the SDK's MCPServer: used in-process and as a stdio subprocess."""

from __future__ import annotations

import sys

from mcp.server.mcpserver import MCPServer
from pydantic import BaseModel


class Weather(BaseModel):
    city: str
    temp: int
    conditions: str


def build() -> MCPServer:
    """The demo server: a few tools with plain, structured and error results."""
    server = MCPServer("demo-server")

    @server.tool()
    def add(a: int, b: int) -> int:
        """Add two integers and return the sum."""
        return a + b

    @server.tool()
    def echo(text: str) -> str:
        """Return the text unchanged."""
        return text

    @server.tool()
    def weather(city: str) -> Weather:
        """Current weather for a city, as structured content."""
        return Weather(city=city, temp=72, conditions="sunny")

    @server.tool()
    def fail(reason: str) -> str:
        """Always fails with the given reason."""
        raise ValueError(reason)

    return server


if __name__ == "__main__":
    transport = sys.argv[1] if len(sys.argv) > 1 else "stdio"
    if transport == "stdio":
        build().run()
    elif transport == "sse":
        build().run("sse", host="127.0.0.1", port=int(sys.argv[2]))
    else:
        build().run("streamable-http", host="127.0.0.1", port=int(sys.argv[2]))
