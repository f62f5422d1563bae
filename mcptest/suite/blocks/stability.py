"""The `stability:` block: the sub-score below which a run raises a drift flag."""

from __future__ import annotations

from pydantic import Field

from mcptest.suite.blocks.gate import GateConfig


class StabilityConfig(GateConfig):
    """`stability:` — within-run stability sub-scores (thrash, failure loops, progress, recovery) and drift flags."""

    threshold: int = Field(
        50, ge=1, le=100, description="A run's sub-score below this raises a drift flag (default 50)."
    )
