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
            return status, *error_body(path, status, extra)
        if self.delay_s:
            with self.lock:
                self.inflight += 1
                self.peak = max(self.peak, self.inflight)
            time.sleep(self.delay_s)  # the fake model's thinking time (server side, bounded)
            with self.lock:
                self.inflight -= 1
        kind, model = api_of(path, body)
        messages = body.get("messages", [])
        index = {
            "responses": sum(i.get("type") == "reasoning" for i in body.get("input", [])),
            "gemini": sum(c.get("role") == "model" for c in body.get("contents", [])),
        }.get(kind, sum(m.get("role") == "assistant" for m in messages))
        turns = self.by_model.get(model or "", self.turns)
        turn = turns[min(index, len(turns) - 1)]
        if self.echo_prompt and not turn.calls:
            first = next(m for m in messages if m.get("role") == "user")
            turn = Turn(text=f"You said: {first['content']}", usage=turn.usage)
        build = {
            "chat": openai_body,
            "responses": responses_body,
            "gemini": gemini_body,
            "bedrock": bedrock_body,
        }.get(kind, anthropic_body)
        return 200, {}, build(turn, model)


def api_of(path: str, body: dict[str, Any]) -> tuple[str, str | None]:
    """Which API a request is for, from its path, and the model it names (in the body, or in the path)."""
    from urllib.parse import unquote

    if path.endswith("/chat/completions"):
        return "chat", body.get("model")
    if path.endswith("/responses"):
        return "responses", body.get("model")
    if path.endswith(":generateContent"):  # /v1beta/models/{model}:generateContent
        return "gemini", path.rsplit("/", 1)[-1].removesuffix(":generateContent")
    if path.endswith("/converse"):  # /model/{modelId}/converse
        return "bedrock", unquote(path.split("/")[-2])
    return "anthropic", body.get("model")


def error_body(path: str, status: int, extra: dict[str, str]) -> tuple[dict[str, str], Any]:
    """A failure as each API documents it: Google's RetryInfo detail carries `retry-delay` when one is given;
    Bedrock names its error in `x-amzn-ErrorType`."""
    kind, _ = api_of(path, {})
    message = f"fake {status}"
    if kind == "gemini":
        headers = {k: v for k, v in extra.items() if k != "retry-delay"}
        state = "RESOURCE_EXHAUSTED" if status == 429 else "INTERNAL"
        details = [{"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": extra["retry-delay"]}]
        error = {"code": status, "message": message, "status": state}
        return headers, {"error": error | ({"details": details} if "retry-delay" in extra else {})}
    if kind == "bedrock":
        code = "ThrottlingException" if status == 429 else "InternalServerException"
        return {"x-amzn-ErrorType": f"{code}:http://internal.amazon.com/coral/com.amazon.bedrock/", **extra}, {
            "message": message
        }
    return extra, {"type": "error", "error": {"type": "fake_error", "message": message}}


def _malformed(turn: Turn) -> bool:
    try:
        [json.loads(a) for _, a in turn.calls]
    except json.JSONDecodeError:
        return True
    return False


def responses_body(turn: Turn, model: str | None) -> dict[str, Any]:
    """A Responses API response: a reasoning item (with encrypted content, as `store: false` asks), the message,
    the function calls."""
    output: list[dict[str, Any]] = [
        {"type": "reasoning", "id": f"rs_{uuid.uuid4().hex[:16]}", "summary": [], "encrypted_content": "gAAAAB-fake"}
    ]
    if turn.text:
        output.append(
            {
                "type": "message",
                "id": f"msg_{uuid.uuid4().hex[:16]}",
                "status": "completed",
                "role": "assistant",
                "content": [{"type": "output_text", "text": turn.text, "annotations": []}],
            }
        )
    output += [
        {
            "type": "function_call",
            "id": f"fc_{uuid.uuid4().hex[:16]}",
            "call_id": f"call_{uuid.uuid4().hex[:12]}",
            "name": n,
            "arguments": a,
            "status": "completed",
        }
        for n, a in turn.calls
    ]
    i, o = turn.usage
    return {
        "id": f"resp_{uuid.uuid4().hex}",
        "object": "response",
        "created_at": int(time.time()),
        "status": "completed",
        "model": model,
        "output": output,
        "parallel_tool_calls": True,
        "tool_choice": "auto",
        "tools": [],
        "usage": {
            "input_tokens": i,
            "input_tokens_details": {"cached_tokens": i // 4, "cache_write_tokens": 0},
            "output_tokens": o,
            "output_tokens_details": {"reasoning_tokens": o // 2},
            "total_tokens": i + o,
        },
    }


def gemini_body(turn: Turn, model: str | None) -> dict[str, Any]:
    """A generateContent response; the first part carries a thought signature, as thinking models send."""
    i, o = turn.usage
    usage = {
        "promptTokenCount": i,
        "cachedContentTokenCount": i // 4,
        "candidatesTokenCount": o - o // 2,
        "thoughtsTokenCount": o // 2,
        "totalTokenCount": i + o,
    }
    if _malformed(turn):
        candidate = {"finishReason": "MALFORMED_FUNCTION_CALL", "finishMessage": "Malformed function call: save_note"}
        return {"candidates": [candidate | {"index": 0}], "usageMetadata": usage, "modelVersion": model}
    parts: list[dict[str, Any]] = [{"text": turn.text}] if turn.text else []
    parts += [{"functionCall": {"name": n, "args": json.loads(a)}} for n, a in turn.calls]
    if parts:
        parts[0]["thoughtSignature"] = "c2lnbmF0dXJl"  # base64 of "signature"
    content = {"role": "model", "parts": parts}
    return {
        "candidates": [{"content": content, "finishReason": "STOP", "index": 0}],
        "usageMetadata": usage,
        "modelVersion": model,
        "responseId": uuid.uuid4().hex[:20],
    }


def bedrock_body(turn: Turn, model: str | None) -> dict[str, Any]:
    """A Converse response."""
    i, o = turn.usage
    usage = {"inputTokens": i - i // 4, "outputTokens": o, "totalTokens": i + o, "cacheReadInputTokens": i // 4,
             "cacheWriteInputTokens": 0}  # fmt: skip
    if _malformed(turn):
        return {"output": {"message": {"role": "assistant", "content": []}}, "stopReason": "malformed_tool_use",
                "usage": usage, "metrics": {"latencyMs": 1}}  # fmt: skip
    content: list[dict[str, Any]] = [{"text": turn.text}] if turn.text else []
    content += [
        {"toolUse": {"toolUseId": f"tooluse_{uuid.uuid4().hex[:20]}", "name": n, "input": json.loads(a)}}
        for n, a in turn.calls
    ]
    return {
        "output": {"message": {"role": "assistant", "content": content}},
        "stopReason": "tool_use" if turn.calls else "end_turn",
        "usage": usage,
        "metrics": {"latencyMs": 1},
    }


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
