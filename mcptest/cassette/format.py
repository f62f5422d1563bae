"""The cassette format (version 1): per run the model replies and MCP results, plus the catalog and a fingerprint."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from mcptest.providers.messages import ModelReply, ToolExchange
from mcptest.trace import CatalogTool

CASSETTE_FORMAT_VERSION: Literal["1"] = "1"


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


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


class CassetteRun(_Model):
    """One run: every model reply and every tool call's result, in order."""

    replies: list[ModelReply] = Field(description="The model's turns, in order (call ids renumbered `call_N`).")
    exchanges: list[ToolExchange] = Field(description="The `tools/call` results the servers sent, in order.")
    cost_usd: float | None = Field(None, description="Dollars the run cost when recorded; null when unpriced.")


class Cassette(_Model):
    """One agent test on one model: everything needed to replay all of its runs with no key, server or network."""

    format_version: Literal["1"] = Field(CASSETTE_FORMAT_VERSION, description="The cassette format version.")
    test: str = Field(description="The agent test's name.")
    fingerprint: Fingerprint
    catalog: list[CatalogTool] = Field(description="The full tool list the model was shown (distractors included).")
    runs: list[CassetteRun] = Field(min_length=1, description="Every run, in order.")
