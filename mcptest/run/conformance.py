"""`mcptest conformance`: probe one server over its raw transport (`mcptest.server.raw`), then judge the recorded
exchange with the checks of `mcptest.checks.conformance.rules`.

The probes follow what the server declares: a capability it declares is exercised (lists paged to their end, the
first resource read, the first prompt rendered, read-only tools called with arguments built from their schema,
unknown names asked for); one it does not declare is asked for once, to see it refused. Nothing is called that
could change state: a tool is called only when annotated `readOnlyHint: true` (and not destructive), or when it
is one of the official conformance fixtures (`test_simple_text`, `test_error_handling`).
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

import anyio

from mcptest.checks.conformance.exchange import Exchange, Transcript
from mcptest.checks.conformance.messages import HANDSHAKE_VERSIONS, MODERN_VERSIONS, SCHEMA_VERSIONS
from mcptest.checks.conformance.report import FAIL_ON, ConformanceReport, Outcome
from mcptest.checks.conformance.rules import (
    BY_ID,
    CHECKS,
    KNOWN_VERSIONS,
    SLOW_FIXTURES,
    UNDECLARED,
    UNSUPPORTED_VERSION,
    judge,
    resource_metadata_url,
    resume_point,
)
from mcptest.server.raw import CannotConnect, Channel, HttpChannel, SseChannel, StdioChannel
from mcptest.suite.models import HttpServer, StdioServer

if TYPE_CHECKING:
    from mcptest.records.coverage import Tally
    from mcptest.records.report import TestResult
    from mcptest.suite.blocks.conformance import ConformanceBlock
    from mcptest.suite.models import Suite

OFFERED_VERSION = HANDSHAKE_VERSIONS[-1]
"""The version of the primary run (the one that also offers an unsupported version and feeds coverage)."""
CLIENT_INFO = {"name": "mcptest-conformance", "version": "1"}
PROTOCOL_VERSION_KEY = "io.modelcontextprotocol/protocolVersion"

MOST_CALLS = 4
"""Read-only tools called at most (each may take up to the timeout)."""
FIXTURE_TOOLS = ("test_simple_text", "test_error_handling", "test_tool_with_progress")
"""The official conformance suite's fixture tools that are safe to call whenever a server has them."""
RESUME_WINDOW = 0.5
"""Seconds a GET with Last-Event-ID is read for what the server replays (SSE resumption)."""
CANCEL_GRACE = 0.5
"""Seconds past a slow fixture's own duration that a cancelled call is waited for (an answer then is a failure)."""


class Unreachable(Exception):
    """The server could not be started or reached (exit 3)."""

    def __init__(self, message: str, stderr: str = "") -> None:
        super().__init__(message)
        self.message, self.stderr = message, stderr


def run_conformance(
    name: str,
    config: Any,
    base_dir: Path,
    timeout: float | None = None,
    expected: frozenset[str] = frozenset(),
    version: str | None = OFFERED_VERSION,
) -> ConformanceReport:
    """Probe the server offering protocol `version` (one of SCHEMA_VERSIONS), judge what it sent, and apply the
    baseline of expected failures; Unreachable (exit 3) when it cannot be started or reached, or does not speak a
    2026-07-28 `version`. `version` None checks every version of SCHEMA_VERSIONS at once, one connection each
    (2026-07-28 not over the legacy SSE transport): the report is the newest handshake version's (OFFERED_VERSION),
    the others are its `others`, newest first. Its `coverage` is what the probes reached of the server (`count`)."""
    from mcptest.records.coverage import Tally

    tally = Tally()
    report = anyio.run(conformance_async, name, config, base_dir, timeout, expected, version, tally)
    report.coverage = tally.measure_listed(name)
    return report


