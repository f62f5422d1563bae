"""The `tool_edges:` block: the tools a run may call and the ones it must never touch."""

from __future__ import annotations

from pydantic import Field, model_validator

from mcptest.suite.blocks.gate import GateConfig


class ToolEdgesConfig(GateConfig):
    """`tool_edges:` — the tools a run may call and the ones it must never touch."""

    allowed: list[str] | None = Field(
        None, description="The tools the scenario may use (`server.tool` or bare); omit it to only police `restricted`."
    )
    restricted: list[str] = Field(default_factory=list, description="Tools no call may touch, e.g. `delete_document`.")

    @model_validator(mode="after")
    def _disjoint(self) -> ToolEdgesConfig:
        both = sorted(set(self.allowed or []) & set(self.restricted))
        if both:
            raise ValueError(f"a tool cannot be both allowed and restricted: {', '.join(both)}")
        if self.allowed is None and not self.restricted:
            raise ValueError("give `allowed:`, `restricted:` or both")
        return self
