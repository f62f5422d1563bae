"""MCP sessions: the only module that opens connections to servers (through the official `mcp` SDK).

One session per server per run, opened when a test first needs it, reused, closed at the end. Every
failure (missing command, crash, hang, garbage on stdout) becomes a message plus the server's stderr.
"""

from __future__ import annotations

import logging
import math
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import anyio

from mcptest.server.client_answers import CallCapture, ClientSide
from mcptest.server.limits import limits, raise_hint
from mcptest.server.primitives import Cursors, MakeRequest, list_all, opt_in_logs, send_unchecked, send_wire
from mcptest.server.stderr_capture import StderrCapture
from mcptest.server.tasks import (
    TaskFailed,
    TaskNotes,
    TaskRun,
    client_extension,
    run_task,
    runs_tool_tasks,
    task_support,
)
from mcptest.server.wire import Watch, Watched, cut_items, take_cut
from mcptest.suite.client_config import ClientAnswers
from mcptest.suite.models import HttpServer, StdioServer

if TYPE_CHECKING:
    from mcptest.records.catalog import Catalog
    from mcptest.server.tracing import RequestHook


@dataclass
class InProcessServer:
    """An SDK server object (`MCPServer` or low-level `Server`) connected in memory: fast tests, no process."""

    server: Any
    connect_timeout_s: float = 10.0
    call_timeout_s: float = 10.0
    client: ClientAnswers = field(default_factory=ClientAnswers)


ServerConfig = StdioServer | HttpServer | InProcessServer
_STDERR_TAIL_LINES = 20


