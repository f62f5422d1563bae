"""A server cannot break the runner: odd answers diagnosed at once, sizes bounded, a stuck transport renewed, endless
pagination named, HTTP failures named per request, and the report strict JSON in suite order throughout.

The servers are raw ones that misbehave on command (tests/servers/hostile_stdio.py and hostile_http.py).
"""

from __future__ import annotations

import json
import re
import subprocess
from collections.abc import Iterator
from pathlib import Path

import anyio
import pytest

from mcptest.core.exit_codes import ExitCode
from mcptest.expect.failure import AssertionFailure, clipped
from mcptest.server.client_answers import ClientSide
from mcptest.server.limits import limits
from mcptest.server.primitives import Cursors
from mcptest.server.wire import LineSplitter, Oversized, Watch, is_refusal, parse_line
from mcptest.suite.client_config import ClientAnswers
from tests.conftest import PYTHON, ROOT, alive, free_port, run_cli

STDIO = [PYTHON, str(ROOT / "tests" / "servers" / "hostile_stdio.py")]


def strict(text: str) -> dict:
    """The report, refusing NaN and Infinity as a strict JSON reader does."""

    def refuse(name: str) -> None:
        raise ValueError(f"the report holds {name}")

    report: dict = json.loads(text, parse_constant=refuse)
    return report


def suite_of(write, servers: str, tests: list[str]) -> Path:
    return write("suite.yml", f"servers:\n{servers}\ntools:\n" + "".join(f"  - {t}\n" for t in tests))


def running_with(token: str) -> list[int]:
    """The pids of live processes whose command line holds `token` (zombies, already ended, not counted)."""
    pids = []
    for entry in Path("/proc").iterdir():
        try:
            if entry.name.isdigit() and token.encode() in (entry / "cmdline").read_bytes() and alive(int(entry.name)):
                pids.append(int(entry.name))
        except OSError:
            continue  # it ended while we looked
    return pids


def test_odd_stdio_answers_are_named_at_once_and_later_tests_still_pass(write, tmp_path: Path) -> None:
    command = json.dumps([*STDIO, "--tag", str(tmp_path)])  # the tag finds every server process the run started
    tests = [
        "{ name: stray, server: h, tool: stray_id }",
        "{ name: list result, server: h, tool: result_list }",
        "{ name: string result, server: h, tool: result_string }",
        "{ name: after odd answers, server: h, tool: echo }",
        "{ name: long integer, server: h, tool: big_int, args: { digits: 5000 } }",
        "{ name: too long integer, server: h, tool: big_int, args: { digits: 30000 } }",
        "{ name: nan, server: h, tool: nan, expect: [ { result.structuredContent.x: { exact: null } } ] }",
        "{ name: infinity, server: h, tool: infinity }",
        "{ name: many items, server: h, tool: items, args: { count: 25 } }",
        "{ name: huge, server: h, tool: huge, args: { mb: 0.3 } }",
        "{ name: stderr, server: h, tool: stderr_line, args: { mb: 0.5 } }",
        "{ name: stuck, server: h, tool: hang }",
        "{ name: after stuck, server: h, tool: echo }",
        "{ name: deaf, server: h, tool: deaf }",
        "{ name: after deaf, server: h, tool: echo }",
    ]
    suite = suite_of(write, f"  h: {{ command: {command}, call_timeout_s: 2 }}", tests)
    env = {"MCPTEST_MAX_CONTENT_ITEMS": "10", "MCPTEST_MAX_MESSAGE_BYTES": "200000", "MCPTEST_MAX_STDERR_BYTES": "3000"}
    ran = run_cli("run", str(suite), "-r", "json", env=env, timeout=60)
    report = strict(ran.stdout)
    results = {r["name"]: r for r in report["results"]}
    assert [r["name"] for r in report["results"]] == [t.split(",")[0][8:] for t in tests]
    error = {name: (r["error"] or "").removeprefix("server 'h': ") for name, r in results.items()}
    assert re.fullmatch(
        r'the server answered id "stray-(\d+)", which mcptest never sent \(it sent id \1\)', error["stray"]
    )
    assert error["list result"] == "the server answered with a `result` that is an array, not a JSON object"
    assert error["string result"] == "the server answered with a `result` that is a string, not a JSON object"
    assert results["long integer"]["status"] == results["after odd answers"]["status"] == "passed"
    assert error["too long integer"] == (
        "the server's answer holds an integer of 30,000 digits; mcptest reads integers of up to 20,000"
    )
    assert error["nan"] == (
        "the server's answer holds bare NaN, which JSON does not allow (RFC 8259), so mcptest cannot tell it from null"
    )
    assert "bare -Infinity" in error["infinity"]
    assert error["many items"] == (
        "the result holds 25 `content` items, over the 10 limit; mcptest kept the first 10 and did not check the "
        "test (raise MCPTEST_MAX_CONTENT_ITEMS to read more)"
    )
    assert error["huge"].startswith("the server sent a message of 300,")
    assert error["huge"].endswith(
        "over the 200,000 limit; mcptest did not read it (raise MCPTEST_MAX_MESSAGE_BYTES to read more)"
    )
    stderr = results["stderr"]["stderr"]
    assert len(stderr) < 3200 and stderr.endswith("hostile: the last stderr line")
    assert "bytes of stderr cut before this; raise MCPTEST_MAX_STDERR_BYTES to read more" in stderr
    for stuck in ("stuck", "deaf"):
        assert error[stuck] == "no answer within 2s; mcptest reconnects before its next request"
    for after in ("after stuck", "after deaf"):
        assert results[after]["status"] == "passed" and results[after]["duration_ms"] < 2000  # not a second timeout
    assert sum(r["duration_ms"] for r in report["results"]) < 12_000
    assert ran.code == ExitCode.FAILED
    assert running_with(str(tmp_path)) == []  # neither the renewed connections' servers nor the last one linger


