"""The provider-neutral conversation: what the loop sends a model and what a model answers, stored in cassettes."""

from __future__ import annotations

import json
from typing import Any

from pydantic import BaseModel, ConfigDict, Field


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class RequestedCall(_Model):
    """One tool call a model asked for."""

    id: str = Field(description="The provider's call id (renumbered `call_N` in cassettes).")
    name: str = Field(description="The tool name exactly as the model wrote it.")
    arguments: Any = Field(
        default_factory=dict, description="The parsed arguments; the raw text when they were not valid JSON."
    )
    parsed: bool = Field(True, description="False when the model's argument text was not valid JSON.")

    @property
    def arguments_json(self) -> str:
        """The arguments as the JSON text a model wrote (the raw text when unparseable)."""
        return self.arguments if not self.parsed else json.dumps(self.arguments, ensure_ascii=False)


class Usage(_Model):
    """Tokens one model call used."""

    input: int = Field(0, ge=0, description="Input tokens, cached ones included.")
    output: int = Field(0, ge=0, description="Output tokens, reasoning (thinking) ones included.")
    # left out of a cassette when 0 / null, so that one recorded before they existed is re-recorded byte for byte
    cached: int = Field(
        0,
        ge=0,
        exclude_if=lambda v: v == 0,
        description="Of `input`: tokens read from (or written to) the provider's cache.",
    )
    reasoning: int = Field(
        0, ge=0, exclude_if=lambda v: v == 0, description="Of `output`: the model's reasoning (thinking) tokens."
    )


class ModelReply(_Model):
    """One model turn: optional text and the tool calls it asked for (none means a final answer)."""

    text: str | None = Field(None, description="The text the model wrote this turn.")
    calls: list[RequestedCall] = Field(default_factory=list, description="Tool calls, in the order given.")
    usage: Usage | None = Field(None, description="Token usage of this call; null when the provider reports none.")
    stop: str | None = Field(None, description="The provider's stop reason, e.g. `end_turn`, `tool_calls`.")
    state: list[dict[str, Any]] | None = Field(
        None,
        exclude_if=lambda v: v is None,
        description="Provider items the next call must send back as they came: the Responses API's reasoning items, "
        "Gemini's thought signatures.",
    )


class ToolReply(_Model):
    """What the loop sent back to the model for one call."""

    call_id: str
    text: str
    is_error: bool = False


class ToolExchange(_Model):
    """One `tools/call` the loop made on a server, and what came back (a cassette replays these)."""

    server: str
    tool: str
    args: dict[str, Any] = Field(default_factory=dict)
    result: dict[str, Any] | None = Field(None, description="The CallToolResult in wire form, as received.")
    error: str | None = Field(None, description="A protocol error, timeout or lost connection instead of a result.")


class UserMessage(_Model):
    """A further user message of a multi-turn conversation, sent after the model's previous answer."""

    text: str


class ModelRequest(_Model):
    """Everything a provider needs for one call: the conversation so far and the tools on offer."""

    model: str | None
    system: str | None = None
    prompt: str
    tools: list[dict[str, Any]] = Field(
        default_factory=list, description="Presented tools: name, description, inputSchema."
    )
    history: list[ModelReply | list[ToolReply] | UserMessage] = Field(default_factory=list)
    max_tokens: int = 4096


def parse_arguments(raw: Any) -> tuple[Any, bool]:
    """A model's argument text as a value, and whether it parsed (already-parsed values pass through)."""
    if not isinstance(raw, str):
        return ({} if raw is None else raw), True
    if not raw.strip():
        return {}, True
    try:
        return json.loads(raw), True
    except json.JSONDecodeError:
        return raw, False
