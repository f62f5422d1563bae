"""The load generator's lean hot path (`mcptest.server.lean`): its requests are the SDK's own (held to the SDK's
types), its outcomes equal the SDK session's for the same calls to a real SDK server, and every way a raw server can
misbehave on the wire ends as a judged failure of its kind, never a hang."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest

from tests.conftest import serving_http


@pytest.fixture(scope="module")
def surface_url() -> Iterator[str]:
    with serving_http("tests.servers.surface_server", "the surface server", timeout=60) as url:
        yield url


SUITE = """
servers:
  surface: {{ url: {surface} }}
tools:
  - {{ name: logs, server: surface, tool: chatty, args: {{ steps: 2 }} }}
  - {{ name: sampling, server: surface, tool: summarize, args: {{ text: hi }} }}
  - {{ name: wrong args, server: surface, tool: chatty, args: {{ steps: many }} }}
  - name: asserted
    server: surface
    tool: chatty
    args: {{ steps: 1 }}
    expect:
      - result.content[0].text: {{ exact: "did 2 steps" }}
resources:
  - {{ name: readme, server: surface, uri: "notes://readme" }}
  - {{ name: note, server: surface, uri: "notes://ann/7" }}
prompts:
  - {{ name: review, server: surface, prompt: code_review, args: {{ language: go }} }}