def test_a_server_flooding_stderr_cannot_fill_the_disk_and_its_last_line_is_kept(write) -> None:
    """The server's stderr is a pipe drained into a bounded tail, not a file: 30 MB of stderr puts nothing on disk,
    and the report still ends with the server's last line and says how much was cut."""
    command = json.dumps(STDIO)
    tests = ["{ name: flood, server: h, tool: stderr_flood, args: { mb: 30 } }"]
    suite = suite_of(write, f"  h: {{ command: {command}, call_timeout_s: 60 }}", tests)
    ran = run_cli("run", str(suite), "-r", "json", env={"MCPTEST_MAX_STDERR_BYTES": "3000"}, timeout=120)
    result = strict(ran.stdout)["results"][0]
    said = re.fullmatch(r"server 'h': the server answered with error -32603: disk (\d+)", result["error"] or "")
    assert said and int(said.group(1)) == 0, result["error"]
    assert result["stderr"].endswith("hostile: the last stderr line")
    cut = re.search(r"\[([\d,]+) bytes of stderr cut before this", result["stderr"])
    assert cut and int(cut.group(1).replace(",", "")) > 29_000_000


def test_a_cycling_cursor_is_named_by_run_and_tools_and_nothing_is_saved(write, tmp_path: Path) -> None:
    command = json.dumps([*STDIO, "--pages", "cycle"])
    suite = suite_of(write, f"  h: {{ command: {command} }}", ["{ name: echo, server: h, tool: echo }"])
    ran = run_cli("run", str(suite), "-r", "json")
    failure = strict(ran.stdout)["results"][0]["failures"][0]["message"]
    cycle = 'tools/list: the server\'s nextCursor cycles: page 3 gave cursor "a" again, first given by page 1'
    assert cycle in failure and ran.code == ExitCode.FAILED
    saved = tmp_path / "tools.json"
    listed = run_cli("tools", str(suite), "-o", str(saved))
    assert cycle in listed.stderr and listed.code == 1 and not saved.exists()
    captured = run_cli("catalog", str(suite), "-o", str(saved))
    assert cycle in captured.stderr and "Traceback" not in captured.stderr
    assert captured.code == 1 and not saved.exists()


