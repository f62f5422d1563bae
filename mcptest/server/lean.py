"""The load generator's hot path: JSON-RPC requests written by hand on a plain keep-alive HTTP/1.1 connection, on a
Streamable HTTP session the SDK opened (its handshake, its `Mcp-Session-Id`, its per-request `_meta` and headers,
stamped once per request by `ServerSession.stamped`): no pydantic model, no httpx and no task per call.

Each answer comes back in the wire form `ServerSession.call` gives (`CallOutcome`), so it is judged the same way:
a JSON-RPC error, a timeout, a lost connection, an HTTP error, a result whose item list is not a list of objects
(`malformed`), log notifications (`logs`) and requests from the server, which the lean path never answers but with
a refusal (`unanswered`: only servers without `client:` answers take this path). `tests/test_lean.py` holds its
requests to the SDK's types and its outcomes to the SDK path's.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncGenerator
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from mcptest.server.client_answers import CallCapture
from mcptest.server.limits import limits
from mcptest.server.session import CallOutcome
from mcptest.server.wire import cut_items, take_cut
from mcptest.suite.models import HttpServer

if TYPE_CHECKING:
    from mcptest.server.session import ServerConfig, ServerSession

ITEMS = {"tools/call": "content", "resources/read": "contents", "prompts/get": "messages"}
"""The list of objects each result must hold, what `cut_items` bounds."""

_SETTLE_S = 1.0
"""How long the rest of an event stream may take to end once the answer came (the SDK's servers end it at once)."""


class _Broken(Exception):
    """The connection can no longer be used: what went wrong, for the failure's message."""


def unsuited(config: ServerConfig) -> str | None:
    """Why a server's calls cannot take the lean path (None when they can): it must be Streamable HTTP with fixed
    headers (a bearer token is fine, OAuth is renewed by the SDK) and no `client:` answers to give."""
    from mcptest.server.auth import static_headers

    if not isinstance(config, HttpServer):
        return "not a Streamable HTTP server"
    if config.transport != "streamable-http":
        return "legacy SSE transport"
    if static_headers(config) is None:
        return "OAuth (the SDK fetches and renews its token)"
    answers = config.client
    if answers.sampling or answers.elicitation_answers or answers.roots is not None:
        return "it has `client:` answers to give"
    return None


class Request:
    """One test's request, made once: the bytes before its id, and its own HTTP headers."""

    __slots__ = ("method", "prefix", "headers")

    def __init__(self, method: str, params: dict[str, Any], headers: dict[str, str] | None = None) -> None:
        self.method = method
        self.prefix = (
            b'{"jsonrpc":"2.0","method":' + json.dumps(method).encode() + b',"params":' + _dumps(params) + b',"id":'
        )
        self.headers = "".join(f"{k}: {v}\r\n" for k, v in (headers or {}).items() if _header_ok(k, v)).encode()

    @classmethod
    def stamped(cls, session: ServerSession, method: str, params: dict[str, Any]) -> Request:
        """The request as the SDK's session would send it on `session` (its `_meta` and headers)."""
        return cls(method, *session.stamped(method, params))

    def body(self, request_id: int) -> bytes:
        return self.prefix + str(request_id).encode() + b"}"


class LeanHttp:
    """One keep-alive connection to a Streamable HTTP server, on a session the SDK opened (`session_id`, from
    `ServerSession.session_id`)."""

    def __init__(self, name: str, config: HttpServer, session_id: str | None) -> None:
        from mcptest.server.auth import static_headers

        parts = urlsplit(config.url)
        self.name = name
        self.tls = parts.scheme == "https"
        self.host = parts.hostname or "127.0.0.1"
        self.port = parts.port or (443 if self.tls else 80)
        self.timeout_s = config.call_timeout_s
        bounds = limits()
        self.body_limit = bounds.message_bytes
        self.items_limit = bounds.content_items
        path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
        host = parts.netloc.rsplit("@", 1)[-1]
        fixed = {
            **(static_headers(config) or {}),
            "Accept": "application/json, text/event-stream",
            "Content-Type": "application/json",
        }
        if session_id:
            fixed["Mcp-Session-Id"] = session_id
        self._head = f"POST {path} HTTP/1.1\r\nHost: {host}\r\n".encode()
        self._fixed = "".join(f"{k}: {v}\r\n" for k, v in fixed.items() if _header_ok(k, v)).encode()
        self._reader: asyncio.StreamReader | None = None
        self._writer: asyncio.StreamWriter | None = None
        self._next_id = 0

    async def call(self, request: Request) -> CallOutcome:
        """Send the request and read its answer; every way it can fail becomes the outcome's `error`."""
        self._next_id += 1
        request_id = self._next_id
        body = request.body(request_id)
        data = self._head + request.headers + self._fixed + b"Content-Length: " + str(len(body)).encode()
        data += b"\r\n\r\n" + body
        capture = CallCapture()
        start = time.perf_counter()
        answered: list[float] = []
        try:
            async with asyncio.timeout(self.timeout_s):
                message = await self._exchange(data, request_id, capture, answered)
        except TimeoutError:
            self.close()
            return self._failed(start, f"no answer within {self.timeout_s:g}s", "timeout", capture)
        except (OSError, EOFError, ValueError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, _Broken) as exc:
            self.close()
            return self._failed(start, _why(exc), "closed", capture)
        ms = ((answered[0] if answered else time.perf_counter()) - start) * 1000
        if "error" in message:
            error = message["error"] if isinstance(message["error"], dict) else {}
            code = error.get("code") if isinstance(error.get("code"), int) else None
            text = f"the server answered with error {code}: {_cut(str(error.get('message', '')))}"
            return CallOutcome(
                error=f"server '{self.name}': {text}",
                duration_ms=ms,
                capture=capture,
                error_kind="error",
                error_code=code,
            )
        result = message.get("result")
        if isinstance(result, dict) and result.get("resultType") == "input_required":
            return self._asked(result, ms, capture)
        items = ITEMS[request.method]
        if not isinstance(result, dict) or not _objects(result.get(items)):
            what = f"`{items}` is not a list of objects" if isinstance(result, dict) else "the result is not an object"
            return CallOutcome(
                error=f"server '{self.name}': malformed result: {what}",
                duration_ms=ms,
                capture=capture,
                error_kind="malformed",
            )
        cut_items(result, self.items_limit)
        cut = take_cut(result)
        return CallOutcome(
            result=result, error=f"server '{self.name}': {cut}" if cut else None, duration_ms=ms, capture=capture
        )

    def _asked(self, result: dict[str, Any], ms: float, capture: CallCapture) -> CallOutcome:
        """A 2026-07-28 `input_required` result: the requests it makes are recorded, and left unanswered (only
        servers without `client:` answers take this path)."""
        asked = result.get("inputRequests")
        methods = []
        for ask in asked.values() if isinstance(asked, dict) else []:
            if isinstance(ask, dict):
                methods.append(str(ask.get("method")))
                _record(capture, ask.get("method"), ask.get("params"))
        said = f"server '{self.name}' asked for {', '.join(methods) or 'input'} (input_required)"
        capture.unanswered.append(f"{said}; {_NO_ANSWER}")
        return CallOutcome(error=f"{said}: unanswered", duration_ms=ms, capture=capture, error_kind="error")

    def close(self) -> None:
        """Drop the connection (the next call opens another)."""
        if self._writer is not None:
            self._writer.close()
        self._reader = self._writer = None

    def _failed(self, start: float, why: str, kind: str, capture: CallCapture) -> CallOutcome:
        ms = (time.perf_counter() - start) * 1000
        return CallOutcome(error=f"server '{self.name}': {why}", duration_ms=ms, capture=capture, error_kind=kind)

    async def _connect(self) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
        if self._reader is None or self._writer is None:
            ssl = True if self.tls else None
            self._reader, self._writer = await asyncio.open_connection(self.host, self.port, ssl=ssl, limit=1 << 20)
        return self._reader, self._writer

    async def _exchange(
        self, data: bytes, request_id: int, capture: CallCapture, answered: list[float]
    ) -> dict[str, Any]:
        reused = self._reader is not None
        reader, writer = await self._connect()
        writer.write(data)
        try:
            head = await reader.readuntil(b"\r\n\r\n")
        except asyncio.IncompleteReadError as exc:
            if not reused or exc.partial:
                raise
            self.close()  # a kept-alive connection the server had closed meanwhile: once more on a new one
            reader, writer = await self._connect()
            writer.write(data)
            head = await reader.readuntil(b"\r\n\r\n")
        status, headers = _parse_head(head)
        if status != 200:
            body = b"".join([chunk async for chunk in self._body(reader, headers)])
            hint = " (the session expired or is unknown)" if status == 404 else ""
            raise _Broken(f"the server answered HTTP {status}{hint}: {_cut(body.decode('utf-8', 'replace'))}")
        if headers.get(b"content-type", b"").startswith(b"text/event-stream"):
            return await self._events(reader, headers, request_id, capture, answered)
        body = b"".join([chunk async for chunk in self._body(reader, headers)])
        answered.append(time.perf_counter())
        if b"close" in headers.get(b"connection", b"").lower():
            self.close()
        return _answer(_decode(body), request_id)

    async def _events(
        self,
        reader: asyncio.StreamReader,
        headers: dict[bytes, bytes],
        request_id: int,
        capture: CallCapture,
        answered: list[float],
    ) -> dict[str, Any]:
        """Read an event stream: notifications and server requests until the answer, then the stream's end."""
        answer: dict[str, Any] | None = None
        pending = b""
        chunks = self._body(reader, headers)
        try:
            while True:
                if answer is None:
                    chunk = await anext(chunks, None)
                else:  # the answer came: the rest of the stream may not keep this connection (and its clock) waiting
                    try:
                        async with asyncio.timeout(_SETTLE_S):
                            chunk = await anext(chunks, None)
                    except TimeoutError:
                        self.close()
                        return answer
                if chunk is None:
                    break
                pending += chunk.replace(b"\r\n", b"\n")
                *events, pending = pending.split(b"\n\n")
                for event in events:
                    data = b"\n".join(
                        line[5:].removeprefix(b" ") for line in event.split(b"\n") if line.startswith(b"data:")
                    )
                    if not data:
                        continue
                    message = _decode(data)
                    if "method" in message:
                        await self._from_server(message, capture)
                    elif answer is None and message.get("id") == request_id:
                        answered.append(time.perf_counter())
                        answer = _answer(message, request_id)
        finally:
            await chunks.aclose()
        if answer is None:
            raise _Broken("the event stream ended without the answer")
        return answer

    async def _from_server(self, message: dict[str, Any], capture: CallCapture) -> None:
        """A notification (log messages kept) or a request from the server during the call (refused, but a ping)."""
        method, params = message.get("method"), message.get("params")
        if "id" not in message:
            if method == "notifications/message" and isinstance(params, dict):
                capture.logs.append(params)
            return
        if method == "ping":
            reply: dict[str, Any] = {"jsonrpc": "2.0", "id": message["id"], "result": {}}
        else:
            _record(capture, method, params)
            said = f"server '{self.name}' asked for {method}"
            capture.unanswered.append(f"{said}; {_NO_ANSWER}")
            error = {"code": -32600, "message": f"mcptest: {said}"}
            reply = {"jsonrpc": "2.0", "id": message["id"], "error": error}
        await self._post_aside(_dumps(reply))

    async def _post_aside(self, body: bytes) -> None:
        """POST a reply on a connection of its own (this one is reading the call's stream); its answer is read away."""
        ssl = True if self.tls else None
        reader, writer = await asyncio.open_connection(self.host, self.port, ssl=ssl)
        try:
            writer.write(self._head + self._fixed + b"Content-Length: " + str(len(body)).encode() + b"\r\n\r\n" + body)
            _status, headers = _parse_head(await reader.readuntil(b"\r\n\r\n"))
            if not headers.get(b"content-type", b"").startswith(b"text/event-stream"):
                async for _ in self._body(reader, headers):
                    pass
        finally:
            writer.close()

    async def _body(self, reader: asyncio.StreamReader, headers: dict[bytes, bytes]) -> AsyncGenerator[bytes, None]:
        """The body's chunks (Content-Length, chunked, or up to the connection's end), at most `body_limit` bytes."""
        seen = 0
        if b"chunked" in headers.get(b"transfer-encoding", b"").lower():
            while True:
                size = int((await reader.readuntil(b"\r\n")).split(b";", 1)[0], 16)
                if size == 0:
                    while await reader.readuntil(b"\r\n") != b"\r\n":  # trailers
                        pass
                    return
                seen += size
                if seen > self.body_limit:
                    raise _Broken(f"the answer is over {self.body_limit:,} bytes")
                yield (await reader.readexactly(size + 2))[:-2]
        elif (length := headers.get(b"content-length")) is not None:
            if int(length) > self.body_limit:
                raise _Broken(f"the answer is over {self.body_limit:,} bytes")
            yield await reader.readexactly(int(length))
        else:  # read to its end: the connection goes with it
            writer, self._reader, self._writer = self._writer, None, None
            try:
                while chunk := await reader.read(65536):
                    seen += len(chunk)
                    if seen > self.body_limit:
                        raise _Broken(f"the answer is over {self.body_limit:,} bytes")
                    yield chunk
            finally:
                if writer is not None:
                    writer.close()


_NO_ANSWER = "the suite gives no answer: answer it under `servers.NAME.client`"


def _record(capture: CallCapture, method: Any, params: Any) -> None:
    if method == "sampling/createMessage" and isinstance(params, dict):
        capture.sampling_requests.append(params)
    elif method == "elicitation/create" and isinstance(params, dict):
        capture.elicitation_requests.append(params)


def _parse_head(head: bytes) -> tuple[int, dict[bytes, bytes]]:
    lines = head.split(b"\r\n")
    try:
        status = int(lines[0].split(None, 2)[1])
    except (IndexError, ValueError):
        raise _Broken(f"not an HTTP answer: {_cut(lines[0].decode('latin-1'))}") from None
    headers: dict[bytes, bytes] = {}
    for line in lines[1:]:
        if line:
            key, _, value = line.partition(b":")
            headers[key.strip().lower()] = value.strip()
    return status, headers


def _decode(data: bytes) -> dict[str, Any]:
    try:
        message = json.loads(data)
    except ValueError:
        raise _Broken(f"the answer is not JSON: {_cut(data.decode('utf-8', 'replace'))}") from None
    if not isinstance(message, dict):
        raise _Broken(f"the answer is not a JSON-RPC message: {_cut(data.decode('utf-8', 'replace'))}")
    return message


def _answer(message: dict[str, Any], request_id: int) -> dict[str, Any]:
    if message.get("id") != request_id or ("result" not in message and "error" not in message):
        raise _Broken(f"the answer is not the response to request {request_id}: {_cut(json.dumps(message))}")
    return message


def _objects(items: Any) -> bool:
    return isinstance(items, list) and all(isinstance(item, dict) for item in items)


def _dumps(value: Any) -> bytes:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode()


def _header_ok(key: str, value: str) -> bool:
    """No header may smuggle a line break into the request."""
    return not any(c in key + value for c in "\r\n")


def _why(exc: BaseException) -> str:
    if isinstance(exc, _Broken):
        return str(exc)
    if isinstance(exc, asyncio.IncompleteReadError | EOFError):
        return "the server closed the connection during the request"
    if isinstance(exc, asyncio.LimitOverrunError):
        return "the answer's headers are too long"
    if isinstance(exc, ValueError):
        return f"the answer breaks HTTP/1.1: {exc}"
    return f"cannot reach the server: {getattr(exc, 'strerror', None) or exc}"


def _cut(text: str, most: int = 300) -> str:
    return text if len(text) <= most else text[:most] + "..."
