"""The first test's stdio server starts before the SDK is imported (its start-up overlaps the client's), and a
server started early behaves as one the SDK started: same environment, same session, same end of its group."""

from __future__ import annotations

import gc
import json
import subprocess
import warnings
from pathlib import Path

import anyio
import pytest

from mcptest.server.early_stdio import default_environment, discard, spawn
from mcptest.server.session import ServerUnavailable, SessionPool
from mcptest.suite.models import StdioServer
from tests.conftest import PYTHON, ROOT, gone_within
from tests.test_processes import grandchild_command, wait_for_pid


def test_a_server_started_early_gets_the_environment_the_sdk_gives(monkeypatch: pytest.MonkeyPatch) -> None:
    from mcp.client.stdio import get_default_environment

    monkeypatch.setenv("SHELL", "() { a function; }")  # a function definition is never passed on
    monkeypatch.setenv("TERM", "xterm")
    monkeypatch.setenv("MCPTEST_SECRET_OF_THE_CALLER", "not for servers")
    monkeypatch.delenv("LOGNAME", raising=False)
    assert default_environment() == get_default_environment()
    assert "SHELL" not in default_environment() and default_environment()["TERM"] == "xterm"


@pytest.mark.timeout(60)
def test_a_server_started_early_serves_the_session_and_its_group_ends_with_the_pool(tmp_path: Path) -> None:
    async def use_and_close() -> tuple[int, int]:
        config = StdioServer(command=grandchild_command(tmp_path / "sleeper"))
        async with SessionPool({"weather": config}) as pool:
            await pool.start_early("weather")
            early = pool._early["weather"]._early.pid
            session = await pool.get("weather")
            assert session.process.pid == early  # the session adopted the process, it did not start another
            assert {t["name"] for t in await session.list_tools()} == {"get_weather", "convert_temperature"}
            outcome = await session.call_tool("get_weather", {"city": "Paris"})
            assert outcome.result is not None and "Paris" in outcome.result["content"][0]["text"]
            return early, wait_for_pid(tmp_path / "sleeper")

    server, sleeper = anyio.run(use_and_close)
    assert gone_within(server, 5) and gone_within(sleeper, 5)


@pytest.mark.timeout(60)
def test_a_server_started_early_that_no_test_used_ends_with_the_pool(tmp_path: Path) -> None:
    async def start_only() -> tuple[int, int]:
        config = StdioServer(command=grandchild_command(tmp_path / "sleeper"))
        async with SessionPool({"weather": config}) as pool:
            await pool.start_early("weather")
            return pool._early["weather"]._early.pid, wait_for_pid(tmp_path / "sleeper")

    server, sleeper = anyio.run(start_only)
    assert gone_within(server, 5) and gone_within(sleeper, 5)


@pytest.mark.timeout(60)
@pytest.mark.parametrize("dies", ["on_its_own", "when_signalled"])
def test_a_discarded_server_is_reaped_before_the_run_goes_on(tmp_path: Path, dies: str) -> None:
    # the group can be gone before the event loop has seen the exit; a run that ended then left the transport
    # open, and it warned when collected, in whichever later test the collector ran (a flaky CI failure)
    code = "import sys" if dies == "on_its_own" else "import time; time.sleep(1000)"

    async def start_and_discard() -> tuple[int | None, bool]:
        with (tmp_path / "stderr").open("wb") as errlog:
            process = await spawn(PYTHON, ["-c", code], {}, tmp_path, errlog)
            await discard(process)
            transport = process._process._transport  # type: ignore[attr-defined]
            return process.returncode, transport._closed

    for _ in range(5):  # the race is timing-dependent: a few rounds give it several chances to show
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            returncode, closed = anyio.run(start_and_discard)
            gc.collect()
        assert returncode is not None and closed
        assert not [w for w in caught if issubclass(w.category, ResourceWarning)]


@pytest.mark.timeout(60)
def test_a_server_that_cannot_start_early_fails_its_session_as_before(tmp_path: Path) -> None:
    async def start_missing() -> str:
        async with SessionPool({"gone": StdioServer(command=["no-such-mcp-server-anywhere"])}, tmp_path) as pool:
            await pool.start_early("gone")
            assert not pool._early
            with pytest.raises(ServerUnavailable) as failed:
                await pool.get("gone")
            return failed.value.message

    assert anyio.run(start_missing) == "server 'gone': command not found: no-such-mcp-server-anywhere"


@pytest.mark.timeout(60)
def test_a_crashing_server_started_early_is_a_failed_session_with_its_stderr(tmp_path: Path) -> None:
    crash = [PYTHON, "-c", "import sys; sys.stderr.write('boom: no config\\n'); sys.exit(3)"]

    async def start_crashing() -> ServerUnavailable:
        async with SessionPool({"bad": StdioServer(command=crash)}, tmp_path) as pool:
            await pool.start_early("bad")
            with pytest.raises(ServerUnavailable) as failed:
                await pool.get("bad")
            return failed.value

    failed = anyio.run(start_crashing)
    assert "closed the connection during the handshake" in failed.message
    assert "boom: no config" in failed.stderr


PROBE = """
import json, sys
from mcptest.server.session import SessionPool
started = []
original = SessionPool.start_early
async def start_early(self, name):
    started.append((name, "mcp" in sys.modules))
    await original(self, name)
SessionPool.start_early = start_early
from mcptest.cli import main
try:
    main(["run", sys.argv[1], "--quiet"])
except SystemExit:
    pass
print(json.dumps(started), file=sys.stderr)
"""


@pytest.mark.timeout(60)
def test_mcptest_run_starts_the_first_server_before_it_imports_the_sdk(tmp_path: Path) -> None:
    suite = tmp_path / "suite.yml"
    manifest = ROOT / "examples" / "quickstart" / "weather.yml"
    suite.write_text(
        f"servers:\n  w:\n    command: {json.dumps(['mcptest', 'mock', '--tools-from', str(manifest)])}\n"
        "tools:\n  - { name: t, server: w, tool: get_weather, args: { city: Paris } }\n"
    )
    ran = subprocess.run([PYTHON, "-c", PROBE, str(suite)], capture_output=True, text=True, timeout=50, cwd=ROOT)
    assert "PASS" in ran.stdout, ran.stdout + ran.stderr
    assert json.loads(ran.stderr.strip().splitlines()[-1]) == [["w", False]]