def test_endless_pages_stop_at_the_bound_that_names_its_variable() -> None:
    cursors = Cursors("prompts/list", 3)
    assert cursors.problem("1") is None and cursors.problem("2") is None
    assert cursors.problem("3") == (
        "prompts/list: still paginating after 3 pages; mcptest stopped listing (raise MCPTEST_MAX_PAGES to read more)"
    )


def test_progress_under_workers_lands_on_its_own_test(write) -> None:
    command = json.dumps([*STDIO])
    tests = [
        f"{{ name: p{i}, server: h, tool: progress, args: {{ steps: {i % 3 + 1}, ms: {i % 4 * 3}, tag: p{i} }}, "
        "expect: "
        f"[ {{ target: 'progress[{i % 3}].progress', matcher: {{ exact: {i % 3 + 1} }} }}, "
        f"{{ target: progress, matcher: {{ schema: {{ minItems: {i % 3 + 1}, maxItems: {i % 3 + 1} }} }} }} ] }}"
        for i in range(12)
    ]
    suite = suite_of(write, f"  h: {{ command: {command} }}", tests)
    ran = run_cli("run", str(suite), "-r", "json", "--workers", "6")
    results = strict(ran.stdout)["results"]
    assert [r["name"] for r in results] == [f"p{i}" for i in range(12)]
    assert [(r["name"], r["error"], r["failures"]) for r in results if r["status"] != "passed"] == []


def test_captures_leave_by_identity_even_when_equal() -> None:
    side = ClientSide("s", ClientAnswers())
    with side.capture() as first:
        with side.capture():  # a second call's capture, empty like the first's: equal to it as data
            pass
        assert len(side.active) == 1 and side.active[0] is first  # the one that ended left, not its equal
        first.progress.append({"progress": 1})
    assert side.active == []


@pytest.fixture
def hostile_http() -> Iterator[str]:
    """The raw HTTP server on 127.0.0.1 (and a second one whose session id is not ASCII); yields the port pair."""
    ports = free_port(), free_port()
    procs = [
        subprocess.Popen(
            [PYTHON, str(ROOT / "tests" / "servers" / "hostile_http.py"), str(port), *extra],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )  # fmt: skip
        for port, extra in zip(ports, ([], ["--session-id", "nonascii"]), strict=True)
    ]
    try:
        for proc in procs:
            assert proc.stdout is not None and proc.stdout.readline().strip() == "ready"
        yield f"{ports[0]} {ports[1]}"
    finally:
        for proc in procs:
            proc.kill()
            proc.wait(timeout=10)
            for stream in (proc.stdin, proc.stdout):
                if stream is not None:
                    stream.close()


def test_http_failures_are_named_per_request_and_the_session_lives_on(write, hostile_http: str) -> None:
    good, bad = hostile_http.split()
    servers = (
        f"  web: {{ url: 'http://127.0.0.1:{good}/mcp', call_timeout_s: 10 }}\n"
        f"  odd: {{ url: 'http://127.0.0.1:{bad}/mcp' }}"
    )
    tests = [
        "{ name: status, server: web, tool: status500 }",
        "{ name: after status, server: web, tool: echo }",
        "{ name: cut off, server: web, tool: cutoff }",
        "{ name: after cut off, server: web, tool: echo }",
        "{ name: bomb, server: web, tool: gzip_bomb, args: { mb: 30 } }",
        "{ name: stray, server: web, tool: stray_id }",
        "{ name: nan, server: web, tool: nan }",
        "{ name: after all, server: web, tool: echo }",
        "{ name: session id, server: odd, tool: echo }",
    ]
    ran = run_cli(
        "run", str(suite_of(write, servers, tests)), "-r", "json", env={"MCPTEST_MAX_MESSAGE_BYTES": "5000000"}
    )
    report = strict(ran.stdout)
    assert [r["name"] for r in report["results"]] == [t.split(",")[0][8:] for t in tests]
    error = {r["name"]: r["error"] for r in report["results"]}
    assert error["status"] == (
        "server 'web': the server answered HTTP 500 Internal Server Error: Internal Server Error: the database is on "
        "fire Internal Server Error: the database is on fire Internal Server Error: the database is on fire"
    )
    assert error["cut off"].startswith("server 'web': the server's HTTP answer was cut off after 22 of 5,000 bytes")
    assert error["bomb"] == (
        "server 'web': the server's HTTP answer is over the 5,000,000-byte limit once inflated from "
        f"{error['bomb'].split('inflated from ')[1].split(' ')[0]} gzip bytes; mcptest stopped reading it "
        "(raise MCPTEST_MAX_MESSAGE_BYTES to read more)"
    )
    assert "never sent" in error["stray"] and "bare NaN" in error["nan"]
    assert error["session id"] == (
        f"server 'odd': cannot reach http://127.0.0.1:{bad}/mcp: the server's Mcp-Session-Id 'séance-☃' is not "
        "visible ASCII (the spec allows 0x21-0x7E only), so no request could carry it back"
    )
    for after in ("after status", "after cut off", "after all"):
        assert error[after] is None
    assert ran.seconds < 40


