"""Agent tests: a model (or recorded runs of one) using the servers' tools, judged per run and by gate blocks."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field, PrivateAttr, field_validator, model_validator

from mcptest.expect.assertions import Assertion
from mcptest.providers.scripted import ScriptedRun
from mcptest.records.trace import InlineCall, TokenUsage, ToolCall, Trace, UserTurn
from mcptest.suite.blocks.calls import CallsConfig
from mcptest.suite.blocks.discovery import DiscoveryConfig
from mcptest.suite.blocks.distractors import DistractorsConfig
from mcptest.suite.blocks.equal_function_sets import EqualFunctionSetsConfig
from mcptest.suite.blocks.golden_path import GoldenPathConfig
from mcptest.suite.blocks.narrative import NarrativeConfig
from mcptest.suite.blocks.orchestration import OrchestrationConfig
from mcptest.suite.blocks.stability import StabilityConfig
from mcptest.suite.blocks.token_efficiency import TokenEfficiencyConfig
from mcptest.suite.blocks.tool_edges import ToolEdgesConfig
from mcptest.suite.blocks.tool_selection import ToolSelectionConfig
from mcptest.suite.blocks.trajectory import TrajectoryConfig
from mcptest.suite.blocks.workflow import WorkflowConfig
from mcptest.suite.strict import Strict

AGENT_TARGET_ROOTS = ("tool_calls", "tool_names", "final_response", "conversation", "turns")


class TraceFile(Strict):
    """A trace file with options: an OTLP file whose runs are grouped by an attribute rather than by trace id."""

    file: str = Field(
        min_length=1,
        description="The trace file, relative to the suite (mcptest JSON or OTLP JSON), or a Phoenix project "
        "(`phoenix://host:port/project`, optional window `?start=ISO&end=ISO` or `?last=1h`).",
    )
    group_by: str | None = Field(
        None,
        min_length=1,
        description="OTLP files: one run per value of this span (or resource) attribute, e.g. "
        "`gen_ai.conversation.id`, instead of one per trace id.",
    )


class AgentTest(Strict):
    """A prompt given to a model with the listed servers' tools; or recorded runs of one (`traces:`, `tool_calls:`)."""

    name: str = Field(min_length=1, description="Unique within the suite.")
    model: str | None = Field(None, description="The model id, e.g. `claude-sonnet-4-5`.")
    models: list[str] | None = Field(None, min_length=1, description="A model matrix: every run for each model.")
    servers: list[str] = Field(default_factory=list, description="Keys of `servers:` whose tools the model sees.")
    prompt: str | None = Field(None, description="The user prompt.")
    turns: list[str] | None = Field(
        None,
        min_length=1,
        description="Further user messages, each sent after the agent's answer to the previous one; "
        "target `turns[0]` is the exchange of `prompt:`, `turns[1]` the first of these.",
    )
    system: str | None = Field(None, description="An optional system prompt.")
    max_turns: int = Field(
        10, ge=1, description="Model turns per user message before the loop stops (and the conversation ends)."
    )
    runs: int = Field(1, description="Runs per model (0 is clamped to 1).")
    tags: list[str] = Field(default_factory=list, description="For `--tag` / `--skip-tag`.")
    provider: Literal["anthropic", "openai", "gemini", "mistral", "bedrock", "scripted"] | None = Field(
        None,
        description="Who serves the model; default from the prefix (`claude-`; `gpt-`, `chatgpt-`, `o<digit>`; "
        "`gemini-`; `mistral-`, `magistral-`, `codestral-`, `ministral-`, `devstral-`). Bedrock is always named.",
    )
    api: Literal["chat", "responses"] | None = Field(
        None, description="OpenAI only: Chat Completions (the default) or the Responses API."
    )
    base_url: str | None = Field(
        None, pattern=r"^https?://", description="An OpenAI-compatible (or Anthropic-compatible) endpoint to call."
    )
    script: list[ScriptedRun] | None = Field(
        None, min_length=1, description="`provider: scripted`: what the model does, run by run (one entry = every run)."
    )
    max_tokens: int = Field(4096, ge=1, description="The output-token limit of each model call.")
    timeout_s: float = Field(300.0, gt=0, description="Seconds one run may take before it fails.")
    traces: list[str | TraceFile] | None = Field(
        None,
        description="Recorded runs to judge instead of calling a model: trace files, relative to the suite: mcptest "
        "trace JSON, or OpenTelemetry OTLP JSON (one run per trace id, or per `group_by` attribute); or an Arize "
        "Phoenix project's spans, `phoenix://host:port/project` (window: `?start=ISO&end=ISO` or `?last=1h`).",
    )
    tool_calls: list[InlineCall] | None = Field(
        None, description="One recorded run written inline: the calls the agent made, in order."
    )
    final_response: str | None = Field(None, description="With `tool_calls:`, the run's final answer.")
    tokens: int | None = Field(None, ge=0, description="With `tool_calls:`, the run's total conversation tokens.")
    expect: list[Assertion] | None = Field(
        None, description="Assertions on every run: tool_calls[i].name, tool_names, final_response, conversation..."
    )
    equal_function_sets: EqualFunctionSetsConfig | None = None
    tool_selection: ToolSelectionConfig | None = None
    distractors: DistractorsConfig | None = None
    discovery: DiscoveryConfig | None = None
    orchestration: OrchestrationConfig | None = None
    token_efficiency: TokenEfficiencyConfig | None = None
    calls: CallsConfig | None = None
    workflow: WorkflowConfig | None = None
    trajectory: TrajectoryConfig | None = None
    golden_path: GoldenPathConfig | None = None
    tool_edges: ToolEdgesConfig | None = None
    stability: StabilityConfig | None = None
    narrative: NarrativeConfig | None = None
    _line: int = PrivateAttr(0)
    _recorded: list[Trace] = PrivateAttr(default_factory=list)
    _notes: list[str] = PrivateAttr(default_factory=list)

    @field_validator("runs")
    @classmethod
    def _clamp(cls, runs: int) -> int:
        return max(runs, 1)

    @model_validator(mode="after")
    def _one_source(self) -> AgentTest:
        if self.traces is not None and self.tool_calls is not None:
            raise ValueError("give recorded runs as `traces:` or as inline `tool_calls:`, not both")
        if self.model is not None and self.models is not None:
            raise ValueError("give `model:` or a `models:` matrix, not both")
        if (self.final_response is not None or self.tokens is not None) and self.tool_calls is None:
            raise ValueError("`final_response:` and `tokens:` describe an inline run: they need `tool_calls:`")
        return self

    @property
    def recorded(self) -> bool:
        """Whether the runs come from traces rather than from a model."""
        return self.traces is not None or self.tool_calls is not None

    @property
    def scripted(self) -> bool:
        """Whether a script plays the model."""
        return self.provider == "scripted" or self.script is not None

    @property
    def model_list(self) -> list[str | None]:
        """The models to run: the matrix, the one model, or [None]."""
        return list(self.models) if self.models else [self.model]

    def recorded_runs(self) -> list[Trace]:
        """The recorded runs (loaded when the suite loads)."""
        return list(self._recorded)

    def load_notes(self) -> list[str]:
        """What loading the recorded runs skipped (OpenTelemetry spans, by reason), for the user to see."""
        return list(self._notes)