class ServerUnavailable(Exception):
    """A server could not be started, reached or talked to."""

    def __init__(self, message: str, stderr: str = "", kind: str = "unavailable", code: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.stderr = stderr
        self.kind = kind
        """What went wrong, for a caller that judges it (the fuzzer): `timeout`, `closed` (the server exited or
        hung up), `error` (a JSON-RPC error answer, its `code`), or `unavailable` (anything else)."""
        self.code = code


class EndlessPages(ServerUnavailable):
    """A paginated list whose `nextCursor` cycles, or that runs past `Limits.pages`."""


@dataclass
class CallOutcome:
    """What one `tools/call` produced: the result as the server sent it, or an error."""

    result: dict[str, Any] | None = None
    """The CallToolResult in wire form (camelCase), exactly as received."""
    error: str | None = None
    """A protocol error, timeout or lost connection; None when a result arrived."""
    duration_ms: float = 0.0
    findings: list[str] = field(default_factory=list)
    """Protocol violations seen in the result, e.g. structuredContent that breaks the outputSchema."""
    capture: CallCapture = field(default_factory=CallCapture)
    """Log and progress notifications and server requests seen during the call."""
    task: dict[str, Any] | None = None
    """For a call made as a task: its id, status history, polls and notifications (`TaskRun.target`)."""
    error_kind: str | None = None
    """With `error`: `timeout`, `closed`, `error` (a JSON-RPC error, `error_code`), `malformed` (a result that
    breaks its shape) or `unavailable`."""
    error_code: int | None = None

    @property
    def logs(self) -> list[dict[str, Any]]:
        """The log messages (`notifications/message` params) the server sent during the call, in wire form."""
        return self.capture.logs

    @property
    def progress(self) -> list[dict[str, Any]]:
        """The call's progress notifications: `progress`, and `total` and `message` when sent."""
        return self.capture.progress

    @property
    def sampling_requests(self) -> list[dict[str, Any]]:
        """The `sampling/createMessage` requests the server made during the call, in wire form."""
        return self.capture.sampling_requests

    @property
    def elicitation_requests(self) -> list[dict[str, Any]]:
        """The `elicitation/create` requests the server made during the call, in wire form."""
        return self.capture.elicitation_requests


@dataclass
class ServerInfo:
    """What the handshake told us."""

    name: str | None
    version: str | None
    protocol_version: str
    capabilities: dict[str, Any]
    instructions: str | None = None


class ServerSession:
    """An open connection to one server."""

    def __init__(self, name: str, config: ServerConfig, base_dir: Path, hook: RequestHook | None = None) -> None:
        self.name = name
        self.config = config
        self.hook = hook
        """Told of every request (a traced run's spans); None, the default, leaves the SDK's dispatcher as it is."""
        self._http: Any = None  # the HTTP transport, which knows the session id
        self._base_dir = base_dir
        self._client: Any = None
        self._dead: str | None = None
        self._broken: str | None = None
        self._stdout_garbage: list[str] = []
        self._garbage_seen = 0  # how many non-JSON-RPC lines so far: a failure names only those seen during it
        self._limits = limits()
        self._stderr = StderrCapture(self._limits.stderr_bytes)
        self._watch = Watch(self._limits.content_items)
        self._generation = 0  # which connection is current: a timed-out one is closed and a fresh one opened
        self._stale = False
        self._in_flight = 0
        self._renewing = anyio.Lock()
        self._tg: Any = None
        self._waits: set[anyio.CancelScope] = set()  # the handshake or requests a broken stdout ends at once
        self._catalog: Catalog | None = None
        self._support: dict[str, str] | None = None
        """Tool name -> its `execution.taskSupport`, once the catalog is listed."""
        self._lists: dict[str, list[dict[str, Any]]] = {}
        self._listing = anyio.Lock()  # overlapping calls (`--workers`) list the catalog once, not once each
        self.client_side = ClientSide(name, config.client)
        self.task_notes = TaskNotes()
        self.info: ServerInfo | None = None
        self._closing = anyio.Event()
        self._early: Any = None  # the process `start_early` started, for the transport to adopt
        self.process: Any = None
        """The stdio server process of the current connection (None for HTTP, in-process, and on Windows)."""

    async def start_early(self) -> None:
        """Start the stdio server before the SDK is imported (see `early_stdio`); OSError if it cannot start."""
        from mcptest.server.early_stdio import spawn

        command, args, env, cwd = self._stdio_command()
        self._early = await spawn(command, args, env, cwd, self._stderr.writer)

    async def discard_early(self) -> None:
        """End the server `start_early` started, which no transport took over."""
        from mcptest.server.early_stdio import discard

        if self._early is not None:
            await discard(self._early)

    async def run(self, *, task_status: Any = anyio.TASK_STATUS_IGNORED) -> None:
        """Own the connection for its whole life (the SDK's cancel scopes must open and close in one task).

        Reports `started` after the handshake; a failure before that reaches the caller of `start()`.
        """
        from mcp import Client

        from mcptest.server.early_stdio import early_start_possible

        self._generation += 1
        generation, self._closing = self._generation, anyio.Event()
        self._watch = Watch(self._limits.content_items)
        started = False
        spawned = None
        try:
            with anyio.CancelScope(deadline=anyio.current_time() + self.config.connect_timeout_s) as scope:
                self._waits.add(scope)
                if self._early is None and isinstance(self.config, StdioServer) and early_start_possible():
                    await self.start_early()  # our own reader, not the SDK's (see `mcptest.server.wire`)
                spawned = self._early
                client = Client(
                    self._target(),
                    read_timeout_seconds=self.config.call_timeout_s,
                    message_handler=self._on_message,
                    cache=None,
                    extensions=[client_extension(self.task_notes)],
                    **self.client_side.client_kwargs(),
                )
                self.process, self._early = spawned, None  # the transport owns it now
                async with client:
                    scope.deadline = math.inf
                    self._waits.discard(scope)
                    self._client = client
                    self.info = _server_info(client)
                    if self.hook is not None:
                        from mcptest.server.tracing import TracedDispatcher

                        session = client.session
                        session._dispatcher = TracedDispatcher(session._dispatcher, self.hook, self._trace_facts)
                    await opt_in_logs(client)
                    started = True
                    task_status.started()
                    await self._closing.wait()
        except Exception as exc:  # the SDK raises many kinds; each means "the server is not usable"
            if not started:
                raise self._unavailable(self._where() + _describe(exc)) from None
            logging.getLogger("mcptest").debug("closing %s: %s", self.name, exc)
        finally:
            if generation == self._generation:  # a connection closed after a timeout leaves its successor be
                self._client = None
                self._dead = self._dead or "the session is closed"
                self._waits.clear()
            for process in (self._early, spawned):
                if process is not None and process.returncode is None:  # no transport took it over
                    from mcptest.server.early_stdio import discard

                    await discard(process)
        if not started:
            raise self._unavailable(self._broken or f"no handshake within {self.config.connect_timeout_s:g}s")

    def _where(self) -> str:
        """`cannot reach URL: ` for an HTTP server (user info stripped), nothing for the others."""
        if not isinstance(self.config, HttpServer):
            return ""
        from urllib.parse import urlsplit, urlunsplit

        parts = urlsplit(self.config.url)
        host = parts.netloc.rsplit("@", 1)[-1]
        return f"cannot reach {urlunsplit(parts._replace(netloc=host))}: "

    def close(self) -> None:
        """Ask the session's task to shut the server down."""
        self._closing.set()

    def _target(self) -> Any:
        from mcp.client.stdio import StdioServerParameters

        from mcptest.server.processes import GroupedStdio

        if isinstance(self.config, InProcessServer):
            return self.config.server
        if isinstance(self.config, HttpServer):
            from mcptest.server.auth import http_transport

            self._http = http_transport(self.config, self._limits.message_bytes)
            return Watched(self._http, self._watch)
        if self._early is not None:
            from mcptest.server.early_stdio import adopted_stdio

            bounds = self._limits
            transport = adopted_stdio(self._early, bounds.message_bytes, bounds.content_items, errors="replace")
            return Watched(transport, self._watch)
        command, args, env, cwd = self._stdio_command()
        # undecodable bytes become U+FFFD, so `_on_message` sees them at once instead of the reader stalling
        params = StdioServerParameters(command=command, args=args, env=env, cwd=cwd, encoding_error_handler="replace")
        return Watched(GroupedStdio(params, self._stderr.writer), self._watch)

    @property
    def session_id(self) -> str | None:
        """The `Mcp-Session-Id` an HTTP server gave in the handshake (None for stdio, in-process, or none given)."""
        return getattr(self._http, "session_id", None)

    def stamped(self, method: str, params: dict[str, Any]) -> tuple[dict[str, Any], dict[str, str]]:
        """A request's params and per-request HTTP headers exactly as the SDK's session stamps them on this session
        (the negotiated version's `_meta` and headers), for a client that then sends it itself (`server/lean.py`)."""
        import copy

        if self._client is None:
            raise self._unavailable(self._dead or "the session is not open", kind="closed")
        data: dict[str, Any] = {"method": method, "params": copy.deepcopy(params)}
        opts: dict[str, Any] = {}
        self._client.session._stamp(data, opts)
        return data["params"], {str(k): str(v) for k, v in opts.get("headers", {}).items()}

    def _trace_facts(self) -> tuple[str, str | None, str, str | None]:
        """What a request's span says of the connection: server, session id, transport, protocol version."""
        session_id = getattr(self._http, "session_id", None)
        transport = "tcp" if isinstance(self.config, HttpServer) else "pipe"
        return self.name, session_id, transport, self.info.protocol_version if self.info else None

    def _stdio_command(self) -> tuple[str, list[str], dict[str, str], Path]:
        assert isinstance(self.config, StdioServer)
        command, *args = self.config.command
        if command == "mcptest":  # this very mcptest, even when its venv is not on PATH
            command, args = sys.executable, ["-m", "mcptest", *args]
        cwd = self._base_dir / self.config.cwd if self.config.cwd else self._base_dir
        return command, args, {k: v for k, v in self.config.env.items() if isinstance(v, str)}, cwd

    async def list_tools(self) -> list[dict[str, Any]]:
        """Every tool that can be read, all pages, in wire form (`catalog()` has the rest and what is wrong)."""
        return [t.raw for t in (await self.catalog()).tools]

    async def catalog(self) -> Catalog:
        """The server's tools as it listed them, all pages, read from the wire JSON (not through the SDK's models,
        which refuse a whole catalog for one bad tool): each tool's problem in `problems`, the unreadable left out."""
        from mcptest.records.catalog import read_wire

        if self._catalog is not None:  # listed once per session: a call's lookup takes no lock
            return self._catalog
        async with self._listing:
            if self._catalog is None:
                self._catalog = read_wire(await self._list_tools(), f"server '{self.name}'")
            return self._catalog

    async def _list_tools(self) -> list[Any]:
        from mcp import types

        from mcptest.core.errors import UserError
        from mcptest.records.catalog import tool_list

        tools: list[Any] = []
        named: dict[str, int] = {}  # a tool a later page lists again replaces the first, where the first stood
        cursor = None
        cursors = Cursors("tools/list", self._limits.pages)  # a server that never stops paginating: bounded
        while True:
            params = types.PaginatedRequestParams(cursor=cursor) if cursor else None
            request = types.ListToolsRequest(params=params)
            page = await self._request(lambda r=request: send_unchecked(self._client, r))
            try:
                listed = tool_list(page, "tools/list")
            except UserError as exc:
                raise self._unavailable(f"tools/list: {exc.problems[0].message}") from None
            for tool in listed:
                name = tool.get("name") if isinstance(tool, dict) else None
                if isinstance(name, str) and name in named:
                    tools[named[name]] = tool
                    continue
                if isinstance(name, str):
                    named[name] = len(tools)
                tools.append(tool)
            cursor = page.get("nextCursor")
            if not cursor or not isinstance(cursor, str):
                return tools
            if problem := cursors.problem(cursor):
                raise EndlessPages(f"server '{self.name}': {problem}")

    async def call_tool(self, tool: str, args: dict[str, Any], task: bool | None = None) -> CallOutcome:
        """Call a tool and return what the server really sent (no client-side result validation: a tool test checks
        the result against the tool's outputSchema itself, `mcptest.run.call_tests.call_tool`).

        `task`: call it as a task (`True`), plainly (`False`), or as its `execution.taskSupport` requires (`None`:
        a task-required tool as a task, any other plainly).
        """
        from mcp import types

        support = await self._task_support(tool)
        if task or (task is None and support == "required"):
            return await self._call_task(tool, args, support)

        def request(responses: Any, state: str | None) -> Any:
            params = types.CallToolRequestParams(
                name=tool, arguments=args, input_responses=responses, request_state=state
            )
            return types.CallToolRequest(params=params)

        outcome = await self.call(request, types.CallToolResult)
        if support == "required" and (outcome.error or (outcome.result or {}).get("isError")):
            hint = f"tool '{tool}' is task-required (execution.taskSupport: required): leave out `task: false`"
            outcome.error = f"{outcome.error}; {hint}" if outcome.error else hint
        return outcome

    async def _task_support(self, tool: str) -> str:
        """The tool's `execution.taskSupport`, from a table made once per session (not a walk of the catalog on
        every call: a fuzz run makes thousands)."""
        if self._support is None:
            try:
                listed = await self.list_tools()
            except ServerUnavailable:  # the call itself will say what is wrong
                return "forbidden"
            support: dict[str, str] = {}
            for item in listed:  # the first of a name, as the catalog keeps it
                if isinstance(name := item.get("name"), str):
                    support.setdefault(name, task_support(item))
            self._support = support
        return self._support.get(tool, "forbidden")

    async def _call_task(self, tool: str, args: dict[str, Any], support: str) -> CallOutcome:
        from mcp import types

        if support == "forbidden":
            why = f"tool '{tool}' does not run as a task (execution.taskSupport: forbidden or absent)"
            return CallOutcome(error=f"server '{self.name}': {why}: remove `task: true`")
        if self.info is not None and not runs_tool_tasks(self.info.capabilities):
            why = (
                f"tool '{tool}' is task-{support} (execution.taskSupport: {support}), but the server declares no "
                f"tasks.requests.tools.call capability (protocol {self.info.protocol_version}), so mcptest cannot "
                "call it as a task"
            )
            return CallOutcome(
                error=f"server '{self.name}': {why}" + ("" if support == "required" else "; remove `task: true`")
            )
        run = TaskRun()
        params = {"name": tool, "arguments": args}
        outcome = await self._outcome(
            lambda _: run_task(self._raw, params, self.task_notes, run, self.config.call_timeout_s),
            types.CallToolResult,
        )
        outcome.task = run.target() if run.task_id else None
        return outcome

    async def call(self, make: MakeRequest, model: Any) -> CallOutcome:
        """Send one request of a test, capturing what the server sends meanwhile; failures become `error`.

        The result is read as `model` (e.g. `CallToolResult`) and dumped as wire JSON, so key order and
        defaults are the same whichever server or protocol version answered.
        """
        return await self._outcome(lambda capture: self.send(make, capture.on_progress), model)

    async def _outcome(self, send: Any, model: Any) -> CallOutcome:
        start = time.perf_counter()
        with self.client_side.capture() as capture:
            try:
                raw = await send(capture)
                cut_items(raw, self._limits.content_items)  # an in-process server's result skips the Watch
                cut = take_cut(raw)
                # only what the server sent: the SDK's defaults (`resultType`, ...) are no part of the wire JSON
                parsed = model.model_validate(raw)
                result = parsed.model_dump(mode="json", by_alias=True, exclude_none=True, exclude_unset=True)
            except ServerUnavailable as exc:
                kind, code = exc.kind, exc.code
                ms = _ms(start)
                return CallOutcome(error=exc.message, duration_ms=ms, capture=capture, error_kind=kind, error_code=code)
            except TaskFailed as exc:
                return CallOutcome(error=f"server '{self.name}': {exc}", duration_ms=_ms(start), capture=capture)
            except ValueError as exc:  # pydantic's ValidationError: the server broke the result's shape
                message = f"server '{self.name}': malformed result: {str(exc).splitlines()[0]}"
                return CallOutcome(error=message, duration_ms=_ms(start), capture=capture, error_kind="malformed")
        error = f"server '{self.name}': {cut}" if cut else None
        return CallOutcome(result=result, error=error, duration_ms=_ms(start), capture=capture)

    async def _raw(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        """Send a request as plain JSON and return the result unvalidated: the SDK reads every `tools/call` answer as
        a CallToolResult, which a task's `CreateTaskResult` is not, and has no sender for `tasks/*`."""
        request = {"method": method, "params": dict(params)}
        return await self._request(lambda: send_unchecked(self._client, request))  # type: ignore[no-any-return]

    async def send(self, make: MakeRequest, on_progress: Any = None) -> dict[str, Any]:
        """Send a request (answering the server's input requests) and return the wire JSON result."""
        return await self._request(lambda: send_wire(self._client, make, on_progress))  # type: ignore[no-any-return]

    async def listing(self, method: str, key: str) -> list[dict[str, Any]]:
        """Every item of `resources/list`, `resources/templates/list` or `prompts/list`, once per session."""
        async with self._listing:
            if method not in self._lists:
                self._lists[method] = await list_all(self, method, key)
            return self._lists[method]

    async def _request(self, send: Any) -> Any:
        """Send one request, turning every way it can go wrong into ServerUnavailable."""
        from mcp import MCPError

        from mcptest.server.wire import is_refusal

        await self._renew_if_stale()
        if self._dead:
            raise self._unavailable(self._dead, kind="closed")
        wait = anyio.CancelScope()
        self._waits.add(wait)
        seen, watch = self._garbage_seen, self._watch
        self._in_flight += 1
        try:
            with wait, anyio.fail_after(self.config.call_timeout_s + 1):
                return await send()
        except TimeoutError:
            raise self._timed_out(seen, watch) from None
        except MCPError as exc:
            if is_refusal(exc.error):
                raise self._unavailable(exc.message, seen) from None
            if _is_timeout(exc):
                raise self._timed_out(seen, watch) from None
            if _is_closed(exc):
                if isinstance(self.config, HttpServer) and not self._broken:  # one cut-off answer: reconnect
                    self._stale = True
                    cut_off = "the server closed the connection during the request"
                    raise self._unavailable(cut_off, seen, "closed") from None
                self._dead = "the server closed the connection (it exited or crashed)"
                raise self._unavailable(self._dead, seen, "closed") from None
            message = _cut(_without_code(exc))
            answered = f"the server answered with error {exc.code}: {message}"
            raise self._unavailable(answered, seen, "error", exc.code) from None
        except Exception as exc:
            raise self._unavailable(_describe(exc), seen) from None
        finally:
            self._in_flight -= 1
            self._waits.discard(wait)
        raise self._unavailable(self._dead or "the request was abandoned", seen)

    @property
    def stale(self) -> bool:
        """A request timed out: the connection is renewed before the next request."""
        return self._stale

    def _timed_out(self, seen: int, watch: Watch) -> ServerUnavailable:
        """A request ran out of time: the connection is renewed before the next request (never waited on twice)."""
        self._stale = not isinstance(self.config, InProcessServer)
        renewed = "; mcptest reconnects before its next request" if self._stale else ""
        message = f"no answer within {self.config.call_timeout_s:g}s{watch.note()}{renewed}"
        return self._unavailable(message, seen, "timeout")

    async def _renew_if_stale(self) -> None:
        """Close a connection a request timed out on (or HTTP cut short) and open a fresh one, once no other
        request of this session is in flight."""
        if not self._stale or self._in_flight or self._dead or self._tg is None:
            return
        async with self._renewing:
            if not self._stale or self._in_flight:
                return
            self._stale = False
            self._closing.set()
            try:
                await self._tg.start(self.run)
            except ServerUnavailable as exc:
                self._dead = f"it could not be reached again after a failed request ({exc.message})"

    async def _on_message(self, message: Any) -> None:
        if isinstance(message, Exception):
            line = _offending_line(message)
            self._garbage_seen += 1
            if not self._stdout_garbage:  # the first is what the failure quotes; a flood must not pile up
                self._stdout_garbage.append(line)
            if "\ufffd" in line and self._broken is None:  # binary on stdout: no answer can follow, stop waiting
                self._broken = "its stdout is not UTF-8"
                self._dead = self._dead or self._broken
                for scope in list(self._waits):
                    scope.cancel()

    def _unavailable(
        self, message: str, seen: int = 0, kind: str = "unavailable", code: int | None = None
    ) -> ServerUnavailable:
        """The failure, with the first non-JSON-RPC line quoted when one arrived after `seen` of them."""
        if self._stdout_garbage and self._garbage_seen > seen:
            message += f"; the server wrote non-JSON-RPC output to stdout ({self._stdout_garbage[0]})"
        return ServerUnavailable(f"server '{self.name}': {message}", self.stderr_tail(), kind, code)

    def release(self) -> None:
        """Close the stderr capture (its drain thread ends once the server's last writer is gone)."""
        self._stderr.close()

    def stderr_tail(self) -> str:
        """The last lines the server wrote to stderr: at most 20, and at most `Limits.stderr_bytes`."""
        limit = self._limits.stderr_bytes
        data, size = self._stderr.tail()
        lines = data.decode("utf-8", errors="replace").splitlines()[-_STDERR_TAIL_LINES:]
        if size > limit and lines:
            lines[0] = f"[{size - limit:,} bytes of stderr cut before this; {raise_hint('stderr_bytes')}] " + lines[0]
        return "\n".join(lines)


class SessionPool:
    """Lazily opened sessions by server name, shared by every test of a run. Use as `async with`."""

    def __init__(
        self, servers: dict[str, ServerConfig], base_dir: Path | str = ".", hook: RequestHook | None = None
    ) -> None:
        self._servers = servers
        self._hook = hook
        self._base_dir = Path(base_dir)
        self._open: dict[str, ServerSession] = {}
        self._failed: dict[str, ServerUnavailable] = {}
        self._locks: dict[str, anyio.Lock] = {}
        self._tg: Any = None
        self._early: dict[str, ServerSession] = {}

    async def start_early(self, name: str | None) -> None:
        """Start the stdio server `name` now, while this process still imports the SDK, so their start-ups
        overlap; its session opens on the first `get` as before. One that cannot start is left to `get` to report."""
        from mcptest.server.early_stdio import early_start_possible

        config = self._servers.get(name) if name else None
        if name is None or not isinstance(config, StdioServer) or not early_start_possible():
            return
        if name in self._open or name in self._early or name in self._failed:
            return
        session = ServerSession(name, config, self._base_dir, self._hook)
        try:
            await session.start_early()
        except (OSError, ValueError):
            session.release()
            return
        self._early[name] = session

    def is_open(self, name: str) -> bool:
        """Whether the run has opened a session to server `name` (and it came up)."""
        return name in self._open

    async def get(self, name: str) -> ServerSession:
        """The open session for `name`; a server that failed to start fails again at once.

        Concurrent runs may ask for the same server at once: a lock per name starts it only once.
        """
        async with self._locks.setdefault(name, anyio.Lock()):
            return await self._get(name)

    async def _get(self, name: str) -> ServerSession:
        if name in self._failed:
            raise self._failed[name]
        if name not in self._open:
            session = self._early.pop(name, None) or ServerSession(
                name, self._servers[name], self._base_dir, self._hook
            )
            session._tg = self._tg
            try:
                await self._tg.start(session.run)
            except ServerUnavailable as exc:
                session.release()
                self._failed[name] = exc
                raise
            self._open[name] = session
        return self._open[name]

    async def __aenter__(self) -> SessionPool:
        self._tg = anyio.create_task_group()
        await self._tg.__aenter__()
        return self

    async def __aexit__(self, *exc: Any) -> bool | None:
        for session in self._open.values():
            session.close()
        try:
            return await self._tg.__aexit__(*exc)
        except BaseExceptionGroup as group:
            # The task group wraps what the body raised (a ServerUnavailable from `get`); alone, it is re-raised
            # as itself, so every caller can catch it by its type rather than print a group's traceback.
            other = group.subgroup(lambda e: not isinstance(e, BaseExceptionGroup) and e is not exc[1])
            if exc[1] is not None and other is None:
                raise exc[1] from None
            raise
        finally:
            for session in self._open.values():
                session.release()
            await _discard_early(self._early)


async def _discard_early(sessions: dict[str, ServerSession]) -> None:
    """End the servers started early that no test came to use (the run was interrupted or stopped first)."""
    for session in sessions.values():
        await session.discard_early()
        session.release()
    sessions.clear()


def _server_info(client: Any) -> ServerInfo:
    info = client.server_info
    return ServerInfo(
        name=info.name if info else None,
        version=info.version if info else None,
        protocol_version=client.protocol_version,
        capabilities=client.server_capabilities.model_dump(mode="json", by_alias=True, exclude_none=True),
        instructions=client.instructions,
    )


def _offending_line(exc: Exception) -> str:
    """The stdout line the SDK could not parse, as a short literal (the SDK's message names only the error)."""
    errors = getattr(exc, "errors", None)
    try:
        value = errors()[0].get("input") if callable(errors) else None
    except (IndexError, TypeError):
        value = None
    if isinstance(value, str):
        return repr(value[:100] + ("…" if len(value) > 100 else ""))
    return str(exc).splitlines()[0][:200]


def _cut(text: str, most: int = 2000) -> str:
    """A server's own text, cut to `most` characters, saying how much was left out."""
    return text if len(text) <= most else f"{text[:most]}… [{len(text) - most:,} more characters cut]"


def _ms(start: float) -> float:
    return round((time.perf_counter() - start) * 1000, 3)


def _without_code(exc: Any) -> str:
    """An error's message without the `MCP error -32602: ` the TypeScript SDK puts before it (the code is shown)."""
    return str(exc.message).removeprefix(f"MCP error {exc.code}: ")


def _is_timeout(exc: Exception) -> bool:
    return "timed out" in str(exc).lower() or "timeout" in str(exc).lower()


def _is_closed(exc: Exception) -> bool:
    return "closed" in str(exc).lower()


def _describe(exc: BaseException) -> str:
    """A one-line account of why a server could not be used."""
    if isinstance(exc, BaseExceptionGroup):
        return _describe(exc.exceptions[0])
    from mcptest.server.wire import is_refusal

    if is_refusal(getattr(exc, "error", None)):
        return str(exc.error.message)  # type: ignore[attr-defined]
    if isinstance(exc, FileNotFoundError):
        return f"command not found: {exc.filename or exc}"
    if isinstance(exc, PermissionError):
        return f"command not executable: {exc.filename or exc}"
    if isinstance(exc, OSError) and exc.strerror:
        return f"{exc.strerror}"
    text = str(exc).strip() or type(exc).__name__
    if "closed" in text.lower():
        return "the server closed the connection during the handshake (it exited at start?)"
    return text.splitlines()[0][:300]


def quiet_sdk_logs(debug: bool = False) -> None:
    """The SDKs log what we report ourselves: the MCP SDK a traceback for garbage on stdout, the OTLP exporter each
    failed or retried export (the run says it once, as its one warning at the end)."""
    for name in ("mcp", "httpx", "httpx2", "httpcore", "opentelemetry.exporter"):
        logging.getLogger(name).setLevel(logging.DEBUG if debug else logging.CRITICAL)
