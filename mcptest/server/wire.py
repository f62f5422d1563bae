"""What a server sends, read defensively: stdio lines split in linear time and bounded, answers that are not proper
JSON-RPC diagnosed at once, and responses to ids mcptest never sent named.

The SDK reads a stdio line by concatenating each chunk onto what came before (quadratic: a 50 MB line took ~20 s)
and parses it with pydantic, which refuses integers longer than 4,300 digits as "not JSON", reads `NaN` as a float
that becomes `null`, and turns a `result` that is not an object into a parse error the call waits out. Here:

- `LineSplitter` keeps the pieces of a line and joins them once; past `Limits.message_bytes` it keeps only the
  head and tail (to find the id) and the line becomes a refusal of that request.
- `parse_line` takes the SDK's fast path when it can, and otherwise reads the line with the standard library to say
  what is wrong. A refusal is a JSON-RPC error for the request it answers, marked as mcptest's own (`REFUSED`), so
  the call fails at once with the diagnosis instead of waiting out its timeout.
- `Watch` sits between the transport and the SDK's session and sees both ways: a response to an id never sent
  fails the one request waiting (naming both ids), or is remembered for the timeout message when several wait.
"""

from __future__ import annotations

import gc
import json
import re
import sys
from dataclasses import dataclass, field
from typing import Any

from mcptest.server.limits import raise_hint

REFUSED = {"mcptest": "refused"}
"""The `data` of an error mcptest made up in place of an answer it refused (never sent by a server)."""
REFUSED_CODE = -32700
MAX_INT_DIGITS = 20_000
"""Integers up to this many digits are read exactly; longer ones cost quadratic time to convert and are refused."""
_HEAD = 4096
_ID = re.compile(r'"id"\s*:\s*("(?:[^"\\]|\\.){0,200}"|-?\d{1,30})')


def refusal(request_id: Any, message: str) -> Any:
    """A JSON-RPC error for `request_id` saying why mcptest refused the server's answer."""
    from mcp.shared.message import SessionMessage
    from mcp_types import ErrorData, JSONRPCError

    error = ErrorData(code=REFUSED_CODE, message=message, data=REFUSED)
    return SessionMessage(JSONRPCError(jsonrpc="2.0", id=request_id, error=error))


def is_refusal(error: Any) -> bool:
    """Whether an MCPError is one of mcptest's refusals rather than the server's own error."""
    return getattr(error, "data", None) == REFUSED


