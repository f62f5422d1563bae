"""An SDK server whose tools overlap in time: it tells how many calls were in flight, and logs between naps."""

from __future__ import annotations

import time
import warnings
from pathlib import Path

import anyio
from mcp.server.mcpserver import Context, MCPServer

warnings.simplefilter("ignore")  # ctx.log is deprecated in 2026-07-28 and still what older clients get


def build() -> MCPServer:
    """The workers server."""
    server = MCPServer("workers-server")
    flight = {"now": 0}

    @server.tool()
    async def nap(ms: int, tag: str) -> str:
        """Sleep `ms` milliseconds; answer the tag, the most calls in flight at once during this one, and when it
        started and ended (wall clock, so calls on different servers can be compared)."""
        start = time.time()
        flight["now"] += 1
        most = flight["now"]
        for _ in range(10):
            await anyio.sleep(ms / 10000)
            most = max(most, flight["now"])
        flight["now"] -= 1
        return f"{tag} overlapped {most} between {start:.6f} and {time.time():.6f}"

    @server.tool()
    async def meet(tag: str, peer: str, folder: str, ms: int) -> str:
        """Leave a mark named `tag` in `folder`, then wait up to `ms` milliseconds for `peer`'s mark: two calls meet
        only when they are in flight at once, however long each server took to start. Answers like `nap`, then
        `met` or `alone`."""
        start = time.time()
        Path(folder, tag).touch()
        met = False
        for _ in range(max(1, ms // 10)):
            met = Path(folder, peer).exists()
            if met:
                break
            await anyio.sleep(0.01)
        return f"{tag} overlapped 1 between {start:.6f} and {time.time():.6f} ({'met' if met else 'alone'})"

    @server.tool()
    async def chatty(tag: str, steps: int, ctx: Context) -> str:
        """Log `tag i` for each step, napping between steps so other calls interleave."""
        for i in range(steps):
            await ctx.log("info", f"{tag} {i}")
            await anyio.sleep(0.01)
        return f"{tag} logged {steps}"

    @server.tool()
    def fail(reason: str) -> str:
        """Always fails."""
        raise ValueError(reason)

    return server


if __name__ == "__main__":
    build().run()
