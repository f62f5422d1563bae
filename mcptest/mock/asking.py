"""Mock tools that ask the client (sampling, elicitation) before answering, on every protocol version.

2026-07-28 clients get an `input_required` result and retry with the answers; older clients get each request
mid-call. Either way the answers render into the tool's response as `${sampling.text}`, `${elicitation.action}`
and `${elicitation.content.NAME}`.
"""

from __future__ import annotations

from typing import Any

from mcp import types
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

from mcptest.mock.interpolate import render_text


def requests_for(asks: dict[str, Any], args: dict[str, Any]) -> dict[str, Any]:
    """The input requests a tool's `asks:` makes for these arguments, by key (`sampling`, `elicitation`)."""
    out: dict[str, Any] = {}
    if "sampling" in asks:
        ask = asks["sampling"]
        text = types.TextContent(type="text", text=render_text(ask["message"], args))
        params = types.CreateMessageRequestParams(
            messages=[types.SamplingMessage(role="user", content=text)], max_tokens=ask.get("max_tokens", 100)
        )
        out["sampling"] = types.CreateMessageRequest(params=params)
    if "elicitation" in asks:
        ask = asks["elicitation"]
        schema = ask.get("schema") or {"type": "object", "properties": {}}
        form = types.ElicitRequestFormParams(message=render_text(ask["message"], args), requested_schema=schema)
        out["elicitation"] = types.ElicitRequest(params=form)
    return out


async def ask_client(ctx: Any, asks: dict[str, Any], params: types.CallToolRequestParams) -> Any:
    """The client's answers by key, or (2026-07-28, not yet answered) the `input_required` result asking for them."""
    requests = requests_for(asks, params.arguments or {})
    if ctx.protocol_version in MODERN_PROTOCOL_VERSIONS:
        given = params.input_responses or {}
        if not all(key in given for key in requests):
            return types.InputRequiredResult(input_requests=requests)
        return {key: _answer(given[key]) for key in requests}
    from mcp.shared.message import ServerMessageMetadata

    # The raw request, not create_message()/elicit_form(): those warn that the older protocol is deprecated.
    metadata = ServerMessageMetadata(related_request_id=ctx.request_id)
    answers = {}
    for key, request in requests.items():
        result_type = types.CreateMessageResult if key == "sampling" else types.ElicitResult
        got = await ctx.session.send_request(request=request, result_type=result_type, metadata=metadata)
        answers[key] = _answer(got)
    return answers


def _answer(result: Any) -> dict[str, Any]:
    wire: dict[str, Any] = result.model_dump(mode="json", by_alias=True, exclude_none=True)
    content = wire.get("content")
    if isinstance(content, dict) and content.get("type") == "text":
        wire["text"] = content["text"]  # `${sampling.text}`: the sampled text
    return wire
