"""Raw JSON-RPC channels for `mcptest conformance`: requests sent exactly as written and answers recorded exactly as
they came, over stdio or Streamable HTTP, with no SDK in between (the SDK would refuse to send an unsupported
version, hide a wrong id behind a timeout and drop a session id it cannot carry).

Every request has a deadline: a server that does not answer gives an Exchange whose `problem` says so, and a
server that exits gives `server exited (code N)` for that request and every later one. Nothing here raises for
what a server does; `CannotConnect` is raised only when the first connection cannot be made at all.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import IO, Any

import anyio

from mcptest.checks.conformance.exchange import Exchange, Transcript
from mcptest.server.limits import limits
from mcptest.server.wire import LineSplitter, Oversized

_BODY = 4000


class CannotConnect(Exception):
    """The server could not be started or reached at all (exit 3)."""


class Channel:
    """What both transports offer: `request`, `notify`, and the transcript they record into."""

    transcript: Transcript
    timeout: float
    envelope: dict[str, Any] | None = None
    """The `_meta` every request of a 2026-07-28 run carries (its protocol version, client info and capabilities)."""
    _next = 0

    def stamped(self, message: dict[str, Any], stamp: bool = True) -> dict[str, Any]:
        """The request with the run's `_meta` envelope merged into its params (a progress token kept beside it)."""
        if not stamp or self.envelope is None or "method" not in message or "id" not in message:
            return message
        params = dict(message.get("params") or {})
        params["_meta"] = {**self.envelope, **(params.get("_meta") or {})}
        return {**message, "params": params}

    def new_id(self) -> int:
        self._next += 1
        return self._next

    async def request(
        self, label: str, method: str, params: dict[str, Any] | None = None, wait: float | None = None, **http: Any
    ) -> Exchange:
        """Send a request and wait for its answer (`wait` seconds when given, else the channel's timeout)."""
        message: dict[str, Any] = {"jsonrpc": "2.0", "id": self.new_id(), "method": method}
        if params is not None:
            message["params"] = params
        exchange = await self.send(message, wait=wait, **http)
        self.transcript.exchanges[label] = exchange
        return exchange

    async def notify(self, label: str, method: str, params: dict[str, Any] | None = None) -> Exchange:
        message: dict[str, Any] = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            message["params"] = params
        exchange = await self.send(message)
        self.transcript.exchanges[label] = exchange
        return exchange

    async def send(
        self, message: dict[str, Any], wait: float | None = None, stamp: bool = True, **http: Any
    ) -> Exchange:
        """Send one message (a request stamped with the run's envelope unless `stamp` is False) and wait for the
        answer to a request."""
        raise NotImplementedError


def _is_response(data: Any) -> bool:
    return isinstance(data, dict) and "method" not in data and ("result" in data or "error" in data)


def _key(value: Any) -> Any:
    return json.dumps(value)


