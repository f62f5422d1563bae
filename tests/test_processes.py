"""No server process outlives mcptest: a stdio server's whole process group ends with it, after a normal run,
Ctrl-C and SIGTERM, and an interrupted run still reports the tests that finished."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from pathlib import Path

import anyio
import pytest

from mcptest.core.exit_codes import ExitCode
from mcptest.server.session import SessionPool
from mcptest.suite.models import StdioServer
from tests.conftest import PYTHON, ROOT, gone_within, run_cli

MANIFEST = ROOT / "examples" / "quickstart" / "weather.yml"
SERVERS = ROOT / "tests" / "servers"


def grandchild_command(pid_file: Path) -> list[str]:
    """A server that starts `sleep 1000` in its group, then becomes the weather mock."""
    return [PYTHON, str(SERVERS / "grandchild_server.py"), str(pid_file), str(MANIFEST)]


def wait_for_pid(path: Path, seconds: float = 30) -> int:
    deadline = time.monotonic() + seconds
    while not (path.exists() and path.read_text()):
        assert time.monotonic() < deadline, f"{path.name} was never written"
        time.sleep(0.02)  # polling for a file another process writes, bounded by the deadline
    return int(path.read_text())


@pytest.mark.timeout(90)
def test_a_grandchild_ends_with_its_server_after_a_normal_run(write, tmp_path: Path) -> None:
    suite = write(
        "suite.yml",
        f"""
servers:
  weather:
    command: {json.dumps(grandchild_command(tmp_path / "sleeper"))}
tools:
  - name: weather
    server: weather
    tool: get_weather
    args: {{ city: Paris }}
""",
    )
    ran = run_cli("run", str(suite), timeout=60)
    assert ran.code == ExitCode.OK, ran.stdout + ran.stderr
    assert gone_within(wait_for_pid(tmp_path / "sleeper"), 5)


@pytest.mark.timeout(60)
def test_a_session_pool_ends_the_group_of_a_server_it_closes(tmp_path: Path) -> None:
    async def use_and_close() -> int:
        config = StdioServer(command=grandchild_command(tmp_path / "sleeper"))
        async with SessionPool({"weather": config}) as pool:
            session = await pool.get("weather")
            assert {t["name"] for t in await session.list_tools()} == {"get_weather", "convert_temperature"}
            return wait_for_pid(tmp_path / "sleeper")

    sleeper = anyio.run(use_and_close)
    assert gone_within(sleeper, 5)


@pytest.mark.timeout(120)
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_an_interrupted_run_reports_what_finished_and_leaves_no_process(
    write, tmp_path: Path, sig: signal.Signals
) -> None:
    hang = [PYTHON, str(SERVERS / "pid_then_hang.py"), str(tmp_path / "stuck")]
    suite = write(
        "suite.yml",
        f"""
servers:
  weather:
    command: {json.dumps(grandchild_command(tmp_path / "sleeper"))}
  stuck:
    command: {json.dumps(hang)}
    connect_timeout_s: 300
tools:
  - name: finished before the signal
    server: weather
    tool: get_weather
    args: {{ city: Paris }}
  - name: still waiting
    server: stuck
    tool: anything
""",
    )
    report = tmp_path / "report.json"
    proc = subprocess.Popen(
        [PYTHON, "-m", "mcptest", "run", str(suite), "-r", "json", "-o", str(report)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    try:
        stuck = wait_for_pid(tmp_path / "stuck")  # the first test has finished: tests run in file order
        sleeper = wait_for_pid(tmp_path / "sleeper")
        proc.send_signal(sig)
        _, stderr = proc.communicate(timeout=30)
    finally:
        proc.kill()
        proc.wait(timeout=10)
    assert proc.returncode == ExitCode.INTERRUPTED, stderr
    assert "mcptest: interrupted" in stderr and "Traceback" not in stderr
    written = json.loads(report.read_text())
    assert written["interrupted"] is True
    assert [(r["name"], r["status"]) for r in written["results"]] == [("finished before the signal", "passed")]
    assert written["summary"] == {
        "total": 1,
        "passed": 1,
        "failed": 0,
        "skipped": 0,
        "gates": {"total": 0, "passed": 0, "failed": 0, "incomplete": 0},
        "capped": False,
        "not_run": 0,  # counts only what -x held back
        "ok": False,  # interrupted: the run exits 130, so the one verdict is not ok
    }
    assert gone_within(stuck, 5) and gone_within(sleeper, 5)


@pytest.mark.timeout(90)
def test_ctrl_c_prints_the_finished_tests_with_the_pretty_reporter(write, tmp_path: Path) -> None:
    hang = [PYTHON, str(SERVERS / "pid_then_hang.py"), str(tmp_path / "stuck")]
    suite = write(
        "suite.yml",
        f"""
servers:
  weather:
    command: ["mcptest", "mock", "--tools-from", "{MANIFEST}"]
  stuck:
    command: {json.dumps(hang)}
    connect_timeout_s: 300
tools:
  - name: finished before the signal
    server: weather
    tool: get_weather
    args: {{ city: Paris }}
  - name: still waiting
    server: stuck
    tool: anything
""",
    )
    proc = subprocess.Popen(
        [PYTHON, "-m", "mcptest", "run", str(suite)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT), "NO_COLOR": "1"},
    )
    try:
        wait_for_pid(tmp_path / "stuck")
        proc.send_signal(signal.SIGINT)
        stdout, _ = proc.communicate(timeout=30)
    finally:
        proc.kill()
        proc.wait(timeout=10)
    assert proc.returncode == ExitCode.INTERRUPTED
    assert "PASS  finished before the signal" in stdout
    assert "still waiting" not in stdout
    assert "1 passed, 0 failed, interrupted: the tests that had not finished are not listed" in stdout
