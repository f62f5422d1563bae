"""Call hygiene (`calls:`): valid arguments, first-try validity, validation loops, unknown and redundant calls."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

from mcptest.core.stats import percent
from mcptest.gates.arguments import Verdict, judge_run, show_value
from mcptest.gates.outcome import GateContext, GateOutcome, default, failure_lines, judged, plural, runs
from mcptest.gates.outcome import status as badge
from mcptest.records.trace import ToolCall, Trace
from mcptest.suite.blocks.calls import CallsConfig

BLOCK = "calls"
DEFAULT_GATE = (
    default("calls.valid_args", ">=", 90),
    default("calls.validation_loops", "<=", 0),
    default("calls.unknown_tool", "<=", 0),
    default("calls.redundant", "<=", 0),
)
_READ_PREFIX = re.compile(r"^(list|get|search|find|read|describe|fetch|query)_", re.IGNORECASE)


def loops_of(judged_calls: Sequence[tuple[ToolCall, Verdict]], min_loop: int) -> list[dict[str, Any]]:
    """Runs of `min_loop`+ failed calls to one known tool, ended by a success (recovered) or the run's end."""
    streaks: dict[str, list[tuple[ToolCall, Verdict]]] = {}
    found: list[dict[str, Any]] = []

    def close(name: str, outcome: str) -> None:
        streak = streaks.pop(name, [])
        start = starts.pop(name, 0)
        if len(streak) >= min_loop:
            found.append({**_loop(name, streak, outcome), "start": start})

    starts: dict[str, int] = {}
    for i, (call, verdict) in enumerate(judged_calls):
        if not verdict.known:
            continue
        if verdict.failed:
            starts.setdefault(call.name, i)
            streaks.setdefault(call.name, []).append((call, verdict))
        else:
            close(call.name, "recovered")
    for name in list(streaks):
        close(name, "abandoned")
    return sorted(found, key=lambda loop: loop["start"])


def _loop(name: str, streak: list[tuple[ToolCall, Verdict]], outcome: str) -> dict[str, Any]:
    bad: dict[str, list[str]] = {}
    for _, verdict in streak:
        for field, value, _message in verdict.problems:
            if field:
                shown = show_value(value)
                if shown not in bad.setdefault(field, []):
                    bad[field].append(shown)
    log = [f"{name}: FAIL - {v.problems[0][2]}" for _, v in streak]
    return {"tool": name, "failures": len(streak), "outcome": outcome, "log": log, "bad_values": bad}


def redundant_calls(trace: Trace, config: CallsConfig) -> list[str]:
    """Re-calls of a discovery tool with arguments it was already called with, in this run."""
    read_only = {
        e.tool.get("name") for e in trace.catalog or [] if (e.tool.get("annotations") or {}).get("readOnlyHint")
    }
    seen: set[tuple[str, str]] = set()
    out = []
    for call in trace.tool_calls:
        discovery = (
            call.name in config.discovery_tools
            if config.discovery_tools is not None
            else (call.name in read_only or bool(_READ_PREFIX.match(call.name)))
        )
        if not discovery or call.is_error:
            continue
        key = (call.id, json.dumps(call.args, sort_keys=True, default=str))
        if key in seen:
            out.append(f"{call.name}({_args(call)})")
        seen.add(key)
    return out


def _args(call: ToolCall) -> str:
    if not isinstance(call.args, dict) or not call.args:
        return ""
    return ", ".join(f"{k}={show_value(v)}" for k, v in call.args.items())


