"""The golden path (`golden_path:`): did the run reach the goal, and how many steps did it waste on the way."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from mcptest.core.stats import percent
from mcptest.gates.equal_function_sets import matches
from mcptest.gates.outcome import GateContext, GateOutcome, default, failure_lines, judged, plural, runs, status
from mcptest.records.trace import ToolCall, Trace
from mcptest.suite.blocks.golden_path import GoldenPathConfig

BLOCK = "golden_path"
DEFAULT_GATE = (default("golden_path.reached", ">=", 1), default("golden_path.efficiency", ">=", 50))


@dataclass(frozen=True)
class Walk:
    """One run walked against the golden calls."""

    reached: int
    calls: int
    extra: list[int]
    repeats: list[int]
    backtracks: list[int]

    def efficiency(self, golden: int) -> Fraction:
        """golden steps / all calls when every golden step was reached, else 0 (as an exact ratio)."""
        return Fraction(golden, self.calls) if self.reached == golden else Fraction(0)


def walk(golden: Sequence[str], calls: Sequence[ToolCall]) -> Walk:
    """Walk the calls once, waiting for one golden step at a time (the golden calls as a subsequence).

    A successful call that is the step being waited for advances; any other call is extra (a failed call did not
    do the step). A call to a golden step earlier
    than the furthest one reached is a backtrack; a call to the same tool as the call just before is a repeat.
    """
    k = 0
    extra, repeats, backtracks = [], [], []
    earlier: set[str] = set()  # the golden steps before the furthest one reached
    for i, call in enumerate(calls):
        if i and call.id == calls[i - 1].id:
            repeats.append(i)
        if k < len(golden) and not call.is_error and matches(golden[k], call):
            if k:
                earlier.add(golden[k - 1])
            k += 1
            continue
        extra.append(i)
        if call.id in earlier or call.name in earlier:
            backtracks.append(i)
    return Walk(k, len(calls), extra, repeats, backtracks)


def evaluate(traces: Sequence[Trace], config: GoldenPathConfig, context: GateContext) -> GateOutcome:
    """Reached without wasted steps, backtracks or repeats (golden-path efficiency; spec 000, "Reliability and trace
    metrics").

    Per run: reached = the golden calls occur in order (as a subsequence of the successful calls); extra = calls
    that are not the golden step being waited for (a failed call is extra, and so is every call after the last
    golden step); repeats = calls to the same tool as the
    call just before; backtracks = calls to a golden step earlier than the furthest one reached; efficiency =
    golden steps × 100 / all calls when reached, else 0.
    Folded over runs: `golden_path.reached` = 1 when every run reached, else 0; `golden_path.reached_runs` = runs
    that reached; `golden_path.efficiency` = the mean of the runs' exact efficiencies as an integer percent (round
    half up); `golden_path.extra`, `golden_path.backtracks`, `golden_path.repeats` are summed over runs.
    Default gate: golden_path.reached >= 1, golden_path.efficiency >= 50.
    """
    golden = config.calls
    walks = [walk(golden, t.tool_calls) for t in runs(traces)]
    reached = sum(w.reached == len(golden) for w in walks)
    mean = sum((w.efficiency(len(golden)) for w in walks), Fraction(0)) / len(walks)
    targets: dict[str, int | float] = {
        "golden_path.reached": int(reached == len(walks)),
        "golden_path.reached_runs": reached,
        "golden_path.efficiency": percent(mean),
        "golden_path.extra": sum(len(w.extra) for w in walks),
        "golden_path.backtracks": sum(len(w.backtracks) for w in walks),
        "golden_path.repeats": sum(len(w.repeats) for w in walks),
    }
    rows = [_row(i, w, traces[i - 1].tool_calls, golden) for i, w in enumerate(walks, 1)]
    outcome = judged(BLOCK, targets, config, DEFAULT_GATE, detail={"golden": golden, "runs": rows})
    outcome.lines = [summary_line(outcome, context.label), *failure_lines(outcome), *detail_lines(rows)]
    return outcome


def _row(i: int, w: Walk, calls: Sequence[ToolCall], golden: Sequence[str]) -> dict[str, Any]:
    return {
        "run": i,
        "reached_steps": w.reached,
        "calls": w.calls,
        "efficiency": percent(w.efficiency(len(golden))),
        "missing": list(golden[w.reached :]),
        "extra": [f"{j + 1}:{calls[j].id}" for j in w.extra],
        "backtracks": [f"{j + 1}:{calls[j].id}" for j in w.backtracks],
        "repeats": [f"{j + 1}:{calls[j].id}" for j in w.repeats],
    }


def summary_line(outcome: GateOutcome, label: str) -> str:
    """`golden path [PASS] label: reached in 1 of 1 runs, efficiency 60, 2 extra calls, 1 backtrack, 1 repeat`."""
    t = outcome.targets
    n = len(outcome.detail["runs"])
    return (
        f"golden path {status(outcome)} {label}: reached in {t['golden_path.reached_runs']} of {n} "
        f"{'run' if n == 1 else 'runs'}, efficiency {t['golden_path.efficiency']}, "
        f"{plural(int(t['golden_path.extra']), 'extra call')}, {plural(int(t['golden_path.backtracks']), 'backtrack')}"
        f", {plural(int(t['golden_path.repeats']), 'repeat')}"
    )


def detail_lines(rows: Sequence[dict[str, Any]]) -> list[str]:
    """Per run that strayed: the golden steps never reached, then the wasted calls by position."""
    out = []
    for r in rows:
        where = f"run {r['run']}: " if len(rows) > 1 else ""
        if r["missing"]:
            reached = plural(r["reached_steps"], "golden step")
            out.append(f"MISSING {where}never reached {' → '.join(r['missing'])} (reached {reached})")
        for kind in ("extra", "backtracks", "repeats"):
            if r[kind]:
                out.append(f"{kind.upper()} {where}calls {', '.join(r[kind])}")
    return out
