"""An SDK server with a known latency distribution: `sleepy` takes the next delay of a fixed list on each call, so N
calls (N a multiple of the list's length) take exactly those delays whatever order they overlap in; `zero` answers
at once through the same code (the transport's own overhead); `served_ms` tells the service times the server itself
measured for each (so a benchmark can show the delays were delivered); `every_fifth` answers `fifth` instead of
`fine` on every fifth call; `every_other_error` answers an isError result on every second call; `serial` takes 20 ms
one call at a time (so at most 50 calls/s: a known capacity for `mcptest load --find-limit`)."""

from __future__ import annotations

import json
import sys
import time
from collections import deque

import anyio
from mcp.server.mcpserver import MCPServer
from mcp.types import CallToolResult, TextContent

DELAYS_MS = [8 + (i * 37) % 40 for i in range(40)]
"""40 delays, each of 8..47 ms once: the true percentiles of any multiple of 40 calls are those of this list."""
FINISH_S = 0.002
"""The last 2 ms of a delay are waited out on the clock (yielding to the event loop), not on a timer: an asyncio
timer fires up to 1 ms late (epoll's timeout is whole milliseconds, rounded up) plus the process's wake-up, so a bare
`sleep` took 0.5 ms more than asked at the median and 1.4 ms more at p90, measured inside this server."""
SERIAL_MS = 20
"""`serial`'s service time: calls queue behind one another, so its capacity is under 1000 / SERIAL_MS calls/s."""


def build() -> MCPServer:
    """The latency server."""
    server = MCPServer("latency-server")
    calls = {"sleepy": 0, "every_fifth": 0, "every_other_error": 0}
    lock = anyio.Lock()
    served: dict[str, deque[float]] = {"sleepy": deque(maxlen=10_000), "zero": deque(maxlen=10_000)}

    async def take(tool: str, delay_ms: float) -> None:
        """Take exactly `delay_ms` (0: none), and note the time it took as this server measured it."""
        start = time.perf_counter()
        end = start + delay_ms / 1000
        if end - FINISH_S > start:
            await anyio.sleep(end - FINISH_S - start)
        while time.perf_counter() < end:
            await anyio.sleep(0)
        served[tool].append((time.perf_counter() - start) * 1000)

    @server.tool()
    async def sleepy() -> str:
        """Take the next delay of the list."""
        delay = DELAYS_MS[calls["sleepy"] % len(DELAYS_MS)]
        calls["sleepy"] += 1
        await take("sleepy", delay)
        return f"slept {delay} ms"

    @server.tool()
    async def zero() -> str:
        """Answer at once, through the same code as `sleepy` (an async tool on the event loop; a sync one would run
        on a worker thread: another path, with other costs)."""
        await take("zero", 0)
        return "done"

    @server.tool()
    def served_ms() -> str:
        """The service times (ms) of `sleepy` and `zero` so far (the last 10,000 of each), as measured inside this
        server, in call order."""
        return json.dumps({tool: list(times) for tool, times in served.items()})

    @server.tool()
    async def serial() -> str:
        """Sleep 20 ms holding a lock: one call at a time, so the server answers at most 50 calls/s."""
        async with lock:
            await anyio.sleep(SERIAL_MS / 1000)
        return "done"

    @server.tool()
    def every_fifth() -> str:
        """Answer `fine`, and `fifth` on every fifth call (a cheap wrong answer: the SDK logs a raised error slowly)."""
        calls["every_fifth"] += 1
        return "fifth" if calls["every_fifth"] % 5 == 0 else "fine"

    @server.tool()
    def every_other_error() -> CallToolResult:
        """Answer `fine`, and an isError result on every second call."""
        calls["every_other_error"] += 1
        error = calls["every_other_error"] % 2 == 0
        return CallToolResult(content=[TextContent(type="text", text="no" if error else "fine")], isError=error)

    return server


if __name__ == "__main__":
    if sys.argv[1:2] == ["http"]:  # `http PORT`: Streamable HTTP on 127.0.0.1
        build().run("streamable-http", host="127.0.0.1", port=int(sys.argv[2]))
    else:
        build().run()
