"""OpenAI's Responses API with function tools, through the official SDK: function_call / function_call_output items,
reasoning items carried to the next turn (stateless: `store: false` with their encrypted content)."""

from __future__ import annotations

from typing import Any

from mcptest.providers.errors import from_sdk
from mcptest.records.messages import (
    ModelReply,
    ModelRequest,
    RequestedCall,
    Usage,
    UserMessage,
    parse_arguments,
)


class ResponsesProvider:
    """GPT and o-series models through `responses.create`. SDK retries off: mcptest retries."""

    name = "openai-responses"

    def __init__(self, api_key: str, base_url: str | None = None, timeout_s: float = 120.0) -> None:
        import openai

        self._client = openai.AsyncOpenAI(api_key=api_key, base_url=base_url, max_retries=0, timeout=timeout_s)

    async def reply(self, request: ModelRequest) -> ModelReply:
        """One `responses.create` call."""
        import openai

        from mcptest.providers import bare_model

        kwargs: dict[str, Any] = {
            "model": bare_model(request.model),
            "input": to_input(request),
            "max_output_tokens": request.max_tokens,
            "store": False,
            "include": ["reasoning.encrypted_content"],
        }
        if request.system:
            kwargs["instructions"] = request.system
        if request.tools:
            kwargs["tools"] = [_tool(t) for t in request.tools]
        try:
            response = await self._client.responses.create(**kwargs)
        except openai.APIError as exc:
            raise from_sdk(exc, self.name) from None
        return from_response(response)

    async def aclose(self) -> None:
        """Close the SDK's HTTP client."""
        await self._client.close()


def _tool(tool: dict[str, Any]) -> dict[str, Any]:
    out = {
        "type": "function",
        "name": tool["name"],
        "parameters": tool.get("inputSchema") or {"type": "object"},
        "strict": False,  # strict mode rewrites optional fields as required: the server's schema goes as it is
    }
    if tool.get("description"):
        out["description"] = tool["description"]
    return out


def to_input(request: ModelRequest) -> list[dict[str, Any]]:
    """The neutral history as input items: a turn's reasoning items, its message, its function calls; then one
    `function_call_output` per result."""
    items: list[dict[str, Any]] = [{"role": "user", "content": request.prompt}]
    for entry in request.history:
        if isinstance(entry, UserMessage):
            items.append({"role": "user", "content": entry.text})
        elif isinstance(entry, ModelReply):
            items += entry.state or []
            if entry.text:
                items.append({"role": "assistant", "content": entry.text})
            items += [
                {"type": "function_call", "call_id": c.id, "name": c.name, "arguments": c.arguments_json}
                for c in entry.calls
            ]
        else:
            items += [{"type": "function_call_output", "call_id": r.call_id, "output": r.text} for r in entry]
    return items


def from_response(response: Any) -> ModelReply:
    """A Responses API response as a neutral reply; its reasoning items are kept to be sent back."""
    texts: list[str] = []
    calls: list[RequestedCall] = []
    state: list[dict[str, Any]] = []
    for item in response.output or []:
        if item.type == "message":
            texts += [part.text for part in item.content or [] if getattr(part, "type", "") == "output_text"]
        elif item.type == "function_call":
            args, parsed = parse_arguments(item.arguments)
            calls.append(RequestedCall(id=item.call_id or "", name=item.name or "", arguments=args, parsed=parsed))
        elif item.type == "reasoning":
            kept = item.model_dump(mode="json", exclude_none=True)
            kept.pop("status", None)  # an output-only field: the API refuses it on input
            state.append(kept)
    stop = "tool_calls" if calls else (response.status or None)
    incomplete = getattr(response, "incomplete_details", None)
    if incomplete is not None and getattr(incomplete, "reason", None):
        stop = incomplete.reason
    return ModelReply(text="".join(texts) or None, calls=calls, usage=_usage(response), stop=stop, state=state or None)


def _usage(response: Any) -> Usage | None:
    usage = getattr(response, "usage", None)
    if usage is None:
        return None
    cached = getattr(getattr(usage, "input_tokens_details", None), "cached_tokens", 0) or 0
    reasoning = getattr(getattr(usage, "output_tokens_details", None), "reasoning_tokens", 0) or 0
    return Usage(input=usage.input_tokens or 0, output=usage.output_tokens or 0, cached=cached, reasoning=reasoning)
