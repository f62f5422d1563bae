"""Hostile-input figures (issue 20): how long mcptest takes to give up on what used to hang it.

1. Regex: `(a+)+$` on `a * n + "!"`. Python's backtracking `re` doubles its time with every extra `a` (measured
   for small n, in a child process bounded by a timeout); RE2, mcptest's engine, at n = 1,000,000.
2. A server writing bytes that are not UTF-8 to stdout, with a 300 s connect timeout: seconds until the
   `mcptest run` subprocess exits (it used to wait out the whole timeout).
3. Ending a server's process group that holds a killed, unreaped grandchild: the time `end_group` takes
   (waiting for the group to vanish would cost the whole 1 s grace period).

Issue 25 (a server cannot break the runner), each in a child process of its own so its memory is its alone:

4. A 50 MB tool result: seconds from the request to the parsed result (the server built the line before the call,
   so only the transfer and mcptest's reading count). Target < 1 s (it took ~20 s when the reader re-joined the
   line at every chunk).
5. A result of 1,000,000 content items: seconds for the call, and the peak memory of the client process (imports
   included). Target < 3 s and < 500 MiB (it took ~30 s and ~2 GB before items were cut before the SDK's check).
6. The per-call cost of the bounds: the reader (`wire.parse_line`, the `Watch` on both streams, the item cut) minus
   the SDK's own line parser, per call (three messages: request, progress-free answer, and the Watch's bookkeeping),
   as a share of the per-test time of a 1,000-test `mcptest run` against the mock. Target < 2 %.

    python benchmarks/hostile.py [--only regex,utf8,group,big,items,overhead]
"""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import anyio

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from mcptest.core.regexes import search  # noqa: E402
from mcptest.server.session import SessionPool  # noqa: E402
from mcptest.suite.models import StdioServer  # noqa: E402

EVIL = "(a+)+$"


def python_re(n: int, limit: float = 30.0) -> str:
    code = (
        f"import re, time; t = time.perf_counter(); re.search({EVIL!r}, 'a' * {n} + '!'); "
        "print(time.perf_counter() - t)"
    )
    try:
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=limit)
    except subprocess.TimeoutExpired:
        return f"> {limit:.0f} s"
    return f"{float(out.stdout):.3f} s"


def re2(n: int) -> str:
    start = time.perf_counter()
    search(EVIL, "a" * n + "!")
    return f"{(time.perf_counter() - start) * 1000:.2f} ms"


def non_utf8_run() -> float:
    with tempfile.TemporaryDirectory() as tmp:
        suite = Path(tmp) / "suite.yml"
        server = ROOT / "tests" / "servers" / "binary_server.py"
        suite.write_text(
            f'servers:\n  b:\n    command: ["{sys.executable}", "{server}"]\n    connect_timeout_s: 300\n'
            "tools:\n  - name: t\n    server: b\n    tool: x\n"
        )
        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "mcptest", "run", str(suite)], capture_output=True, timeout=300)
        return time.perf_counter() - start


def group_end() -> float:
    import mcptest.server.processes as processes

    timings: list[float] = []
    original = processes.end_group

    async def timed(process: object) -> None:
        start = time.perf_counter()
        await original(process)
        timings.append(time.perf_counter() - start)

    import mcptest.server.early_stdio as early_stdio

    processes.end_group = early_stdio.end_group = timed  # type: ignore[assignment]  # measuring only
    with tempfile.TemporaryDirectory() as tmp:
        manifest = ROOT / "examples" / "quickstart" / "weather.yml"
        command = [
            sys.executable,
            str(ROOT / "tests" / "servers" / "grandchild_server.py"),
            f"{tmp}/pid",
            str(manifest),
        ]

        async def open_and_close() -> None:
            async with SessionPool({"w": StdioServer(command=command)}) as pool:
                await (await pool.get("w")).list_tools()

        anyio.run(open_and_close)
    processes.end_group = early_stdio.end_group = original  # type: ignore[assignment]
    return timings[0]


PREBUILT_SERVER = r"""
import json, sys
kind, n = sys.argv[1], int(sys.argv[2])
if kind == "big":
    result = {"content": [{"type": "text", "text": "x" * n}]}
else:
    result = {"content": [{"type": "text", "text": "i"}] * n}
body = json.dumps(result)
for line in sys.stdin:
    m = json.loads(line)
    if "id" not in m or "method" not in m:
        continue
    if m["method"] == "initialize":
        info = {"name": "p", "version": "1"}
        r = {"protocolVersion": "2025-06-18", "capabilities": {"tools": {}}, "serverInfo": info}
        out = json.dumps({"jsonrpc": "2.0", "id": m["id"], "result": r})
    elif m["method"] == "tools/call":
        out = '{"jsonrpc":"2.0","id":%s,"result":%s}' % (json.dumps(m["id"]), body)
    else:
        out = json.dumps({"jsonrpc": "2.0", "id": m["id"], "error": {"code": -32601, "message": "no"}})
    sys.stdout.write(out + "\n")
    sys.stdout.flush()
"""