async def conformance_async(
    name: str,
    config: Any,
    base_dir: Path,
    timeout: float | None = None,
    expected: frozenset[str] = frozenset(),
    version: str | None = OFFERED_VERSION,
    tally: Tally | None = None,
) -> ConformanceReport:
    """`run_conformance` inside a running event loop (a suite's `conformance:` block); what the probes reached feeds
    `tally`, when given, under the server's `name` (`count`; the newest version's run only)."""
    if version is not None:
        return await _one_version(name, config, base_dir, timeout, expected, version, primary=True, tally=tally)
    reports: dict[str, ConformanceReport] = {}

    async def one(offered: str) -> None:
        primary = offered == OFFERED_VERSION
        counted = tally if primary else None
        reports[offered] = await _one_version(name, config, base_dir, timeout, expected, offered, primary, counted)

    legacy_sse = isinstance(config, HttpServer) and config.transport == "sse"
    offered_versions = [v for v in SCHEMA_VERSIONS if not (legacy_sse and v in MODERN_VERSIONS)]
    try:
        async with anyio.create_task_group() as tg:
            for offered in offered_versions:
                tg.start_soon(one, offered)
    except BaseExceptionGroup as group:  # one version's server could not be reached: the run cannot be made
        refused = _refusal(group)
        if refused is None:
            raise
        raise refused from None
    lead = OFFERED_VERSION
    modern = next((v for v in reversed(MODERN_VERSIONS) if v in reports and reports[v].spoken), None)
    if modern is not None and reports[lead].protocol_version is None:  # initialize refused: a 2026-07-28-only server
        reports[lead] = _not_spoken(reports[lead], f"initialize got no result, and the server speaks {modern}")
        lead = modern
    report = reports[lead]
    report.others = [reports[v] for v in reversed(offered_versions) if v != lead]  # newest first
    return report


def _not_spoken(report: ConformanceReport, why: str) -> ConformanceReport:
    """A version's report as one the server does not speak: no checks, a note saying why."""
    note = f"offered {report.offered_version}, {why}: it does not speak {report.offered_version}"
    return ConformanceReport(
        report.server, report.transport, report.offered_version, None, {}, [], report.duration_s, [note]
    )


async def _one_version(
    name: str,
    config: Any,
    base_dir: Path,
    timeout: float | None,
    expected: frozenset[str],
    version: str,
    primary: bool,
    tally: Tally | None = None,
) -> ConformanceReport:
    """One version's run. The primary run also offers an unsupported version (on a second connection) and goes on
    whatever version the server negotiates; another version's run stops after `initialize` when the server answers
    a different version (it does not speak that one: no check runs under it). A 2026-07-28 run stops after
    `server/discover` when it gets no result (Unreachable when that version was the one asked for)."""
    start = time.perf_counter()
    transcript, stderr = await probe(config, base_dir, timeout, version, primary)
    _check_own_messages(transcript)
    if tally is not None:
        count(transcript, name, tally)
    if transcript.modern and transcript.version is None:
        discover = transcript.discover
        got = "no answer" if discover is None else discover.problem or _answer(discover)
        why = f"server/discover got {got}: it does not speak {version}"
        if primary:
            raise Unreachable(why, stderr)
        transcript.notes.append(f"offered {version}, {why}")
    if not primary and transcript.version != version:
        if not transcript.modern:
            answered = transcript.version or "no version"
            transcript.notes.append(f"offered {version}, the server answered {answered}: it does not speak {version}")
        return ConformanceReport(
            name, transcript.transport, version, transcript.version, {}, [], time.perf_counter() - start,
            transcript.notes,
        )  # fmt: skip
    outcomes = []
    judged = transcript.version if transcript.version in KNOWN_VERSIONS else version
    for check, verdict in judge(transcript):
        status = verdict.status
        message = verdict.message
        if check.id in expected and status == "fail":
            status = "expected"
        elif check.id in expected and status == "pass":
            status, message = "stale", "listed in the expected failures but passes now: remove it from the baseline"
        level = check.level_at(judged)
        outcomes.append(Outcome(check.id, level, check.section, check.title, status, message, verdict.evidence))
    info = transcript.server_info
    return ConformanceReport(
        server=name,
        transport=transcript.transport,
        offered_version=transcript.offered_version,
        protocol_version=transcript.version,
        server_info=info,
        outcomes=outcomes,
        duration_s=time.perf_counter() - start,
        notes=transcript.notes,
        stderr=stderr if transcript.exited else "",
    )