class LineSplitter:
    """Split decoded stdout chunks into lines in linear time; a line over `limit` characters is kept as head + tail."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._pieces: list[str] = []
        self._size = 0
        self._head = ""
        self._tail = ""

    def feed(self, chunk: str) -> list[str | Oversized]:
        """The lines `chunk` completes."""
        done: list[str | Oversized] = []
        start = 0
        while (end := chunk.find("\n", start)) != -1:
            self._add(chunk[start:end])
            done.append(self._take())
            start = end + 1
        if start < len(chunk):
            self._add(chunk[start:])
        return done

    def _add(self, piece: str) -> None:
        self._size += len(piece)
        if self._size <= self.limit:
            self._pieces.append(piece)
            return
        if self._pieces:  # the line just went over: keep its head, drop the rest as it comes
            whole = "".join(self._pieces)
            self._head, self._pieces = whole[:_HEAD], []
            self._tail = whole[-_HEAD:]
        if not self._head:
            self._head = piece[:_HEAD]
        self._tail = (self._tail + piece)[-_HEAD:]

    def _take(self) -> str | Oversized:
        line: str | Oversized
        if self._size > self.limit:
            line = Oversized(self._size, self.limit, self._head, self._tail)
        else:
            line = self._pieces[0] if len(self._pieces) == 1 else "".join(self._pieces)
        self._pieces, self._size, self._head, self._tail = [], 0, "", ""
        return line


@dataclass
class Oversized:
    """A line longer than the bound: its length, and its two ends (where the id is)."""

    size: int
    limit: int
    head: str
    tail: str

    def request_id(self) -> Any:
        for end in (self.head, self.tail):
            if '"method"' in end[:200]:
                return None  # a request or notification of the server's, not an answer
            found = _ID.search(end)
            if found:
                return json.loads(found.group(1))
        return None

    def message(self) -> str:
        return (
            f"the server sent a message of {self.size:,} characters, over the {self.limit:,} limit; "
            f"mcptest did not read it ({raise_hint('message_bytes')})"
        )


class NotJson(ValueError):
    """A stdout line mcptest could not take as JSON-RPC (what the session reports as non-JSON-RPC output), quoted."""


def parse_line(line: str | Oversized, items: int | None = None) -> Any:
    """A SessionMessage, a refusal standing for the answer, or NotJson for the session to report.

    pydantic-core's parser reads the line (with the garbage collector paused on a long line: a million small
    objects would otherwise trigger a collection every few hundred); it refuses bare `NaN`/`Infinity` and
    integers over 4,300 digits, and only then the standard library's parser reads the line again to say which.
    With `items`, a result's list of items is cut to that many (`cut_items`) before the SDK sees it.
    """
    if isinstance(line, Oversized):
        request_id = line.request_id()
        return refusal(request_id, line.message()) if request_id is not None else NotJson(line.message())
    import pydantic_core

    paused = len(line) > 1_000_000 and gc.isenabled()
    if paused:
        gc.disable()
    try:
        data = pydantic_core.from_json(line, allow_inf_nan=False)
        if items is not None and isinstance(data, dict) and isinstance(data.get("result"), dict):
            cut_items(data["result"], items)
        return _message(data, line)
    except ValueError:
        return _diagnose(line)
    finally:
        if paused:
            gc.enable()


def _diagnose(line: str) -> Any:
    """What is wrong with a line pydantic-core refused: not JSON, bare NaN/Infinity, or a very long integer."""
    found: list[str] = []

    def constant(name: str) -> float:
        found.append(name)
        return 0.0

    try:
        data = json.loads(line, parse_constant=constant, parse_int=_int)
    except LongInteger as long:
        request_id = Oversized(len(line), 0, line[:_HEAD], line[-_HEAD:]).request_id()
        message = f"the server's answer holds {long}"
        return refusal(request_id, message) if request_id is not None else NotJson(message)
    except (ValueError, RecursionError):
        return NotJson(_quote(line))
    if found:
        request_id = _answer_id(data)
        what = f"bare {found[0]}, which JSON does not allow (RFC 8259), so mcptest cannot tell it from null"
        return refusal(request_id, f"the server's answer holds {what}") if request_id is not None else NotJson(what)
    return _message(data, line)


def _message(data: Any, line: str) -> Any:
    """The JSON-RPC message `data` is, a refusal of a `result` that is not an object, or NotJson."""
    from mcp.shared.message import SessionMessage
    from mcp_types import jsonrpc_message_adapter

    request_id = _answer_id(data)
    if request_id is not None and "result" in data and not isinstance(data["result"], dict):
        kind = _kind(data["result"])
        return refusal(request_id, f"the server answered with a `result` that is {kind}, not a JSON object")
    try:
        return SessionMessage(jsonrpc_message_adapter.validate_python(data, by_name=False))
    except ValueError:
        return NotJson(_quote(line))


def _answer_id(data: Any) -> Any:
    """The id of a response (a JSON object with an id and no method), or None."""
    if isinstance(data, dict) and "method" not in data:
        found = data.get("id")
        return found if isinstance(found, (int, str)) and not isinstance(found, bool) else None
    return None


def _quote(line: str) -> str:
    return repr(line[:100] + ("…" if len(line) > 100 else ""))


class LongInteger(ValueError):
    """An integer too long to read."""


def _int(text: str) -> int:
    digits = len(text.lstrip("-"))
    if digits > MAX_INT_DIGITS:
        raise LongInteger(f"an integer of {digits:,} digits; mcptest reads integers of up to {MAX_INT_DIGITS:,}")
    if digits > sys.get_int_max_str_digits() > 0:
        sys.set_int_max_str_digits(MAX_INT_DIGITS)  # so the report can print it too
    return int(text)


def _kind(value: Any) -> str:
    names = {list: "an array", str: "a string", bool: "a boolean", type(None): "null", int: "a number"}
    return names.get(type(value), "a number")


@dataclass
class Watch:
    """The ids of the requests in flight on one connection, and the stray ids a server answered."""

    items: int = 10_000
    """`Limits.content_items`: a longer list in a result is cut here, before the SDK validates it item by item."""
    pending: dict[Any, None] = field(default_factory=dict)
    stray: list[str] = field(default_factory=list)

    def outgoing(self, message: Any) -> None:
        from mcp_types import JSONRPCRequest

        inner = getattr(message, "message", None)
        if isinstance(inner, JSONRPCRequest):
            self.pending[_key(inner.id)] = None

    def incoming(self, item: Any) -> Any:
        from mcp_types import JSONRPCError, JSONRPCResponse

        inner = getattr(item, "message", None)
        if not isinstance(inner, (JSONRPCResponse, JSONRPCError)):
            return item
        key = _key(inner.id)
        if key in self.pending:
            del self.pending[key]
            if isinstance(inner, JSONRPCResponse):
                cut_items(inner.result, self.items)
            return item
        shown = json.dumps(inner.id) if inner.id is not None else "null"
        if isinstance(inner, JSONRPCError):
            shown += f" with error {inner.error.code}: {inner.error.message[:200]}"
        if len(self.pending) == 1:  # the one request waiting is the one the server meant to answer
            (waiting,) = self.pending
            del self.pending[waiting]
            return refusal(waiting, f"the server answered id {shown}, which mcptest never sent (it sent id {waiting})")
        if len(self.stray) < 5:
            self.stray.append(shown)
        return item

    def note(self) -> str:
        """What a timed-out request's message adds: the ids answered that were never sent."""
        if not self.stray:
            return ""
        return f"; meanwhile the server answered id {', '.join(self.stray)}, which mcptest never sent"