TIMED_CALL = """
import anyio, json, resource, sys, time
from mcptest.server.session import SessionPool
from mcptest.suite.models import StdioServer

async def main():
    config = StdioServer(command=[sys.executable, "-c", sys.argv[1], sys.argv[2], sys.argv[3]], call_timeout_s=120)
    async with SessionPool({"p": config}) as pool:
        session = await pool.get("p")
        start = time.perf_counter()
        outcome = await session.call_tool("t", {})
        seconds = time.perf_counter() - start
    content = (outcome.result or {}).get("content", [])
    kept = len(content[0]["text"]) if sys.argv[2] == "big" and content else len(content)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps({"seconds": seconds, "peak_mib": peak, "kept": kept, "error": outcome.error}))

anyio.run(main)
"""


def timed_call(kind: str, n: int) -> dict:
    """One call against a server that built its answer beforehand, in a child process: seconds, peak MiB, kept."""
    import json

    out = subprocess.run(
        [sys.executable, "-c", TIMED_CALL, PREBUILT_SERVER, kind, str(n)],
        capture_output=True, text=True, timeout=600, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)},
    )  # fmt: skip
    if out.returncode != 0:
        raise RuntimeError(out.stderr[-2000:])
    return dict(json.loads(out.stdout))


def bounds_cost_per_call(rounds: int = 20_000) -> float:
    """Seconds the bounds add to one call: mcptest's line reading and Watch minus the SDK's line parser."""
    from mcp.client.stdio import _parse_line
    from mcp.shared.message import SessionMessage
    from mcp_types import JSONRPCRequest

    from mcptest.server.wire import LineSplitter, Watch, parse_line

    answer = json.dumps({"jsonrpc": "2.0", "id": 1, "result": {"content": [{"type": "text", "text": "Paris: 21 C"}],
                         "structuredContent": {"city": "Paris", "temperature": 21}}})  # fmt: skip
    request = SessionMessage(JSONRPCRequest(jsonrpc="2.0", id=1, method="tools/call", params={"name": "w"}))
    splitter = LineSplitter(64_000_000)
    watch = Watch()

    def ours() -> None:
        watch.outgoing(request)
        (line,) = splitter.feed(answer + "\n")
        watch.incoming(parse_line(line))

    def sdk() -> None:
        _parse_line(answer)

    def best(step: Callable[[], None]) -> float:
        times = []
        for _ in range(5):
            start = time.perf_counter()
            for _ in range(rounds):
                step()
            times.append((time.perf_counter() - start) / rounds)
        return min(times)

    logging.getLogger("mcp").setLevel(logging.CRITICAL)
    return best(ours) - best(sdk)


def thousand_test_run() -> float:
    """Seconds per test of a 1,000-test `mcptest run` against the mock (the suite of benchmarks/tool_suite.py)."""
    from tool_suite import cli_seconds, write_suite

    with tempfile.TemporaryDirectory() as tmp:
        return cli_seconds(write_suite(Path(tmp), 1000)) / 1000


def main() -> None:
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", default="regex,utf8,group,big,items,overhead")
    only = set(parser.parse_args().only.split(","))
    os.chdir(ROOT)
    if "regex" in only:
        for n in (20, 22, 24, 26):
            print(f"python re, {EVIL} on {n} a's + '!': {python_re(n)}")
        print(f"RE2 (mcptest), {EVIL} on 1,000,000 a's + '!': {re2(1_000_000)}")
    if "utf8" in only:
        print(f"non-UTF-8 server, 300 s connect timeout: mcptest run exits after {non_utf8_run():.2f} s")
    if "group" in only:
        print(f"ending a server's group with a killed grandchild: {group_end() * 1000:.1f} ms")
    if "big" in only:
        big = timed_call("big", 50_000_000)
        print(f"a 50 MB result: read in {big['seconds']:.3f} s ({big['kept']:,} characters kept; target < 1 s)")
    if "items" in only:
        items = timed_call("items", 1_000_000)
        print(
            f"1,000,000 content items: {items['seconds']:.3f} s, peak {items['peak_mib']:.0f} MiB "
            f"({items['kept']:,} kept; target < 3 s and < 500 MiB)"
        )
    if "overhead" in only:
        cost = bounds_cost_per_call()
        per_test = thousand_test_run()
        print(
            f"the bounds cost {cost * 1e6:.1f} µs per call; a 1,000-test run takes {per_test * 1000:.2f} ms per "
            f"test: {cost / per_test * 100:.2f} % (target < 2 %)"
        )


if __name__ == "__main__":
    main()
