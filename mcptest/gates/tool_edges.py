"""Tool edges (`tool_edges:`): the tools a run may use, and the ones it must never touch."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mcptest.core.stats import percent
from mcptest.gates.outcome import GateContext, GateOutcome, default, failure_lines, judged, plural, runs, status
from mcptest.records.trace import Trace
from mcptest.suite.blocks.tool_edges import ToolEdgesConfig

BLOCK = "tool_edges"
DEFAULT_GATE = (default("edges.restricted_attempts", "<=", 0),)


def run_edges(trace: Trace, config: ToolEdgesConfig) -> dict[str, Any]:
    """One run: the allowed tools it used, every call to a restricted tool, and every call outside `allowed`."""
    allowed, restricted_ids = set(config.allowed or []), set(config.restricted)
    restricted, outside = [], []
    for i, call in enumerate(trace.tool_calls, 1):
        if call.id in restricted_ids or call.name in restricted_ids:
            restricted.append(f"{i}:{call.id}")
        elif config.allowed is not None and call.id not in allowed and call.name not in allowed:
            outside.append(f"{i}:{call.id}")
    called = {c.id for c in trace.tool_calls} | {c.name for c in trace.tool_calls}
    used = [a for a in config.allowed or [] if a in called]  # an id matches a call equal to its id or bare name
    return {"used": used, "restricted": restricted, "outside": outside}


def evaluate(traces: Sequence[Trace], config: ToolEdgesConfig, context: GateContext) -> GateOutcome:
    """Allowed and restricted tools (spec 000, "Reliability and trace metrics"; reference: the original's
    `tool_edges:`, any restricted call fails).

    Tool ids match as everywhere: `server.tool` that server's tool, a bare name the tool on any server.
    `edges.allowed_pct` = distinct allowed tools called × 100 / allowed tools, per run, pooled over runs (sum of the
    runs' distinct counts / (allowed tools × runs)); absent without `allowed:`. `edges.restricted_attempts` counts
    every call to a restricted tool, failed or not, summed over runs. `edges.outside_allowed` counts calls to tools
    neither allowed nor restricted (absent without `allowed:`). `edges.gate_passed` = 1 when no run touched a
    restricted tool, else 0. Default gate: edges.restricted_attempts <= 0.
    """
    rows = [{"run": i, **run_edges(t, config)} for i, t in enumerate(runs(traces), 1)]
    attempts = sum(len(r["restricted"]) for r in rows)
    targets: dict[str, int | float] = {"edges.restricted_attempts": attempts, "edges.gate_passed": int(attempts == 0)}
    undefined = {}
    if config.allowed is None:
        why = "no `allowed:` list was given"
        undefined = {"edges.allowed_pct": why, "edges.outside_allowed": why}
    else:
        slots = len(config.allowed) * len(rows)
        targets["edges.allowed_pct"] = percent(sum(len(r["used"]) for r in rows), slots) if slots else 100
        targets["edges.outside_allowed"] = sum(len(r["outside"]) for r in rows)
    detail = {"allowed": config.allowed, "restricted": config.restricted, "runs": rows}
    outcome = judged(BLOCK, targets, config, DEFAULT_GATE, undefined=undefined, detail=detail)
    outcome.lines = [summary_line(outcome, context.label), *failure_lines(outcome), *detail_lines(rows)]
    return outcome


def summary_line(outcome: GateOutcome, label: str) -> str:
    """`tool edges [FAIL] label: 1 restricted attempt, allowed tools used 67%, 0 calls outside allowed`."""
    t = outcome.targets
    parts = [plural(int(t["edges.restricted_attempts"]), "restricted attempt")]
    if "edges.allowed_pct" in t:
        parts.append(f"allowed tools used {t['edges.allowed_pct']}%")
        parts.append(f"{plural(int(t['edges.outside_allowed']), 'call')} outside allowed")
    return f"tool edges {status(outcome)} {label}: {', '.join(parts)}"


def detail_lines(rows: Sequence[dict[str, Any]]) -> list[str]:
    """Every call to a restricted tool and every call outside `allowed`, by run and position."""
    out = []
    for r in rows:
        where = f"run {r['run']}: " if len(rows) > 1 else ""
        if r["restricted"]:
            out.append(f"RESTRICTED {where}calls {', '.join(r['restricted'])}")
        if r["outside"]:
            out.append(f"OUTSIDE {where}calls {', '.join(r['outside'])}")
    return out
