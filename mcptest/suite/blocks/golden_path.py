"""The `golden_path:` block: the shortest sequence of calls that reaches the goal."""

from __future__ import annotations

from pydantic import Field

from mcptest.suite.blocks.gate import GateConfig


class GoldenPathConfig(GateConfig):
    """`golden_path:` — the shortest path to the goal, and how far the run strayed from it."""

    calls: list[str] = Field(
        min_length=1, description="The golden calls in order: tool ids (`server.tool` or a bare name)."
    )
