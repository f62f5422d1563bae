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


def genai_run(trace: int, *, conversation: str | None = None, fail_second: bool = False) -> list[dict[str, Any]]:
    """A GenAI-convention agent run: invoke_agent, two chat calls, two execute_tool calls (the second may fail)."""
    conv = {"gen_ai.conversation.id": conversation} if conversation else {}
    agent = {"gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": "weather-bot", **conv}
    chat = {"gen_ai.operation.name": "chat", "gen_ai.provider.name": "openai", "gen_ai.request.model": "gpt-4o"}
    return [
        span(trace, 1, "invoke_agent weather-bot", agent, start=0, end=100),
        span(
            trace,
            2,
            "chat gpt-4o",
            {
                **chat,
                "gen_ai.usage.input_tokens": 100,
                "gen_ai.usage.output_tokens": 20,
                "gen_ai.input.messages": [
                    {"role": "user", "parts": [{"type": "text", "content": "Weather in Paris?"}]}
                ],
            },
            parent=1,
            start=1,
            end=10,
        ),  # fmt: skip
        span(
            trace,
            3,
            "execute_tool get_weather",
            {
                "gen_ai.operation.name": "execute_tool",
                "gen_ai.tool.name": "get_weather",
                "gen_ai.tool.call.arguments": {"city": "Paris"},
                "gen_ai.tool.call.result": "18C sunny",
            },
            parent=1,
            start=11,
            end=20,
        ),  # fmt: skip
        span(
            trace,
            4,
            "execute_tool get_forecast",
            {
                "gen_ai.operation.name": "execute_tool",
                "gen_ai.tool.name": "get_forecast",
                "gen_ai.tool.call.arguments": {"city": "Paris", "days": 2},
                "gen_ai.tool.call.result": "boom",
                **({"error.type": "tool_error"} if fail_second else {}),
            },
            parent=1,
            start=21,
            end=30,
            error=fail_second,
        ),  # fmt: skip
        span(
            trace,
            5,
            "chat gpt-4o",
            {
                **chat,
                "gen_ai.usage.input_tokens": 150,
                "gen_ai.usage.output_tokens": 30,
                "gen_ai.output.messages": [
                    {"role": "assistant", "parts": [{"type": "text", "content": "Sunny, 18C."}]}
                ],
            },
            parent=1,
            start=31,
            end=40,
        ),  # fmt: skip
    ]


def openinference_run(trace: int) -> list[dict[str, Any]]:
    """An OpenInference agent run: AGENT, LLM with token counts, TOOL with input.value/output.value."""
    return [
        span(
            trace,
            1,
            "agent",
            {"openinference.span.kind": "AGENT", "input.value": "Find the Q3 report", "output.value": "Saved."},
            start=0,
            end=100,
        ),  # fmt: skip
        span(
            trace,
            2,
            "ChatCompletion",
            {
                "openinference.span.kind": "LLM",
                "llm.model_name": "gpt-4o-mini",
                "llm.token_count.prompt": 50,
                "llm.token_count.completion": 5,
                "llm.token_count.total": 55,
            },
            parent=1,
            start=1,
            end=10,
        ),  # fmt: skip
        span(
            trace,
            3,
            "search",
            {
                "openinference.span.kind": "TOOL",
                "tool.name": "search",
                "input.value": '{"query": "Q3"}',
                "output.value": "q3.pdf",
            },
            parent=1,
            start=11,
            end=20,
        ),  # fmt: skip
        span(
            trace,
            4,
            "save_note",
            {
                "openinference.span.kind": "TOOL",
                "tool.name": "save_note",
                "input.value": '{"text": "Q3"}',
                "output.value": "ok",
            },
            parent=1,
            start=21,
            end=30,
        ),  # fmt: skip
    ]


def jsonl(*requests: dict[str, Any]) -> str:
    """JSON lines, one request a line, as the collector's file exporter writes them."""
    return "".join(json.dumps(r) + "\n" for r in requests)