async def run_conformance_block(
    block: ConformanceBlock, fields: dict[str, Any], suite: Suite, tally: Tally | None = None
) -> tuple[TestResult, bool]:
    """A suite's `conformance:` block: its server started on its own and checked under every version it speaks (or
    the block's `protocol_version`); each failed check (a failed SHOULD only with `fail_on: should`, a stale
    `expected_failures` entry too) is one failure of the row, with the version, what was sent and received; the
    targets are the counts over every version checked (`checks.fail`) and per version (`checks.2026-07-28.fail`). A
    server that cannot be reached fails the row with the reason. What its probes reached feeds the run's coverage
    `tally`, when given."""
    from mcptest.expect.failure import AssertionFailure
    from mcptest.records.report import Status, TestResult
    from mcptest.run.rows import elapsed_ms, failed_row

    start = time.perf_counter()
    config = suite.servers[block.server]
    expected = frozenset(block.expected_failures)
    base_dir = Path(suite.file).parent
    try:
        report = await conformance_async(
            block.server, config, base_dir, block.timeout_s, expected, block.protocol_version, tally
        )
    except Unreachable as exc:
        return failed_row(fields, start, f"server '{block.server}': {exc.message}", exc.stderr), False
    levels = ("MUST", "SHOULD") if block.fail_on == "should" else ("MUST",)
    failures = []
    targets: dict[str, float | int | None] = {}
    checked = [r for r in report.every_version() if r.outcomes]  # a version the server does not speak: no checks
    for version in checked:
        suffix = "" if version is report else f" ({version.offered_version})"
        failures += [
            AssertionFailure(
                target=o.id + suffix,
                matcher="conformance",
                expected=o.title,
                actual=o.status,
                message=f"{o.id} ({o.level}; {version.url(o.id)}) under protocol {version.spec_version}: {o.message}"
                + (f"\n{o.evidence}" if o.evidence else ""),
            )
            for o in version.outcomes
            if o.status == "stale" or (o.status == "fail" and o.level in levels)
        ]
        for key, n in version.counts().items():
            targets[f"checks.{version.offered_version}.{key}"] = n
            targets[f"checks.{key}"] = int(targets.get(f"checks.{key}") or 0) + n
    status = Status.FAILED if failures else Status.PASSED
    row = TestResult(**fields, status=status, duration_ms=elapsed_ms(start), failures=failures, targets=targets)
    return row, False


def count(t: Transcript, server: str, tally: Tally) -> None:
    """Feed coverage with what a conformance run reached of the server: its listings (what the figures are measured
    over when no session of the run listed the server) and each tool call, resource read and prompt rendering the
    server answered with a result. The probes of names the server does not list (`mcptest_no_such_tool`, ...) are
    no part of its catalog and count for nothing; a request answered with a JSON-RPC error or nothing is no call
    the server accepted."""
    tally.listed(
        server,
        t.items("tools/list", "tools"),
        resources=t.items("resources/list", "resources"),
        templates=t.items("resources/templates/list", "resourceTemplates"),
        prompts=t.items("prompts/list", "prompts"),
    )
    probes = ("tools/call:invalid-arguments", "tools/call:test_error_handling")
    calls = [ex for _, ex in t.calls] + [ex for label in probes if (ex := t.get(label)) is not None]
    for ex in calls:
        params = (ex.sent or {}).get("params") or {}
        if ex.result is not None and isinstance(params.get("name"), str):
            tally.tool_call(server, params["name"], params.get("arguments"), is_error=ex.result.get("isError") is True)
    read = t.get("resources/read")
    if read is not None and read.result is not None:
        tally.resource_read(server, str(((read.sent or {}).get("params") or {}).get("uri")))
    rendered = t.get("prompts/get")
    if rendered is not None and rendered.result is not None:
        params = (rendered.sent or {}).get("params") or {}
        tally.prompt_get(server, str(params.get("name")), params.get("arguments"))