def evaluate(traces: Sequence[Trace], config: CallsConfig, context: GateContext) -> GateOutcome:
    """Call hygiene, judged offline against the catalog each run was shown (spec 002's failure classes).

    Counts are pooled over runs; percents are integer (`mcptest.core.stats.percent`).
    `calls.valid_args` = calls to known tools whose arguments satisfy the tool's `inputSchema` (and the block's
    `constraints:`) and that did not come back `isError` / calls to known tools; no such calls: 100.
    `calls.first_try_valid` = (run, tool) pairs whose first call was valid / (run, tool) pairs; none: 100.
    `calls.validation_loops` = streaks of `min_loop` (2) or more failed calls to one tool, ended by a success
    ("recovered") or the end of the run ("abandoned"); calls to other tools in between do not break a streak.
    `calls.longest_loop` = the most failed calls in one loop (0 with none).
    `calls.unknown_tool` = calls naming a tool that was not in the catalog the model saw.
    `calls.redundant` = identical re-calls (same tool, same arguments) of a discovery tool within a run.
    Default gate: valid_args >= 90, validation_loops <= 0, unknown_tool <= 0, redundant <= 0.
    """
    rows: list[dict[str, Any]] = []
    for i, trace in enumerate(runs(traces), 1):
        judged_calls = judge_run(trace, config.constraints)
        rows.append(_run_row(i, trace, judged_calls, config))
    known = sum(r["known"] for r in rows)
    tools = sum(r["tools"] for r in rows)
    loops = [loop for r in rows for loop in r["loops"]]
    targets: dict[str, int | float] = {
        "calls.valid_args": percent(sum(r["valid"] for r in rows), known) if known else 100,
        "calls.first_try_valid": percent(sum(r["first_try"] for r in rows), tools) if tools else 100,
        "calls.validation_loops": len(loops),
        "calls.longest_loop": max((loop["failures"] for loop in loops), default=0),
        "calls.unknown_tool": sum(len(r["unknown"]) for r in rows),
        "calls.redundant": sum(len(r["redundant"]) for r in rows),
    }
    detail = {"calls": sum(r["calls"] for r in rows), "known": known, "runs": rows}
    outcome = judged(BLOCK, targets, config, DEFAULT_GATE, detail=detail)
    outcome.lines = [summary_line(outcome, context.label), *failure_lines(outcome), *detail_lines(rows, len(rows))]
    return outcome


def _run_row(i: int, trace: Trace, judged_calls: list[tuple[ToolCall, Verdict]], config: CallsConfig) -> dict[str, Any]:
    first: dict[str, bool] = {}
    for call, verdict in judged_calls:
        if verdict.known:
            first.setdefault(call.name, verdict.valid)
    return {
        "run": i,
        "calls": len(judged_calls),
        "known": sum(v.known for _, v in judged_calls),
        "valid": sum(v.known and v.valid for _, v in judged_calls),
        "tools": len(first),
        "first_try": sum(first.values()),
        "first_try_failed": sorted(t for t, ok in first.items() if not ok),
        "loops": loops_of(judged_calls, config.min_loop),
        "unknown": [c.name for c, v in judged_calls if not v.known],
        "redundant": redundant_calls(trace, config),
        "invalid": [f"{c.name}: FAIL - {v.problems[0][2]}" for c, v in judged_calls if v.known and not v.valid],
    }


def summary_line(outcome: GateOutcome, label: str) -> str:
    """`calls [FAIL] label: 14 of 21 calls valid (67%), first-try valid 80%, 2 validation loops (longest 4), ...`."""
    t, d = outcome.targets, outcome.detail
    valid = sum(r["valid"] for r in d["runs"])
    loops = plural(int(t["calls.validation_loops"]), "validation loop")
    return (
        f"calls {badge(outcome)} {label}: {valid} of {d['known']} calls valid ({t['calls.valid_args']}%), "
        f"first-try valid {t['calls.first_try_valid']}%, {loops} (longest {t['calls.longest_loop']}), "
        f"{plural(int(t['calls.unknown_tool']), 'unknown tool call')}, "
        f"{plural(int(t['calls.redundant']), 'redundant call')}"
    )


def detail_lines(rows: Sequence[dict[str, Any]], total: int) -> list[str]:
    """The loops as the document's log reads, then unknown and redundant calls, per run."""
    out = []
    for r in rows:
        where = f"run {r['run']}: " if total > 1 else ""
        for loop in r["loops"]:
            out.append(f"LOOP {where}{loop['tool']}: {loop['failures']} failed calls, then {loop['outcome']}")
            out += [f"  {line}" for line in loop["log"]]
            out += [f"  bad values tried: {f} = {', '.join(v)}" for f, v in loop["bad_values"].items()]
        out += [f"UNKNOWN {where}{name}: not in the catalog the model saw" for name in r["unknown"]]
        out += [f"REDUNDANT {where}{call}: already called with these arguments" for call in r["redundant"]]
        if r["first_try_failed"]:
            out.append(f"FIRST TRY {where}failed for {', '.join(r['first_try_failed'])}")
    return out