def test_a_line_is_split_in_linear_time_and_an_oversized_one_keeps_its_id() -> None:
    splitter = LineSplitter(limit=50)
    assert splitter.feed('{"a":') == [] and splitter.feed('1}\n{"b"') == ['{"a":1}']
    big = '{"jsonrpc":"2.0","id":7,"result":{"text":"' + "x" * 200 + '"}}'
    (line,) = splitter.feed(":2}\n" + big[:30]) and splitter.feed(big[30:] + "\n")
    assert isinstance(line, Oversized) and line.request_id() == 7
    refused = parse_line(line)
    assert refused.message.id == 7 and is_refusal(refused.message.error)
    assert "a message of 245 characters, over the 50 limit" in refused.message.error.message


def test_a_stray_answer_is_kept_for_the_timeout_message_when_several_requests_wait() -> None:
    from mcp.shared.message import SessionMessage
    from mcp_types import JSONRPCRequest, JSONRPCResponse

    watch = Watch()
    for request_id in (1, 2):
        watch.outgoing(SessionMessage(JSONRPCRequest(jsonrpc="2.0", id=request_id, method="ping")))
    stray = SessionMessage(JSONRPCResponse(jsonrpc="2.0", id=99, result={}))
    assert watch.incoming(stray) is stray
    assert watch.note() == "; meanwhile the server answered id 99, which mcptest never sent"


def test_a_huge_actual_value_is_clipped_in_the_failure_and_says_so() -> None:
    failure = AssertionFailure(target="t", matcher="m", expected=None, actual=["x" * 50_000, 1, 2], message="m")
    assert failure.actual[0].endswith("… [30,000 more characters cut]") and len(failure.actual[0]) < 20_100
    assert failure.actual[1:] == ["… [2 more items cut]"]
    assert clipped({"a": [1, "b"]}) == {"a": [1, "b"]}


def test_a_limit_that_is_not_a_whole_number_is_refused_naming_its_variable() -> None:
    from mcptest.core.errors import UserError

    assert limits({"MCPTEST_MAX_PAGES": "50"}).pages == 50
    with pytest.raises(UserError, match="MCPTEST_MAX_PAGES='lots': not a positive whole number"):
        limits({"MCPTEST_MAX_PAGES": "lots"})


def test_an_in_process_server_result_is_cut_to_the_item_bound_too() -> None:
    from mcp.server.mcpserver import MCPServer

    from mcptest.server.session import InProcessServer, SessionPool

    server = MCPServer("many")

    @server.tool()
    def many() -> list[str]:
        """Many items."""
        return ["i"] * 30

    async def call() -> tuple[str | None, int]:
        async with SessionPool({"s": InProcessServer(server)}) as pool:
            session = await pool.get("s")
            session._limits = limits({"MCPTEST_MAX_CONTENT_ITEMS": "5"})
            outcome = await session.call_tool("many", {})
            return outcome.error, len((outcome.result or {}).get("content", []))

    error, kept = anyio.run(call)
    assert kept == 5 and error is not None and "holds 30 `content` items, over the 5 limit" in error
