"""A raw MCP server (standard library only, no SDK) that follows the 2025-11-25 and 2026-07-28 specs (the first request
decides, as in the SDK), or breaks one rule on command.

`python conformance_server.py [--defect NAME] [--modern-only]` serves stdio (`--modern-only`: 2026-07-28 alone);
`serve_http(defect)` serves Streamable HTTP on 127.0.0.1 in a thread of the caller (plain JSON answers; the era of
each request from its MCP-Protocol-Version header), and the legacy HTTP+SSE transport beside it (`/sse`). It declares
(in the handshake era) tools, resources (with subscribe), prompts and logging, and not completions. Tools: `echo` and
`get_sum` (read-only; `get_sum` has an outputSchema) and the official fixture `test_error_handling`; tools/list
comes in two pages. `DEFECTS` lists every defect that can be planted, one per run.

Over stdio and SSE it also speaks the asynchronous side: it announces `notifications/tools/list_changed` (declared) and
pings the client after `notifications/initialized`, sends progress for a tools/call that carries a progress token,
and (clean and `cancel-ignored` runs only, to keep the other runs short) serves the reference server's slow
read-only tool `trigger-long-running-operation` in a thread, which a `notifications/cancelled` stops silently.
"""

from __future__ import annotations

import json
import socket
import sys
import threading
import time
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

SUPPORTED = ("2025-06-18", "2025-11-25")
MODERN = ("2026-07-28",)
VERSION_KEY, CAPABILITIES_KEY = "io.modelcontextprotocol/protocolVersion", "io.modelcontextprotocol/clientCapabilities"
REMOVED_IN_MODERN = ("ping", "logging/setLevel", "resources/subscribe", "resources/unsubscribe")
NAMED = {"tools/call": "name", "prompts/get": "name", "resources/read": "uri"}
DEFECTS = (
    "tool-name-space", "tool-name-long", "tools-undeclared", "unknown-tool-success", "tool-error-as-jsonrpc",
    "invalid-args-accepted", "bad-input-schema", "structured-mismatch", "pagination-cycle", "ping-nonempty",
    "hang-ping", "stray-response", "jsonrpc-1.0", "error-code-string", "unknown-method-result", "version-echo",
    "version-bogus", "notification-answered", "stdout-garbage", "resource-not-found-success",
    "resource-not-found-code", "resource-text-and-blob", "subscribe-error", "prompt-bad-role",
    "prompt-unknown-success", "setlevel-error", "missing-server-info", "crash-on-call", "log-level-bogus",
    "hang-initialize", "list-changed-undeclared", "progress-unknown-token", "progress-decreasing",
    "progress-after-response", "cancel-crash", "cancel-ignored", "server-request-invalid",
    # Streamable HTTP only
    "session-id-non-ascii", "no-session-enforcement", "no-origin-check", "protocol-header-ignored",
    "content-type-text", "get-200-json",
    # 2026-07-28 (server/discover, the `_meta` envelope); the last two over Streamable HTTP only
    "discover-versions-string", "no-result-type", "envelope-not-required", "unsupported-version-served",
    "header-mismatch-ignored", "unknown-method-200",
    # SSE resumption over Streamable HTTP (the handshake versions)
    "resume-other-stream", "event-ids-reused",
)  # fmt: skip

