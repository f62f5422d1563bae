"""Start the mock as a real subprocess: through the SDK's Client, or as a plain CLI run."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = Path(__file__).resolve().parent / "fixtures"
ENV = {**os.environ, "PYTHONPATH": str(ROOT), "NO_COLOR": "1"}


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@dataclass
class Ran:
    code: int
    stdout: str
    stderr: str


def run_mock_cli(*args: str, cwd: Path = ROOT, stdin: str = "", timeout: float = 30) -> Ran:
    """`python -m mcptest mock ARGS` with `stdin` fed and then closed, bounded by `timeout`."""
    proc = subprocess.run(
        [sys.executable, "-m", "mcptest", "mock", *args],
        cwd=cwd,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=timeout,
        env=ENV,
    )
    return Ran(proc.returncode, proc.stdout, proc.stderr)


@asynccontextmanager
async def mock_client(*args: str, errlog: Any = None, **client_options: Any) -> AsyncIterator[Any]:
    """An SDK Client connected to `mcptest mock ARGS` over stdio; the process ends with the block."""
    from mcp import Client, StdioServerParameters
    from mcp.client.stdio import stdio_client

    params = StdioServerParameters(command=sys.executable, args=["-m", "mcptest", "mock", *args], env=ENV, cwd=ROOT)
    transport = stdio_client(params, errlog=errlog) if errlog is not None else params
    async with Client(transport, **client_options) as client:
        yield client


@pytest.fixture
def write_manifest(tmp_path: Path) -> Callable[[str, str], str]:
    """Write a manifest (dedented) under tmp_path and return its path."""

    def write(text: str, name: str = "mock.yaml") -> str:
        path = tmp_path / name
        path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
        return str(path)

    return write


def _children() -> list[int]:
    """Live (non-zombie) child processes of this test process, from /proc."""
    me, out = os.getpid(), []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        if int(fields[1]) == me and fields[0] != "Z":
            out.append(int(entry.name))
    return out


@pytest.fixture(autouse=True)
def no_mock_left_behind() -> Iterator[None]:
    """Every test must end with no mock process still running."""
    before = set(_children())
    yield
    left = set(_children()) - before
    for pid in left:
        os.kill(pid, 9)
    assert not left, f"mock processes left running: {sorted(left)}"
