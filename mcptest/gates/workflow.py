"""Order and data flow (`workflow:`): the creation order a scenario needs, and ids that flow between calls."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from mcptest.core.stats import percent
from mcptest.gates.arguments import show_value
from mcptest.gates.equal_function_sets import matches
from mcptest.gates.outcome import GateContext, GateOutcome, default, failure_lines, judged, runs
from mcptest.gates.outcome import status as badge
from mcptest.gates.sequence import align
from mcptest.records.trace import ToolCall, Trace
from mcptest.suite.blocks.trajectory import Step
from mcptest.suite.blocks.workflow import IdFlow, WorkflowConfig

BLOCK = "workflow"
DEFAULT_GATE = (default("workflow.in_order", ">=", 100), default("workflow.id_flow", ">=", 100))


def successful(trace: Trace) -> list[ToolCall]:
    """The calls that did not fail: the steps that actually happened."""
    return [c for c in trace.tool_calls if not c.is_error and not c.unknown_tool]


def order_holds(calls: Sequence[ToolCall], order: Sequence[str], match: str) -> bool:
    """Whether the successful calls follow `order` under `match`: the `trajectory:` matching on tool names only.

    subsequence and subset are trajectory's modes as they are; workflow's strict is trajectory's strict over the
    calls to listed tools with repeats collapsed (so a retry, or a call to an unlisted tool, does not break it).
    """
    steps = [Step(tool=tool) for tool in order]
    if match == "strict":
        listed = [c for c in calls if any(matches(tool, c) for tool in order)]
        calls = [c for i, c in enumerate(listed) if i == 0 or listed[i - 1].name != c.name]
    return align(steps, calls, match).matched


def string_values(value: Any) -> Iterator[str]:
    """Every string (and number, as text) inside a JSON value."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from string_values(v)
    elif isinstance(value, list):
        for v in value:
            yield from string_values(v)
    elif isinstance(value, int | float) and not isinstance(value, bool):
        yield str(value)


def returned(call: ToolCall, value: str) -> bool:
    """Whether `value` is in the call's result: a string value in its structured content, or a word of its text."""
    if value in string_values(call.structured_content):
        return True
    texts = [c.get("text", "") for c in call.content if isinstance(c, dict)]
    return any(value in string_values(_json(t)) or f'"{value}"' in t or value in t.split() for t in texts)


def _json(text: str) -> Any:
    import json

    try:
        return json.loads(text)
    except ValueError:
        return None


def id_checks(calls: Sequence[ToolCall], flows: Sequence[IdFlow]) -> list[tuple[bool, str]]:
    """One (held, why) per flow and per successful call to its target tool; a target never called fails."""
    out: list[tuple[bool, str]] = []
    for flow in flows:
        tool, arg = flow.to.split(".")
        targets = [(i, c) for i, c in enumerate(calls) if c.name == tool]
        if not targets:
            out.append((False, f"{tool} was never called successfully, so {flow.to} carried no id"))
        for i, call in targets:
            value = call.args.get(arg) if isinstance(call.args, dict) else None
            sources = [c for c in calls[:i] if c.name == flow.from_]
            if value is None:
                out.append((False, f"{flow.to} was not passed"))
            elif any(returned(c, str(value)) for c in sources):
                out.append((True, f"{flow.to} = {show_value(value)} came from {flow.from_}"))
            else:
                out.append((False, f"{flow.to} = {show_value(value)} was not returned by an earlier {flow.from_} call"))
    return out


def evaluate(traces: Sequence[Trace], config: WorkflowConfig, context: GateContext) -> GateOutcome:
    """Order and id flow over the successful calls of each run (spec 002, "Entity Creation Order").

    `workflow.in_order` = runs whose successful calls follow `order` under `match` / runs, as an integer percent;
    no `order`: 100. `workflow.steps_reached` = listed tools called successfully, pooled over runs / (tools × runs);
    no `order`: 100. `workflow.id_flow` = id checks that held / id checks, pooled; each successful call to a `to`
    tool is one check (its argument must appear in the result of an earlier successful `from` call: a string value
    of its structured content, or a value in its text); a `to` tool never called is one failed check; no `ids`: 100.
    Default gate: in_order >= 100, id_flow >= 100.
    """
    rows: list[dict[str, Any]] = []
    for i, trace in enumerate(runs(traces), 1):
        calls = successful(trace)
        reached = [step for step in config.order if any(c.name == step for c in calls)]
        checks = id_checks(calls, config.ids)
        rows.append(
            {
                "run": i,
                "in_order": order_holds(calls, config.order, config.match),
                "reached": reached,
                "seen": [c.name for c in calls],
                "checks": [{"held": h, "why": w} for h, w in checks],
            }
        )
    checks_all = [c for r in rows for c in r["checks"]]
    steps = len(config.order) * len(rows)
    targets: dict[str, int | float] = {
        "workflow.in_order": percent(sum(r["in_order"] for r in rows), len(rows)) if config.order else 100,
        "workflow.steps_reached": percent(sum(len(r["reached"]) for r in rows), steps) if steps else 100,
        "workflow.id_flow": percent(sum(c["held"] for c in checks_all), len(checks_all)) if checks_all else 100,
    }
    outcome = judged(BLOCK, targets, config, DEFAULT_GATE, detail={"order": config.order, "runs": rows})
    outcome.lines = [summary_line(outcome, context.label), *failure_lines(outcome), *detail_lines(config, rows)]
    return outcome


def summary_line(outcome: GateOutcome, label: str) -> str:
    """`workflow [FAIL] label: order followed in 0 of 1 runs, 4 of 4 steps reached (100%), id flow 2 of 3 (67%)`."""
    t = outcome.targets
    rows: list[dict[str, Any]] = outcome.detail["runs"]
    ordered = sum(r["in_order"] for r in rows)
    held = sum(c["held"] for r in rows for c in r["checks"])
    total = sum(len(r["checks"]) for r in rows)
    reached = sum(len(r["reached"]) for r in rows)
    steps = len(outcome.detail["order"]) * len(rows)
    return (
        f"workflow {badge(outcome)} {label}: order followed in {ordered} of {len(rows)} runs "
        f"({t['workflow.in_order']}%), {reached} of {steps} steps reached ({t['workflow.steps_reached']}%), "
        f"id flow {held} of {total} ({t['workflow.id_flow']}%)"
    )


def detail_lines(config: WorkflowConfig, rows: Sequence[dict[str, Any]]) -> list[str]:
    """What broke, per run: the order expected and the order seen, and every id that did not flow."""
    out = []
    for r in rows:
        where = f"run {r['run']}: " if len(rows) > 1 else ""
        if config.order and not r["in_order"]:
            seen = [n for n in r["seen"] if n in config.order]
            out.append(
                f"ORDER {where}expected {' → '.join(config.order)} ({config.match}); "
                f"saw {' → '.join(seen) or 'none of them'}"
            )
        out += [f"ID {where}{c['why']}" for c in r["checks"] if not c["held"]]
    return out
