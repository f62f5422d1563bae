"""The mock as a real stdio MCP server: what it lists, what it answers, what it advertises."""

from __future__ import annotations

import anyio
import pytest
from mcp import MCPError, types

from tests.mock.conftest import FIXTURES, mock_client

pytestmark = pytest.mark.anyio
TASKS = str(FIXTURES / "tasks.yaml")
TOOLS_ONLY = str(FIXTURES / "tools_only.yaml")


async def test_tools_list_serves_the_manifest_tools_in_wire_form() -> None:
    with anyio.fail_after(30):
        async with mock_client("--tools-from", TASKS) as client:
            tools = (await client.list_tools()).tools
    assert [t.name for t in tools] == ["create_task", "list_tasks"]
    create, listing = tools
    assert create.input_schema["properties"]["priority"] == {"type": "integer", "enum": [1, 2, 3, 4]}
    assert create.output_schema is not None and create.output_schema["required"] == ["id", "title", "priority"]
    assert listing.title == "List tasks"
    assert listing.annotations is not None and listing.annotations.read_only_hint is True


async def test_a_call_renders_args_into_text_and_structured_content() -> None:
    args = {"title": "Ship it", "priority": 2, "tags": ["a", "b"], "owner": {"team": "core"}}
    with anyio.fail_after(30):
        async with mock_client("--tools-from", TASKS) as client:
            result = await client.call_tool("create_task", args)
    assert result.is_error is False
    text = result.content[0]
    assert isinstance(text, types.TextContent)
    assert text.text == 'Created \'Ship it\' (priority 2, tags ["a", "b"], team core, due ).'
    assert result.structured_content == {"id": "task-1", "title": "Ship it", "priority": "2"}


async def test_structured_content_passes_the_clients_output_schema_check() -> None:
    with anyio.fail_after(30):
        async with mock_client("--tools-from", TASKS) as client:
            await client.list_tools()
            result = await client.call_tool("create_task", {"title": "t", "priority": 1})
    assert result.structured_content == {"id": "task-1", "title": "t", "priority": "1"}


async def test_a_tool_without_response_echoes_its_name_and_arguments() -> None:
    with anyio.fail_after(30):
        async with mock_client("--tools-from", TASKS) as client:
            result = await client.call_tool("list_tasks", {"done": False})
    assert result.is_error is False
    assert result.content[0].text == 'mcptest mock: called list_tasks with {"done": false}'  # type: ignore[union-attr]


async def test_an_unknown_tool_is_a_protocol_error_naming_it() -> None:
    with anyio.fail_after(30):
        async with mock_client("--tools-from", TASKS) as client:
            with pytest.raises(MCPError) as caught:
                await client.call_tool("delete_everything", {})
    assert (caught.value.code, caught.value.message) == (types.INVALID_PARAMS, "Unknown tool: delete_everything")


@pytest.mark.parametrize("mode", ["legacy", "auto"])
async def test_all_declared_primitives_are_advertised(mode: str) -> None:
    with anyio.fail_after(30):
        async with mock_client("--tools-from", TASKS, mode=mode) as client:
            caps = client.server_capabilities
            info = client.server_info
    assert caps is not None and info is not None
    assert (caps.tools is not None, caps.resources is not None, caps.prompts is not None) == (True, True, True)
    assert (info.name, info.version) == ("tasks-fixture", "2.1.0")


@pytest.mark.parametrize("mode", ["legacy", "auto"])
async def test_undeclared_resources_and_prompts_are_not_advertised_nor_served(mode: str) -> None:
    with anyio.fail_after(30):
        async with mock_client("--tools-from", TOOLS_ONLY, mode=mode) as client:
            caps = client.server_capabilities
            with pytest.raises(MCPError) as caught:
                await client.session.send_request(types.ListPromptsRequest(), types.ListPromptsResult)
            info = client.server_info
    assert caps is not None and info is not None
    assert (caps.tools is not None, caps.resources, caps.prompts) == (True, None, None)
    assert caught.value.code == types.METHOD_NOT_FOUND
    assert info.name == "mcptest-mock"


async def test_resources_are_listed_and_read_with_their_inline_text() -> None:
    with anyio.fail_after(30):
        async with mock_client("--tools-from", TASKS) as client:
            listed = (await client.list_resources()).resources
            read = await client.read_resource("file:///workspace/README.md")
            with pytest.raises(MCPError) as caught:
                await client.read_resource("file:///nope")
    assert [(r.name, str(r.uri), r.mime_type) for r in listed] == [
        ("readme", "file:///workspace/README.md", "text/markdown")
    ]
    assert [(c.text, c.mime_type) for c in read.contents] == [("# Tasks", "text/markdown")]  # type: ignore[union-attr]
    assert caught.value.message == "Unknown resource: file:///nope"


async def test_prompts_are_listed_and_rendered_with_their_arguments() -> None:
    with anyio.fail_after(30):
        async with mock_client("--tools-from", TASKS) as client:
            listed = (await client.list_prompts()).prompts
            got = await client.get_prompt("triage", {"title": "Login broken"})
            with pytest.raises(MCPError) as caught:
                await client.get_prompt("triage", {})
    assert [(p.name, [(a.name, a.required) for a in p.arguments or []]) for p in listed] == [
        ("triage", [("title", True)])
    ]
    assert [(m.role, m.content.text) for m in got.messages] == [  # type: ignore[union-attr]
        ("user", "Triage the task 'Login broken' by urgency.")
    ]
    assert caught.value.message == "Missing required arguments for prompt triage: title"
