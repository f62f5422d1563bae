"""The one call a tool, resource or prompt test makes, with resource and prompt names checked against the server."""

from __future__ import annotations

from typing import Any

from mcptest.server.primitives import prompt_request, read_request, unknown_prompt, unknown_resource
from mcptest.server.session import CallOutcome, ServerSession, ServerUnavailable
from mcptest.suite.models import ToolTest
from mcptest.suite.primitives import PromptTest, ResourceTest, string_args

CallTest = ToolTest | ResourceTest | PromptTest


class UnknownName(Exception):
    """The test names a resource or prompt the server does not list."""


def describe(test: CallTest) -> dict[str, Any]:
    """The report fields that say what the test calls."""
    if isinstance(test, ResourceTest):
        return {"kind": "resource", "resource": test.resolved_uri}
    if isinstance(test, PromptTest):
        return {"kind": "prompt", "prompt": test.prompt}
    return {"kind": "tool", "tool": test.tool}


async def make_call(test: CallTest, session: ServerSession) -> CallOutcome:
    """Make the test's call; a resource or prompt the server does not list raises UnknownName."""
    from mcp import types

    if isinstance(test, ToolTest):
        return await session.call_tool(test.tool, test.args)
    if isinstance(test, ResourceTest):
        resources = await session.listing("resources/list", "resources") if _offers(session, "resources") else []
        templates = await _templates(session)
        why = unknown_resource(test.resolved_uri, test.template, resources, templates)
        if why:
            raise UnknownName(f"server '{test.server}': {why}")
        return await session.call(read_request(test.resolved_uri), types.ReadResourceResult)
    prompts = await session.listing("prompts/list", "prompts") if _offers(session, "prompts") else []
    why = unknown_prompt(test.prompt, prompts)
    if why:
        raise UnknownName(f"server '{test.server}': {why}")
    return await session.call(prompt_request(test.prompt, string_args(test.args)), types.GetPromptResult)


async def unlisted_tool(test: CallTest, session: ServerSession) -> str:
    """Why a failed tool test may have called nothing: the server does not list its tool (a typo, a renamed tool).

    Only a hint beside the failure: a server may still serve a tool it does not list, so the call is made anyway.
    """
    if not isinstance(test, ToolTest):
        return ""
    try:
        names = [t["name"] for t in await session.list_tools()]
    except ServerUnavailable:
        return ""
    if test.tool in names:
        return ""
    from mcptest.core.validation import did_you_mean

    return f"server '{test.server}' lists no tool '{test.tool}' in tools/list{did_you_mean(test.tool, names)}"


async def _templates(session: ServerSession) -> list[dict[str, Any]]:
    if not _offers(session, "resources"):
        return []
    return await session.listing("resources/templates/list", "resourceTemplates")


def _offers(session: ServerSession, primitive: str) -> bool:
    """Whether the handshake advertised the primitive (a server without it would answer 'method not found')."""
    return session.info is None or primitive in session.info.capabilities
