"""HTTP answers read defensively, below the SDK's Streamable HTTP transport: bodies bounded once inflated, and the
ways an answer goes wrong at the HTTP level turned into a JSON-RPC error for the request that names them.

`bound(client, limit)` wraps the httpx client's transport. For a POST that carries a JSON-RPC request:

- a JSON body is read here whole (the SDK reads it whole anyway), inflated by mcptest itself (`gzip`, `deflate`)
  at most `limit` bytes: a gzip bomb stops at the bound instead of taking gigabytes;
- a status of 400 or more whose body is no JSON-RPC error becomes one naming the status and a short excerpt of the
  body; but for 404, which the SDK reads as "method not found" or "session terminated", and 401/403, which the
  auth flow above the transport (OAuth: fetch or refresh a token, then retry) must see as they came;
- a body cut off mid-way (the connection closed early) becomes an error for that request alone, so the session
  lives on;
- an `Mcp-Session-Id` that is not visible ASCII (the spec's 0x21-0x7E) fails the handshake saying so, instead of
  crashing the next request that would have to send it.
"""

from __future__ import annotations

import json
import zlib
from typing import Any

from mcptest.server.limits import raise_hint
from mcptest.server.wire import REFUSED, REFUSED_CODE, is_refusal, parse_line

_EXCERPT = 200
_PASSED_ON = frozenset({401, 403, 404})
"""Statuses handed on as they came: the auth flow answers 401/403 (a token, then a retry), the SDK reads 404."""


class _Refusal(Exception):
    """Why a response was not handed to the SDK as it came."""


def bound(client: Any, limit: int) -> None:
    """Read every response of `client` (an httpx2.AsyncClient) through `BoundedTransport`."""
    client._transport = BoundedTransport(client._transport, limit)
    client.headers["Accept-Encoding"] = "gzip, deflate"  # only what `_inflate` can bound


class BoundedTransport:
    """An httpx transport whose JSON-RPC answers are bounded and whose HTTP failures are named."""

    def __init__(self, inner: Any, limit: int) -> None:
        self._inner = inner
        self.limit = limit
        self.session_id: str | None = None
        """The last `Mcp-Session-Id` the server answered with (for the request spans of a traced run)."""

    async def __aenter__(self) -> BoundedTransport:
        await self._inner.__aenter__()
        return self

    async def __aexit__(self, *exc: Any) -> None:
        await self._inner.__aexit__(*exc)

    async def aclose(self) -> None:
        await self._inner.aclose()

    async def handle_async_request(self, request: Any) -> Any:
        response = await self._inner.handle_async_request(request)
        self.session_id = response.headers.get("mcp-session-id") or self.session_id
        request_id = _request_id(request)
        kind = response.headers.get("content-type", "").lower()
        if request_id is None or (kind.startswith("text/event-stream") and response.status_code < 400):
            return response
        try:
            body = await self._body(response)
            _check_session_id(response)
            if response.status_code >= 400 and response.status_code not in _PASSED_ON and not _is_rpc_error(body):
                raise _Refusal(f"the server answered HTTP {response.status_code} {_reason(response)}{_excerpt(body)}")
            _check_answer(body)
        except _Refusal as why:
            return _error_response(response, request, request_id, str(why))
        headers = [(k, v) for k, v in response.headers.multi_items() if k.lower() != "content-encoding"]
        return type(response)(response.status_code, headers=headers, content=body, request=request)

    async def _body(self, response: Any) -> bytes:
        """The whole body, inflated, at most `limit` bytes; a body cut short or over the bound: _Refusal."""
        encoding = response.headers.get("content-encoding", "identity").lower().strip()
        inflate = _inflater(encoding)
        parts: list[bytes] = []
        size = raw = 0
        try:
            async for chunk in response.aiter_raw():
                raw += len(chunk)
                data = inflate(chunk, self.limit + 1 - size) if inflate else chunk
                size += len(data)
                if size > self.limit:
                    how = f" once inflated from {raw:,} {encoding} bytes" if inflate else ""
                    raise _Refusal(
                        f"the server's HTTP answer is over the {self.limit:,}-byte limit{how}; mcptest stopped "
                        f"reading it ({raise_hint('message_bytes')})"
                    )
                parts.append(data)
        except _Refusal:
            raise
        except zlib.error as exc:
            raise _Refusal(f"the server's HTTP answer claims {encoding} encoding but does not inflate: {exc}") from None
        except Exception as exc:  # httpx2's RemoteProtocolError, ReadError: the connection ended mid-body
            expected = response.headers.get("content-length")
            of = f" of {int(expected):,}" if expected and expected.isdigit() else ""
            raise _Refusal(
                f"the server's HTTP answer was cut off after {raw:,}{of} bytes ({type(exc).__name__}: "
                f"{str(exc)[:_EXCERPT]})"
            ) from None
        finally:
            await response.aclose()
        return b"".join(parts)