def _check_own_messages(t: Transcript) -> None:
    """Every message mcptest sent, validated against the schema it judges the server by: a problem is mcptest's
    own bug, named in the report's notes (never a failed check of the server)."""
    from mcptest.checks.conformance.messages import client_problems, schema_version

    version = schema_version(t.version, t.offered_version)
    for message in t.sent:
        if json.dumps(message.get("id")) in t.malformed:
            continue  # malformed on purpose (meta-envelope-required, version-unsupported-error)
        found = client_problems(version, message)
        if found:
            what = message.get("method") or "an answer to the server"
            t.notes.append(f"mcptest's own {what} breaks the {version} schema (a bug of mcptest): {found[0]}")


def unknown_ids(ids: list[str]) -> list[str]:
    """The ids of a baseline that name no check."""
    return [i for i in ids if i not in BY_ID]


def _channel(config: Any, base_dir: Path, transcript: Transcript, timeout: float) -> Channel:
    import sys

    if isinstance(config, StdioServer):
        command, *args = config.command
        if command == "mcptest":
            command, args = sys.executable, ["-m", "mcptest", *args]
        cwd = base_dir / config.cwd if config.cwd else base_dir
        env = {k: v for k, v in config.env.items() if isinstance(v, str)}
        return StdioChannel([command, *args], env, cwd, transcript, timeout)
    if isinstance(config, HttpServer):
        from mcptest.server.auth import oauth_provider, static_headers

        headers = static_headers(config)
        auth = None
        if headers is None:  # OAuth: the SDK's provider fetches the token, and fetches it again when refused
            assert config.auth is not None
            headers = {k: v for k, v in config.headers.items() if isinstance(v, str)}
            auth = oauth_provider(config.url, config.auth)
        transcript.auth = "" if config.auth is None else "oauth" if auth is not None else "bearer"
        if config.transport == "sse":
            if auth is not None:
                transcript.notes.append("OAuth is not applied over the legacy SSE transport: only bearer tokens are")
            return SseChannel(config.url, headers, transcript, timeout)
        return HttpChannel(config.url, headers, transcript, timeout, auth)
    raise Unreachable(f"conformance cannot run on a {type(config).__name__}")


async def probe(
    config: Any, base_dir: Path, timeout: float | None = None, version: str = OFFERED_VERSION, primary: bool = True
) -> tuple[Transcript, str]:
    """Run every probe on one server; the transcript, and the server's stderr (stdio). Not `primary`: no second
    connection with an unsupported version, and no probe past `initialize` if the server answers another version."""
    timeout = timeout or config.call_timeout_s
    transport = "stdio" if not isinstance(config, HttpServer) else "sse" if config.transport == "sse" else "http"
    if transport == "sse" and version in MODERN_VERSIONS:
        raise Unreachable(f"{version} has no HTTP+SSE transport (the legacy one of 2024-11-05): check it over HTTP")
    transcript = Transcript(transport, version, modern=version in MODERN_VERSIONS)
    side = Transcript(transport, UNSUPPORTED_VERSION)
    channel = _channel(config, base_dir, transcript, timeout)
    refused: Unreachable | None = None
    async with anyio.create_task_group() as tg:
        if primary and not transcript.modern:  # 2026-07-28 asks an unsupported version inline
            tg.start_soon(_unsupported_version, _channel(config, base_dir, side, timeout))
        try:
            async with channel.open():  # type: ignore[attr-defined]
                await _drive(channel, transcript, primary)
        except CannotConnect as exc:
            refused = Unreachable(str(exc))
        except Unreachable as exc:
            refused = exc
        except BaseExceptionGroup as group:  # raised inside the channel's task group (initialize unanswered)
            refused = _refusal(group)
            if refused is None:
                raise
        if refused is not None:
            tg.cancel_scope.cancel()
    if refused is not None:
        raise refused
    if (found := side.get("initialize:unsupported-version")) is not None:
        transcript.exchanges["initialize:unsupported-version"] = found
    return transcript, channel.stderr_tail()  # type: ignore[attr-defined]


