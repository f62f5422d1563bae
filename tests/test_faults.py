"""The fault corpus: every way a server can misbehave fails the affected tests clearly, within the timeouts.

Each case asserts the message, the exit code, that the run finished in bounded time, and that the other
server's tests still ran.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from pathlib import Path

import pytest

from mcptest.core.exit_codes import ExitCode
from tests.conftest import PYTHON, ROOT, alive, run_cli

MANIFEST = ROOT / "examples" / "quickstart" / "weather.yml"


def fault_suite(
    write, command: list[str], *, call_timeout: float = 2, connect_timeout: float = 5, calls: int = 1
) -> Path:
    broken_tests = "".join(
        f"""
  - name: broken call {i + 1}
    server: broken
    tool: get_weather
    args: {{ city: Rome }}
"""
        for i in range(calls)
    )
    return write(
        "suite.yml",
        f"""
servers:
  broken:
    command: {json.dumps(command)}
    connect_timeout_s: {connect_timeout}
    call_timeout_s: {call_timeout}
  healthy:
    command: ["mcptest", "mock", "--tools-from", "{MANIFEST}"]
tools:{broken_tests}
  - name: healthy call
    server: healthy
    tool: get_weather
    args: {{ city: Rome }}
""",
    )


def mock(*fault: str) -> list[str]:
    return ["mcptest", "mock", "--tools-from", str(MANIFEST), *fault]


def results(ran) -> dict[str, dict]:
    return {r["name"]: r for r in json.loads(ran.stdout)["results"]}


@pytest.mark.parametrize(
    ("fault", "message"),
    [
        ("hang", "server 'broken': no answer within 2s"),
        ("error", "server 'broken': the server answered with error -32603: Injected fault: tools/call failed"),
    ],
)
def test_a_mock_fault_fails_the_call_and_the_other_server_still_runs(write, fault: str, message: str) -> None:
    ran = run_cli("run", str(fault_suite(write, mock("--fault", fault))), "-r", "json", timeout=60)
    assert ran.code == ExitCode.FAILED
    by_name = results(ran)
    assert by_name["broken call 1"]["error"].startswith(message)
    assert by_name["healthy call"]["status"] == "passed"
    assert ran.seconds < 30


def test_slow_answers_pass_within_the_timeout_and_fail_a_latency_budget(write) -> None:
    suite = write(
        "suite.yml",
        f"""
servers:
  slow:
    command: ["mcptest", "mock", "--tools-from", "{MANIFEST}", "--fault", "slow:300"]
tools:
  - name: slow but in time
    server: slow
    tool: get_weather
    args: {{ city: Rome }}
  - name: over budget
    server: slow
    tool: get_weather
    args: {{ city: Rome }}
    expect: {{ assertions: [], max_duration_ms: 100 }}
""",
    )
    ran = run_cli("run", str(suite), "-r", "json")
    by_name = results(ran)
    assert by_name["slow but in time"]["status"] == "passed"
    [budget] = by_name["over budget"]["failures"]
    assert budget["matcher"] == "max_duration_ms" and budget["actual"] >= 300
    assert (budget["line"], budget["col"]) == (13, 31)  # where `max_duration_ms:` is written
    assert ran.code == ExitCode.FAILED


def test_recover_after_fails_the_first_calls_then_answers(write) -> None:
    ran = run_cli("run", str(fault_suite(write, mock("--fault", "recover-after:2"), calls=3)), "-r", "json")
    by_name = results(ran)
    assert [by_name[f"broken call {i}"]["status"] for i in (1, 2, 3)] == ["failed", "failed", "passed"]
    assert "Injected fault" in by_name["broken call 1"]["error"]


def test_a_server_that_crashes_mid_run_fails_its_later_tests_with_its_stderr(write) -> None:
    ran = run_cli("run", str(fault_suite(write, mock("--fault", "crash-after:1"), calls=3)), "-r", "json")
    by_name = results(ran)
    assert by_name["broken call 1"]["status"] == "passed"
    crashed = by_name["broken call 2"]
    assert crashed["error"] == "server 'broken': the server closed the connection (it exited or crashed)"
    assert "injected crash on tools/call #2" in crashed["stderr"]
    assert by_name["broken call 3"]["error"] == crashed["error"]
    assert by_name["healthy call"]["status"] == "passed"
    assert ran.code == ExitCode.FAILED and ran.seconds < 30


def test_a_missing_server_command_fails_its_tests_only(write) -> None:
    ran = run_cli("run", str(fault_suite(write, ["mcptest-no-such-server"])), "-r", "json")
    by_name = results(ran)
    assert by_name["broken call 1"]["error"] == "server 'broken': command not found: mcptest-no-such-server"
    assert by_name["healthy call"]["status"] == "passed"
    assert ran.code == ExitCode.FAILED


def test_an_unreachable_http_server_fails_its_tests_naming_the_url(write) -> None:
    suite = write(
        "suite.yml",
        """
servers:
  web:
    url: http://127.0.0.1:9/mcp
    connect_timeout_s: 5
tools:
  - name: unreachable
    server: web
    tool: echo
