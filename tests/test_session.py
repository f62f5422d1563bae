"""Sessions against real servers: in memory, over stdio, over Streamable HTTP, and a third-party server."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import anyio
import pytest

from mcptest.server.session import InProcessServer, ServerUnavailable, SessionPool
from mcptest.suite.models import HttpServer, StdioServer
from tests.conftest import ROOT, demo_command
from tests.servers.demo_server import build

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


async def test_an_in_process_server_answers_tool_calls_with_wire_json() -> None:
    async with SessionPool({"demo": InProcessServer(build())}) as pool:
        session = await pool.get("demo")
        assert session.info is not None and session.info.name == "demo-server"
        assert [t["name"] for t in await session.list_tools()] == ["add", "echo", "weather", "fail"]
        outcome = await session.call_tool("weather", {"city": "Oslo"})
    assert outcome.error is None and outcome.findings == []
    assert outcome.result is not None
    assert outcome.result["structuredContent"] == {"city": "Oslo", "temp": 72, "conditions": "sunny"}
    assert outcome.result["isError"] is False


async def test_a_stdio_server_is_opened_once_and_shared_by_every_call() -> None:
    config = StdioServer(command=demo_command(), cwd=str(ROOT))
    async with SessionPool({"demo": config}) as pool:
        first = await pool.get("demo")
        assert await pool.get("demo") is first
        sums = [await first.call_tool("add", {"a": i, "b": 1}) for i in range(3)]
    assert [o.result["content"][0]["text"] for o in sums if o.result] == ["1", "2", "3"]


async def test_a_tool_error_is_a_result_with_is_error_not_an_exception() -> None:
    async with SessionPool({"demo": InProcessServer(build())}) as pool:
        outcome = await (await pool.get("demo")).call_tool("fail", {"reason": "disk full"})
    assert outcome.error is None
    assert outcome.result is not None and outcome.result["isError"] is True


async def test_streamable_http_with_headers(http_server: str) -> None:
    config = HttpServer(url=http_server, headers={"Authorization": "Bearer not-a-real-token"})
    async with SessionPool({"web": config}) as pool:
        session = await pool.get("web")
        outcome = await session.call_tool("echo", {"text": "over http"})
    assert outcome.result is not None and outcome.result["content"][0]["text"] == "over http"


async def test_the_third_party_time_server_from_pypi() -> None:
    command = shutil.which("mcp-server-time", path=str(Path(sys.executable).parent))
    assert command, "mcp-server-time is installed by the project's dev extras"
    async with SessionPool({"time": StdioServer(command=[command])}) as pool:
        session = await pool.get("time")
        names = sorted(t["name"] for t in await session.list_tools())
        outcome = await session.call_tool("get_current_time", {"timezone": "UTC"})
    assert names == ["convert_time", "get_current_time"]
    assert outcome.result is not None and outcome.result["structuredContent"]["timezone"] == "UTC"


async def test_a_missing_command_fails_fast_and_fails_again_without_retrying() -> None:
    async with SessionPool({"gone": StdioServer(command=["mcptest-no-such-binary"])}) as pool:
        with anyio.fail_after(10):
            with pytest.raises(ServerUnavailable, match="command not found: mcptest-no-such-binary") as first:
                await pool.get("gone")
            with pytest.raises(ServerUnavailable) as again:
                await pool.get("gone")
    assert again.value is first.value


async def test_a_server_that_exits_at_start_reports_its_stderr() -> None:
    script = "import sys; sys.stderr.write('fatal: no config file\\n'); sys.exit(3)"
    async with SessionPool({"bad": StdioServer(command=[sys.executable, "-c", script])}) as pool:
        with anyio.fail_after(15), pytest.raises(ServerUnavailable) as exc:
            await pool.get("bad")
    assert "server 'bad'" in exc.value.message
    assert "fatal: no config file" in exc.value.stderr


async def test_tools_list_follows_every_page() -> None:
    from tests.servers.paged_server import build as build_paged

    async with SessionPool({"paged": InProcessServer(build_paged())}) as pool:
        tools = await (await pool.get("paged")).list_tools()
    assert [t["name"] for t in tools] == [f"tool_{i:02d}" for i in range(25)]