def _refusal(group: BaseExceptionGroup[BaseException]) -> Unreachable | None:
    """The Unreachable (or CannotConnect) a task group wrapped, if that is all it holds."""
    matched, rest = group.split((Unreachable, CannotConnect))
    if matched is None or rest is not None:
        return None
    first: BaseException = matched
    while isinstance(first, BaseExceptionGroup):
        first = first.exceptions[0]
    return first if isinstance(first, Unreachable) else Unreachable(str(first))


def _initialize(version: str) -> dict[str, Any]:
    return {"protocolVersion": version, "capabilities": {}, "clientInfo": CLIENT_INFO}


async def _unsupported_version(channel: Channel) -> None:
    try:
        async with channel.open():  # type: ignore[attr-defined]
            await channel.request("initialize:unsupported-version", "initialize", _initialize(UNSUPPORTED_VERSION))
    except CannotConnect as exc:
        channel.transcript.notes.append(f"the second connection (an unsupported version offered) failed: {exc}")


def _answer(ex: Exchange) -> str:
    """What a request got, in a few words: `error -32601`, `HTTP 400`, `a result`."""
    if ex.error is not None:
        return f"error {ex.error.get('code')}" + (f" (HTTP {ex.status})" if ex.status is not None else "")
    return f"HTTP {ex.status}" if ex.received is None and ex.status is not None else "a result"


def _envelope(version: str) -> dict[str, Any]:
    """The `_meta` a 2026-07-28 request carries: its protocol version, the client, and its capabilities (none)."""
    return {
        PROTOCOL_VERSION_KEY: version,
        "io.modelcontextprotocol/clientInfo": CLIENT_INFO,
        "io.modelcontextprotocol/clientCapabilities": {},
    }


async def _malformed(ch: Channel, t: Transcript, label: str, params: dict[str, Any], **http: Any) -> None:
    """A server/discover made malformed on purpose (sent as written, not stamped; not judged as mcptest's own)."""
    message = _message(ch, "server/discover", params)
    t.malformed.add(json.dumps(message["id"]))
    t.exchanges[label] = await ch.send(message, stamp=False, **http)


async def _drive_modern(ch: Channel, t: Transcript) -> None:
    """A 2026-07-28 run: server/discover first (no result: the server does not speak it, and the run stops), then
    the same probes as a handshake run, each request stamped with the `_meta` envelope, and the version's own
    rules: a request without the envelope, one of an unsupported version, and over HTTP the mirrored headers."""
    ch.envelope = _envelope(t.offered_version)
    if isinstance(ch, HttpChannel):
        ch.protocol_version = t.offered_version
    found = await ch.request("server/discover", "server/discover", {})  # silence until the timeout: handshake era
    if found.problem and (t.exited or (found.status is None and not found.problem.startswith("no answer"))):
        raise Unreachable(found.problem, ch.stderr_tail())  # type: ignore[attr-defined]
    if t.version is None:
        return
    await ch.request("unknown-method", "mcptest/no-such-method", {})
    await _malformed(ch, t, "modern:no-envelope", {})
    unsupported = {"_meta": {**ch.envelope, PROTOCOL_VERSION_KEY: UNSUPPORTED_VERSION}}
    await _malformed(
        ch, t, "modern:unsupported-version", unsupported, headers={"MCP-Protocol-Version": UNSUPPORTED_VERSION}
    )
    await _operate(ch, t)
    if isinstance(ch, HttpChannel):
        await _auth(ch, t, _message(ch, "server/discover", {}))
        await ch.request("http:origin", "server/discover", {}, headers={"Origin": "http://evil.example"})
        await ch.request("http:header-mismatch", "tools/list", {}, headers={"Mcp-Method": "prompts/list"})
        await ch.bare("http:get", "GET", {"Accept": "text/event-stream"})