class StdioChannel(Channel):
    """A server process spoken to over stdin/stdout, its stderr kept in a file."""

    def __init__(self, argv: list[str], env: dict[str, str], cwd: Path, transcript: Transcript, timeout: float):
        self.argv, self.env, self.cwd = argv, env, cwd
        self.transcript, self.timeout = transcript, timeout
        self.stderr: IO[bytes] | None = None
        self.process: Any = None
        self._waiting: dict[Any, tuple[anyio.Event, list[Any]]] = {}
        self._eof = anyio.Event()

    @contextlib.asynccontextmanager
    async def open(self) -> AsyncIterator[StdioChannel]:
        import tempfile

        from mcptest.server.early_stdio import discard, spawn

        with tempfile.TemporaryFile() as stderr:
            self.stderr = stderr
            command, *args = self.argv
            try:
                self.process = await spawn(command, args, self.env, self.cwd, stderr)
            except OSError as exc:
                reason = f"command not found: {command}" if isinstance(exc, FileNotFoundError) else str(exc)
                raise CannotConnect(reason) from None
            try:
                async with anyio.create_task_group() as tg:
                    tg.start_soon(self._read)
                    try:
                        yield self
                    finally:
                        tg.cancel_scope.cancel()
            finally:
                await discard(self.process)  # reaped, its pipes closed: no unclosed transport left

    def stderr_tail(self) -> str:
        if self.stderr is None:
            return ""
        try:
            self.stderr.seek(0)
            lines = self.stderr.read()[-4000:].decode("utf-8", errors="replace").splitlines()
        except (OSError, ValueError):
            return ""
        return "\n".join(lines[-20:])

    async def _read(self) -> None:
        from anyio.streams.text import TextReceiveStream

        assert self.process.stdout is not None
        lines = LineSplitter(limits().message_bytes)
        try:
            async for chunk in TextReceiveStream(self.process.stdout, errors="replace"):
                for line in lines.feed(chunk):
                    await self._take(line)
        except (anyio.BrokenResourceError, anyio.ClosedResourceError, OSError):
            pass
        with contextlib.suppress(Exception):
            with anyio.fail_after(2):
                await self.process.wait()
        code = self.process.returncode
        self.transcript.exited = f"server exited (code {code})" if code is not None else "server closed its stdout"
        self._eof.set()
        for event, _ in self._waiting.values():
            event.set()

    async def _take(self, line: str | Oversized) -> None:
        if isinstance(line, Oversized):
            self.transcript.not_json.append(line.message())
            return
        if not line.strip():
            return
        try:
            data = json.loads(line)
        except ValueError:
            self.transcript.not_json.append(repr(line[:200]))
            return
        self.transcript.messages.append(data)
        if isinstance(data, dict) and "method" in data and "id" in data:
            await self._answer_server(data)
            return
        if not _is_response(data):
            return
        waiting = self._waiting.get(_key(data.get("id")))
        if waiting is None:
            self.transcript.strays.append(_stray(data))
            return
        event, box = waiting
        box.append((data, line))
        event.set()

    async def _answer_server(self, request: dict[str, Any]) -> None:
        """Answer the server's own requests: `ping` with `{}`, anything else as a method this client lacks."""
        if request.get("method") == "ping":
            reply: dict[str, Any] = {"jsonrpc": "2.0", "id": request["id"], "result": {}}
        else:
            error = {"code": -32601, "message": "mcptest conformance offers no client capabilities"}
            reply = {"jsonrpc": "2.0", "id": request["id"], "error": error}
        self.transcript.sent.append(reply)
        with contextlib.suppress(Exception):
            await self._write(reply)

    async def _write(self, message: dict[str, Any]) -> None:
        assert self.process.stdin is not None
        await self.process.stdin.send((json.dumps(message) + "\n").encode())

    async def send(self, message: dict[str, Any], wait: float | None = None, stamp: bool = True, **_: Any) -> Exchange:
        message = self.stamped(message, stamp)
        exchange = Exchange(sent=message)
        self.transcript.sent.append(message)
        if self._eof.is_set():
            exchange.problem = self.transcript.exited
            return exchange
        request_id = message.get("id")
        event, box = anyio.Event(), list[Any]()
        if request_id is not None:
            self._waiting[_key(request_id)] = (event, box)
        try:
            await self._write(message)
        except (anyio.BrokenResourceError, anyio.ClosedResourceError, OSError):
            await self._eof.wait()
            exchange.problem = self.transcript.exited
            self._waiting.pop(_key(request_id), None)
            return exchange
        if request_id is None:
            return exchange
        with anyio.move_on_after(wait or self.timeout):
            await event.wait()
        self._waiting.pop(_key(request_id), None)
        if box:
            exchange.received, exchange.body = box[0][0], box[0][1][:_BODY]
        elif self._eof.is_set():
            exchange.problem = self.transcript.exited
        else:
            exchange.problem = f"no answer within {wait or self.timeout:g}s"
        return exchange


