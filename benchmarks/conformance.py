"""`mcptest conformance` against real servers and against the planted-defect server: which checks pass, warn, fail
and are skipped on each correct third-party server (false alarms), how many planted defects are caught by the
check named for them, and the time of each run.

Issue 27's figures: zero false failures on correct servers (stdio, and Streamable HTTP where a server offers it);
each planted defect caught by its own check and nothing unrelated; the whole run on server-everything over stdio
under 3 s (median of REPEATS runs, inside the run: start-up of the server included, not mcptest's own start-up).
The servers are the ones the project installs: tests/servers/npm (server-everything, -filesystem, -memory) and the
dev extra's PyPI servers (mcp-server-time, -git, -fetch), plus a tools-only server on the official Python SDK
(tests/servers/demo_server.py). benchmarks/conformance_official.py runs the official npm suite beside it.

    python benchmarks/conformance.py [--skip-defects | --sse-only]
"""

from __future__ import annotations

import argparse
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from _timing import ROOT, load_note

sys.path.insert(0, str(ROOT))
REPEATS = 3
NPM = ROOT / "tests" / "servers" / "npm" / "node_modules" / ".bin"
BIN = Path(sys.executable).parent
DEMO = str(ROOT / "tests" / "servers" / "demo_server.py")


def stdio_servers(scratch: Path) -> dict[str, list[str]]:
    return {
        "server-everything": [str(NPM / "mcp-server-everything"), "stdio"],
        "server-filesystem": [str(NPM / "mcp-server-filesystem"), str(scratch)],
        "server-memory": [str(NPM / "mcp-server-memory")],
        "mcp-server-time": [str(BIN / "mcp-server-time")],
        "mcp-server-git": [str(BIN / "mcp-server-git"), "--repository", str(ROOT)],
        "mcp-server-fetch": [str(BIN / "mcp-server-fetch")],
        "Python SDK tools-only (demo_server)": [sys.executable, DEMO],
    }


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def http_server(argv: list[str], port: int, env: dict[str, str] | None = None):  # type: ignore[no-untyped-def]
    """Start an HTTP server process, wait until its port answers, and end it (its process group) afterwards."""
    proc = subprocess.Popen(
        argv, env={**os.environ, **(env or {})}, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        start_new_session=True,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.1)
        else:
            raise SystemExit(f"{argv[0]} never listened on {port}")
        yield
    finally:
        os.killpg(proc.pid, 15)
        proc.wait(10)


def run(config: Any, every_version: bool = False, version: str | None = None) -> Any:
    """One run offering the newest handshake version (as the issue's figure counts it) or `version`, or every shipped
    version at once (`mcptest conformance`'s default: one connection per version, in parallel)."""
    from mcptest.run.conformance import OFFERED_VERSION, run_conformance

    offered = None if every_version else version or OFFERED_VERSION
    return run_conformance("bench", config, ROOT, 30.0, version=offered)  # a Python server's start-up under load: 10 s


def other_versions(config: Any, transport: str) -> None:
    """One run of every version at once: each other version's counts (or that the server does not speak it)."""
    report = run(config, every_version=True)
    for other in report.others:
        c = other.counts()
        if not other.spoken:
            print(f"|   ... {other.offered_version} | {transport} | not spoken: {'; '.join(other.notes)[:150]} |||||||")
            continue
        failed = sorted(o.id for o in other.outcomes if o.status == "fail" and o.level == "MUST")
        warned = sorted(o.id for o in other.outcomes if o.status == "fail" and o.level == "SHOULD")
        counts = f"{c['pass']} | {c['fail']} | {c['warn']} | {c['skip']}"
        print(f"|   ... {other.offered_version} | {transport} | {counts} | {', '.join(failed) or '-'} | "
              f"{', '.join(warned) or '-'} | (every version: {report.duration_s:.2f}) |", flush=True)  # fmt: skip


def row(name: str, transport: str, reports: list[Any]) -> str:
    report = reports[0]
    c = report.counts()
    times = sorted(r.duration_s for r in reports)
    failed = sorted(o.id for o in report.outcomes if o.status == "fail" and o.level == "MUST")
    warned = sorted(o.id for o in report.outcomes if o.status == "fail" and o.level == "SHOULD")
    median = statistics.median(times)
    return (
        f"| {name} | {transport} | {c['pass']} | {c['fail']} | {c['warn']} | {c['skip']} | "
        f"{', '.join(failed) or '-'} | {', '.join(warned) or '-'} | {median:.2f} [{times[0]:.2f}-{times[-1]:.2f}] |"
    )