async def _drive(ch: Channel, t: Transcript, primary: bool = True) -> None:
    if t.modern:
        await _drive_modern(ch, t)
        return
    init = await ch.request("initialize", "initialize", _initialize(t.offered_version))
    if init.problem and (init.status is None):
        raise Unreachable(init.problem, ch.stderr_tail())  # type: ignore[attr-defined]
    if not primary and t.version != t.offered_version:
        return  # the server does not speak this version: the primary run checks the one it negotiates
    if isinstance(ch, HttpChannel):
        ch.session_id = init.header("mcp-session-id")
        ch.protocol_version = t.version
    await ch.notify("initialized", "notifications/initialized")
    await ch.request("ping", "ping")
    await ch.request("unknown-method", "mcptest/no-such-method", {})
    await _operate(ch, t)
    if isinstance(ch, HttpChannel):
        await _http(ch, t)


async def _operate(ch: Channel, t: Transcript) -> None:
    """The probes of what the server declares, in both eras (2026-07-28 has no logging/setLevel, no resource
    subscriptions, and on HTTP cancels by closing a stream, so those are left out there)."""
    caps = t.capabilities
    cancels = not (t.modern and isinstance(ch, HttpChannel))
    for capability, method in UNDECLARED.items():
        if capability not in caps:
            await ch.request(f"undeclared:{capability}", method, _undeclared_params(method))
    if "tools" in caps:
        await _tools(ch, t)
    listed = {str(tool.get("name")) for tool in t.items("tools/list", "tools") if _read_only(tool)}
    slow = next((name for name in SLOW_FIXTURES if name in listed), None)
    async with anyio.create_task_group() as tg:
        if slow is not None and cancels:  # a second or so of waiting, spent while the other probes run
            tg.start_soon(_cancel_in_flight, ch, t, slow)
        if "resources" in caps:
            await _resources(ch, t)
        if "prompts" in caps:
            await _prompts(ch, t)
        if "logging" in caps and not t.modern:
            await ch.request("logging/setLevel", "logging/setLevel", {"level": "info"})
        if "completions" in caps:
            await _complete(ch, t)
    if cancels:
        await _cancel_completed(ch, t)


def _undeclared_params(method: str) -> dict[str, Any]:
    if method == "logging/setLevel":
        return {"level": "info"}
    if method == "completion/complete":
        return {"ref": {"type": "ref/prompt", "name": "mcptest-none"}, "argument": {"name": "x", "value": ""}}
    return {}


async def _pages(ch: Channel, t: Transcript, method: str) -> None:
    pages = t.pages.setdefault(method, [])
    cursor = None
    seen: set[str] = set()
    for _ in range(t.page_limit):
        params: dict[str, Any] = {"cursor": cursor} if cursor else {}
        page = await ch.send(_message(ch, method, params))
        pages.append(page)
        cursor = (page.result or {}).get("nextCursor")
        if not cursor or repr(cursor) in seen:
            return
        seen.add(repr(cursor))


def _message(ch: Channel, method: str, params: dict[str, Any]) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": ch.new_id(), "method": method, "params": params}


async def _tools(ch: Channel, t: Transcript) -> None:
    from mcptest.core.sample_arguments import arguments

    await _pages(ch, t, "tools/list")
    tools = t.items("tools/list", "tools")
    names = {str(tool.get("name")) for tool in tools}
    called = 0
    for tool in tools:
        name = str(tool.get("name"))
        if name == "test_error_handling" or name in SLOW_FIXTURES:  # called apart (below; _cancel_in_flight)
            continue
        schema = tool.get("inputSchema") if isinstance(tool.get("inputSchema"), dict) else {}
        if called >= MOST_CALLS or not (_read_only(tool) or name in FIXTURE_TOOLS):
            continue
        try:
            args = arguments(schema)  # type: ignore[arg-type]
        except Exception:  # a schema jsonschema cannot even use (tools-input-schema says why): no call
            args = None
        if args is None:
            continue
        ex = await ch.send(_call(ch, t, name, args))
        t.calls.append((name, ex))
        called += 1
    if not t.calls and tools:
        t.notes.append("no tool is annotated readOnlyHint: true, so no tool was called (tools-call-result skipped)")
    unknown = "mcptest_no_such_tool"
    while unknown in names:
        unknown += "_"
    await ch.request("tools/call:unknown", "tools/call", {"name": unknown, "arguments": {}})
    needy = next((tool for tool in tools if _read_only(tool) and (tool.get("inputSchema") or {}).get("required")), None)
    if needy is not None:
        await ch.request("tools/call:invalid-arguments", "tools/call", {"name": needy["name"], "arguments": {}})
    if "test_error_handling" in names:
        await ch.request(
            "tools/call:test_error_handling", "tools/call", {"name": "test_error_handling", "arguments": {}}
        )