"""


def test_lean_requests_are_the_sdks_and_judge_as_the_sdk_path_does(surface_url: str, tmp_path: Path) -> None:
    from mcp import types

    from mcptest.load.calls import prepare
    from mcptest.load.engine import failure_kind, scenarios
    from mcptest.run.call_tests import make_call, wire_request
    from mcptest.server.lean import Request
    from mcptest.server.session import SessionPool
    from mcptest.suite.loader import load_suite

    path = tmp_path / "mcptest.yml"
    path.write_text(SUITE.format(surface=surface_url), encoding="utf-8")
    suite = load_suite(str(path))
    models = {"tools/call": types.CallToolRequest, "resources/read": types.ReadResourceRequest}
    models["prompts/get"] = types.GetPromptRequest

    async def main() -> list[tuple[str, Any, Any]]:
        pairs = []
        async with SessionPool(suite.servers, base_dir=tmp_path) as pool:
            lean: dict[str, Any] = {}
            for test in scenarios(suite, None):
                session = await pool.get(test.server)
                # the request's bytes: a JSON-RPC request the SDK's own models read back as what it would send
                request = Request.stamped(session, *wire_request(test))
                sent = json.loads(request.body(41))
                types.JSONRPCRequest.model_validate(sent)
                model = models[sent["method"]].model_validate({"method": sent["method"], "params": sent["params"]})
                assert model.params.model_dump(by_alias=True, exclude_none=True, mode="json")["name" if
                       sent["method"] != "resources/read" else "uri"] in (str(test.__dict__.get("tool")),
                       str(test.__dict__.get("prompt")), getattr(test, "resolved_uri", None))  # fmt: skip
                call = await prepare(test, pool, lean)
                for _ in range(2):  # twice: the kept-alive connection serves the second
                    pairs.append((test.name, await make_call(test, session), await call()))
            for connection in lean.values():
                connection.close()
        return pairs

    pairs = anyio.run(main)
    tests = {t.name: t for t in scenarios(suite, None)}
    kinds = {}
    for name, sdk, lean in pairs:
        assert lean.result == sdk.result, name
        assert (lean.error is None) == (sdk.error is None), (name, sdk.error, lean.error)
        assert lean.findings == sdk.findings, name
        assert bool(lean.logs) == bool(sdk.logs), name
        kinds[name] = failure_kind(tests[name], lean)
        assert kinds[name] == failure_kind(tests[name], sdk), name
    assert kinds == {
        "logs": None,
        "sampling": "unanswered",
        "wrong args": "tool_error",
        "asserted": "assertion",
        "readme": None,
        "note": None,
        "review": None,
    }
    assert any(lean.logs for name, _, lean in pairs if name == "logs")


async def _raw_server(seen: list[dict[str, Any]]) -> tuple[asyncio.Server, int]:
    """An HTTP/1.1 server that misbehaves as the called tool's name says."""

    async def respond(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                headers = {
                    k.strip().lower(): v.strip()
                    for k, _, v in (line.partition(":") for line in head.decode().split("\r\n")[1:] if line)
                }
                message = json.loads(await reader.readexactly(int(headers["content-length"])))
                seen.append({"headers": headers, "message": message})
                if "method" not in message:  # a reply to our request: accepted
                    writer.write(b"HTTP/1.1 202 Accepted\r\nContent-Length: 0\r\n\r\n")
                    continue
                mode, rid = message["params"]["name"], message["id"]
                ok = {"jsonrpc": "2.0", "id": rid, "result": {"content": [{"type": "text", "text": mode}]}}
                if mode == "chunked":
                    body = json.dumps(ok).encode()
                    half = len(body) // 2
                    writer.write(
                        b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
                        + b"%x\r\n%s\r\n%x\r\n%s\r\n0\r\n\r\n" % (half, body[:half], len(body) - half, body[half:])
                    )
                elif mode == "sse":
                    events = [
                        {"jsonrpc": "2.0", "method": "notifications/message", "params": {"level": "info", "data": 1}},
                        {"jsonrpc": "2.0", "id": "s1", "method": "sampling/createMessage", "params": {"messages": []}},
                        ok,
                    ]
                    body = b"".join(b"event: message\r\ndata: %s\r\n\r\n" % json.dumps(e).encode() for e in events)
                    writer.write(
                        b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nContent-Length: %d\r\n\r\n%s"
                        % (len(body), body)
                    )
                elif mode == "close-after":  # answers, then says the connection ends
                    body = json.dumps(ok).encode()
                    writer.write(
                        b"HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Type: application/json\r\n"
                        b"Content-Length: %d\r\n\r\n%s" % (len(body), body)
                    )
                    await writer.drain()
                    writer.close()
                    return
                elif mode in ("http500", "garbage", "malformed", "rpcerror", "other-id"):
                    body = {
                        "http500": b"boom",
                        "garbage": b"<html>not json</html>",
                        "malformed": json.dumps({"jsonrpc": "2.0", "id": rid, "result": {"content": "x"}}).encode(),
                        "rpcerror": json.dumps(
                            {"jsonrpc": "2.0", "id": rid, "error": {"code": -32602, "message": "bad params"}}
                        ).encode(),
                        "other-id": json.dumps({**ok, "id": rid + 100}).encode(),
                    }[mode]
                    status = b"500 Internal Server Error" if mode == "http500" else b"200 OK"
                    writer.write(
                        b"HTTP/1.1 %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s"
                        % (status, len(body), body)
                    )
                elif mode == "hangup":
                    writer.close()
                    return
                elif mode == "silent":
                    await asyncio.sleep(30)
                await writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        finally:
            writer.close()

    server = await asyncio.start_server(respond, "127.0.0.1", 0)
    return server, server.sockets[0].getsockname()[1]


def test_every_misbehaviour_on_the_wire_is_a_failure_of_its_kind() -> None:
    from mcptest.load.engine import failure_kind
    from mcptest.server.lean import LeanHttp, Request
    from mcptest.suite.models import HttpServer, ToolTest

    seen: list[dict[str, Any]] = []
    test = ToolTest.model_validate({"name": "t", "server": "raw", "tool": "x"})

    async def main() -> dict[str, Any]:
        server, port = await _raw_server(seen)
        config = HttpServer.model_validate({"url": f"http://127.0.0.1:{port}/mcp", "call_timeout_s": 0.5})
        lean = LeanHttp("raw", config, "sid-7")
        outcomes = {}
        async with server:
            for mode in ("chunked", "sse", "close-after", "chunked", "http500", "garbage", "malformed", "rpcerror",
                         "other-id", "hangup", "silent", "chunked"):  # fmt: skip
                outcomes.setdefault(mode, []).append(await lean.call(Request("tools/call", {"name": mode})))
            lean.close()
        return outcomes

    outcomes = anyio.run(main)
    for outcome in outcomes["chunked"]:  # before and after a closed connection, a hang-up and a timeout
        assert outcome.error is None and outcome.result == {"content": [{"type": "text", "text": "chunked"}]}
    sse = outcomes["sse"][0]
    assert sse.result == {"content": [{"type": "text", "text": "sse"}]} and sse.logs == [{"level": "info", "data": 1}]
    assert sse.sampling_requests == [{"messages": []}] and failure_kind(test, sse) == "unanswered"
    assert "asked for sampling/createMessage" in sse.capture.unanswered[0]
    refusal = next(s["message"] for s in seen if s["message"].get("id") == "s1")  # the server is not left waiting
    assert refusal["error"]["code"] == -32600
    assert outcomes["close-after"][0].error is None
    expected = {
        "http500": ("closed", "the server answered HTTP 500: boom"),
        "garbage": ("closed", "the answer is not JSON: <html>not json</html>"),
        "malformed": ("malformed", "malformed result: `content` is not a list of objects"),
        "rpcerror": ("error", "the server answered with error -32602: bad params"),
        "other-id": ("closed", "the answer is not the response to request"),
        "hangup": ("closed", "the server closed the connection during the request"),
        "silent": ("timeout", "no answer within 0.5s"),
    }
    for mode, (kind, said) in expected.items():
        outcome = outcomes[mode][0]
        assert outcome.error_kind == kind and said in str(outcome.error), (mode, outcome.error)
        assert outcome.error.startswith("server 'raw': ") and failure_kind(test, outcome) == "protocol"
    sent = [s for s in seen if "method" in s["message"]]
    assert all(s["headers"]["mcp-session-id"] == "sid-7" for s in sent)
    assert all(s["headers"]["accept"] == "application/json, text/event-stream" for s in sent)
    assert [s["message"]["id"] for s in sent] == sorted({s["message"]["id"] for s in sent})  # a fresh id per request
