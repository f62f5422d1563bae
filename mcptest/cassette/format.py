"""The cassette format: per run the model replies, MCP results and judge answers, plus the catalog and a fingerprint.

Version 2 adds multi-turn conversations (`fingerprint.turns`) and judges (`fingerprint.judges`, `runs[].judgements`);
a cassette that uses neither is written as version 1, byte for byte as before, and both versions are read.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, SerializerFunctionWrapHandler, model_serializer

from mcptest.records.messages import ModelReply, ToolExchange
from mcptest.records.trace import CatalogTool

CASSETTE_FORMAT_VERSION: Literal["1"] = "1"
CASSETTE_FORMATS = ("1", "2")


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class JudgeFingerprint(_Model):
    """What one `judge` or `jury` assertion asks; a different rubric, target or judge model is a new question."""

    expect: int = Field(description="The assertion's index in the test's `expect:`.")
    target: str = Field(description="The target whose text is judged, e.g. `final_response`.")
    models: list[str] = Field(description="The judge model, or the jurors' models in order.")
    rubric: str = Field(description="The rubric as the judge is shown it (free text, or the criteria listed).")


class JudgeCall(_Model):
    """One judge (or juror) asked about one run's text: its answer, and the retry when that was not valid JSON."""

    expect: int = Field(description="The assertion's index in the test's `expect:`.")
    juror: int = Field(0, description="The juror's index in `jurors:` (0 for a `judge`).")
    model: str = Field(description="The judge model.")
    question: str = Field(description="`sha256:` of the question asked (rubric and judged text).")
    replies: list[ModelReply] = Field(min_length=1, description="The judge's answer; two when the first was not JSON.")
    cost_usd: float | None = Field(None, description="Dollars the calls cost when recorded; null when unpriced.")


class Fingerprint(_Model):
    """What a recording depends on; replay is refused when any of it differs from the suite."""

    model: str | None = Field(description="The model id.")
    provider: str = Field(description="`anthropic` or `openai`.")
    system: str | None = Field(description="The system prompt.")
    prompt: str = Field(description="The user prompt.")
    servers: list[str] = Field(description="The servers whose tools were presented, in order.")
    catalog: str = Field(description="`sha256:` of the normalised catalog the model saw (distractors included).")
    max_turns: int = Field(description="The loop's turn limit.")
    max_tokens: int = Field(description="The output-token limit of each model call.")
    runs: int = Field(description="How many runs were recorded.")
    turns: list[str] = Field(
        default_factory=list, description="Version 2: the further user messages of a multi-turn test, in order."
    )
    judges: list[JudgeFingerprint] = Field(
        default_factory=list, description="Version 2: the `judge` and `jury` assertions, in `expect:` order."
    )


class CassetteRun(_Model):
    """One run: every model reply and every tool call's result, in order."""

    replies: list[ModelReply] = Field(description="The model's turns, in order (call ids renumbered `call_N`).")
    exchanges: list[ToolExchange] = Field(description="The `tools/call` results the servers sent, in order.")
    cost_usd: float | None = Field(None, description="Dollars the run cost when recorded; null when unpriced.")
    judgements: list[JudgeCall] = Field(
        default_factory=list, description="Version 2: every judge call about this run, in `expect:` then juror order."
    )


class Cassette(_Model):
    """One agent test on one model: everything needed to replay all of its runs with no key, server or network."""

    format_version: Literal["1", "2"] = Field(
        CASSETTE_FORMAT_VERSION, description="The cassette format version: 2 when it records turns or judges."
    )
    test: str = Field(description="The agent test's name.")
    fingerprint: Fingerprint
    catalog: list[CatalogTool] = Field(description="The full tool list the model was shown (distractors included).")
    runs: list[CassetteRun] = Field(min_length=1, description="Every run, in order.")

    @model_serializer(mode="wrap")
    def _version_by_use(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        """Version 1, byte for byte, unless the cassette records turns or judges (which version 1 cannot hold)."""
        data: dict[str, Any] = handler(self)
        extended = bool(self.fingerprint.turns or self.fingerprint.judges or any(r.judgements for r in self.runs))
        if not extended:
            del data["fingerprint"]["turns"], data["fingerprint"]["judges"]
            for run in data["runs"]:
                del run["judgements"]
        data["format_version"] = "2" if extended else "1"
        return data