def _call(ch: Channel, t: Transcript, name: str, args: dict[str, Any]) -> dict[str, Any]:
    """A tools/call carrying a progress token of its own (recorded, so progress notifications can be matched)."""
    message = _message(ch, "tools/call", {"name": name, "arguments": args})
    token = f"mcptest-progress-{message['id']}"
    message["params"]["_meta"] = {"progressToken": token}
    t.progress_tokens[json.dumps(token)] = json.dumps(message["id"])
    return message


async def _cancel_in_flight(ch: Channel, t: Transcript, name: str) -> None:
    """Call a slow fixture, cancel it once its first progress notification shows it running, and wait past its own
    duration: a response after the cancellation is what `cancellation-no-response` fails."""
    args = SLOW_FIXTURES[name]
    wait = float(args.get("duration", 1.0)) + CANCEL_GRACE
    message = _call(ch, t, name, args)
    token = message["params"]["_meta"]["progressToken"]
    box: list[Exchange] = []

    async def call() -> None:
        box.append(await ch.send(message, wait=wait))

    async with anyio.create_task_group() as tg:
        tg.start_soon(call)
        with anyio.move_on_after(wait):
            while not box and not any(_progress_of(m, token) for m in t.messages):
                await anyio.sleep(0.02)
        if not box and any(_progress_of(m, token) for m in t.messages):
            t.cancelled = message["id"]
            params = {"requestId": message["id"], "reason": "mcptest conformance: cancelled mid-way"}
            await ch.notify("cancel:notification", "notifications/cancelled", params)
    t.exchanges["cancel:in-flight"] = box[0]


def _progress_of(message: Any, token: str) -> bool:
    if not isinstance(message, dict) or message.get("method") != "notifications/progress":
        return False
    params = message.get("params")
    return isinstance(params, dict) and params.get("progressToken") == token


async def _cancel_completed(ch: Channel, t: Transcript) -> None:
    """Cancel the ping (2026-07-28: the unknown method) already answered, then ask something: a server that ignores
    the stale cancellation answers."""
    ping = t.get("ping") or t.get("unknown-method")
    request_id = ping.sent.get("id") if ping is not None and ping.sent is not None else 1
    reason = "mcptest conformance: a cancellation of a request already answered"
    await ch.notify("cancel:completed", "notifications/cancelled", {"requestId": request_id, "reason": reason})
    await ch.request("cancel:after", "mcptest/no-such-method", {})


def _read_only(tool: dict[str, Any]) -> bool:
    hints = tool.get("annotations") if isinstance(tool.get("annotations"), dict) else {}
    return hints.get("readOnlyHint") is True and hints.get("destructiveHint") is not True  # type: ignore[union-attr]


async def _resources(ch: Channel, t: Transcript) -> None:
    await _pages(ch, t, "resources/list")
    await _pages(ch, t, "resources/templates/list")
    listed = t.items("resources/list", "resources")
    uris = {str(r.get("uri")) for r in listed}
    first = next((str(r["uri"]) for r in listed if isinstance(r.get("uri"), str)), None)
    if first is not None:
        await ch.request("resources/read", "resources/read", {"uri": first})
    unknown = "mcptest://conformance/no-such-resource"
    if unknown not in uris:
        await ch.request("resources/read:unknown", "resources/read", {"uri": unknown})
    subscribable = (t.capabilities.get("resources") or {}).get("subscribe")
    if subscribable and first is not None and not t.modern:  # 2026-07-28 subscribes through subscriptions/listen
        await ch.request("resources/subscribe", "resources/subscribe", {"uri": first})
        await ch.request("resources/unsubscribe", "resources/unsubscribe", {"uri": first})


