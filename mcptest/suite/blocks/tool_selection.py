"""The `tool_selection:` block: the tool to select, a floor on the rate, a token budget."""

from __future__ import annotations

from pydantic import Field

from mcptest.suite.blocks.gate import GateConfig


class ToolSelectionConfig(GateConfig):
    """`tool_selection:` — a floor on the selection rate and an optional per-run token budget."""

    expected_tool: str = Field(
        min_length=1, description="The tool the model should call: a bare name, or `server.tool` for one server's."
    )
    min_selection_rate: float = Field(
        ge=0, le=1, description="The minimum fraction of runs (0.0 to 1.0) that select it."
    )
    max_total_tokens: int | None = Field(
        None, gt=0, description="A per-run cap on the conversation's total tokens; omit it for no token budget."
    )