class SseChannel(StdioChannel):
    """The legacy HTTP+SSE transport (2024-11-05): a GET opens the event stream, whose first `endpoint` event names
    the URL to POST each message to; every answer comes back on that stream, routed as over stdio."""

    def __init__(self, url: str, headers: dict[str, str], transcript: Transcript, timeout: float) -> None:
        self.url, self.headers = url, headers
        self.transcript, self.timeout = transcript, timeout
        self.stderr, self.process = None, None
        self._waiting = {}
        self._eof = anyio.Event()
        self.endpoint: str | None = None
        self.client: Any = None
        self._failure = ""

    @contextlib.asynccontextmanager
    async def open(self) -> AsyncIterator[SseChannel]:  # type: ignore[override]
        import httpx2

        ready = anyio.Event()
        async with httpx2.AsyncClient(timeout=self.timeout, follow_redirects=False) as client:
            self.client = client
            async with anyio.create_task_group() as tg:
                tg.start_soon(self._listen, ready)
                with anyio.move_on_after(self.timeout):
                    await ready.wait()
                if self.endpoint is None:
                    tg.cancel_scope.cancel()
                    raise CannotConnect(self._failure or f"no `endpoint` event on {self.url} within {self.timeout:g}s")
                try:
                    yield self
                finally:
                    tg.cancel_scope.cancel()

    def stderr_tail(self) -> str:
        return ""

    async def _listen(self, ready: anyio.Event) -> None:
        import httpx2

        headers = {"Accept": "text/event-stream", **self.headers}
        try:
            timeout = httpx2.Timeout(self.timeout, read=None)  # the stream stays open between messages
            async with self.client.stream("GET", self.url, headers=headers, timeout=timeout) as response:
                kind = response.headers.get("content-type", "").split(";")[0].strip()
                if response.status_code != 200 or kind != "text/event-stream":
                    self._failure = f"GET {self.url}: HTTP {response.status_code} ({kind or 'no content type'})"
                    ready.set()
                    return
                await self._events(response, ready)
        except httpx2.HTTPError as exc:
            self._failure = f"{type(exc).__name__}: {str(exc)[:200] or 'connection failed'}"
        # the stream ended or broke (a cancelled listener, at the end of the run, does not get here)
        if self.endpoint is not None:
            self.transcript.exited = self.transcript.exited or "the server closed its SSE stream"
        ready.set()
        self._eof.set()
        for event, _ in self._waiting.values():
            event.set()

    async def _events(self, response: Any, ready: anyio.Event) -> None:
        from urllib.parse import urljoin

        event, data = "message", list[str]()
        async for line in response.aiter_lines():
            if line.startswith("event:"):
                event = line[6:].strip()
            elif line.startswith("data:"):
                data.append(line[5:].removeprefix(" "))
            elif not line.strip():
                if data and event == "endpoint" and self.endpoint is None:
                    self.endpoint = urljoin(self.url, "\n".join(data).strip())
                    ready.set()
                elif data:
                    await self._take("\n".join(data))
                event, data = "message", []

    async def _write(self, message: dict[str, Any]) -> None:
        import httpx2

        headers = {"Content-Type": "application/json", **self.headers}
        try:
            response = await self.client.post(self.endpoint, content=json.dumps(message).encode(), headers=headers)
        except httpx2.HTTPError as exc:  # no answer will come: the request fails at its deadline
            self.transcript.notes.append(f"POST {self.endpoint}: {type(exc).__name__}")
            return
        if response.status_code >= 400 and len(self.transcript.notes) < 20:
            self.transcript.notes.append(f"POST {self.endpoint} of {message.get('method', 'an answer')}: "
                                         f"HTTP {response.status_code}")  # fmt: skip


NAME_BEARING = {"tools/call": "name", "prompts/get": "name", "resources/read": "uri"}
"""The methods whose `Mcp-Name` header (2026-07-28) mirrors a param, and that param."""