ECHO = {
    "name": "echo",
    "description": "Echo a message back.",
    "inputSchema": {"type": "object", "properties": {"message": {"type": "string"}}, "required": ["message"]},
    "annotations": {"readOnlyHint": True},
}
SUM = {
    "name": "get_sum",
    "description": "Add two numbers.",
    "inputSchema": {
        "type": "object",
        "properties": {"a": {"type": "number"}, "b": {"type": "number"}},
        "required": ["a", "b"],
    },
    "outputSchema": {"type": "object", "properties": {"sum": {"type": "number"}}, "required": ["sum"]},
    "annotations": {"readOnlyHint": True},
}
ERROR_FIXTURE = {
    "name": "test_error_handling",
    "description": "Always fails (the official conformance fixture).",
    "inputSchema": {"type": "object"},
}
RESOURCES = [
    {"uri": "demo://text", "name": "text", "mimeType": "text/plain"},
    {"uri": "demo://blob", "name": "blob", "mimeType": "application/octet-stream"},
]
SLOW = {
    "name": "trigger-long-running-operation",
    "description": "Sleep `duration` seconds in `steps` steps, reporting progress (as the reference server's tool).",
    "inputSchema": {"type": "object", "properties": {"duration": {"type": "number"}, "steps": {"type": "number"}}},
    "annotations": {"readOnlyHint": True},
}
TEMPLATES = [{"uriTemplate": "demo://item/{id}", "name": "item"}]
PROMPTS = [
    {"name": "greet", "description": "Say hello."},
    {"name": "summarize", "arguments": [{"name": "topic", "required": True}]},
]


def error(request_id: Any, code: Any, message: str) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": request_id, "error": {"code": code, "message": message}}


def result(request_id: Any, value: dict[str, Any]) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": request_id, "result": value}


def enveloped(params: Any) -> bool:
    """A 2026-07-28 request: its `_meta` names a protocol version."""
    return isinstance(params, dict) and isinstance(params.get("_meta"), dict) and VERSION_KEY in params["_meta"]