def agent_view(trace: Trace) -> dict[str, Any]:
    """A run as agent targets see it: `tool_calls[i].name`, `tool_names`, `final_response`, `conversation.*`."""
    calls = [_call_view(c) for c in trace.tool_calls]
    conversation: dict[str, Any] = {"tokens": _tokens_view(trace.tokens)}
    if trace.turns is not None:
        conversation["turns"] = trace.turns
    if trace.cost_usd is not None:
        conversation["cost_usd"] = trace.cost_usd
    return {
        "tool_calls": calls,
        "tool_names": [c.name for c in trace.tool_calls],
        "final_response": trace.final_response,
        "conversation": conversation,
        "turns": _turns_view(trace),
    }


def _turns_view(trace: Trace) -> list[dict[str, Any]]:
    """`turns[i]`: the i-th user message's calls and answer (a one-message run is its one turn)."""
    turns = trace.user_turns or [
        UserTurn(
            prompt=trace.prompt or "",
            calls=len(trace.tool_calls),
            final_response=trace.final_response,
            model_turns=trace.turns or 0,
            tokens=trace.tokens,
        )
    ]
    out = []
    for i, turn in enumerate(turns):
        calls = trace.calls_of_turn(i)
        out.append(
            {
                "prompt": turn.prompt,
                "tool_calls": [_call_view(c) for c in calls],
                "tool_names": [c.name for c in calls],
                "final_response": turn.final_response,
                "model_turns": turn.model_turns,
                "tokens": _tokens_view(turn.tokens),
            }
        )
    return out


def _call_view(c: ToolCall) -> dict[str, Any]:
    return {
        "name": c.name,
        "server": c.server,
        "args": c.args,
        "is_error": c.is_error,
        "content": c.content,
        "structuredContent": c.structured_content,
    }


def _tokens_view(tokens: TokenUsage | None) -> dict[str, Any]:
    if tokens is None:
        return {}
    view = {"total": tokens.total, "input": tokens.input, "output": tokens.output}
    return view | {k: v for k, v in (("cached", tokens.cached), ("reasoning", tokens.reasoning)) if v is not None}
