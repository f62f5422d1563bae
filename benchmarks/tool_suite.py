"""Per-test overhead of `mcptest run` on a 200-test tool suite against one mock server.

The server's own latency is measured with the bare SDK client (one session, the same call 200 times); mcptest's
per-test cost is the difference between a 201-test and a 1-test run of the CLI, divided by 200, so process
start-up and the server's start-up cancel out. Each figure is the best of REPEATS runs, the one least
disturbed by a busy machine. Target (issue 2): under 10 ms of overhead per test.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import anyio

ROOT = Path(__file__).resolve().parent.parent
MANIFEST = ROOT / "examples" / "quickstart" / "weather.yml"
TESTS = 200
REPEATS = 5

TEST = """
  - name: weather {i}
    server: weather
    tool: get_weather
    args: {{ city: "City {i}" }}
    expect:
      - target: result.content[0].text
        matcher: {{ contains: "City {i}" }}
      - result.structuredContent.temperature: {{ ">=": -90 }}
"""


def write_suite(directory: Path, count: int) -> Path:
    path = directory / f"suite-{count}.yml"
    header = f'servers:\n  weather:\n    command: ["mcptest", "mock", "--tools-from", "{MANIFEST}"]\ntools:\n'
    path.write_text(header + "".join(TEST.format(i=i) for i in range(count)), encoding="utf-8")
    return path


def cli_seconds(suite: Path) -> float:
    start = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-m", "mcptest", "run", str(suite), "-r", "json"], cwd=ROOT, capture_output=True, check=False
    )
    assert proc.returncode == 0, proc.stderr
    return time.perf_counter() - start


async def sdk_seconds_per_call() -> float:
    from mcp import Client, StdioServerParameters, types
    from mcp.client.stdio import stdio_client

    params = StdioServerParameters(
        command=sys.executable, args=["-m", "mcptest", "mock", "--tools-from", str(MANIFEST)]
    )
    with open(os.devnull, "w") as quiet:
        return await _timed_calls(Client(stdio_client(params, errlog=quiet)), types)


async def _timed_calls(client: Any, types: Any) -> float:
    async with client:
        await client.list_tools()
        start = time.perf_counter()
        for i in range(TESTS):
            request = types.CallToolRequest(
                params=types.CallToolRequestParams(name="get_weather", arguments={"city": f"City {i}"})
            )
            await client.session.send_request(request, types.CallToolResult)
        return (time.perf_counter() - start) / TESTS


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        small, large = write_suite(Path(tmp), 1), write_suite(Path(tmp), TESTS + 1)
        one = min(cli_seconds(small) for _ in range(REPEATS))
        many = min(cli_seconds(large) for _ in range(REPEATS))
    per_test = (many - one) / TESTS * 1000
    server = min(anyio.run(sdk_seconds_per_call) for _ in range(REPEATS)) * 1000
    print(f"mcptest run, 1 test:                 {one * 1000:8.1f} ms")
    print(f"mcptest run, {TESTS + 1} tests:               {many * 1000:8.1f} ms")
    print(f"mcptest per test:                    {per_test:8.2f} ms")
    print(f"bare SDK call (server latency):      {server:8.2f} ms")
    print(f"mcptest overhead per test:           {per_test - server:8.2f} ms (target < 10)")


if __name__ == "__main__":
    main()
