"""A seam for tracing each MCP request a session sends: a hook told when a request starts and how it ended.

`ServerSession` installs `TracedDispatcher` over the SDK's dispatcher only when its pool was given a hook, so a
run that exports nothing sends its requests exactly as before, at no cost. The hook (the OpenTelemetry one is
`mcptest.run.telemetry.LiveTelemetry`) opens a client span per request and returns the trace context to send to
the server in the request's `params._meta` (`traceparent`, `tracestate`), as the MCP semantic conventions ask.

A live agent run marks its task with `agent_run(scope)`: the requests its tool calls send belong to that run, and
the hook notes on the scope the trace it gave them and which tools it saw called (the run's other spans are built
from the recorded run at the end, around those).
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any, Protocol


@dataclass(frozen=True)
class RequestInfo:
    """One request as it goes out: what the hook may put on its span."""

    server: str
    """The server's name in the suite."""
    method: str
    params: dict[str, Any]
    request_id: str | int | None
    """The JSON-RPC id it goes out with (None when the dispatcher mints it unseen)."""
    session_id: str | None
    """The Streamable HTTP `Mcp-Session-Id` once the server gave one."""
    transport: str
    """`pipe` (stdio, in-process) or `tcp` (HTTP), as `network.transport` names them."""
    protocol_version: str | None


@dataclass
class AgentRunScope:
    """One live agent run, while its tool calls go out: filled in by the run (times) and by the hook (the rest)."""

    started_ns: int = 0
    ended_ns: int = 0
    ids: tuple[int, int] | None = None
    """The trace id and root span id the hook gave the run's requests (None: no request was traced)."""
    called: list[tuple[str, str, int]] = field(default_factory=list)
    """(server, tool, start in ns since the epoch) of each `tools/call` the hook traced, in the order they went out."""


_AGENT_RUN: ContextVar[AgentRunScope | None] = ContextVar("mcptest_agent_run", default=None)


@contextlib.contextmanager
def agent_run(scope: AgentRunScope) -> Iterator[AgentRunScope]:
    """The requests sent meanwhile (in this task and the tasks it starts) belong to the agent run `scope`."""
    token = _AGENT_RUN.set(scope)
    scope.started_ns = time.time_ns()
    try:
        yield scope
    finally:
        scope.ended_ns = time.time_ns()
        _AGENT_RUN.reset(token)


def current_agent_run() -> AgentRunScope | None:
    """The live agent run whose request is going out, if any."""
    return _AGENT_RUN.get()


class RequestHook(Protocol):
    """Told of each request: `begin` returns a token and the `_meta` entries to send; `end` gets the outcome."""

    def begin(self, request: RequestInfo) -> tuple[Any, dict[str, str]]:
        """Start tracing `request`; the dict's entries are added to its `params._meta`."""

    def end(self, token: Any, result: Any, error: BaseException | None) -> None:
        """The request ended with `result` (the raw wire result) or `error`."""


class TracedDispatcher:
    """The SDK's dispatcher with every outgoing request reported to a hook (everything else passes through)."""

    def __init__(self, inner: Any, hook: RequestHook, describe: Any) -> None:
        self._inner = inner
        self._hook = hook
        self._describe = describe  # () -> (server, session_id, transport, protocol_version)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)

    async def send_raw_request(self, method: str, params: Any, opts: Any = None, **kwargs: Any) -> Any:
        opts = dict(opts or {})
        allocate = getattr(self._inner, "_allocate_id", None)  # the JSON-RPC dispatcher's own id counter
        if opts.get("request_id") is None and allocate is not None:
            opts["request_id"] = allocate()
        out = dict(params or {})
        server, session_id, transport, version = self._describe()
        info = RequestInfo(server, method, out, opts.get("request_id"), session_id, transport, version)
        token, carrier = self._hook.begin(info)
        if carrier:
            out["_meta"] = {**(out.get("_meta") or {}), **carrier}
        try:
            result = await self._inner.send_raw_request(method, out, opts, **kwargs)
        except BaseException as exc:
            self._hook.end(token, None, exc)
            raise
        self._hook.end(token, result, None)
        return result