""",
    )
    ran = run_cli("run", str(suite), "-r", "json")
    assert ran.code == ExitCode.FAILED and ran.seconds < 20
    assert results(ran)["unreachable"]["error"].startswith("server 'web': cannot reach http://127.0.0.1:9/mcp: ")


def test_a_server_that_exits_at_start_shows_its_stderr(write) -> None:
    script = "import sys; sys.stderr.write('fatal: missing DATABASE_URL\\n'); sys.exit(3)"
    ran = run_cli("run", str(fault_suite(write, [PYTHON, "-c", script])))
    assert ran.code == ExitCode.FAILED
    assert "server 'broken':" in ran.stdout
    assert "| fatal: missing DATABASE_URL" in ran.stdout


def test_a_server_that_never_answers_the_handshake_is_not_ready_exit_3(write, tmp_path: Path) -> None:
    command = [PYTHON, str(ROOT / "tests" / "servers" / "pid_then_hang.py"), str(tmp_path / "pid")]
    suite = write(
        "suite.yml",
        f"""
servers:
  stuck:
    command: {json.dumps(command)}
    connect_timeout_s: 2
tools:
  - name: never starts
    server: stuck
    tool: anything
""",
    )
    ran = run_cli("run", str(suite), "-r", "json")
    assert ran.code == ExitCode.NOT_READY
    assert results(ran)["never starts"]["error"] == "server 'stuck': no handshake within 2s"
    assert ran.seconds < 20
    assert not alive(int((tmp_path / "pid").read_text()))


def test_garbage_on_stdout_is_named_in_the_failure(write) -> None:
    command = [PYTHON, str(ROOT / "tests" / "servers" / "garbage_server.py")]
    ran = run_cli("run", str(fault_suite(write, command, connect_timeout=3)), "-r", "json")
    error = results(ran)["broken call 1"]["error"]
    assert error.startswith("server 'broken': no handshake within 3s")
    assert "the server wrote non-JSON-RPC output to stdout" in error
    assert results(ran)["healthy call"]["status"] == "passed"
    assert ran.code == ExitCode.NOT_READY and ran.seconds < 30


@pytest.mark.timeout(60)
def test_bytes_that_are_not_utf8_on_stdout_fail_at_once(write) -> None:
    command = [PYTHON, str(ROOT / "tests" / "servers" / "binary_server.py")]
    ran = run_cli("run", str(fault_suite(write, command, connect_timeout=300, calls=2)), "-r", "json")
    broken = results(ran)
    expected = (
        "server 'broken': its stdout is not UTF-8; the server wrote non-JSON-RPC output to stdout ('\ufffdPNG\\r')"
    )
    assert broken["broken call 1"]["error"] == broken["broken call 2"]["error"] == expected
    assert broken["broken call 1"]["stderr"] == "binary-server: wrote a PNG header to stdout"
    assert broken["healthy call"]["status"] == "passed"
    assert ran.code == ExitCode.FAILED and ran.seconds < 60  # not the 300 s connect timeout


@pytest.mark.timeout(60)
def test_bytes_that_are_not_utf8_in_place_of_an_answer_fail_the_call_at_once(write) -> None:
    suite = write(
        "suite.yml",
        f"""
servers:
  broken:
    command: {json.dumps([PYTHON, str(ROOT / "tests" / "servers" / "binary_midcall_server.py")])}
    call_timeout_s: 300
tools:
  - name: spews
    server: broken
    tool: spew
  - name: after it
    server: broken
    tool: spew
""",
    )
    ran = run_cli("run", str(suite), "-r", "json")
    errors = {name: r["error"] for name, r in results(ran).items()}
    assert errors["spews"] == (
        "server 'broken': its stdout is not UTF-8; "
        "the server wrote non-JSON-RPC output to stdout ('\ufffd\ufffd\ufffd\ufffd a JPEG where JSON-RPC belongs')"
    )
    assert errors["after it"] == errors["spews"]
    assert ran.code == ExitCode.FAILED and ran.seconds < 60  # not the 300 s call timeout


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_interrupting_a_run_leaves_no_server_process_behind(write, tmp_path: Path, sig: signal.Signals) -> None:
    pid_file = tmp_path / "pid"
    command = [PYTHON, str(ROOT / "tests" / "servers" / "pid_then_hang.py"), str(pid_file)]
    suite = write(
        "suite.yml",
        f"""
servers:
  stuck:
    command: {json.dumps(command)}
    connect_timeout_s: 60
tools:
  - name: waits
    server: stuck
    tool: anything
""",
    )
    proc = subprocess.Popen(
        [PYTHON, "-m", "mcptest", "run", str(suite)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    try:
        deadline = time.monotonic() + 20
        while not (pid_file.exists() and pid_file.read_text()):
            assert time.monotonic() < deadline, "the server never started"
            time.sleep(0.05)  # polling for a file the child writes, bounded by the deadline
        server_pid = int(pid_file.read_text())
        proc.send_signal(sig)
        _, stderr = proc.communicate(timeout=20)
    finally:
        proc.kill()
    assert proc.returncode == 130, stderr
    assert b"interrupted" in stderr and b"Traceback" not in stderr
    assert not alive(server_pid)
