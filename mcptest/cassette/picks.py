"""The tool-bench cassette (version 1): a model's tool picks, each keyed by what the model was asked."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from mcptest.cassette.normalise import renumber
from mcptest.core.redact import redact_data
from mcptest.records.messages import ModelReply


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class RecordedPick(_Model):
    """One question (a request and the tools on offer) and the model's reply to it."""

    intent: str = Field(description="The request, verbatim.")
    catalog: str = Field(description="`sha256:` of the tool definitions as presented (name, description, inputSchema).")
    reply: ModelReply = Field(
        description="The model's reply; its first tool call (or the one tool its text names) is the pick."
    )
    cost_usd: float | None = Field(None, description="Dollars the call cost when recorded; null when unpriced.")


class PickCassette(_Model):
    """One tool-bench spec on one model: every pick, so a replay asks no model and needs no key or network."""

    format_version: Literal["1"] = Field("1", description="The cassette format version.")
    kind: Literal["tool-bench"] = Field("tool-bench", description="A tool-bench cassette (agent cassettes have none).")
    spec: str = Field(description="The spec file's name.")
    model: str = Field(description="The model id.")
    provider: str = Field(description="`anthropic` or `openai`, as recorded.")
    system: str = Field(description="The instruction the model was given with every request.")
    max_tokens: int = Field(description="The output-token limit of each call.")
    picks: dict[str, RecordedPick] = Field(
        description="`sha256:` of (model, system, max_tokens, intent, catalog) -> the pick; only those the spec uses."
    )


def tools_hash(offered: Sequence[dict[str, Any]], secrets: set[str] = set()) -> str:  # noqa: B006 - never mutated
    """`sha256:` of the presented tool definitions' canonical JSON, secrets masked as the cassette stores them."""
    return _sha(_compact(redact_data(list(offered), secrets)))


def pick_key(model: str, system: str, max_tokens: int, intent: str, catalog: str) -> str:
    """The fingerprint a pick is stored under: a different model, instruction, request or catalog is a new question."""
    return _sha(_compact([model, system, max_tokens, intent, catalog]))


def normalise_picks(cassette: PickCassette) -> PickCassette:
    """Call ids renumbered `call_1, ...` per pick (providers give new ones on every recording)."""
    picks = {k: p.model_copy(update={"reply": renumber([p.reply])[0]}) for k, p in cassette.picks.items()}
    return cassette.model_copy(update={"picks": picks})


def _compact(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _sha(text: str) -> str:
    return "sha256:" + hashlib.sha256(text.encode()).hexdigest()
