"""Captured tools/list catalogs and bundled presets are served like manifests."""

from __future__ import annotations

import json
from pathlib import Path

import anyio
import pytest

from tests.mock.conftest import FIXTURES, mock_client

pytestmark = pytest.mark.anyio
TIME = FIXTURES / "mcp-server-time.json"


async def test_a_snapshot_serves_its_captured_tools_unchanged() -> None:
    captured = json.loads(TIME.read_text())["tools"]
    with anyio.fail_after(30):
        async with mock_client("--tools-from", str(TIME)) as client:
            tools = (await client.list_tools()).tools
            caps = client.server_capabilities
    served = [t.model_dump(mode="json", by_alias=True, exclude_none=True) for t in tools]
    assert served == captured
    assert caps is not None and (caps.resources, caps.prompts) == (None, None)


async def test_a_snapshot_call_echoes_the_call_with_a_stub_matching_the_output_schema() -> None:
    with anyio.fail_after(30):
        async with mock_client("--tools-from", str(TIME)) as client:
            result = await client.call_tool("get_current_time", {"timezone": "Europe/Paris"})
    assert result.is_error is False
    assert result.content[0].text == 'mcptest mock: called get_current_time with {"timezone": "Europe/Paris"}'  # type: ignore[union-attr]
    assert result.structured_content == {"timezone": "", "datetime": "", "day_of_week": "", "is_dst": False}


async def test_a_snapshot_validates_arguments_against_the_captured_schema() -> None:
    with anyio.fail_after(30):
        async with mock_client("--tools-from", str(TIME)) as client:
            result = await client.call_tool("convert_time", {"source_timezone": "UTC", "time": "12:00"})
    assert result.is_error is True
    assert result.content[0].text == (  # type: ignore[union-attr]
        "Input validation error: 'target_timezone': 'target_timezone' is a required property"
    )


async def test_a_bare_array_snapshot_is_accepted(tmp_path: Path) -> None:
    bare = tmp_path / "bare.json"
    bare.write_text(json.dumps(json.loads((FIXTURES / "server-everything.json").read_text())["tools"]))
    with anyio.fail_after(30):
        async with mock_client("--tools-from", str(bare)) as client:
            names = [t.name for t in (await client.list_tools()).tools]
            info = client.server_info
    assert len(names) == 13 and "echo" in names
    assert info is not None and info.name == "bare"


async def test_the_weather_preset_answers_with_structured_content() -> None:
    with anyio.fail_after(30):
        async with mock_client("--preset", "weather") as client:
            names = [t.name for t in (await client.list_tools()).tools]
            result = await client.call_tool("get_weather", {"city": "Oslo", "units": "celsius"})
            alert = await client.call_tool("set_alert", {"city": "Oslo"})
    assert names == ["get_weather", "get_forecast", "set_alert"]
    assert result.structured_content == {"city": "Oslo", "temperature": 22, "units": "celsius", "conditions": "sunny"}
    assert (alert.is_error, alert.content[0].text) == (True, "Alerts are not available for Oslo.")  # type: ignore[union-attr]


@pytest.mark.parametrize("preset", ["weather", "test-platform"])
async def test_every_preset_starts_and_lists_its_tools(preset: str) -> None:
    with anyio.fail_after(30):
        async with mock_client("--preset", preset) as client:
            tools = (await client.list_tools()).tools
    assert len(tools) >= 3
