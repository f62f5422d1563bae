"""The Anthropic Messages API with tools, through the official SDK (imported only when a run needs it)."""

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


class AnthropicProvider:
    """Claude models. The SDK's own retries are off: mcptest retries (and counts) itself."""

    name = "anthropic"

    def __init__(self, api_key: str, base_url: str | None = None, timeout_s: float = 120.0) -> None:
        import anthropic

        self._client = anthropic.AsyncAnthropic(api_key=api_key, base_url=base_url, max_retries=0, timeout=timeout_s)

    async def reply(self, request: ModelRequest) -> ModelReply:
        """One `messages.create` call."""
        import anthropic

        from mcptest.providers import bare_model

        kwargs: dict[str, Any] = {
            "model": bare_model(request.model),
            "max_tokens": request.max_tokens,
            "messages": to_messages(request),
        }
        if request.tools:
            kwargs["tools"] = [_tool(t) for t in request.tools]
        if request.system:
            kwargs["system"] = request.system
        try:
            message = await self._client.messages.create(**kwargs)
        except anthropic.APIError as exc:
            raise from_sdk(exc, self.name) from None
        return from_message(message)

    async def aclose(self) -> None:
        """Close the SDK's HTTP client."""
        await self._client.close()


def _tool(tool: dict[str, Any]) -> dict[str, Any]:
    out = {"name": tool["name"], "input_schema": tool.get("inputSchema") or {"type": "object"}}
    if tool.get("description"):
        out["description"] = tool["description"]
    return out


def to_messages(request: ModelRequest) -> list[dict[str, Any]]:
    """The neutral history as Messages API turns: tool_use blocks, then a user turn of tool_result blocks."""
    messages: list[dict[str, Any]] = [{"role": "user", "content": request.prompt}]
    for item in request.history:
        if isinstance(item, UserMessage):
            messages.append({"role": "user", "content": item.text})
        elif isinstance(item, ModelReply):
            content: list[dict[str, Any]] = [{"type": "text", "text": item.text}] if item.text else []
            for call in item.calls:
                args = call.arguments if call.parsed and isinstance(call.arguments, dict) else {}
                content.append({"type": "tool_use", "id": call.id, "name": call.name, "input": args})
            if content:  # an empty answer before the next user message: the API refuses empty content
                messages.append({"role": "assistant", "content": content})
        else:
            results = [
                {"type": "tool_result", "tool_use_id": r.call_id, "content": r.text, "is_error": r.is_error}
                for r in item
            ]
            messages.append({"role": "user", "content": results})
    return messages


def from_message(message: Any) -> ModelReply:
    """A Messages API response as a neutral reply."""
    texts: list[str] = []
    calls: list[RequestedCall] = []
    for block in message.content or []:
        if block.type == "text":
            texts.append(block.text)
        elif block.type == "tool_use":
            args, parsed = parse_arguments(block.input)
            calls.append(RequestedCall(id=block.id, name=block.name or "", arguments=args, parsed=parsed))
    usage = getattr(message, "usage", None)
    tokens = None
    if usage is not None:
        cached = (getattr(usage, "cache_creation_input_tokens", 0) or 0) + (
            getattr(usage, "cache_read_input_tokens", 0) or 0
        )
        tokens = Usage(input=(usage.input_tokens or 0) + cached, output=usage.output_tokens or 0, cached=cached)
    return ModelReply(text="".join(texts) or None, calls=calls, usage=tokens, stop=message.stop_reason)
