"""Gemini's generateContent with function declarations, through the official `google-genai` SDK (imported only when a
run needs it): function calls and responses, thought signatures sent back as they came, usage metadata."""

from __future__ import annotations

import json
from typing import Any

from mcptest.providers.errors import ProviderError, RunFailed, duration_seconds, retry_after_seconds
from mcptest.providers.gemini_schema import translate
from mcptest.records.messages import (
    ModelReply,
    ModelRequest,
    RequestedCall,
    Usage,
    UserMessage,
    parse_arguments,
)


class GeminiProvider:
    """Gemini models. The SDK's own retries are off (one attempt): mcptest retries, honouring RetryInfo."""

    name = "gemini"

    def __init__(self, api_key: str, base_url: str | None = None, timeout_s: float = 120.0) -> None:
        from google import genai
        from google.genai import types

        options = types.HttpOptions(
            base_url=base_url, timeout=int(timeout_s * 1000), retry_options=types.HttpRetryOptions(attempts=1)
        )
        self._client = genai.Client(api_key=api_key, http_options=options)

    async def reply(self, request: ModelRequest) -> ModelReply:
        """One `models.generate_content` call."""
        import httpx
        from google.genai import errors
        from pydantic import ValidationError

        from mcptest.providers import bare_model

        config: dict[str, Any] = {
            "max_output_tokens": request.max_tokens,
            "automatic_function_calling": {"disable": True},
        }
        if request.system:
            config["system_instruction"] = request.system
        if request.tools:
            config["tools"] = [{"function_declarations": [declaration(t) for t in request.tools]}]
        try:
            response = await self._client.aio.models.generate_content(
                model=bare_model(request.model) or "",
                contents=to_contents(request),
                config=config,  # type: ignore[arg-type]  # a plain dict: the SDK validates it as its config model
            )
        except errors.APIError as exc:
            raise error_of(exc) from None
        except httpx.TransportError as exc:  # the SDK's async transport is httpx when aiohttp is absent
            raise ProviderError(f"gemini: connection failed: {exc or type(exc).__name__}") from None
        except ValidationError as exc:
            raise RunFailed(f"gemini: an answer the SDK could not read: {str(exc).splitlines()[0]}") from None
        return from_response(response)

    async def aclose(self) -> None:
        """Close the SDK's HTTP clients."""
        await self._client.aio.aclose()


def declaration(tool: dict[str, Any]) -> dict[str, Any]:
    """An MCP tool as a Gemini function declaration (its inputSchema in Gemini's subset)."""
    out: dict[str, Any] = {"name": tool["name"]}
    if tool.get("description"):
        out["description"] = tool["description"]
    params = translate(tool.get("inputSchema")).schema
    if params.get("properties"):  # Gemini refuses an OBJECT without properties: a tool of no arguments has none
        out["parameters"] = params
    return out


def to_contents(request: ModelRequest) -> list[Any]:
    """The neutral history as contents: a model turn as it came (thought signatures kept), tool results as one user
    turn of functionResponse parts, named after the calls they answer."""
    from google.genai import types

    contents: list[Any] = [{"role": "user", "parts": [{"text": request.prompt}]}]
    names: dict[str, str] = {}
    for item in request.history:
        if isinstance(item, UserMessage):
            contents.append({"role": "user", "parts": [{"text": item.text}]})
        elif isinstance(item, ModelReply):
            names.update({c.id: c.name for c in item.calls})
            if item.state:  # as it came: bytes (thought signatures) are base64 in JSON, read back as such
                contents += [types.Content.model_validate_json(json.dumps(c)) for c in item.state]
                continue
            parts: list[dict[str, Any]] = [{"text": item.text}] if item.text else []
            parts += [
                {"function_call": {"name": c.name, "args": c.arguments if isinstance(c.arguments, dict) else {}}}
                for c in item.calls
            ]
            if parts:
                contents.append({"role": "model", "parts": parts})
        else:
            responses = []
            for r in item:
                answer = {"error": r.text} if r.is_error else {"result": r.text}
                call = {"name": names.get(r.call_id, ""), "response": answer}
                if not r.call_id.startswith("gemini_"):
                    call["id"] = r.call_id
                responses.append({"function_response": call})
            contents.append({"role": "user", "parts": responses})
    return contents


def from_response(response: Any) -> ModelReply:
    """A generateContent response as a neutral reply (the first candidate); the candidate's content is kept to be
    sent back as it came when it carries thought signatures."""
    usage = _usage(response)
    if not response.candidates:
        feedback = getattr(response, "prompt_feedback", None)
        reason = getattr(feedback, "block_reason", None)
        return ModelReply(usage=usage, stop=f"blocked: {reason}" if reason else "no candidate")
    candidate = response.candidates[0]
    texts: list[str] = []
    calls: list[RequestedCall] = []
    signed = False
    content = candidate.content
    for part in (content.parts if content is not None else None) or []:
        signed = signed or part.thought_signature is not None
        if part.function_call is not None:
            fc = part.function_call
            args, parsed = parse_arguments(fc.args)
            calls.append(
                RequestedCall(id=fc.id or f"gemini_{len(calls) + 1}", name=fc.name or "", arguments=args, parsed=parsed)
            )
        elif part.text and not part.thought:
            texts.append(part.text)
    finish = getattr(candidate, "finish_reason", None)
    stop = "tool_calls" if calls else (str(getattr(finish, "value", finish)) if finish else None)
    if stop == "MALFORMED_FUNCTION_CALL":  # the call's text did not parse: there is no call to answer
        detail = getattr(candidate, "finish_message", None) or "the model wrote a function call that did not parse"
        raise RunFailed(f"gemini: MALFORMED_FUNCTION_CALL: {detail}")
    state = [content.model_dump(mode="json", exclude_none=True)] if signed and content is not None else None
    return ModelReply(text="".join(texts) or None, calls=calls, usage=usage, stop=stop, state=state)


def _usage(response: Any) -> Usage | None:
    meta = getattr(response, "usage_metadata", None)
    if meta is None:
        return None
    thoughts = meta.thoughts_token_count or 0
    return Usage(
        input=(meta.prompt_token_count or 0) + (meta.tool_use_prompt_token_count or 0),
        output=(meta.candidates_token_count or 0) + thoughts,
        cached=meta.cached_content_token_count or 0,
        reasoning=thoughts,
    )


def error_of(exc: Any) -> ProviderError:
    """A google-genai APIError: its HTTP code, its message, and RetryInfo's retryDelay (or Retry-After)."""
    status = getattr(exc, "code", None)
    message = str(getattr(exc, "message", None) or exc).splitlines()[0][:300]
    wait = retry_after_seconds(getattr(getattr(exc, "response", None), "headers", None))
    details = getattr(exc, "details", None)
    error = details.get("error") if isinstance(details, dict) else None
    for detail in (error.get("details") if isinstance(error, dict) else None) or []:
        if isinstance(detail, dict) and str(detail.get("@type", "")).endswith("google.rpc.RetryInfo"):
            wait = duration_seconds(detail.get("retryDelay"))
    what = f"HTTP {status}" if status else "connection failed"
    return ProviderError(f"gemini: {what}: {message}", status=status, retry_after=wait)
