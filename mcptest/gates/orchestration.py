"""The five orchestration diagnostics (`orchestration:`): discovery, parameterization, syntax, recovery, efficiency."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from mcptest.core.stats import percent
from mcptest.gates.equal_function_sets import class_index, classes_of, score
from mcptest.gates.outcome import GateContext, GateOutcome, failure_lines, judged, plural, runs, status
from mcptest.records.trace import ToolCall, Trace
from mcptest.suite.blocks.gate import FunctionClass
from mcptest.suite.blocks.orchestration import OrchestrationConfig

BLOCK = "orchestration"
DEFAULT_GATE = ()


def well_formed(call: ToolCall) -> bool:
    """A non-empty tool-name string paired with a JSON object of arguments that parsed."""
    return bool(call.name) and isinstance(call.args, dict) and not call.unparseable_arguments


def has_arguments(call: ToolCall) -> bool:
    """The arguments are a non-empty JSON object."""
    return isinstance(call.args, dict) and bool(call.args)


def unrecovered(calls: Sequence[ToolCall], index: dict[str, list[str]]) -> list[int]:
    """Indexes of failed calls with no later success on the same tool or on a tool of one of the same classes."""
    ok_ids: set[str] = set()
    ok_classes: set[str] = set()
    out = []
    for i in range(len(calls) - 1, -1, -1):
        call, classes = calls[i], set(classes_of(calls[i], index))
        if call.is_error and call.id not in ok_ids and not classes & ok_classes:
            out.append(i)
        if not call.is_error:
            ok_ids.add(call.id)
            ok_classes |= classes
    return out[::-1]


@dataclass(frozen=True)
class Diagnostics:
    """Counts pooled over the runs."""

    calls: int
    with_arguments: int
    well_formed: int
    errors: int
    recovered: int
    optimal: int


def diagnose(traces: Sequence[Trace], classes: Sequence[FunctionClass]) -> tuple[Diagnostics, list[dict[str, Any]]]:
    """Pool the counts over every run; also one row per run for the report."""
    index = class_index(classes)
    rows: list[dict[str, Any]] = []
    for i, t in enumerate(traces, 1):
        run = t.tool_calls
        rows.append(
            {
                "run": i,
                "calls": len(run),
                "errors": sum(c.is_error for c in run),
                "without_arguments": [j for j, c in enumerate(run) if not has_arguments(c)],
                "malformed": [j for j, c in enumerate(run) if not well_formed(c)],
                "unrecovered": unrecovered(run, index),
            }
        )
    calls: int = sum(r["calls"] for r in rows)
    errors: int = sum(r["errors"] for r in rows)
    return Diagnostics(
        calls=calls,
        with_arguments=calls - sum(len(r["without_arguments"]) for r in rows),
        well_formed=calls - sum(len(r["malformed"]) for r in rows),
        errors=errors,
        recovered=errors - sum(len(r["unrecovered"]) for r in rows),
        optimal=len(classes) * len(traces),
    ), rows


def evaluate(traces: Sequence[Trace], config: OrchestrationConfig, context: GateContext) -> GateOutcome:
    """The five orchestration diagnostics (spec 000, "Name-free discovery"; MCP-Atlas 2602.00933).

    Counts are pooled over runs, then each is an integer percent (`mcptest.core.stats.percent`):
    `orchestration.discovery` = the equal_function_sets recall (classes reached / classes declared, micro-averaged).
    `orchestration.parameterization` = calls whose args are a non-empty JSON object / calls; no calls: 100.
    `orchestration.syntax` = well-formed calls (non-empty name, JSON-object args that parsed) / calls; no calls: 100.
    `orchestration.error_recovery` = failed calls followed later in the run by a successful call to the same tool
    or to a tool of the same class / failed calls; no failures: 100.
    `orchestration.efficiency` = min(1, optimal / calls) with optimal = declared classes × runs; no classes: 0,
    and no calls: 0 (nothing done is not efficient). Two classes over three calls: 2/3 -> 67.
    """
    classes = list(context.classes or [])
    d, rows = diagnose(runs(traces), classes)
    recall = score(classes, traces).percents()[1]
    targets = {
        "orchestration.discovery": recall,
        "orchestration.parameterization": percent(d.with_arguments, d.calls) if d.calls else 100,
        "orchestration.syntax": percent(d.well_formed, d.calls) if d.calls else 100,
        "orchestration.error_recovery": percent(d.recovered, d.errors) if d.errors else 100,
        "orchestration.efficiency": percent(min(d.optimal, d.calls), d.calls) if d.optimal and d.calls else 0,
    }
    detail = {"classes": len(classes), "calls": d.calls, "errors": d.errors, "recovered": d.recovered, "runs": rows}
    outcome = judged(BLOCK, dict(targets), config, DEFAULT_GATE, detail=detail)
    outcome.lines = [summary_line(outcome, context.label), *failure_lines(outcome)]
    return outcome


def summary_line(outcome: GateOutcome, label: str) -> str:
    """`orchestration [PASS] label: discovery 100, parameterization 100, syntax 100, error recovery 100, ...`."""
    t, d = outcome.targets, outcome.detail
    n = len(d["runs"])
    counts = [plural(d["classes"], "class", "classes"), plural(d["calls"], "call"), plural(d["errors"], "error")]
    counts[1] += f" over {n} runs" if n > 1 else ""
    return (
        f"orchestration {status(outcome)} {label}: discovery {t['orchestration.discovery']}, parameterization "
        f"{t['orchestration.parameterization']}, syntax {t['orchestration.syntax']}, error recovery "
        f"{t['orchestration.error_recovery']}, efficiency {t['orchestration.efficiency']} "
        f"({', '.join(counts)}, {d['recovered']} recovered)"
    )