class Logic:
    """The server's answers: `handle(message)` gives the messages to send back (none for a notification)."""

    def __init__(
        self, defect: str | None, emit: Callable[[dict[str, Any]], None] | None = None, modern_only: bool = False
    ) -> None:
        """`emit` writes a message at any time (stdio); without it (plain-JSON HTTP) only direct answers are sent.
        `modern_only`: a server of 2026-07-28 alone, which refuses `initialize` (no defect: the spec allows it)."""
        self.defect, self.emit, self.modern_only = defect, emit, modern_only
        self.in_flight: set[Any] = set()
        self.cancelled: set[Any] = set()
        self.era: str | None = None
        """Over stdio the first request decides: `modern` (2026-07-28, it carries the `_meta` envelope) or `legacy`."""

    def tools(self) -> list[dict[str, Any]]:
        echo, total = dict(ECHO), dict(SUM)
        if self.defect == "tool-name-space":
            echo["name"] = "echo it"
        if self.defect == "tool-name-long":
            echo["name"] = "e" * 130
        if self.defect == "bad-input-schema":
            total["inputSchema"] = {"type": "object", "properties": {"a": {"type": 12}}}
        slow = [SLOW] if self.emit is not None and self.defect in (None, "cancel-ignored") else []
        return [echo, total, ERROR_FIXTURE, *slow]

    def handle(self, message: dict[str, Any], era: str | None = None) -> list[dict[str, Any]]:
        """The answers to one message; `era` is HTTP's (from the request's headers), else the connection's."""
        if "method" in message and "id" in message and era is None:
            if self.era is None:
                modern = enveloped(message.get("params")) and message.get("method") != "initialize"
                self.era = "modern" if modern else "legacy"
            era = self.era
        if (era == "modern" or self.modern_only) and "id" in message:
            return self._modern(message)
        return self._legacy(message)

    def _modern(self, message: dict[str, Any]) -> list[dict[str, Any]]:
        """2026-07-28: no handshake; each request carries its version and capabilities; results carry resultType."""
        method, rid, params = message.get("method"), message.get("id"), message.get("params") or {}
        d = self.defect
        meta = params.get("_meta") if isinstance(params.get("_meta"), dict) else {}
        if method == "initialize":
            return [_refusal(rid, -32022, "this connection serves 2026-07-28", str(params.get("protocolVersion")))]
        if (VERSION_KEY not in meta or CAPABILITIES_KEY not in meta) and d != "envelope-not-required":
            return [error(rid, -32602, "params._meta lacks the protocol version or the client capabilities")]
        version = meta.get(VERSION_KEY, MODERN[-1])
        if version not in MODERN and d != "unsupported-version-served":
            return [_refusal(rid, -32022, "Unsupported protocol version", str(version))]
        if method == "server/discover":
            versions: Any = MODERN[-1] if d == "discover-versions-string" else list(MODERN)
            caps = {"tools": {}, "resources": {}, "prompts": {}}
            found = {"supportedVersions": versions, "capabilities": caps, "ttlMs": 0, "cacheScope": "public"}
            return [self.finish(result(rid, found))]
        if method in REMOVED_IN_MODERN:
            return [error(rid, -32601, f"Method not found: {method}")]
        return [self.finish(reply) for reply in self._legacy(message)]

    def finish(self, reply: dict[str, Any]) -> dict[str, Any]:
        """A 2026-07-28 answer: every result with resultType and the server named in `_meta`, listings and reads
        with caching hints; an unknown resource is -32602 there (no longer -32002)."""
        if self.era == "legacy" or "id" not in reply:
            return reply
        if (reply.get("error") or {}).get("code") == -32002:
            reply["error"]["code"] = -32602
        found = reply.get("result")
        if isinstance(found, dict):
            if self.defect != "no-result-type":
                found["resultType"] = "complete"
            found["_meta"] = {"io.modelcontextprotocol/serverInfo": {"name": "conformance-server", "version": "1.0"}}
            if {"tools", "resources", "resourceTemplates", "prompts", "contents"} & found.keys():
                found |= {"ttlMs": 0, "cacheScope": "public"}
        return reply

    def _legacy(self, message: dict[str, Any]) -> list[dict[str, Any]]:
        method, rid, params = message.get("method"), message.get("id"), message.get("params") or {}
        d = self.defect
        if "method" not in message:
            return []  # the client's answer to the server's own request
        if "id" not in message:
            if d == "notification-answered" and method == "notifications/initialized":
                return [{"jsonrpc": "2.0", "id": None, "result": {}}]
            if method == "notifications/initialized" and self.emit is not None:
                changed = {"jsonrpc": "2.0", "method": "notifications/tools/list_changed"}
                ping: dict[str, Any] = {"jsonrpc": "2.0", "id": "server-1", "method": "ping"}
                if d == "server-request-invalid":
                    ping["params"] = ["not", "an", "object"]
                return [ping] if d == "tools-undeclared" else [changed, ping]
            if method == "notifications/cancelled":
                request_id = params.get("requestId")
                if d == "cancel-crash" and request_id not in self.in_flight:
                    sys.exit(4)
                self.cancelled.add(request_id)
            return []
        if method == "initialize" and d == "hang-initialize":
            return []
        if method == "initialize":
            offered = params.get("protocolVersion")
            version = offered if offered in SUPPORTED or d == "version-echo" else SUPPORTED[-1]
            tools = {} if d == "list-changed-undeclared" or self.emit is None else {"listChanged": True}
            caps: dict[str, Any] = {"tools": tools, "resources": {"subscribe": True}, "prompts": {}, "logging": {}}
            if d == "tools-undeclared":
                del caps["tools"]
            answer: dict[str, Any] = {"protocolVersion": "2.0" if d == "version-bogus" else version}
            answer["capabilities"] = caps
            if d != "missing-server-info":
                answer["serverInfo"] = {"name": "conformance-server", "version": "1.0"}
            return [result(rid, answer)]
        if method == "ping":
            if d == "hang-ping":
                return []
            reply = result(rid, {"pong": True} if d == "ping-nonempty" else {})
            if d == "jsonrpc-1.0":
                reply["jsonrpc"] = "1.0"
            if d == "stray-response":
                return [reply, result(9999, {})]
            return [reply]
        if method == "tools/call" and params.get("name") == SLOW["name"] and self.emit is not None:
            threading.Thread(target=self._slow, args=(rid, params), daemon=True).start()
            return []
        handler = getattr(self, "on_" + str(method).replace("/", "_"), None)
        if handler is None:
            if d == "unknown-method-result":
                return [result(rid, {})]
            return [error(rid, "-32601" if d == "error-code-string" else -32601, f"Method not found: {method}")]
        answer = handler(params)
        reply = error(rid, *answer[1:]) if answer[0] == "error" else result(rid, answer[1])
        token = (params.get("_meta") or {}).get("progressToken")
        if method == "tools/call" and token is not None and self.emit is not None:
            return self._with_progress(token, reply)
        if d == "log-level-bogus" and method == "logging/setLevel":  # a log message whose level is no level
            log = {"level": "loud", "data": "level set"}
            return [{"jsonrpc": "2.0", "method": "notifications/message", "params": log}, reply]
        return [reply]

    def _with_progress(self, token: Any, reply: dict[str, Any]) -> list[dict[str, Any]]:
        d = self.defect
        values = (2, 1) if d == "progress-decreasing" else (1, 2)
        named = "mcptest-no-such-token" if d == "progress-unknown-token" else token
        first, second = (_progress(named, v) for v in values)
        return [first, reply, second] if d == "progress-after-response" else [first, second, reply]

    def _slow(self, request_id: Any, params: dict[str, Any]) -> None:
        """The slow fixture, in its own thread: a cancellation stops it without an answer (unless `cancel-ignored`)."""
        assert self.emit is not None
        args, token = params.get("arguments") or {}, (params.get("_meta") or {}).get("progressToken")
        duration, steps = float(args.get("duration", 1.0)), max(int(args.get("steps", 5)), 1)
        self.in_flight.add(request_id)
        try:
            for step in range(1, steps + 1):
                time.sleep(duration / steps)
                if request_id in self.cancelled and self.defect != "cancel-ignored":
                    return
                if token is not None:
                    self.emit(_progress(token, step, steps))
            self.emit(self.finish(result(request_id, _text(f"done in {steps} steps"))))
        finally:
            self.in_flight.discard(request_id)

    def on_tools_list(self, params: dict[str, Any]) -> tuple[Any, ...]:
        tools = self.tools()
        if params.get("cursor") == "page2":
            page: dict[str, Any] = {"tools": tools[2:]}
            if self.defect == "pagination-cycle":
                page["nextCursor"] = "page2"
            return ("result", page)
        return ("result", {"tools": tools[:2], "nextCursor": "page2"})

    def on_tools_call(self, params: dict[str, Any]) -> tuple[Any, ...]:
        if self.defect == "crash-on-call":
            sys.exit(3)
        name, args = params.get("name"), params.get("arguments") or {}
        if name in (ECHO["name"], "echo it", "e" * 130):
            if "message" not in args and self.defect != "invalid-args-accepted":
                return ("result", _text("missing required argument: message", error=True))
            return ("result", _text(str(args.get("message", ""))))
        if name == "get_sum":
            a, b = args.get("a"), args.get("b")
            if not isinstance(a, (int, float)) or not isinstance(b, (int, float)):
                return ("result", _text("a and b must be numbers", error=True))
            total = "three" if self.defect == "structured-mismatch" else a + b
            return ("result", _text(json.dumps({"sum": total})) | {"structuredContent": {"sum": total}})
        if name == "test_error_handling":
            if self.defect == "tool-error-as-jsonrpc":
                return ("error", -32603, "the tool failed")
            return ("result", _text("the tool failed on purpose", error=True))
        if self.defect == "unknown-tool-success":
            return ("result", _text("ok"))
        return ("error", -32602, f"Unknown tool: {name}")

    def on_resources_list(self, params: dict[str, Any]) -> tuple[Any, ...]:
        return ("result", {"resources": RESOURCES})

    def on_resources_templates_list(self, params: dict[str, Any]) -> tuple[Any, ...]:
        return ("result", {"resourceTemplates": TEMPLATES})

    def on_resources_read(self, params: dict[str, Any]) -> tuple[Any, ...]:
        uri = params.get("uri")
        if uri == "demo://text":
            item: dict[str, Any] = {"uri": uri, "mimeType": "text/plain", "text": "hello"}
            if self.defect == "resource-text-and-blob":
                item["blob"] = "aGVsbG8="
            return ("result", {"contents": [item]})
        if uri == "demo://blob":
            return ("result", {"contents": [{"uri": uri, "blob": "aGVsbG8="}]})
        if self.defect == "resource-not-found-success":
            return ("result", {"contents": [{"uri": uri, "text": ""}]})
        code = -32602 if self.defect == "resource-not-found-code" else -32002
        return ("error", code, f"Resource not found: {uri}")

    def on_resources_subscribe(self, params: dict[str, Any]) -> tuple[Any, ...]:
        if self.defect == "subscribe-error":
            return ("error", -32603, "subscriptions are broken")
        return ("result", {})

    def on_resources_unsubscribe(self, params: dict[str, Any]) -> tuple[Any, ...]:
        return ("result", {})

    def on_prompts_list(self, params: dict[str, Any]) -> tuple[Any, ...]:
        return ("result", {"prompts": PROMPTS})

    def on_prompts_get(self, params: dict[str, Any]) -> tuple[Any, ...]:
        name = params.get("name")
        if name not in ("greet", "summarize") and self.defect != "prompt-unknown-success":
            return ("error", -32602, f"Unknown prompt: {name}")
        role = "system" if self.defect == "prompt-bad-role" else "user"
        return ("result", {"messages": [{"role": role, "content": {"type": "text", "text": "Hello"}}]})

    def on_logging_setLevel(self, params: dict[str, Any]) -> tuple[Any, ...]:  # noqa: N802 (the method's name)
        if self.defect == "setlevel-error":
            return ("error", -32603, "no logging here")
        return ("result", {})


