"""Write agent suites beside the mock-server fixtures and run them in process, as `mcptest run` does."""

from __future__ import annotations

import shutil
import textwrap
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import anyio

from mcptest.agent.plan import AgentOptions, plan
from mcptest.agent.runs import AgentRuns, run_agents
from mcptest.run.runner import RunResult, run_suite
from mcptest.server.session import SessionPool
from mcptest.suite.loader import load_suite
from tests.conftest import ROOT

FIXTURES = ROOT / "tests" / "agents" / "fixtures"
SERVERS = """
servers:
  weather:
    command: ["mcptest", "mock", "--tools-from", "weather.yml"]
  notes:
    command: ["mcptest", "mock", "--tools-from", "notes.yml"]
"""
KEY = "sk-test-0123456789-secret"
CLOCK = datetime(2026, 11, 22, tzinfo=UTC)


def write_suite(directory: Path, agents: str, name: str = "suite.yml") -> Path:
    """A suite with the weather and notes mock servers and the given `agents:` YAML."""
    for fixture in ("weather.yml", "notes.yml"):
        shutil.copy(FIXTURES / fixture, directory / fixture)
    path = directory / name
    path.write_text("# yaml-language-server: $schema=x\n" + SERVERS + textwrap.dedent(agents), encoding="utf-8")
    return path


def environ(url: str, **extra: str) -> dict[str, str]:
    """An environment that points both SDKs at a fake server, with fake keys."""
    return {
        "OPENAI_API_KEY": KEY,
        "ANTHROPIC_API_KEY": KEY,
        "OPENAI_BASE_URL": f"{url}/v1",
        "ANTHROPIC_BASE_URL": url,
        **extra,
    }


def run(path: Path, env: dict[str, str], **options: Any) -> RunResult:
    """`mcptest run` in process, with a fixed clock and no backoff waits."""
    suite = load_suite(path, env)
    opts = AgentOptions(environ=env, **{"sleep": no_wait, **options})
    return anyio.run(lambda: run_suite(suite, clock=lambda: CLOCK, agents_options=opts))


def run_cells(path: Path, env: dict[str, str], **options: Any) -> AgentRuns:
    """The agent cells' raw results (traces included), for assertions the report does not carry."""
    suite = load_suite(path, env)
    opts = AgentOptions(environ=env, **{"sleep": no_wait, **options})
    cells = plan(suite.agents, suite.file, suite.prices, opts)

    async def go() -> AgentRuns:
        async with SessionPool(dict(suite.servers), base_dir=path.parent) as pool:
            return await run_agents(cells, pool, suite.file, suite.secrets, opts)

    return anyio.run(go)


async def no_wait(seconds: float) -> None:
    await anyio.sleep(0)