HEADER = (
    "| server | transport | pass | fail | warn | skip | MUST failures | SHOULD warnings | s median [min-max] |\n"
    "|---|---|---|---|---|---|---|---|---|"
)


def sse_servers() -> None:
    """The legacy HTTP+SSE transport: server-everything (`sse`) and the SDK server (`demo_server.py sse PORT`)."""
    from mcptest.suite.models import HttpServer

    port = free_port()
    with http_server([str(NPM / "mcp-server-everything"), "sse"], port, {"PORT": str(port)}):
        reports = [run(HttpServer(url=f"http://127.0.0.1:{port}/sse", transport="sse")) for _ in range(REPEATS)]
        print(row("server-everything", "sse", reports), flush=True)
    port = free_port()
    with http_server([sys.executable, DEMO, "sse", str(port)], port):
        reports = [run(HttpServer(url=f"http://127.0.0.1:{port}/sse", transport="sse")) for _ in range(REPEATS)]
        print(row("Python SDK tools-only (demo_server)", "sse", reports), flush=True)


def real_servers() -> None:
    from mcptest.suite.models import HttpServer, StdioServer

    print(HEADER)
    with tempfile.TemporaryDirectory() as scratch:
        env = {"MEMORY_FILE_PATH": str(Path(scratch) / "memory.jsonl")}
        for name, argv in stdio_servers(Path(scratch)).items():
            config = StdioServer(command=argv, env=env)
            print(row(name, "stdio", [run(config) for _ in range(REPEATS)]), flush=True)
            other_versions(config, "stdio")
            if name == "server-everything":
                reports = [run(config, every_version=True) for _ in range(REPEATS)]
                print(row(f"server-everything, every version ({1 + len(reports[0].others)})", "stdio", reports))
        port = free_port()
        with http_server([str(NPM / "mcp-server-everything"), "streamableHttp"], port, {"PORT": str(port)}):
            reports = [run(HttpServer(url=f"http://127.0.0.1:{port}/mcp")) for _ in range(REPEATS)]
            print(row("server-everything (listens on all interfaces)", "http", reports), flush=True)
            other_versions(HttpServer(url=f"http://127.0.0.1:{port}/mcp"), "http")
        port = free_port()
        with http_server([sys.executable, DEMO, "http", str(port)], port):
            reports = [run(HttpServer(url=f"http://127.0.0.1:{port}/mcp")) for _ in range(REPEATS)]
            print(row("Python SDK tools-only (demo_server)", "http", reports), flush=True)
            other_versions(HttpServer(url=f"http://127.0.0.1:{port}/mcp"), "http")


def planted_defects() -> None:
    """Each defect of tests/servers/conformance_server.py, over the transport its test plants it on."""
    from mcptest.suite.models import HttpServer, StdioServer
    from tests.servers.conformance_server import serve_http
    from tests.test_conformance import HTTP, MODERN_HTTP, MODERN_STDIO, STDIO

    server = str(ROOT / "tests" / "servers" / "conformance_server.py")
    caught = exact = 0
    missed: list[str] = []
    total = 0
    planted = ((STDIO, "stdio", None), (HTTP, "http", None), (MODERN_STDIO, "stdio", "2026-07-28"),
               (MODERN_HTTP, "http", "2026-07-28"))  # fmt: skip
    for defects, transport, version in planted:
        for defect, expected in defects.items():
            if defect is None:
                continue
            total += 1
            if transport == "stdio":
                report = run(StdioServer(command=[sys.executable, server, "--defect", defect]), version=version)
            else:
                served = serve_http(defect)
                try:
                    report = run(HttpServer(url=served.url), version=version)
                finally:
                    served.stop()
            failing = {o.id for o in report.outcomes if o.status == "fail"}
            caught += bool(failing & expected)
            exact += failing == expected
            if not failing & expected:
                missed.append(defect)
    print(f"planted-defect runs: {caught}/{total} caught by the check named for them, {exact}/{total} with nothing")
    print(f"  else failing; missed: {', '.join(missed) or 'none'}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--skip-defects", action="store_true", help="only the real servers")
    parser.add_argument("--sse-only", action="store_true", help="only the real servers over legacy SSE")
    options = parser.parse_args()
    print(load_note())
    if options.sse_only:
        print(HEADER)
        sse_servers()
        print(load_note())
        return
    real_servers()
    sse_servers()
    if not options.skip_defects:
        planted_defects()
    print(load_note())


if __name__ == "__main__":
    main()