CUT = "mcptest/cut"
"""The key `cut_items` leaves in a result it cut, holding what it cut (taken out again by `take_cut`)."""


def cut_items(result: dict[str, Any], limit: int) -> None:
    """Cut a result's list of items (tool `content`, resource `contents`, prompt `messages`) to `limit`, saying so."""
    for key in ("content", "contents", "messages"):
        items = result.get(key)
        if isinstance(items, list) and len(items) > limit:
            result[key] = items[:limit]
            result[CUT] = (
                f"the result holds {len(items):,} `{key}` items, over the {limit:,} limit; mcptest kept the first "
                f"{limit:,} and did not check the test ({raise_hint('content_items')})"
            )
            return


def take_cut(result: dict[str, Any]) -> str:
    """What `cut_items` cut from this result ("" when nothing), removed from it."""
    return str(result.pop(CUT, ""))


def _key(request_id: Any) -> Any:
    if isinstance(request_id, str) and request_id.lstrip("-").isdigit() and len(request_id) < 20:
        return int(request_id)  # the SDK matches "3" to 3 as well
    return request_id


class WatchedStream:
    """A memory stream of the transport, passing each message through the Watch on its way."""

    def __init__(self, inner: Any, watch: Watch) -> None:
        self._inner = inner
        self._watch = watch

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)

    def __aiter__(self) -> WatchedStream:
        return self

    async def __anext__(self) -> Any:
        return self._watch.incoming(await self._inner.__anext__())

    async def receive(self) -> Any:
        return self._watch.incoming(await self._inner.receive())

    async def send(self, item: Any) -> None:
        self._watch.outgoing(item)
        await self._inner.send(item)

    async def __aenter__(self) -> WatchedStream:
        await self._inner.__aenter__()
        return self

    async def __aexit__(self, *exc: Any) -> Any:
        return await self._inner.__aexit__(*exc)


class Watched:
    """A transport (async context manager giving a read and a write stream) seen through a Watch."""

    def __init__(self, transport: Any, watch: Watch) -> None:
        self._transport = transport
        self._watch = watch

    async def __aenter__(self) -> tuple[WatchedStream, WatchedStream]:
        read, write = await self._transport.__aenter__()
        return WatchedStream(read, self._watch), WatchedStream(write, self._watch)

    async def __aexit__(self, *exc: Any) -> Any:
        return await self._transport.__aexit__(*exc)
