"""Live request spans: each MCP request a test sends is a client span under its test's span, and the server
receives that span's W3C trace context in the request's `params._meta` (tests/servers/trace_server.py echoes it)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest

from mcptest.core.exit_codes import ExitCode
from mcptest.records.otlp import SKIP_TEST, load_otlp
from mcptest.run.telemetry import ExportTarget, LiveTelemetry
from mcptest.server.session import InProcessServer, ServerSession, SessionPool
from mcptest.suite.models import HttpServer
from tests.conftest import PYTHON, ROOT, run_cli, serving_http
from tests.servers.trace_server import build

SERVER = [PYTHON, "-m", "tests.servers.trace_server"]


@pytest.fixture(scope="module")
def http_trace_server() -> Iterator[str]:
    """tests/servers/trace_server.py over Streamable HTTP on 127.0.0.1; its URL once it listens."""
    with serving_http("tests.servers.trace_server", "the HTTP trace server", timeout=30) as url:
        yield url


def _calls(config: Any) -> tuple[LiveTelemetry, list[Any]]:
    """Call `context` twice and `broken` once inside test `t1`, and `context` once outside any test."""
    live = LiveTelemetry(ExportTarget(file="unused", content=True))
    live.secrets = {"on purpose"}

    async def go() -> list[Any]:
        async with SessionPool({"s": config}, ROOT, live) as pool:
            session = await pool.get("s")
            with live.test("t1"):
                outcomes = [await session.call_tool("context", {}) for _ in range(2)]
                outcomes.append(await session.call_tool("broken", {}))
            outcomes.append(await session.call_tool("context", {}))
            return outcomes

    return live, anyio.run(go)


def _echoed(outcome: Any) -> dict[str, Any]:
    return json.loads(outcome.result["content"][0]["text"])  # type: ignore[no-any-return]


@pytest.mark.parametrize("transport", ["in-process", "http"])
def test_each_request_is_a_client_span_whose_context_the_server_receives(
    transport: str, request: pytest.FixtureRequest
) -> None:
    if transport == "in-process":
        config: Any = InProcessServer(build())
    else:
        config = HttpServer(url=request.getfixturevalue("http_trace_server"))
    live, outcomes = _calls(config)
    spans = {s.name: [] for s in live.collected.spans}
    for s in live.collected.spans:
        spans[s.name].append(s)
    context_spans, (broken,) = spans["tools/call context"], spans["tools/call broken"]
    assert len(context_spans) == 2  # the call outside a test has no span
    assert all(s.parent.span_id == live.test_span_ids["t1"] for s in [*context_spans, broken])
    assert {s.context.trace_id for s in live.collected.spans} == {live.trace_id}
    for outcome, span in zip(outcomes[:2], context_spans, strict=True):
        ctx = span.context
        assert _echoed(outcome) == {"traceparent": f"00-{ctx.trace_id:032x}-{ctx.span_id:016x}-01", "tracestate": None}
        attrs = dict(span.attributes or {})
        assert attrs["mcp.method.name"] == "tools/call" and attrs["gen_ai.operation.name"] == "execute_tool"
        assert attrs["gen_ai.tool.name"] == "context" and attrs["mcptest.server"] == "s"
        assert attrs["network.transport"] == ("pipe" if transport == "in-process" else "tcp")
        assert span.end_time is not None and span.start_time is not None and span.end_time > span.start_time
    ids = [dict(s.attributes or {}).get("jsonrpc.request.id") for s in (*context_spans, broken)]
    if transport == "in-process":  # the SDK hands an in-memory request straight to the server: no JSON-RPC id
        assert ids == [None] * 3
    else:
        assert [int(i) for i in ids] == sorted(int(i) for i in ids) and len(set(ids)) == 3
    assert _echoed(outcomes[3]) == {"traceparent": None, "tracestate": None}  # outside a test: nothing sent
    broken_attrs = dict(broken.attributes or {})
    assert broken_attrs["error.type"] == "tool_error" and broken.status.status_code.name == "ERROR"
    assert broken_attrs["gen_ai.tool.call.arguments"] == "{}"  # --otlp-content: contents, secrets masked
    assert json.loads(str(broken_attrs["gen_ai.tool.call.result"]))["content"][0]["text"] == "broken ***"
    # Both connections are sessionless (in memory; the SDK's 2026-07-28 HTTP is stateless): no mcp.session.id
    assert {dict(s.attributes or {}).get("mcp.session.id") for s in live.collected.spans} == {None}


def test_a_stateful_http_server_s_session_id_is_on_each_request_span() -> None:
    from tests.surface.servers import everything_http

    with everything_http() as url:  # server-everything (the TypeScript SDK) gives an Mcp-Session-Id
        live = LiveTelemetry(ExportTarget(file="unused"))

        async def go() -> None:
            async with SessionPool({"e": HttpServer(url=url)}, ROOT, live) as pool:
                session = await pool.get("e")
                with live.test("t"):
                    for text in ("a", "b"):
                        assert (await session.call_tool("echo", {"message": text})).error is None

        anyio.run(go)
    calls = [s for s in live.collected.spans if s.name == "tools/call echo"]
    assert len(calls) == 2
    (session_id,) = {dict(s.attributes or {}).get("mcp.session.id") for s in calls}
    assert isinstance(session_id, str) and len(session_id) >= 8


def test_a_run_without_export_leaves_the_sdk_dispatcher_alone() -> None:
    async def go() -> tuple[str, Any]:
        async with SessionPool({"s": InProcessServer(build())}, ROOT) as pool:
            session: ServerSession = await pool.get("s")
            outcome = await session.call_tool("context", {})
            return type(session._client.session._dispatcher).__name__, outcome

    name, outcome = anyio.run(go)
    assert name != "TracedDispatcher" and _echoed(outcome) == {"traceparent": None, "tracestate": None}


def test_a_run_exports_its_tests_and_agent_runs_requests_to_a_real_receiver(receiver: Any, tmp_path: Path) -> None:
    url, handler = receiver
    suite = tmp_path / "s.yml"
    suite.write_text(
        f"servers:\n  t:\n    command: {json.dumps(SERVER)}\n    cwd: {json.dumps(str(ROOT))}\n"
        "tools:\n"
        "  - { name: ctx, server: t, tool: context, args: {},\n"
        "      expect: { assertions: [ { 'result.content[0].text': { regex: '00-[0-9a-f]{32}-[0-9a-f]{16}-01' } } ] } }\n"  # noqa: E501
        "  - { name: boom, server: t, tool: broken, args: {},\n"
        "      expect: { assertions: [ { result.isError: { exact: true } } ] } }\n"
        "prompts:\n  - { name: hello, server: t, prompt: greet, args: { name: Ada } }\n"
        "agents:\n  - name: traced\n    provider: scripted\n    servers: [t]\n    prompt: Show the context.\n"
        "    runs: 2\n    script:\n      - turns:\n"
        "          - tool_calls: [{ name: context, args: {} }]\n"
        "          - tool_calls: [{ name: nosuch, args: {} }, { name: context, args: {} }]\n"
        "          - answer: Done.\n"
    )
    exported = tmp_path / "run.otlp.jsonl"
    ran = run_cli("run", str(suite), "-q", "--otlp-endpoint", url, "--otlp-file", str(exported), "--otlp-content")
    assert ran.code == ExitCode.OK, ran.stderr
    assert "warning" not in ran.stderr
    ((_path, _type, message),) = handler.requests
    spans = [s for rs in message.resource_spans for ss in rs.scope_spans for s in ss.spans]
    by_name = {s.name: s for s in spans}
    (run,) = [s for s in spans if s.name == "mcptest run"]
    agent_traces = {s.trace_id for s in spans if s.name == "invoke_agent traced"}
    assert {s.trace_id for s in spans} - agent_traces == {run.trace_id}
    for test, request in (("ctx", "tools/call context"), ("boom", "tools/call broken"), ("hello", "prompts/get greet")):
        (sent,) = [s for s in spans if s.name == request and s.trace_id == run.trace_id]
        assert by_name[f"test {test}"].parent_span_id == run.span_id
        assert sent.parent_span_id == by_name[f"test {test}"].span_id
        assert sent.kind == 3  # SPAN_KIND_CLIENT
    prompt = {kv.key: kv.value.string_value for kv in by_name["prompts/get greet"].attributes}
    assert prompt["mcp.method.name"] == "prompts/get" and prompt["gen_ai.prompt.name"] == "greet"
    boom = {kv.key: kv.value.string_value for kv in by_name["tools/call broken"].attributes}
    assert boom["error.type"] == "tool_error"
    _agent_runs_are_live(exported)


def _agent_runs_are_live(exported: Path) -> None:
    """Each agent run is its own trace; the tool calls that reached the server are live spans under its
    invoke_agent span, whose context the server received; the unknown tool's call (no request) is built from the
    recorded run in its place, so reading the file back gives the calls in the order the agent made them."""
    doc = json.loads(exported.read_text())
    spans = [s for rs in doc["resourceSpans"] for ss in rs["scopeSpans"] for s in ss["spans"]]
    agents = [s for s in spans if s["name"] == "invoke_agent traced"]
    assert len(agents) == 2 and len({a["traceId"] for a in agents}) == 2
    for agent in agents:
        calls = sorted(
            (s for s in spans if s["traceId"] == agent["traceId"] and s["name"].startswith("tools/call")),
            key=lambda s: int(s["startTimeUnixNano"]),
        )
        assert [c["name"] for c in calls] == ["tools/call context", "tools/call nosuch", "tools/call context"]
        assert all(c["parentSpanId"] == agent["spanId"] for c in calls)
        for call in (calls[0], calls[2]):  # live: timed as it ran, its context received by the server
            attrs = {a["key"]: a["value"].get("stringValue") for a in call["attributes"]}
            assert attrs["network.transport"] == "pipe" and attrs["mcptest.server"] == "t"
            echoed = json.loads(json.loads(attrs["gen_ai.tool.call.result"])["content"][0]["text"])
            assert echoed["traceparent"] == f"00-{call['traceId']}-{call['spanId']}-01"
            assert int(agent["startTimeUnixNano"]) < int(call["startTimeUnixNano"]) < int(agent["endTimeUnixNano"])
        assert "network.transport" not in {a["key"] for a in calls[1]["attributes"]}  # no request went out
    imported = load_otlp(exported)  # read back: the agent runs; the tests' own requests skipped with the reason
    assert [[c.name for c in t.tool_calls] for t in imported.traces] == [["context", "nosuch", "context"]] * 2
    assert all(t.final_response == "Done." and not t.tool_calls[0].is_error for t in imported.traces)
    assert imported.skipped.get(SKIP_TEST) == 2
