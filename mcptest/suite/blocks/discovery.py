"""The `discovery:` block: an intent-only scenario, judged against the test's classes."""

from __future__ import annotations

from pydantic import Field

from mcptest.suite.blocks.gate import GateConfig


class DiscoveryConfig(GateConfig):
    """`discovery:` — declare an intent-only scenario, judged against the `equal_function_sets:` classes."""

    name_free: bool = Field(
        False,
        description="The prompt names no tools and no servers, so the tool path is judged against equal-function "
        "classes (floor `tool_selection.recall`) rather than a named tool. Absent: false.",
    )
