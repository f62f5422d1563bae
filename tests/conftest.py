"""Shared fixtures: run the real CLI as a subprocess, write suite files, start real servers."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PYTHON = sys.executable

# The suite runs hundreds of `mcptest run`s on suites in the repository and in tmp folders: none of them should leave
# a history store beside its suite (examples/ included) or pay for opening one. The history tests turn it on with
# `--history URL` or their own MCPTEST_HISTORY.
os.environ["MCPTEST_HISTORY"] = "off"


@dataclass
class Ran:
    code: int
    stdout: str
    stderr: str
    seconds: float


def run_cli(*args: str, cwd: Path | str = ROOT, timeout: float = 60, env: dict[str, str] | None = None) -> Ran:
    """Run `python -m mcptest ARGS` as a user would, bounded by `timeout`."""
    start = time.monotonic()
    proc = subprocess.run(
        [PYTHON, "-m", "mcptest", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=timeout,
        env={**os.environ, "NO_COLOR": "1", "PYTHONPATH": str(ROOT), **(env or {})},
    )
    return Ran(proc.returncode, proc.stdout, proc.stderr, time.monotonic() - start)


@pytest.fixture(autouse=True)
def not_under_github_actions(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every test starts outside GitHub Actions, even when the suite runs there: a command prints no annotations and
    writes no job summary unless the test sets GITHUB_ACTIONS itself."""
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)
    monkeypatch.delenv("GITHUB_STEP_SUMMARY", raising=False)


@pytest.fixture
def write(tmp_path: Path):
    """Write a dedented text file under tmp_path and return its path."""

    def _write(name: str, text: str) -> Path:
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
        return path

    return _write


def alive(pid: int) -> bool:
    """Whether the process runs; a zombie is dead, only not yet reaped by its parent."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(")")[-1].split()[0] != "Z"
    except FileNotFoundError:  # reaped between the two looks
        return False


def gone_within(pid: int, seconds: float) -> bool:
    """Whether the process has ended, or ends within `seconds` (polled: it is another process's to end)."""
    deadline = time.monotonic() + seconds
    while alive(pid):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def serving_http(module: str, what: str, timeout: float = 30, transport: str = "http") -> Iterator[str]:
    """`python -m MODULE http PORT` (an SDK server over Streamable HTTP on 127.0.0.1; `transport="sse"`: over the
    legacy HTTP+SSE transport) running; yields its URL (`/mcp`, or `/sse`) once uvicorn says it listens, and ends it
    after."""
    port = free_port()
    proc = subprocess.Popen(
        [PYTHON, "-m", module, transport, str(port)],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    ready = threading.Event()

    def drain() -> None:  # keep reading so the server never blocks on a full pipe
        assert proc.stderr is not None
        for line in proc.stderr:
            if "running on" in line.lower():
                ready.set()

    reader = threading.Thread(target=drain, daemon=True)
    reader.start()
    try:
        if not ready.wait(timeout=timeout):
            raise RuntimeError(f"{what} did not start within {timeout:g} s")
        yield f"http://127.0.0.1:{port}/{'sse' if transport == 'sse' else 'mcp'}"
    finally:
        proc.terminate()
        proc.wait(timeout=10)
        reader.join(timeout=10)
        assert proc.stderr is not None
        proc.stderr.close()


@pytest.fixture
def http_server() -> Iterator[str]:
    """The demo MCPServer over Streamable HTTP on 127.0.0.1; yields its URL once uvicorn says it listens."""
    with serving_http("tests.servers.demo_server", "the HTTP demo server") as url:
        yield url


def demo_command() -> list[str]:
    """The argv that starts the demo MCPServer over stdio."""
    return [PYTHON, "-m", "tests.servers.demo_server"]
