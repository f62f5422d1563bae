"""The `narrative:` block: the mutating verbs a final answer's claims are read for."""

from __future__ import annotations

from pydantic import Field

from mcptest.suite.blocks.gate import GateConfig


class NarrativeConfig(GateConfig):
    """`narrative:` — the final answer against the trace, rule-based: claims with no call, silent mutations."""

    verbs: list[str] | None = Field(
        None,
        min_length=1,
        description="The mutating verbs (base form) a claim starts with and a mutating tool name contains; "
        "default: create, update, delete, remove, send, write, post, insert, patch, publish, destroy, drop, add, "
        "edit, upload, merge, close, cancel, approve, revoke.",
    )
