"""Build OTLP JSON (ExportTraceServiceRequest, ids in hex) the way the collector's file exporter writes it."""

from __future__ import annotations

import json
from typing import Any

T0 = 1_700_000_000_000_000_000


def attr(key: str, value: Any) -> dict[str, Any]:
    """One OTLP attribute in the JSON mapping (ints as strings, as protobuf's JSON writes int64)."""
    if isinstance(value, bool):
        return {"key": key, "value": {"boolValue": value}}
    if isinstance(value, int):
        return {"key": key, "value": {"intValue": str(value)}}
    if isinstance(value, float):
        return {"key": key, "value": {"doubleValue": value}}
    return {"key": key, "value": {"stringValue": value if isinstance(value, str) else json.dumps(value)}}


def span(
    trace: int, sid: int, name: str, attrs: dict[str, Any], *, parent: int | None = None, start: int = 0,
    end: int | None = None, error: bool = False,
) -> dict[str, Any]:  # fmt: skip
    """A span of trace `trace` (ids rendered as 32 and 16 hex digits), times in ms after T0."""
    out: dict[str, Any] = {
        "traceId": f"{trace:032x}",
        "spanId": f"{sid:016x}",
        "name": name,
        "kind": 3,
        "startTimeUnixNano": str(T0 + start * 1_000_000),
        "endTimeUnixNano": str(T0 + (start + 5 if end is None else end) * 1_000_000),
        "attributes": [attr(k, v) for k, v in attrs.items()],
        "status": {"code": 2} if error else {},
    }
    if parent is not None:
        out["parentSpanId"] = f"{parent:016x}"
    return out


def request(spans: list[dict[str, Any]], service: str = "agent") -> dict[str, Any]:
    """One ExportTraceServiceRequest holding `spans`."""
    return {
        "resourceSpans": [
            {
                "resource": {"attributes": [attr("service.name", service)]},
                "scopeSpans": [{"scope": {"name": "test"}, "spans": spans}],
            }
        ]
    }


def child(trace: int, sid: int, name: str, attrs: dict[str, Any], start: int, *, error: bool = False) -> dict[str, Any]:
    """A span under the run's root span (id 1), lasting 9 ms from `start`."""
    return span(trace, sid, name, attrs, parent=1, start=start, end=start + 9, error=error)


def tool(trace: int, sid: int, name: str, args: Any, result: Any, start: int, **extra: Any) -> dict[str, Any]:
    """A GenAI `execute_tool` span of tool `name` under the root, with its arguments and result."""
    attrs = {
        "gen_ai.operation.name": "execute_tool",
        "gen_ai.tool.name": name,
        "gen_ai.tool.call.arguments": args,
        "gen_ai.tool.call.result": result,
        **extra,
    }
    return child(trace, sid, f"execute_tool {name}", attrs, start, error="error.type" in extra)


def genai_run(trace: int, *, conversation: str | None = None, fail_second: bool = False) -> list[dict[str, Any]]:
    """A GenAI-convention agent run: invoke_agent, two chat calls, two execute_tool calls (the second may fail)."""
    conv = {"gen_ai.conversation.id": conversation} if conversation else {}
    agent = {"gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": "weather-bot", **conv}
    chat = {"gen_ai.operation.name": "chat", "gen_ai.provider.name": "openai", "gen_ai.request.model": "gpt-4o"}

    def said(role: str, text: str) -> list[dict[str, Any]]:
        return [{"role": role, "parts": [{"type": "text", "content": text}]}]

    asked = {"gen_ai.usage.input_tokens": 100, "gen_ai.usage.output_tokens": 20}
    answered = {"gen_ai.usage.input_tokens": 150, "gen_ai.usage.output_tokens": 30}
    failed = {"error.type": "tool_error"} if fail_second else {}
    return [
        span(trace, 1, "invoke_agent weather-bot", agent, start=0, end=100),
        child(
            trace, 2, "chat gpt-4o", {**chat, **asked, "gen_ai.input.messages": said("user", "Weather in Paris?")}, 1
        ),
        tool(trace, 3, "get_weather", {"city": "Paris"}, "18C sunny", 11),
        tool(trace, 4, "get_forecast", {"city": "Paris", "days": 2}, "boom", 21, **failed),
        child(
            trace,
            5,
            "chat gpt-4o",
            {**chat, **answered, "gen_ai.output.messages": said("assistant", "Sunny, 18C.")},
            31,
        ),
    ]


def openinference_run(trace: int) -> list[dict[str, Any]]:
    """An OpenInference agent run: AGENT, LLM with token counts, TOOL with input.value/output.value."""
    agent = {"openinference.span.kind": "AGENT", "input.value": "Find the Q3 report", "output.value": "Saved."}
    llm = {"openinference.span.kind": "LLM", "llm.model_name": "gpt-4o-mini", "llm.token_count.prompt": 50}
    llm |= {"llm.token_count.completion": 5, "llm.token_count.total": 55}

    def oi_tool(name: str, args: str, result: str) -> dict[str, Any]:
        return {"openinference.span.kind": "TOOL", "tool.name": name, "input.value": args, "output.value": result}

    return [
        span(trace, 1, "agent", agent, start=0, end=100),
        child(trace, 2, "ChatCompletion", llm, 1),
        child(trace, 3, "search", oi_tool("search", '{"query": "Q3"}', "q3.pdf"), 11),
        child(trace, 4, "save_note", oi_tool("save_note", '{"text": "Q3"}', "ok"), 21),
    ]


def jsonl(*requests: dict[str, Any]) -> str:
    """JSON lines, one request a line, as the collector's file exporter writes them."""
    return "".join(json.dumps(r) + "\n" for r in requests)
