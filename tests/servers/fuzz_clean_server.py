"""A correct MCP server written with the SDK's MCPServer, for `mcptest fuzz` to find nothing wrong with: bounded
numbers, an enum, optional keys and a structured result, all validated by the SDK."""

from __future__ import annotations

from typing import Annotated, Literal

from mcp.server.mcpserver import MCPServer
from mcp.types import ToolAnnotations
from pydantic import BaseModel, Field


class Forecast(BaseModel):
    city: str
    days: int
    units: str


def build() -> MCPServer:
    """The server: two read-only tools."""
    server = MCPServer("fuzz-clean")
    read_only = ToolAnnotations(readOnlyHint=True)

    @server.tool(annotations=read_only)
    def get_forecast(
        city: Annotated[str, Field(max_length=80)],
        days: Annotated[int, Field(ge=1, le=7)] = 1,
        units: Literal["c", "f"] = "c",
    ) -> Forecast:
        """The forecast for a city, for 1 to 7 days."""
        return Forecast(city=city, days=days, units=units)

    @server.tool(annotations=read_only)
    def search_words(words: list[str], limit: Annotated[int, Field(ge=1, le=20)] = 5) -> str:
        """Search for any of the words; at most `limit` hits."""
        return f"{min(len(words), limit)} hit(s)"

    return server


if __name__ == "__main__":
    build().run()
