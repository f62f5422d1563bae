"""OpenAI Chat Completions with tools, through the official SDK; also OpenAI-compatible servers via `base_url`."""

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


class OpenAIProvider:
    """GPT and o-series models, or a local server (Ollama, vLLM, llama.cpp). SDK retries off: mcptest retries."""

    name = "openai"

    def __init__(self, api_key: str, base_url: str | None = None, timeout_s: float = 120.0) -> None:
        import openai

        self._compatible = base_url is not None
        self._client = openai.AsyncOpenAI(api_key=api_key, base_url=base_url, max_retries=0, timeout=timeout_s)

    async def reply(self, request: ModelRequest) -> ModelReply:
        """One `chat.completions.create` call."""
        import openai

        from mcptest.providers import bare_model

        kwargs: dict[str, Any] = {"model": bare_model(request.model), "messages": to_messages(request)}
        if request.tools:
            kwargs["tools"] = [_tool(t) for t in request.tools]
        # Local servers know `max_tokens`; OpenAI's reasoning models accept only `max_completion_tokens`.
        kwargs["max_tokens" if self._compatible else "max_completion_tokens"] = request.max_tokens
        try:
            completion = await self._client.chat.completions.create(**kwargs)
        except openai.APIError as exc:
            raise from_sdk(exc, self.name) from None
        return from_completion(completion)

    async def aclose(self) -> None:
        """Close the SDK's HTTP client."""
        await self._client.close()


def _tool(tool: dict[str, Any]) -> dict[str, Any]:
    function = {"name": tool["name"], "parameters": tool.get("inputSchema") or {"type": "object"}}
    if tool.get("description"):
        function["description"] = tool["description"]
    return {"type": "function", "function": function}


def to_messages(request: ModelRequest) -> list[dict[str, Any]]:
    """The neutral history as chat messages: assistant `tool_calls`, then one `tool` message per result."""
    messages: list[dict[str, Any]] = [{"role": "system", "content": request.system}] if request.system else []
    messages.append({"role": "user", "content": request.prompt})
    for item in request.history:
        if isinstance(item, UserMessage):
            messages.append({"role": "user", "content": item.text})
        elif isinstance(item, ModelReply):
            message: dict[str, Any] = {"role": "assistant", "content": item.text}
            if item.calls:
                message["tool_calls"] = [
                    {"id": c.id, "type": "function", "function": {"name": c.name, "arguments": c.arguments_json}}
                    for c in item.calls
                ]
            messages.append(message)
        else:
            messages += [{"role": "tool", "tool_call_id": r.call_id, "content": r.text} for r in item]
    return messages


def from_completion(completion: Any) -> ModelReply:
    """A chat completion as a neutral reply (the first choice)."""
    if not completion.choices:
        return ModelReply(usage=_usage(completion))
    choice = completion.choices[0]
    message = choice.message
    calls = []
    for tc in message.tool_calls or []:
        function = getattr(tc, "function", None)
        args, parsed = parse_arguments(getattr(function, "arguments", None))
        calls.append(
            RequestedCall(id=tc.id or "", name=getattr(function, "name", "") or "", arguments=args, parsed=parsed)
        )
    return ModelReply(text=message.content or None, calls=calls, usage=_usage(completion), stop=choice.finish_reason)


def _usage(completion: Any) -> Usage | None:
    usage = getattr(completion, "usage", None)
    if usage is None:
        return None
    cached = getattr(getattr(usage, "prompt_tokens_details", None), "cached_tokens", 0) or 0
    reasoning = getattr(getattr(usage, "completion_tokens_details", None), "reasoning_tokens", 0) or 0
    return Usage(
        input=usage.prompt_tokens or 0, output=usage.completion_tokens or 0, cached=cached, reasoning=reasoning
    )
