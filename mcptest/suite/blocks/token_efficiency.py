"""The `token_efficiency:` block: the classes of interchangeable tools, scored with their price."""

from __future__ import annotations

from pydantic import Field

from mcptest.suite.blocks.gate import FunctionClass, GateConfig


class TokenEfficiencyConfig(GateConfig):
    """`token_efficiency:` — the equal_function_sets classes, scored with the price of the tool surface."""

    classes: list[FunctionClass] = Field(min_length=1, description="The capabilities the scenario needs (non-empty).")
