"""Start a real MCP server process for a test and wait (bounded) until it says it listens."""

from __future__ import annotations

import os
import subprocess
import threading
from collections.abc import Iterator
from contextlib import contextmanager

from tests.conftest import ROOT, free_port

EVERYTHING = str(ROOT / "tests" / "servers" / "npm" / "node_modules" / ".bin" / "mcp-server-everything")


@contextmanager
def listening(argv: list[str], ready: str, env: dict[str, str] | None = None) -> Iterator[None]:
    """Run `argv` until the block ends; enter the block once a stderr line contains `ready` (30 s at most)."""
    proc = subprocess.Popen(
        argv,
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, **(env or {})},
    )
    up = threading.Event()

    def drain() -> None:  # keep reading so the server never blocks on a full pipe
        assert proc.stderr is not None
        for line in proc.stderr:
            if ready.lower() in line.lower():
                up.set()

    reader = threading.Thread(target=drain, daemon=True)
    reader.start()
    try:
        if not up.wait(timeout=30):
            raise RuntimeError(f"{argv[0]} did not say {ready!r} within 30 s")
        yield
    finally:
        proc.terminate()
        proc.wait(timeout=10)
        reader.join(timeout=10)
        assert proc.stderr is not None
        proc.stderr.close()


@contextmanager
def everything_http(transport: str = "streamableHttp") -> Iterator[str]:
    """server-everything over Streamable HTTP (`/mcp`) or SSE (`/sse`) on a free port; yields its URL."""
    port = free_port()
    path = "/mcp" if transport == "streamableHttp" else "/sse"
    with listening([EVERYTHING, transport], "on port", {"PORT": str(port)}):
        yield f"http://127.0.0.1:{port}{path}"
