"""`mcptest serve`: how long `list_tests` on the quickstart takes after initialize, seen by an SDK client.

Each round starts `mcptest serve` as a subprocess over stdio (the official SDK's client), waits for initialize,
then times the first `list_tests` call on examples/quickstart/mcptest.yml (the figure issue 32 names: < 300 ms) and
a second one (warm). Prints medians and quartiles over the rounds, with the load average beside them: on a shared
machine the figure swings with the neighbours' load.

    python benchmarks/serve.py [ROUNDS]
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from pathlib import Path

import anyio

ROOT = Path(__file__).resolve().parent.parent
SUITE = "examples/quickstart/mcptest.yml"
TARGET_MS = 300.0


async def one_round() -> tuple[float, float, float]:
    """(initialize, first list_tests, second list_tests) in ms."""
    from mcp.client.client import Client
    from mcp.client.stdio import StdioServerParameters

    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "mcptest", "serve", "--root", str(ROOT)], env=env, cwd=ROOT
    )
    start = time.perf_counter()
    async with Client(params) as client:
        ready = time.perf_counter()
        first = await client.call_tool("list_tests", {"suite": SUITE})
        after_first = time.perf_counter()
        second = await client.call_tool("list_tests", {"suite": SUITE})
        after_second = time.perf_counter()
    for result in (first, second):
        if result.is_error or not result.structured_content or result.structured_content["count"] < 1:
            sys.exit(f"list_tests failed: {result.content}")
    return (ready - start) * 1000, (after_first - ready) * 1000, (after_second - after_first) * 1000


def summary(values: list[float]) -> str:
    if len(values) < 2:
        return f"{values[0]:7.1f} ms"
    low, _, high = statistics.quantiles(values, n=4)
    return f"median {statistics.median(values):7.1f} ms (quartiles {low:6.1f}-{high:6.1f}, min {min(values):6.1f})"


def main() -> None:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 9
    load_before = Path("/proc/loadavg").read_text().split()[:3]
    figures = [anyio.run(one_round) for _ in range(rounds)]
    load_after = Path("/proc/loadavg").read_text().split()[:3]
    starts, firsts, seconds = (list(column) for column in zip(*figures, strict=True))
    print(f"mcptest serve, {rounds} rounds, load average {' '.join(load_before)} -> {' '.join(load_after)}")
    print(f"  start + initialize         {summary(starts)}")
    print(f"  list_tests, first call     {summary(firsts)}   target < {TARGET_MS:.0f} ms")
    print(f"  list_tests, second call    {summary(seconds)}")
    verdict = "met" if statistics.median(firsts) < TARGET_MS else "NOT met"
    print(f"  first list_tests after initialize: {verdict} (median against {TARGET_MS:.0f} ms)")


if __name__ == "__main__":
    main()
