"""Pinned calls (`trajectory:`): tool, argument values and count, BFCL-style, with per-position diffs."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mcptest.gates.outcome import GateContext, GateOutcome, default, failure_lines, judged, runs, status
from mcptest.gates.sequence import align, diffs, show_step
from mcptest.records.trace import Trace
from mcptest.suite.blocks.trajectory import TrajectoryConfig

BLOCK = "trajectory"
DEFAULT_GATE = (default("trajectory.matched", ">=", 1),)


def evaluate(traces: Sequence[Trace], config: TrajectoryConfig, context: GateContext) -> GateOutcome:
    """Match every run's calls against the expected steps (BFCL's AST check applied to a recorded trace; spec 000,
    "Reliability and trace metrics").

    A step matches a call when the tool matches (`server.tool` or bare) and every argument matcher holds; arguments
    the step does not name are not checked. Modes: strict = exactly these calls in this order and no other call;
    subsequence = these calls in this order, others allowed between; subset = every step matched by its own call,
    any order, others allowed; unordered = exactly these calls (same count), any order.
    Per run: matched_steps = steps matched at their position (strict), the most steps found in order
    (subsequence), or the most steps each matched by its own call (subset, unordered).
    Folded over runs: `trajectory.matched` = 1 when every run matched, else 0; `trajectory.matched_runs` = runs that
    matched; `trajectory.matched_steps` and `trajectory.expected_steps` (= steps × runs) are summed over runs.
    Default gate: trajectory.matched >= 1.
    """
    rows: list[dict[str, Any]] = []
    shown = [show_step(s) for s in config.steps]
    for i, trace in enumerate(runs(traces), 1):
        a = align(config.steps, trace.tool_calls, config.mode)
        rows.append(
            {
                "run": i,
                "matched": a.matched,
                "matched_steps": a.matched_steps,
                "calls": len(trace.tool_calls),
                "diffs": [] if a.matched else diffs(config.steps, trace.tool_calls, a, shown),
            }
        )
    matched_runs = sum(r["matched"] for r in rows)
    targets: dict[str, int | float] = {
        "trajectory.matched": int(matched_runs == len(rows)),
        "trajectory.matched_runs": matched_runs,
        "trajectory.matched_steps": sum(r["matched_steps"] for r in rows),
        "trajectory.expected_steps": len(config.steps) * len(rows),
    }
    outcome = judged(BLOCK, targets, config, DEFAULT_GATE, detail={"mode": config.mode, "runs": rows})
    outcome.lines = [summary_line(outcome, context.label), *failure_lines(outcome), *diff_lines(rows)]
    return outcome


def summary_line(outcome: GateOutcome, label: str) -> str:
    """`trajectory [FAIL] label: matched 0 of 1 runs (strict), 1 of 2 steps`."""
    t = outcome.targets
    n = len(outcome.detail["runs"])
    return (
        f"trajectory {status(outcome)} {label}: matched {t['trajectory.matched_runs']} of {n} "
        f"{'run' if n == 1 else 'runs'} ({outcome.detail['mode']}), "
        f"{t['trajectory.matched_steps']} of {t['trajectory.expected_steps']} steps"
    )


def diff_lines(rows: Sequence[dict[str, Any]]) -> list[str]:
    """Every position that did not match, per run, with why its arguments failed."""
    out = []
    for r in rows:
        where = f"run {r['run']}: " if len(rows) > 1 else ""
        for d in r["diffs"]:
            out.append(f"{where}{d['message']}")
            out += [f"  {why}" for why in d["why"]]
    return out