def _mirrored(message: dict[str, Any]) -> dict[str, str]:
    """The 2026-07-28 request headers that mirror the body: `Mcp-Method`, and `Mcp-Name` for a named method (a value
    that is not plain visible ASCII as `=?base64?...?=`, as the spec's Value Encoding says)."""
    import base64

    method = str(message.get("method"))
    out = {"Mcp-Method": method}
    key = NAME_BEARING.get(method)
    value = (message.get("params") or {}).get(key) if key else None
    if isinstance(value, str):
        plain = value.isascii() and value.isprintable() and value == value.strip() and not value.startswith("=?")
        out["Mcp-Name"] = value if plain else f"=?base64?{base64.b64encode(value.encode()).decode()}?="
    return out


def _stray(data: dict[str, Any]) -> str:
    shown = json.dumps(data, ensure_ascii=False)
    return shown if len(shown) <= 300 else shown[:300] + "…"


class HttpChannel(Channel):
    """A Streamable HTTP endpoint: each message one POST, the session id and protocol version carried after
    `initialize`, answers read as JSON or from an SSE stream."""

    def __init__(
        self, url: str, headers: dict[str, str], transcript: Transcript, timeout: float, auth: Any = None
    ) -> None:
        """`auth`: an httpx2 Auth flow (the SDK's OAuth client-credentials provider) applied to every request."""
        self.url, self.headers = url, headers
        self.transcript, self.timeout = transcript, timeout
        self.session_id: bytes | None = None
        self.protocol_version: str | None = None
        self.client: Any = None
        self.auth = auth

    @contextlib.asynccontextmanager
    async def open(self) -> AsyncIterator[HttpChannel]:
        import httpx2

        async with httpx2.AsyncClient(timeout=self.timeout, follow_redirects=False, auth=self.auth) as client:
            self.client = client
            yield self

    def stderr_tail(self) -> str:
        return ""

    def _headers(
        self, session: bool, extra: dict[str, str] | None, message: dict[str, Any] | None = None
    ) -> dict[str, Any]:
        headers: dict[str, Any] = {
            "Accept": "application/json, text/event-stream",
            "Content-Type": "application/json",
            **self.headers,
        }
        if session and self.session_id is not None:
            headers["Mcp-Session-Id"] = self.session_id
        if session and self.protocol_version:
            headers["MCP-Protocol-Version"] = self.protocol_version
        if self.envelope is not None and message is not None and isinstance(message.get("method"), str):
            headers |= _mirrored(message)
        for key, value in (extra or {}).items():
            for old in [k for k in headers if k.lower() == key.lower()]:
                del headers[old]
            if value is not None:
                headers[key] = value
        return headers

    async def send(
        self,
        message: dict[str, Any],
        wait: float | None = None,
        stamp: bool = True,
        *,
        session: bool = True,
        headers: dict[str, Any] | None = None,
        **_: Any,
    ) -> Exchange:
        message = self.stamped(message, stamp)
        sent_headers = {k: v for k, v in (headers or {}).items() if v is not None}
        exchange = Exchange(sent=message, http_method="POST", request_headers=sent_headers)
        self.transcript.sent.append(message)
        if not session:
            exchange.request_headers["(no Mcp-Session-Id)"] = ""
        body = json.dumps(message).encode()
        all_headers = self._headers(session, headers, message)
        await self._exchange(exchange, "POST", all_headers, body, message.get("id"), wait=wait)
        return exchange

    async def bare(self, label: str, method: str, headers: dict[str, Any] | None = None) -> Exchange:
        """A GET or DELETE on the endpoint with the session's headers."""
        exchange = Exchange(sent=None, http_method=method, request_headers=dict(headers or {}))
        all_headers = self._headers(True, headers)
        all_headers.pop("Content-Type", None)
        await self._exchange(exchange, method, all_headers, None, None, stream_peek=method == "GET")
        self.transcript.exchanges[label] = exchange
        return exchange

    async def _exchange(
        self,
        exchange: Exchange,
        method: str,
        headers: dict[str, Any],
        body: bytes | None,
        request_id: Any,
        stream_peek: bool = False,
        wait: float | None = None,
    ) -> None:
        import httpx2

        try:
            with anyio.fail_after(wait or self.timeout):
                request = self.client.build_request(method, self.url, headers=headers, content=body)
                response = await self.client.send(request, stream=True)
                try:
                    exchange.status = response.status_code
                    exchange.headers = [(k.decode("latin-1"), v) for k, v in response.headers.raw]
                    if stream_peek:
                        return  # a GET's stream stays open: its status and type are what is checked
                    if exchange.content_type == "text/event-stream" and response.status_code < 400:
                        await self._read_events(exchange, response, request_id)
                    else:
                        raw = await _read_bounded(response)
                        exchange.body = raw[:_BODY].decode("utf-8", errors="replace")
                        self._take_json(exchange, raw, request_id)
                finally:
                    await response.aclose()
        except TimeoutError:
            exchange.problem = f"no answer within {wait or self.timeout:g}s"
        except httpx2.HTTPError as exc:
            exchange.problem = f"{type(exc).__name__}: {str(exc)[:200] or 'connection failed'}"

    def _take_json(self, exchange: Exchange, raw: bytes, request_id: Any) -> None:
        if not raw.strip():
            return
        try:
            data = json.loads(raw)
        except ValueError:
            if exchange.status is not None and exchange.status < 400:
                self.transcript.not_json.append(repr(raw[:200].decode("utf-8", errors="replace")))
            return
        for item in data if isinstance(data, list) else [data]:
            self._route(exchange, item, request_id)

    def _route(self, exchange: Exchange, item: Any, request_id: Any) -> None:
        refused = exchange.status is not None and exchange.status >= 400
        if refused and not (isinstance(item, dict) and "jsonrpc" in item):
            return  # an HTTP error's body need not be JSON-RPC
        self.transcript.messages.append(item)
        if not _is_response(item):
            return
        if request_id is not None and item.get("id") == request_id and exchange.received is None:
            exchange.received = item
        elif exchange.status is None or exchange.status < 400 or request_id is None:
            self.transcript.strays.append(_stray(item))
        else:
            exchange.received = item  # an HTTP error's JSON-RPC body (its id may be null: the request was refused)

    async def _read_events(self, exchange: Exchange, response: Any, request_id: Any) -> None:
        """An SSE answer, event by event (each event's `id:` and data kept in `exchange.events`), up to the response."""
        events = _SseEvents()
        seen: list[str] = []
        async for line in response.aiter_lines():
            if len(seen) < 40:
                seen.append(line)
            event = events.feed(line)
            if event is not None:
                event_id, data = event
                exchange.events.append((event_id, "\n".join(data)))
                if data:
                    self._take_json(exchange, "\n".join(data).encode(), request_id)
                if exchange.received is not None:
                    break
        if events.data and exchange.received is None:  # a stream that ended inside an event
            last = (events.event_id, "\n".join(events.data))
            exchange.events.append(last)
            self._take_json(exchange, last[1].encode(), request_id)
        exchange.body = "\n".join(seen)[:_BODY]

    async def unauthenticated(self, label: str, message: dict[str, Any], token: str) -> Exchange:
        """POST `message` with `Authorization: Bearer TOKEN` (a token no server issued) and none of the run's own
        credentials: the refusal's status and headers are what is judged."""
        import httpx2

        headers = {k: v for k, v in self._headers(False, None, message).items() if k.lower() != "authorization"}
        headers["Authorization"] = f"Bearer {token}"
        exchange = Exchange(sent=message, http_method="POST", request_headers={"Authorization": "Bearer " + token})
        try:
            async with httpx2.AsyncClient(timeout=self.timeout, follow_redirects=False) as bare:
                response = await bare.post(self.url, content=json.dumps(message).encode(), headers=headers)
            exchange.status = response.status_code
            exchange.headers = [(k.decode("latin-1"), v) for k, v in response.headers.raw]
            exchange.body = response.text[:_BODY]
        except httpx2.HTTPError as exc:
            exchange.problem = f"{type(exc).__name__}: {str(exc)[:200] or 'connection failed'}"
        self.transcript.exchanges[label] = exchange
        return exchange

    async def fetch(self, label: str, url: str) -> Exchange:
        """A plain GET of a document (Protected Resource Metadata), with no credentials."""
        import httpx2

        exchange = Exchange(sent=None, http_method="GET", request_headers={"(url)": url})
        try:
            async with httpx2.AsyncClient(timeout=self.timeout, follow_redirects=False) as bare:
                response = await bare.get(url, headers={"Accept": "application/json"})
            exchange.status = response.status_code
            exchange.headers = [(k.decode("latin-1"), v) for k, v in response.headers.raw]
            exchange.body = response.text[:_BODY]
            with contextlib.suppress(ValueError):
                found = response.json()
                exchange.received = found if isinstance(found, dict) else None
        except httpx2.HTTPError as exc:
            exchange.problem = f"{type(exc).__name__}: {str(exc)[:200] or 'connection failed'}"
        self.transcript.exchanges[label] = exchange
        return exchange

    async def resume(self, label: str, last_event_id: str, window: float) -> Exchange:
        """GET with `Last-Event-ID` (SSE resumption): the events the server sends within `window` seconds, each with
        its id and data, in `events` (none of them routed: what a replay repeats is judged by http-resume)."""
        import httpx2

        headers = {"Accept": "text/event-stream", "Last-Event-ID": last_event_id}
        exchange = Exchange(sent=None, http_method="GET", request_headers=dict(headers))
        all_headers = self._headers(True, headers)
        all_headers.pop("Content-Type", None)
        events = _SseEvents()
        try:
            with anyio.move_on_after(window):
                request = self.client.build_request("GET", self.url, headers=all_headers)
                response = await self.client.send(request, stream=True)
                try:
                    exchange.status = response.status_code
                    exchange.headers = [(k.decode("latin-1"), v) for k, v in response.headers.raw]
                    if response.status_code == 200 and exchange.content_type == "text/event-stream":
                        async for line in response.aiter_lines():
                            event = events.feed(line)
                            if event is not None:
                                exchange.events.append((event[0], "\n".join(event[1])))
                finally:
                    await response.aclose()
        except httpx2.HTTPError as exc:
            exchange.problem = f"{type(exc).__name__}: {str(exc)[:200] or 'connection failed'}"
        self.transcript.exchanges[label] = exchange
        return exchange


class _SseEvents:
    """Server-sent events read line by line: `feed` returns each finished event as (its `id:`, its data lines), an
    event ending at a blank line after data or an id; other fields (event:, retry:, comments) are ignored."""

    def __init__(self) -> None:
        self.data: list[str] = []
        self.event_id: str | None = None

    def feed(self, line: str) -> tuple[str | None, list[str]] | None:
        if line.startswith("data:"):
            self.data.append(line[5:].removeprefix(" "))
        elif line.startswith("id:"):
            self.event_id = line[3:].removeprefix(" ")
        elif not line.strip() and (self.data or self.event_id is not None):
            event = (self.event_id, self.data)
            self.data, self.event_id = [], None
            return event
        return None


async def _read_bounded(response: Any) -> bytes:
    limit = limits().message_bytes
    parts: list[bytes] = []
    size = 0
    async for chunk in response.aiter_bytes():
        size += len(chunk)
        if size > limit:
            break
        parts.append(chunk)
    return b"".join(parts)
