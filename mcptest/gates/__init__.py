"""The trace gates: deterministic, model-free scores of recorded runs. The registry is the one list `GATES`.

Each gate is a block under an agent test (its YAML key), a pydantic config model, a pure function
`evaluate(traces, config, context) -> GateOutcome` whose docstring gives the formula and its source, and the default
gate applied when the block's `expect:` is omitted or empty. Blocks run in registry order.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from mcptest.expect import Assertion
from mcptest.gates import (
    calls,
    discovery,
    distractors,
    equal_function_sets,
    orchestration,
    token_efficiency,
    tool_selection,
    workflow,
)
from mcptest.gates.equal_function_sets import FunctionClass
from mcptest.gates.outcome import GateConfig, GateContext, GateOutcome
from mcptest.trace import Trace

__all__ = ["GATES", "Gate", "GateConfig", "GateContext", "GateOutcome", "evaluate_blocks", "gate"]


@dataclass(frozen=True)
class Gate:
    """One gate block: its YAML key, config model, evaluate function and default gate."""

    name: str
    config: type[GateConfig]
    evaluate: Callable[[Sequence[Trace], Any, GateContext], GateOutcome]
    default_gate: tuple[Assertion, ...]

    @property
    def doc(self) -> str:
        """The gate's documentation: the evaluate function's docstring (formula and source)."""
        return inspect.getdoc(self.evaluate) or ""


GATES: tuple[Gate, ...] = (
    Gate(
        "equal_function_sets",
        equal_function_sets.EqualFunctionSetsConfig,
        equal_function_sets.evaluate,
        equal_function_sets.DEFAULT_GATE,
    ),
    Gate("tool_selection", tool_selection.ToolSelectionConfig, tool_selection.evaluate, tool_selection.DEFAULT_GATE),
    Gate("distractors", distractors.DistractorsConfig, distractors.evaluate, distractors.DEFAULT_GATE),
    Gate("discovery", discovery.DiscoveryConfig, discovery.evaluate, discovery.DEFAULT_GATE),
    Gate("orchestration", orchestration.OrchestrationConfig, orchestration.evaluate, orchestration.DEFAULT_GATE),
    Gate(
        "token_efficiency",
        token_efficiency.TokenEfficiencyConfig,
        token_efficiency.evaluate,
        token_efficiency.DEFAULT_GATE,
    ),
    Gate("calls", calls.CallsConfig, calls.evaluate, calls.DEFAULT_GATE),
    Gate("workflow", workflow.WorkflowConfig, workflow.evaluate, workflow.DEFAULT_GATE),
)


def gate(name: str) -> Gate:
    """The gate whose YAML key is `name` (KeyError otherwise)."""
    for g in GATES:
        if g.name == name:
            return g
    raise KeyError(name)


def blocks_of(test: BaseModel | Mapping[str, Any]) -> dict[str, GateConfig]:
    """The gate blocks a test declares, by YAML key: from a model's attributes or a mapping's keys."""
    get = test.get if isinstance(test, Mapping) else (lambda name: getattr(test, name, None))
    return {g.name: block for g in GATES if (block := get(g.name)) is not None}


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
    if isinstance(found, discovery.DiscoveryConfig) and found.name_free and classes_for(blocks) is None:
        problems.append("discovery.name_free: true needs an equal_function_sets: block to judge the tool path against")
    return problems


def evaluate_blocks(
    blocks: Mapping[str, GateConfig], traces: Sequence[Trace], *, label: str = "", prompt: str | None = None
) -> list[GateOutcome]:
    """Run every declared block over a test's runs, in registry order; `label` names the row in report lines."""
    context = GateContext(label=label, classes=classes_for(blocks), prompt=prompt)
    return [g.evaluate(traces, blocks[g.name], context) for g in GATES if blocks.get(g.name) is not None]