async def _prompts(ch: Channel, t: Transcript) -> None:
    await _pages(ch, t, "prompts/list")
    listed = t.items("prompts/list", "prompts")
    names = {str(p.get("name")) for p in listed}
    plain = next((p for p in listed if not _required(p)), None)
    chosen = plain or (listed[0] if listed else None)
    if chosen is not None:
        args = {str(a.get("name")): "example" for a in _required(chosen)}
        params: dict[str, Any] = {"name": chosen.get("name")} | ({"arguments": args} if args else {})
        await ch.request("prompts/get", "prompts/get", params)
    unknown = "mcptest_no_such_prompt"
    if unknown not in names:
        await ch.request("prompts/get:unknown", "prompts/get", {"name": unknown})


def _required(prompt: dict[str, Any]) -> list[dict[str, Any]]:
    arguments = prompt.get("arguments") if isinstance(prompt.get("arguments"), list) else []
    return [a for a in arguments or [] if isinstance(a, dict) and a.get("required")]


async def _complete(ch: Channel, t: Transcript) -> None:
    for prompt in t.items("prompts/list", "prompts"):
        arguments = [a for a in prompt.get("arguments") or [] if isinstance(a, dict) and a.get("name")]
        if arguments:
            params: dict[str, Any] = {
                "ref": {"type": "ref/prompt", "name": prompt.get("name")},
                "argument": {"name": arguments[0]["name"], "value": ""},
            }
            await ch.request("completion/complete", "completion/complete", params)
            return
    for template in t.items("resources/templates/list", "resourceTemplates"):
        from mcptest.core.uri_template import variables

        names = variables(str(template.get("uriTemplate")))
        if names:
            params = {
                "ref": {"type": "ref/resource", "uri": template.get("uriTemplate")},
                "argument": {"name": names[0], "value": ""},
            }
            await ch.request("completion/complete", "completion/complete", params)
            return


INVALID_TOKEN = "mcptest-conformance-invalid-token"


async def _auth(ch: HttpChannel, t: Transcript, message: dict[str, Any]) -> None:
    """A server that requires auth: a request with a token it never issued (refused 401, judged with its
    WWW-Authenticate), and under OAuth its Protected Resource Metadata, where the 401 points (`resource_metadata`)
    or at the well-known URIs (under the endpoint's path, then the root)."""
    from urllib.parse import urlsplit

    if not t.auth:
        return
    refused = await ch.unauthenticated("auth:invalid-token", ch.stamped(message), INVALID_TOKEN)
    if t.auth != "oauth":
        return
    pointed = resource_metadata_url(refused)
    parts = urlsplit(ch.url)
    root = f"{parts.scheme}://{parts.netloc}/.well-known/oauth-protected-resource"
    candidates = [pointed] if pointed else [root + parts.path.rstrip("/"), root]
    for i, url in enumerate(dict.fromkeys(candidates)):
        found = await ch.fetch(f"auth:metadata:{i}", url)
        if found.status == 200 and found.received is not None:
            break


async def _http(ch: HttpChannel, t: Transcript) -> None:
    await _auth(ch, t, {"jsonrpc": "2.0", "id": ch.new_id(), "method": "initialize",
                        "params": _initialize(t.offered_version)})  # fmt: skip
    await ch.request("http:bad-protocol-version", "ping", headers={"MCP-Protocol-Version": UNSUPPORTED_VERSION})
    await ch.request("http:origin", "initialize", _initialize(t.offered_version), session=False,
                     headers={"Origin": "http://evil.example"})  # fmt: skip
    await ch.bare("http:get", "GET", {"Accept": "text/event-stream"})
    resumable = resume_point(t)
    if resumable is not None:
        await ch.resume("http:resume", resumable[1], RESUME_WINDOW)
    if ch.session_id is None:
        return
    await ch.request("http:no-session", "ping", session=False)
    deleted = await ch.bare("http:delete", "DELETE")
    if deleted.status is not None and deleted.status < 400:
        await ch.request("http:after-delete", "ping")


__all__ = ["CHECKS", "FAIL_ON", "ConformanceReport", "Unreachable", "run_conformance"]