def _refusal(request_id: Any, code: int, message: str, requested: str) -> dict[str, Any]:
    """UnsupportedProtocolVersionError (-32022), listing the 2026-07-28 versions served."""
    refused = error(request_id, code, message)
    refused["error"]["data"] = {"supported": list(MODERN), "requested": requested}
    return refused


def _text(text: str, error: bool = False) -> dict[str, Any]:
    out: dict[str, Any] = {"content": [{"type": "text", "text": text}]}
    return out | ({"isError": True} if error else {})


def _progress(token: Any, progress: float, total: float | None = None) -> dict[str, Any]:
    params = {"progressToken": token, "progress": progress} | ({"total": total} if total is not None else {})
    return {"jsonrpc": "2.0", "method": "notifications/progress", "params": params}


def main(defect: str | None, modern_only: bool = False) -> None:
    lock = threading.Lock()

    def emit(message: dict[str, Any]) -> None:
        with lock:
            sys.stdout.write(json.dumps(message) + "\n")
            sys.stdout.flush()

    logic = Logic(defect, emit, modern_only)
    if defect == "stdout-garbage":
        print("server starting...", flush=True)
    for line in sys.stdin:
        try:
            message = json.loads(line)
        except ValueError:
            continue
        for reply in logic.handle(message):
            emit(reply)


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    logic: Logic
    sessions: set[str]
    counter: list[int]
    connections: list[socket.socket]
    streams: dict[str, Any]
    events: list[list[tuple[str, str]]]

    def log_message(self, *args: Any) -> None:
        pass

    def setup(self) -> None:
        super().setup()
        self.request.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)  # headers and body are two writes
        self.connections.append(self.request)

    def _send(self, status: int, body: bytes = b"", kind: str = "application/json", extra: Any = ()) -> None:
        self.send_response(status)
        if body:
            self.send_header("Content-Type", kind)
        for key, value in extra:
            self.send_header(key, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def _refused(self, initialize: bool) -> bool:
        d = self.logic.defect
        origin = self.headers.get("Origin")
        if origin and "127.0.0.1" not in origin and "localhost" not in origin and d != "no-origin-check":
            self._send(403, b'{"error": "forbidden origin"}')
            return True
        version = self.headers.get("MCP-Protocol-Version")
        if version and version not in SUPPORTED and d != "protocol-header-ignored":
            # as the TypeScript SDK answers it: a JSON-RPC error whose id is null (a transport-level refusal)
            error = {"code": -32000, "message": "Unsupported protocol version"}
            refusal = {"jsonrpc": "2.0", "error": error, "id": None}
            self._send(400, json.dumps(refusal).encode())
            return True
        if initialize or d == "no-session-enforcement":
            return False
        session = self.headers.get("Mcp-Session-Id")
        if session is None:
            self._send(400, b'{"error": "missing Mcp-Session-Id"}')
            return True
        if session not in self.sessions:
            self._send(404, b'{"error": "unknown session"}')
            return True
        return False

    def do_POST(self) -> None:  # noqa: N802 (http.server's name)
        if self.path.startswith("/messages"):
            self._sse_post()
            return
        message = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))))
        version = self.headers.get("MCP-Protocol-Version")
        if version in MODERN or (version and version not in SUPPORTED and enveloped(message.get("params"))):
            self._modern_post(message, version)
            return
        initialize = message.get("method") == "initialize"
        if self._refused(initialize):
            return
        replies = self.logic.handle(message, "legacy")
        if "id" not in message:
            if replies:
                self._send(200, json.dumps(replies[0]).encode())
            else:
                self._send(202)
            return
        extra = []
        if initialize:
            self.counter[0] += 1
            session = ("séance-" if self.logic.defect == "session-id-non-ascii" else "s-") + str(self.counter[0])
            self.sessions.add(session)
            extra.append(("Mcp-Session-Id", session))
        if not replies:
            return  # a hang: the client's deadline ends it
        token = (message.get("params") or {}).get("_meta", {}).get("progressToken")
        if message.get("method") == "tools/call" and token is not None and self.logic.defect != "content-type-text":
            self._events([_progress(token, 1), replies[0]], extra)  # an SSE answer whose events carry ids
            return
        kind = "text/plain" if self.logic.defect == "content-type-text" else "application/json"
        self._send(200, json.dumps(replies[0]).encode(), kind, extra)

    def _events(self, messages: list[dict[str, Any]], extra: Any) -> None:
        """An SSE answer, each event with an id (`STREAM-N`, unique across streams; `N` alone under
        `event-ids-reused`), kept in the event store for a GET with Last-Event-ID."""
        self.counter[0] += 1
        stream = self.counter[0]
        reused = self.logic.defect == "event-ids-reused"
        events = [(f"{n}" if reused else f"{stream}-{n}", json.dumps(m)) for n, m in enumerate(messages, 1)]
        self.events.append(events)
        self._stream(events, extra)

    def _stream(self, events: list[tuple[str, str]], extra: Any = ()) -> None:
        body = "".join(f"id: {event_id}\ndata: {data}\n\n" for event_id, data in events).encode()
        self._send(200, body, "text/event-stream", extra)

    def _resume(self, last: str) -> None:
        """Replay what the stream of event `last` sent after it (under `resume-other-stream`, every later event of
        every stream; under `event-ids-reused` the newest stream with that id is taken for it)."""
        found = [(s, i) for s, events in enumerate(self.events) for i, (e, _) in enumerate(events) if e == last]
        if not found:
            self._send(404, b'{"error": "unknown event id"}')
            return
        stream, index = found[-1]
        replay = self.events[stream][index + 1 :]
        if self.logic.defect == "resume-other-stream":
            replay += [event for events in self.events[stream + 1 :] for event in events]
        self._stream(replay)

    def _modern_post(self, message: dict[str, Any], version: str) -> None:
        """2026-07-28 over Streamable HTTP: no session; the mirrored headers must match the body (400, -32020); a
        refusal of the request is HTTP 400, an unknown method 404."""
        d, params = self.logic.defect, message.get("params") or {}
        origin = self.headers.get("Origin")
        if origin and "127.0.0.1" not in origin and "localhost" not in origin:
            self._send(403, b'{"error": "forbidden origin"}')
            return
        method, key = message.get("method"), NAMED.get(str(message.get("method")))
        mismatch = self.headers.get("Mcp-Method") != method or version != params.get("_meta", {}).get(VERSION_KEY)
        mismatch |= key is not None and self.headers.get("Mcp-Name") != params.get(key)  # (plain ASCII names only)
        if enveloped(params) and mismatch and d != "header-mismatch-ignored":
            self._send(400, json.dumps(error(message.get("id"), -32020, "headers do not match the body")).encode())
            return
        replies = self.logic.handle(message, "modern")
        if "id" not in message or not replies:
            self._send(202)
            return
        code = (replies[0].get("error") or {}).get("code")
        status = 404 if code == -32601 and d != "unknown-method-200" else 400 if code in (-32602, -32022) else 200
        self._send(status, json.dumps(replies[0]).encode())

    def do_DELETE(self) -> None:  # noqa: N802
        if self._refused(False):
            return
        if self.logic.defect != "no-session-enforcement":
            self.sessions.discard(self.headers.get("Mcp-Session-Id", ""))
        self._send(200)

    def _sse_post(self) -> None:
        """Legacy SSE: a message POSTed to the session's endpoint is accepted (202); its answers go on the stream."""
        message = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))))
        found = self.streams.get(self.path.partition("session=")[2])
        if found is None:
            self._send(404, b'{"error": "unknown session"}')
            return
        self._send(202)
        queue, logic = found
        for reply in logic.handle(message):
            queue.put(reply)

    def _sse_stream(self) -> None:
        """Legacy SSE: the event stream, its first event the endpoint to POST to, then every message the server sends
        (its own Logic, whose slow fixture and progress write here too)."""
        import queue

        self.counter[0] += 1
        session = f"sse-{self.counter[0]}"
        messages: queue.Queue[dict[str, Any]] = queue.Queue()
        self.streams[session] = (messages, Logic(self.logic.defect, messages.put))
        self.close_connection = True
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.end_headers()
        try:
            self.wfile.write(f"event: endpoint\ndata: /messages/?session={session}\n\n".encode())
            self.wfile.flush()
            while True:
                try:
                    message = messages.get(timeout=0.2)
                except queue.Empty:
                    continue
                self.wfile.write(f"event: message\ndata: {json.dumps(message)}\n\n".encode())
                self.wfile.flush()
        except OSError:  # the client went away, or the server stopped
            self.streams.pop(session, None)

    def do_GET(self) -> None:  # noqa: N802
        if self.path == "/sse":
            self._sse_stream()
            return
        last = self.headers.get("Last-Event-ID")
        if last is not None and self.headers.get("MCP-Protocol-Version") not in MODERN:
            self._resume(last)
        elif self.logic.defect == "get-200-json":
            self._send(200, b"{}")
        else:
            self._send(405)


class Served:
    """A running HTTP server: its URL, and `stop()` to end it with every connection it holds."""

    def __init__(self, defect: str | None) -> None:
        self.connections: list[socket.socket] = []
        state = {
            "logic": Logic(defect), "sessions": set(), "counter": [0], "connections": self.connections, "streams": {},
            "events": [],
        }  # fmt: skip
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), type("BoundHandler", (Handler,), state))
        self.server.daemon_threads = True
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/mcp"
        self.sse_url = f"http://127.0.0.1:{self.server.server_address[1]}/sse"
        """The legacy HTTP+SSE endpoint (each stream its own session, answered as over stdio)."""

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()
        for connection in self.connections:  # a keep-alive connection's thread may still wait on it
            connection.close()


def serve_http(defect: str | None) -> Served:
    """Serve on a free loopback port in a daemon thread."""
    return Served(defect)


if __name__ == "__main__":
    main(sys.argv[sys.argv.index("--defect") + 1] if "--defect" in sys.argv else None, "--modern-only" in sys.argv)
