"""The Trace: one agent run (tool calls, answer, tokens, cost, the catalog the model saw), shared by every gate."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from mcptest.core import json_source
from mcptest.core.errors import Problem, UserError
from mcptest.core.validation import problems_from
from mcptest.core.yaml_source import Loc, parse, read_text
from mcptest.records.verdict import Judgement

TRACE_FORMAT_VERSION: Literal["1"] = "1"


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


def qualified_id(server: str | None, name: str) -> str:
    """`server.tool`, or the bare tool name when the server is unknown."""
    return f"{server}.{name}" if server else name


class ToolCall(_Model):
    """One tool call the agent made, in the order it made it, with what the tool answered."""

    server: str | None = Field(None, description="The server that owns the tool; null when not known.")
    name: str = Field(
        description="The server's name for the tool (a live run maps the presented name back); for an unknown tool, "
        "the name exactly as the model wrote it (may be empty if the model sent none)."
    )
    id: str = Field(
        "", description="The qualified id `server.tool` (the bare name without a server); filled in when omitted."
    )
    args: Any = Field(
        default_factory=dict,
        description="The arguments: normally a JSON object. Anything else (e.g. the raw text of arguments that "
        "did not parse) counts as malformed.",
    )
    content: list[dict[str, Any]] = Field(
        default_factory=list, description="The result's MCP content blocks, e.g. `[{type: text, text: ...}]`."
    )
    structured_content: dict[str, Any] | None = Field(None, description="The result's `structuredContent`, if any.")
    is_error: bool = Field(False, description="The call failed: the result had `isError: true` or the request erred.")
    latency_ms: float | None = Field(None, ge=0, description="How long the call took, in milliseconds.")
    unknown_tool: bool = Field(False, description="The model named a tool that was not in the catalog it was shown.")
    unparseable_arguments: bool = Field(
        False, description="The model's arguments were not valid JSON; `args` then holds the raw text."
    )

    @model_validator(mode="after")
    def _fill_id(self) -> ToolCall:
        expected = qualified_id(self.server, self.name)
        if not self.id:
            self.id = expected
        elif self.id != expected:
            raise ValueError(f"id {self.id!r} does not match server and name ({expected!r})")
        return self

    @property
    def text(self) -> str:
        """The text blocks of the result, joined by newlines."""
        return "\n".join(str(b.get("text", "")) for b in self.content if b.get("type") == "text")


class TokenUsage(_Model):
    """Conversation token usage summed over every model call of the run."""

    input: int | None = Field(None, ge=0, description="Input (prompt) tokens.")
    output: int | None = Field(None, ge=0, description="Output (completion) tokens.")
    cached: int | None = Field(
        None, ge=0, exclude_if=lambda v: v is None, description="Of `input`: cached tokens; null when not reported."
    )
    reasoning: int | None = Field(
        None, ge=0, exclude_if=lambda v: v is None, description="Of `output`: reasoning tokens; null when not reported."
    )
    total: int = Field(
        ge=0,
        description="All tokens; defaults to input + output.",
        json_schema_extra=lambda schema: schema.update(default="input + output"),
    )

    model_config = ConfigDict(
        extra="forbid",
        # `total` may be left out when `input` or `output` is given: the schema says so, as the validator does.
        json_schema_extra=lambda schema: schema.update(
            required=[], anyOf=[{"required": ["total"]}, {"required": ["input"]}, {"required": ["output"]}]
        ),
    )

    @model_validator(mode="before")
    @classmethod
    def _default_total(cls, data: Any) -> Any:
        if isinstance(data, dict) and "total" not in data and ("input" in data or "output" in data):
            parts = [data.get("input"), data.get("output")]
            if all(isinstance(p, int) or p is None for p in parts):
                return {**data, "total": sum(p or 0 for p in parts)}
        return data


class CatalogTool(_Model):
    """One tool the model was shown, as MCP puts it on the wire, with the server it came from."""

    server: str | None = Field(None, description="The server that advertised the tool; null for injected tools.")
    tool: dict[str, Any] = Field(description="The MCP tool definition: `name`, `description`, `inputSchema`, ...")
    distractor: bool = Field(False, description="Injected by `distractors:`; no server implements it.")

    @field_validator("tool")
    @classmethod
    def _named(cls, tool: dict[str, Any]) -> dict[str, Any]:
        if not isinstance(tool.get("name"), str) or not tool["name"]:
            raise ValueError("a tool definition needs a non-empty string `name`")
        for key in ("inputSchema", "annotations", "outputSchema"):
            if tool.get(key) is not None and not isinstance(tool[key], dict):
                raise ValueError(f"a tool's `{key}` must be an object")
        if tool.get("description") is not None and not isinstance(tool["description"], str):
            raise ValueError("a tool's `description` must be a string")
        return tool

    @property
    def name(self) -> str:
        """The tool's name."""
        return str(self.tool["name"])

    @property
    def id(self) -> str:
        """The qualified id `server.tool` (the bare name for injected tools)."""
        return qualified_id(self.server, self.name)


