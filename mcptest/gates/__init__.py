"""The trace gates: deterministic, model-free scores of recorded runs. The registry is the one list `GATES`.

Each gate is a block under an agent test (its YAML key), a pydantic config model, a pure function
`evaluate(traces, config, context) -> GateOutcome` whose docstring gives the formula and its source, and the default
gate applied when the block's `expect:` is omitted or empty. Blocks run in registry order.

May import: core, expect, records, checks, providers, suite, server, mock, cassette.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from mcptest.expect.assertions import Assertion
from mcptest.gates import (
    calls,
    discovery,
    distractors,
    equal_function_sets,
    golden_path,
    narrative,
    orchestration,
    stability,
    token_efficiency,
    tool_edges,
    tool_selection,
    trajectory,
    workflow,
)
from mcptest.gates.outcome import GateContext, GateOutcome
from mcptest.records.trace import Trace
from mcptest.suite.blocks.gate import GateConfig
from mcptest.suite.blocks.registry import BLOCKS, block_problems, blocks_of, classes_for

__all__ = [
    "GATES",
    "Gate",
    "GateConfig",
    "GateContext",
    "GateOutcome",
    "block_problems",
    "blocks_of",
    "classes_for",
    "evaluate_blocks",
    "gate",
]


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


# In the order of `BLOCKS`, the suite's block keys; a test pins that the two agree.
_SCORING = (
    equal_function_sets,
    tool_selection,
    distractors,
    discovery,
    orchestration,
    token_efficiency,
    calls,
    workflow,
    trajectory,
    golden_path,
    tool_edges,
    stability,
    narrative,
)
GATES: tuple[Gate, ...] = tuple(Gate(m.BLOCK, BLOCKS[m.BLOCK], m.evaluate, m.DEFAULT_GATE) for m in _SCORING)


def gate(name: str) -> Gate:
    """The gate whose YAML key is `name` (KeyError otherwise)."""
    for g in GATES:
        if g.name == name:
            return g
    raise KeyError(name)


def evaluate_blocks(
    blocks: Mapping[str, GateConfig], traces: Sequence[Trace], *, label: str = "", prompt: str | None = None
) -> list[GateOutcome]:
    """Run every declared block over a test's runs, in registry order; `label` names the row in report lines."""
    context = GateContext(label=label, classes=classes_for(blocks), prompt=prompt)
    return [g.evaluate(traces, blocks[g.name], context) for g in GATES if blocks.get(g.name) is not None]