def _inflater(encoding: str) -> Any:
    """A bounded `inflate(chunk, most)` for `encoding`, None for identity; an encoding not asked for: _Refusal."""
    if encoding in ("", "identity"):
        return None
    if encoding not in ("gzip", "x-gzip", "deflate"):
        raise _Refusal(f"the server's HTTP answer is encoded as '{encoding[:40]}', which mcptest did not ask for")
    decoder = zlib.decompressobj(16 + zlib.MAX_WBITS if "gzip" in encoding else zlib.MAX_WBITS)

    def inflate(chunk: bytes, most: int) -> bytes:
        out = decoder.decompress(chunk, max(1, most))
        if decoder.unconsumed_tail:  # more is waiting than the bound allows: one byte over is enough to tell
            return out + b"\0"
        return out

    return inflate


def _request_id(request: Any) -> Any:
    """The id of the JSON-RPC request a POST carries (None for a notification, a GET, a DELETE)."""
    if request.method != "POST":
        return None
    try:
        message = json.loads(request.content)
    except (ValueError, UnicodeDecodeError, RuntimeError):
        return None
    return message.get("id") if isinstance(message, dict) and "method" in message else None


def _is_rpc_error(body: bytes) -> bool:
    try:
        message = json.loads(body)
    except (ValueError, UnicodeDecodeError, RecursionError):
        return False
    return isinstance(message, dict) and isinstance(message.get("error"), dict)


def _check_answer(body: bytes) -> None:
    """What `mcptest.server.wire.parse_line` refuses in a stdio answer (bare NaN, a `result` not an object)."""
    if not body.lstrip().startswith(b"{"):
        return
    message = parse_line(body.decode("utf-8", errors="replace"))
    error = getattr(getattr(message, "message", None), "error", None)
    if error is not None and is_refusal(error):
        raise _Refusal(error.message)


def _check_session_id(response: Any) -> None:
    raw = response.headers.raw
    for key, value in raw:
        if key.lower() == b"mcp-session-id" and not all(0x21 <= b <= 0x7E for b in value):
            shown = value.decode("utf-8", errors="replace")
            shown = repr(shown if len(shown) <= 60 else shown[:60] + "…")
            raise _Refusal(
                f"the server's Mcp-Session-Id {shown} is not visible ASCII (the spec allows 0x21-0x7E only), so no "
                "request could carry it back"
            )


def _reason(response: Any) -> str:
    from http import HTTPStatus

    try:
        return HTTPStatus(response.status_code).phrase
    except ValueError:
        return ""


def _excerpt(body: bytes) -> str:
    text = " ".join(body[: _EXCERPT * 4].decode("utf-8", errors="replace").split())
    if not text:
        return " with an empty body"
    return f": {text[:_EXCERPT]}{'…' if len(text) > _EXCERPT or len(body) > _EXCERPT * 4 else ''}"


def _error_response(response: Any, request: Any, request_id: Any, message: str) -> Any:
    error = {"code": REFUSED_CODE, "message": message, "data": REFUSED}
    body = json.dumps({"jsonrpc": "2.0", "id": request_id, "error": error}).encode()
    headers = [("content-type", "application/json"), ("content-length", str(len(body)))]
    return type(response)(200, headers=headers, content=body, request=request)
