"""Fake OpenAI- and Anthropic-compatible HTTP servers on 127.0.0.1, driven through the real SDKs by the tests.

The reply to a request depends only on how many assistant turns its conversation holds, so concurrent runs behave
alike; the first requests can be made to fail (429, 500) and every request is kept for the assertions.
"""

from __future__ import annotations

import json
import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Turn:
    """What the fake model says at one turn: text, tool calls (name, raw JSON argument text), token usage."""

    text: str | None = None
    calls: list[tuple[str, str]] = field(default_factory=list)
    usage: tuple[int, int] = (100, 20)


def call(name: str, **args: Any) -> tuple[str, str]:
    """A well-formed tool call."""
    return name, json.dumps(args)


@dataclass
class FakeLLM:
    """The behaviour: turns by index (per model when `by_model` names it), failures for the first requests, a delay
    per call, hanging past a count."""

    turns: list[Turn]
    failures: list[tuple[int, dict[str, str]]] = field(default_factory=list)
    delay_s: float = 0.0
    hang_after: int | None = None
    echo_prompt: bool = False
    by_model: dict[str, list[Turn]] = field(default_factory=dict)
    requests: list[dict[str, Any]] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)
    released: threading.Event = field(default_factory=threading.Event)
    hanging: threading.Event = field(default_factory=threading.Event)
    inflight: int = 0
    peak: int = 0

    def respond(self, path: str, headers: dict[str, str], body: dict[str, Any]) -> tuple[int, dict[str, str], Any]:
        with self.lock:
            self.requests.append({"path": path, "headers": headers, "body": body})
            n = len(self.requests)
        if self.hang_after is not None and n > self.hang_after:
            self.hanging.set()
            self.released.wait(timeout=60)
            return 503, {}, {"error": {"message": "shutting down"}}
        if n <= len(self.failures):
            status, extra = self.failures[n - 1]
            return status, extra, {"type": "error", "error": {"type": "fake_error", "message": f"fake {status}"}}
        if self.delay_s:
            with self.lock:
                self.inflight += 1
                self.peak = max(self.peak, self.inflight)
            time.sleep(self.delay_s)  # the fake model's thinking time (server side, bounded)
            with self.lock:
                self.inflight -= 1
        messages = body.get("messages", [])
        index = sum(m.get("role") == "assistant" for m in messages)
        turns = self.by_model.get(body.get("model", ""), self.turns)
        turn = turns[min(index, len(turns) - 1)]
        if self.echo_prompt and not turn.calls:
            first = next(m for m in messages if m.get("role") == "user")
            turn = Turn(text=f"You said: {first['content']}", usage=turn.usage)
        if path.endswith("/chat/completions"):
            return 200, {}, openai_body(turn, body.get("model"))
        return 200, {}, anthropic_body(turn, body.get("model"))


def openai_body(turn: Turn, model: str | None) -> dict[str, Any]:
    calls = [
        {"id": f"call_{uuid.uuid4().hex[:12]}", "type": "function", "function": {"name": n, "arguments": a}}
        for n, a in turn.calls
    ]
    message: dict[str, Any] = {"role": "assistant", "content": turn.text}
    if calls:
        message["tool_calls"] = calls
    i, o = turn.usage
    return {
        "id": f"chatcmpl-{uuid.uuid4().hex}",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": model,
        "choices": [{"index": 0, "message": message, "finish_reason": "tool_calls" if calls else "stop"}],
        "usage": {"prompt_tokens": i, "completion_tokens": o, "total_tokens": i + o},
    }


def anthropic_body(turn: Turn, model: str | None) -> dict[str, Any]:
    content: list[dict[str, Any]] = [{"type": "text", "text": turn.text}] if turn.text else []
    content += [
        {"type": "tool_use", "id": f"toolu_{uuid.uuid4().hex[:20]}", "name": n, "input": json.loads(a)}
        for n, a in turn.calls
    ]
    i, o = turn.usage
    return {
        "id": f"msg_{uuid.uuid4().hex}",
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": content,
        "stop_reason": "tool_use" if turn.calls else "end_turn",
        "stop_sequence": None,
        "usage": {"input_tokens": i, "output_tokens": o},
    }


class _Handler(BaseHTTPRequestHandler):
    fake: FakeLLM

    def do_POST(self) -> None:  # noqa: N802 - http.server's naming
        length = int(self.headers.get("content-length", 0))
        body = json.loads(self.rfile.read(length) or b"{}")
        status, headers, payload = self.server.fake.respond(
            self.path, {k.lower(): v for k, v in self.headers.items()}, body
        )  # type: ignore[attr-defined]
        data = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(data)))
        for key, value in headers.items():
            self.send_header(key, value)
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args: Any) -> None:
        pass


@contextmanager
def serve(fake: FakeLLM) -> Iterator[str]:
    """Serve `fake` on 127.0.0.1; yields the root URL (`http://127.0.0.1:PORT`)."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    server.daemon_threads = True
    server.fake = fake  # type: ignore[attr-defined]
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        fake.released.set()
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)