class UserTurn(_Model):
    """One user message of a multi-turn conversation and what the agent did about it."""

    prompt: str = Field(description="The user message: the test's `prompt:`, then each of its `turns:`.")
    calls: int = Field(
        0, ge=0, description="How many of the trace's `tool_calls`, following the previous turns' calls, it made."
    )
    final_response: str | None = Field(None, description="The agent's answer to this message.")
    model_turns: int = Field(0, ge=0, description="Requests to the model while answering this message.")
    tokens: TokenUsage | None = Field(None, description="Tokens of this message's model calls; null when unreported.")


class Trace(_Model):
    """One agent run. Gates read it; cassettes and trace files store it; format version 1."""

    format_version: str = Field(
        TRACE_FORMAT_VERSION, description="The trace format version.", json_schema_extra={"const": TRACE_FORMAT_VERSION}
    )

    @field_validator("format_version")
    @classmethod
    def _supported(cls, version: str) -> str:
        if version != TRACE_FORMAT_VERSION:
            raise ValueError(f"unsupported trace format {version!r} (this mcptest reads {TRACE_FORMAT_VERSION!r})")
        return version

    model: str | None = Field(None, description="The model id that produced the run, e.g. `claude-sonnet-4-5`.")
    prompt: str | None = Field(None, description="The user prompt that started the run.")
    tool_calls: list[ToolCall] = Field(default_factory=list, description="Every tool call, in order.")
    final_response: str | None = Field(None, description="The agent's final text answer.")
    turns: int | None = Field(None, ge=0, description="Model turns (requests to the model) in the conversation.")
    tokens: TokenUsage | None = Field(None, description="Conversation token usage; null when not recorded.")
    cost_usd: float | None = Field(None, ge=0, description="Dollars the run spent; null when unknown or unpriced.")
    catalog: list[CatalogTool] | None = Field(
        None, description="The merged tool list the model was shown (distractors included); null when not recorded."
    )
    error: str | None = Field(
        None,
        description="Why the run ended early (provider failure, timeout, replay miss); null when it ended normally.",
    )
    judgements: list[Judgement] | None = Field(
        None,
        exclude_if=lambda v: v is None,
        description="The verdicts of the test's `judge` and `jury` assertions on this run; absent when none.",
    )
    user_turns: list[UserTurn] | None = Field(
        None,
        exclude_if=lambda v: v is None,
        description="A multi-turn conversation, message by message; absent for one message. `tool_calls`, "
        "`final_response`, `turns` and `tokens` still cover the whole conversation.",
    )

    @model_validator(mode="after")
    def _turn_calls_add_up(self) -> Trace:
        if self.user_turns is not None and sum(t.calls for t in self.user_turns) != len(self.tool_calls):
            raise ValueError("the `calls` of `user_turns` must add up to the number of `tool_calls`")
        return self

    def calls_of_turn(self, index: int) -> list[ToolCall]:
        """The tool calls made while answering user message `index` (every call for a one-message run)."""
        if self.user_turns is None:
            return list(self.tool_calls)
        start = sum(t.calls for t in self.user_turns[:index])
        return self.tool_calls[start : start + self.user_turns[index].calls]

    @property
    def tool_names(self) -> list[str]:
        """The tool names called, in order, repeats included."""
        return [c.name for c in self.tool_calls]

    @property
    def real_catalog(self) -> list[CatalogTool]:
        """The catalog without injected distractors (empty when no catalog was recorded)."""
        return [t for t in self.catalog or [] if not t.distractor]


