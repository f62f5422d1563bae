"""Hostile-input figures (issue 20): how long mcptest takes to give up on what used to hang it.

1. Regex: `(a+)+$` on `a * n + "!"`. Python's backtracking `re` doubles its time with every extra `a` (measured
   for small n, in a child process bounded by a timeout); RE2, mcptest's engine, at n = 1,000,000.
2. A server writing bytes that are not UTF-8 to stdout, with a 300 s connect timeout: seconds until the
   `mcptest run` subprocess exits (it used to wait out the whole timeout).
3. Ending a server's process group that holds a killed, unreaped grandchild: the time `end_group` takes
   (waiting for the group to vanish would cost the whole 1 s grace period).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import anyio

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

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

    processes.end_group = timed  # type: ignore[assignment]  # measuring only
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
    processes.end_group = original
    return timings[0]


def main() -> None:
    os.chdir(ROOT)
    for n in (20, 22, 24, 26):
        print(f"python re, {EVIL} on {n} a's + '!': {python_re(n)}")
    print(f"RE2 (mcptest), {EVIL} on 1,000,000 a's + '!': {re2(1_000_000)}")
    print(f"non-UTF-8 server, 300 s connect timeout: mcptest run exits after {non_utf8_run():.2f} s")
    print(f"ending a server's group with a killed grandchild: {group_end() * 1000:.1f} ms")


if __name__ == "__main__":
    main()
