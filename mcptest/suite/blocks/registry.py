"""The gate blocks under an agent test, as one table: `BLOCKS` (YAML key -> config model, in evaluation order),
the blocks a test declares, its classes of interchangeable tools, and the mistakes that span blocks.

The scoring of each block lives in `mcptest.gates` (one module per gate, one registry); what a suite file may
say lives in `mcptest.suite.blocks` (one module per block), so loading or validating a suite builds these
models without importing any gate's scoring code.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel

from mcptest.suite.blocks.calls import CallsConfig
from mcptest.suite.blocks.discovery import DiscoveryConfig
from mcptest.suite.blocks.distractors import DistractorsConfig
from mcptest.suite.blocks.equal_function_sets import EqualFunctionSetsConfig
from mcptest.suite.blocks.gate import FunctionClass, GateConfig
from mcptest.suite.blocks.golden_path import GoldenPathConfig
from mcptest.suite.blocks.narrative import NarrativeConfig
from mcptest.suite.blocks.orchestration import OrchestrationConfig
from mcptest.suite.blocks.stability import StabilityConfig
from mcptest.suite.blocks.token_efficiency import TokenEfficiencyConfig
from mcptest.suite.blocks.tool_edges import ToolEdgesConfig
from mcptest.suite.blocks.tool_selection import ToolSelectionConfig
from mcptest.suite.blocks.trajectory import TrajectoryConfig
from mcptest.suite.blocks.workflow import WorkflowConfig

# Every block's YAML key and config model, in the order blocks are evaluated (the registry follows this order).
BLOCKS: dict[str, type[GateConfig]] = {
    "equal_function_sets": EqualFunctionSetsConfig,
    "tool_selection": ToolSelectionConfig,
    "distractors": DistractorsConfig,
    "discovery": DiscoveryConfig,
    "orchestration": OrchestrationConfig,
    "token_efficiency": TokenEfficiencyConfig,
    "calls": CallsConfig,
    "workflow": WorkflowConfig,
    "trajectory": TrajectoryConfig,
    "golden_path": GoldenPathConfig,
    "tool_edges": ToolEdgesConfig,
    "stability": StabilityConfig,
    "narrative": NarrativeConfig,
}


def blocks_of(test: BaseModel | Mapping[str, Any]) -> dict[str, GateConfig]:
    """The gate blocks a test declares, by YAML key: from a model's attributes or a mapping's keys."""
    get = test.get if isinstance(test, Mapping) else (lambda name: getattr(test, name, None))
    return {name: block for name in BLOCKS if (block := get(name)) is not None}


def classes_for(blocks: Mapping[str, GateConfig]) -> list[FunctionClass] | None:
    """The test's declared classes: `equal_function_sets:`, else `token_efficiency:`, else None."""
    for name in ("equal_function_sets", "token_efficiency"):
        block = blocks.get(name)
        if block is not None:
            return list(getattr(block, "classes"))  # noqa: B009 - both blocks carry `classes`
    return None


def block_problems(blocks: Mapping[str, GateConfig]) -> list[str]:
    """Mistakes across a test's blocks that no single block can see (for the suite loader to report)."""
    problems = []
    found = blocks.get("discovery")
    if isinstance(found, DiscoveryConfig) and found.name_free and classes_for(blocks) is None:
        problems.append("discovery.name_free: true needs an equal_function_sets: block to judge the tool path against")
    return problems