class InlineCall(_Model):
    """One tool call written by hand in a suite (`tool_calls:`), turned into a ToolCall by `trace_from_inline`."""

    name: str = Field(
        description="The tool name, bare (`search`) or qualified (`brave.search`) when `server` is unset."
    )
    server: str | None = Field(None, description="The server that owns the tool.")
    args: Any = Field(default_factory=dict, description="The arguments the agent sent (a JSON object).")
    result: Any = Field(
        None,
        description="What the tool answered: a string (one text block), a list of content blocks, or an MCP result "
        "object `{content, structuredContent, isError}`; any other object is taken as structured content.",
    )
    is_error: bool = Field(False, description="The call failed.")
    latency_ms: float | None = Field(None, ge=0, description="How long the call took, in milliseconds.")


def trace_from_inline(calls: Sequence[InlineCall | Mapping[str, Any]], **fields: Any) -> Trace:
    """A one-run Trace from inline calls; `fields` sets any other Trace field (tokens, final_response, ...)."""
    items = [c if isinstance(c, InlineCall) else InlineCall.model_validate(c) for c in calls]
    return Trace.model_validate({**fields, "tool_calls": [_call(c) for c in items]})


def _call(item: InlineCall) -> dict[str, Any]:
    content, structured, erred = _result(item.result)
    return {
        "server": item.server,
        "name": item.name,
        "args": item.args,
        "content": content,
        "structured_content": structured,
        "is_error": item.is_error or erred,
        "latency_ms": item.latency_ms,
    }


def _result(result: Any) -> tuple[list[dict[str, Any]], dict[str, Any] | None, bool]:
    if result is None:
        return [], None, False
    if isinstance(result, str):
        return [_text(result)], None, False
    if isinstance(result, list):
        return (
            [b if isinstance(b, dict) else _text(b if isinstance(b, str) else json.dumps(b)) for b in result],
            None,
            False,
        )
    if isinstance(result, dict) and "content" in result:
        content, structured, _ = _result(result["content"])
        return content, result.get("structuredContent"), result.get("isError") is True
    if isinstance(result, dict):
        return [_text(json.dumps(result, ensure_ascii=False))], result, False
    return [_text(json.dumps(result))], None, False


def _text(text: str) -> dict[str, Any]:
    return {"type": "text", "text": text}


def load_traces(path: str | Path) -> list[Trace]:
    """Read a trace file: one trace object or a JSON array of them. Every problem raises one UserError."""
    text = read_text(path)
    data = json_source.loads(text, str(path))
    if not isinstance(data, dict | list) or (isinstance(data, list) and not data):
        kinds = {str: "string", bool: "boolean", type(None): "null"}
        found = "an empty array" if isinstance(data, list) else f"a JSON {kinds.get(type(data), 'number')}"
        raise UserError([Problem(str(path), 1, 1, f"expected a trace object or an array of traces, found {found}")])
    items: list[tuple[Loc, Any]] = [((i,), d) for i, d in enumerate(data)] if isinstance(data, list) else [((), data)]
    traces: list[Trace] = []
    failed: list[tuple[Loc, ValidationError]] = []
    for base, item in items:
        try:
            traces.append(Trace.model_validate(item))
        except ValidationError as exc:
            failed.append((base, exc))
    if failed:
        doc = parse(text, str(path))  # JSON is YAML: parsed again only to locate the problems
        raise UserError(sorted({p for base, exc in failed for p in problems_from(Trace, exc, doc, base)}))
    return traces
