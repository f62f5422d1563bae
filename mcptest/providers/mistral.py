"""Mistral's chat completions with tools, through the official `mistralai` SDK (imported only when a run needs it)."""

from __future__ import annotations

from typing import Any

from mcptest.providers.errors import ProviderError, RunFailed, retry_after_seconds
from mcptest.records.messages import (
    ModelReply,
    ModelRequest,
    RequestedCall,
    Usage,
    UserMessage,
    parse_arguments,
)


class MistralProvider:
    """Mistral, Magistral, Codestral, Ministral, Devstral models. The SDK retries nothing unless told: mcptest does."""

    name = "mistral"

    def __init__(self, api_key: str, base_url: str | None = None, timeout_s: float = 120.0) -> None:
        from mistralai.client import Mistral

        self._client = Mistral(api_key=api_key, server_url=base_url, timeout_ms=int(timeout_s * 1000))

    async def reply(self, request: ModelRequest) -> ModelReply:
        """One `chat.complete_async` call."""
        import httpx2
        from mistralai.client import errors
        from pydantic import ValidationError

        from mcptest.providers import bare_model

        kwargs: dict[str, Any] = {
            "model": bare_model(request.model) or "",
            "messages": to_messages(request),
            "max_tokens": request.max_tokens,
        }
        if request.tools:
            kwargs["tools"] = [_tool(t) for t in request.tools]
        try:
            completion = await self._client.chat.complete_async(**kwargs)
        except (ValidationError, errors.ResponseValidationError) as exc:
            raise RunFailed(f"mistral: an answer the SDK could not read: {str(exc).splitlines()[0]}") from None
        except errors.MistralError as exc:
            raise error_of(exc) from None
        except (httpx2.TransportError, errors.NoResponseError) as exc:
            raise ProviderError(f"mistral: connection failed: {exc or type(exc).__name__}") from None
        return from_completion(completion)

    async def aclose(self) -> None:
        """Close the SDK's HTTP client."""
        await self._client.__aexit__(None, None, None)


def _tool(tool: dict[str, Any]) -> dict[str, Any]:
    function = {"name": tool["name"], "parameters": tool.get("inputSchema") or {"type": "object"}}
    if tool.get("description"):
        function["description"] = tool["description"]
    return {"type": "function", "function": function}


def to_messages(request: ModelRequest) -> list[dict[str, Any]]:
    """The neutral history as chat messages: assistant `tool_calls`, then one `tool` message per result."""
    messages: list[dict[str, Any]] = [{"role": "system", "content": request.system}] if request.system else []
    messages.append({"role": "user", "content": request.prompt})
    names: dict[str, str] = {}
    for item in request.history:
        if isinstance(item, UserMessage):
            messages.append({"role": "user", "content": item.text})
        elif isinstance(item, ModelReply):
            names.update({c.id: c.name for c in item.calls})
            message: dict[str, Any] = {"role": "assistant", "content": item.text or ""}
            if item.calls:
                message["tool_calls"] = [
                    {"id": c.id, "type": "function", "function": {"name": c.name, "arguments": c.arguments_json}}
                    for c in item.calls
                ]
            messages.append(message)
        else:
            messages += [
                {"role": "tool", "tool_call_id": r.call_id, "name": names.get(r.call_id, ""), "content": r.text}
                for r in item
            ]
    return messages


def from_completion(completion: Any) -> ModelReply:
    """A chat completion as a neutral reply (the first choice); thinking chunks are not the answer's text."""
    usage = _usage(completion)
    if not completion.choices:
        return ModelReply(usage=usage)
    choice = completion.choices[0]
    message = choice.message
    content = message.content
    if isinstance(content, list):  # chunks: text, and a reasoning model's thinking
        content = "".join(getattr(c, "text", "") for c in content if getattr(c, "type", "") == "text")
    calls = []
    for tc in message.tool_calls or []:
        args, parsed = parse_arguments(tc.function.arguments)
        calls.append(RequestedCall(id=tc.id or "", name=tc.function.name or "", arguments=args, parsed=parsed))
    finish = choice.finish_reason
    return ModelReply(text=content or None, calls=calls, usage=usage, stop=str(finish) if finish else None)


def _usage(completion: Any) -> Usage | None:
    usage = getattr(completion, "usage", None)
    if usage is None:
        return None
    extra = getattr(usage, "model_extra", None) or {}
    details = extra.get("prompt_tokens_details") or {}
    cached = details.get("cached_tokens", 0) if isinstance(details, dict) else 0
    return Usage(input=usage.prompt_tokens or 0, output=usage.completion_tokens or 0, cached=cached or 0)


def error_of(exc: Any) -> ProviderError:
    """A mistralai error: its HTTP status, the body's message, Retry-After."""
    import json

    status = getattr(exc, "status_code", None)
    message = getattr(exc, "message", "") or ""
    try:
        body = json.loads(getattr(exc, "body", "") or "{}")
    except ValueError:
        body = None
    if isinstance(body, dict):
        inner = body.get("error") if isinstance(body.get("error"), dict) else body
        found = inner.get("message") if isinstance(inner, dict) else None
        message = found if isinstance(found, str) and found else message
    message = (message or type(exc).__name__).splitlines()[0][:300]
    return ProviderError(
        f"mistral: HTTP {status}: {message}",
        status=status,
        retry_after=retry_after_seconds(getattr(exc, "headers", None)),
    )
