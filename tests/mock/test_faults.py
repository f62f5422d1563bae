"""`--fault` kinds: each misbehaves on tools/call only, and every wait here is bounded."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import MCPError, types

from tests.mock.conftest import ENV, FIXTURES, ROOT, mock_client, run_mock_cli

pytestmark = pytest.mark.anyio
PING = ("--tools-from", str(FIXTURES / "tools_only.yaml"))
INIT = json.dumps(
    {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}},
    }
)
CALL = json.dumps({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "ping", "arguments": {}}})
INJECTED = "Injected fault: tools/call failed (mcptest mock --fault {})"


async def _ping(client: object) -> str:
    result = await client.call_tool("ping", {})  # type: ignore[attr-defined]
    return result.content[0].text  # type: ignore[no-any-return]


async def test_no_fault_answers_every_call() -> None:
    with anyio.fail_after(30):
        async with mock_client(*PING, "--fault", "none") as client:
            answers = [await _ping(client) for _ in range(3)]
    assert answers == ["pong"] * 3


async def test_hang_never_answers_a_call_but_still_answers_listing() -> None:
    with anyio.fail_after(30):
        async with mock_client(*PING, "--fault", "hang") as client:
            assert [t.name for t in (await client.list_tools()).tools] == ["ping"]
            started = time.monotonic()
            with anyio.move_on_after(1.0) as scope:
                await _ping(client)
            waited = time.monotonic() - started
    assert scope.cancelled_caught
    assert waited < 5


async def test_slow_delays_each_answer_by_its_milliseconds() -> None:
    with anyio.fail_after(30):
        async with mock_client(*PING, "--fault", "slow:300") as client:
            await client.list_tools()
            started = time.monotonic()
            answers = [await _ping(client), await _ping(client)]
            waited = time.monotonic() - started
    assert answers == ["pong", "pong"]
    assert 0.6 <= waited < 5


async def test_error_answers_every_call_with_an_injected_internal_error() -> None:
    with anyio.fail_after(30):
        async with mock_client(*PING, "--fault", "error") as client:
            errors = []
            for _ in range(2):
                with pytest.raises(MCPError) as caught:
                    await _ping(client)
                errors.append((caught.value.code, caught.value.message))
    assert errors == [(types.INTERNAL_ERROR, INJECTED.format("error"))] * 2


async def test_recover_after_fails_the_first_n_calls_then_answers() -> None:
    outcomes: list[str] = []
    with anyio.fail_after(30):
        async with mock_client(*PING, "--fault", "recover-after:2") as client:
            for _ in range(4):
                try:
                    outcomes.append(await _ping(client))
                except MCPError as exc:
                    outcomes.append(f"{exc.code} {exc.message}")
    failed = f"{types.INTERNAL_ERROR} {INJECTED.format('recover-after:2')}"
    assert outcomes == [failed, failed, "pong", "pong"]


async def test_crash_after_exits_with_a_stderr_line_on_the_next_call(tmp_path: Path) -> None:
    log = tmp_path / "stderr.txt"
    with log.open("w") as errlog, anyio.fail_after(30):
        async with mock_client(*PING, "--fault", "crash-after:1", errlog=errlog) as client:
            first = await _ping(client)
            with pytest.raises(MCPError) as caught:
                await _ping(client)
    assert first == "pong"
    assert caught.value.message == "Connection closed"
    assert "mcptest mock: injected crash on tools/call #2 (--fault crash-after:1)" in log.read_text().splitlines()


def test_crash_after_exits_with_status_1() -> None:
    ran = run_mock_cli(*PING, "--fault", "crash-after:0", stdin=f"{INIT}\n{CALL}\n")
    assert ran.code == 1
    assert ran.stderr.splitlines()[-1] == "mcptest mock: injected crash on tools/call #1 (--fault crash-after:0)"


def test_closing_stdin_ends_the_server_with_status_0_even_with_a_call_hanging() -> None:
    started = time.monotonic()
    ran = run_mock_cli(*PING, "--fault", "hang", stdin=f"{INIT}\n{CALL}\n", timeout=20)
    assert ran.code == 0
    replies = ran.stdout.splitlines()
    assert replies[0].startswith('{"jsonrpc":"2.0","id":1,"result":')
    # The SDK cancels the hung call when the client goes away; it never gets a result.
    assert replies[1:] == ['{"jsonrpc":"2.0","id":2,"error":{"code":-32000,"message":"Connection closed"}}']
    assert time.monotonic() - started < 10


@pytest.mark.parametrize("fault", ["slow", "slow:", "slow:-5", "recover-after:x", "crash", "hang:3", "sometimes"])
def test_a_malformed_fault_is_a_usage_error_listing_the_kinds(fault: str) -> None:
    ran = run_mock_cli(*PING, "--fault", fault)
    assert ran.code == 2
    assert ran.stderr == (
        f"mcptest: invalid --fault '{fault}': expected one of "
        "none, hang, slow:<ms>, error, recover-after:<n>, crash-after:<n>\n"
    )


def test_the_answers_are_the_same_bytes_whether_stdout_is_a_pipe_or_a_file(tmp_path: Path) -> None:
    """A pipe is written on the event loop (`mock/wire.py`), anything else by the SDK's own writer: same wire.
    Stdin stays open until both answers are in: the SDK drops an answer still due when its input ends."""
    argv = [sys.executable, "-m", "mcptest", "mock", *PING]
    quiet: dict[str, Any] = {
        "cwd": ROOT,
        "stdin": subprocess.PIPE,
        "stderr": subprocess.DEVNULL,
        "text": True,
        "env": ENV,
    }
    piped = subprocess.Popen(argv, stdout=subprocess.PIPE, **quiet)
    assert piped.stdin is not None and piped.stdout is not None
    piped.stdin.write(f"{INIT}\n{CALL}\n")
    piped.stdin.flush()
    replies = [piped.stdout.readline(), piped.stdout.readline()]  # bounded: the fixture kills a mock left running
    piped.stdin.close()
    assert piped.wait(timeout=30) == 0
    piped.stdout.close()
    assert [json.loads(line)["id"] for line in replies] == [1, 2]
    assert json.loads(replies[1])["result"]["content"][0]["text"] == "pong"

    out = tmp_path / "out.jsonl"
    with out.open("w") as stdout:
        proc = subprocess.Popen(argv, stdout=stdout, **quiet)
        assert proc.stdin is not None
        proc.stdin.write(f"{INIT}\n{CALL}\n")
        proc.stdin.flush()
        deadline = time.monotonic() + 30
        while len(out.read_text().splitlines()) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        proc.stdin.close()
        assert proc.wait(timeout=30) == 0
    assert out.read_text().splitlines(keepends=True) == replies
