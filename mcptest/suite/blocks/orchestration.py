"""The `orchestration:` block: no settings of its own, only `expect:`."""

from __future__ import annotations

from mcptest.suite.blocks.gate import GateConfig


class OrchestrationConfig(GateConfig):
    """`orchestration:` — five integer-percent diagnostics of how the agent worked; classes come from the test's
    `equal_function_sets:` (or `token_efficiency:`) block. No default gate: assert what matters in `expect:`."""
