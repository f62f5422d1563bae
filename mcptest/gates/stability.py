"""Within-run stability (`stability:`): thrashing, loops on a failing call, tokens spent without progress, recovery."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any

from mcptest.core.stats import percent
from mcptest.gates.outcome import GateContext, GateOutcome, default, failure_lines, judged, plural, runs, status
from mcptest.records.trace import ToolCall, Trace
from mcptest.suite.blocks.stability import StabilityConfig

BLOCK = "stability"
DEFAULT_GATE = (default("stability.drift_flags", "<=", 0),)
SUB_SCORES = ("thrash", "failure_loop", "progress", "recovery")
FLAGS = {"thrash": "thrashing", "failure_loop": "failure loop", "progress": "stalled", "recovery": "unrecovered"}


def _key(call: ToolCall) -> tuple[str, str]:
    args = call.args
    if isinstance(args, dict) and all(type(v) in _FLAT for v in args.values()):
        return call.id, _flat_json(tuple(sorted((k, type(v).__name__, v) for k, v in args.items())))
    return call.id, json.dumps(args, sort_keys=True, default=str)


_FLAT = (str, int, float, bool, type(None))


@lru_cache(maxsize=65536)
def _flat_json(items: tuple[tuple[str, str, Any], ...]) -> str:
    return json.dumps({k: v for k, _, v in items}, sort_keys=True)


@lru_cache(maxsize=65536)
def _tokens(text: str) -> int:
    from mcptest.core.tokens import count_tokens

    return count_tokens(text)


def call_tokens(call: ToolCall, args_json: str | None = None) -> int:
    """The call as the model's context grows by it: its name, its arguments as JSON and its result's text."""
    result = call.text or (json.dumps(call.structured_content, sort_keys=True) if call.structured_content else "")
    return _tokens(call.name) + _tokens(args_json or _key(call)[1]) + _tokens(result)


@dataclass(frozen=True)
class RunStability:
    """One run's counts; `measured` is False for a run with no within-run progression (one turn, under 2 calls)."""

    measured: bool
    calls: int = 0
    thrash: int = 0
    loops: int = 0
    tokens: int = 0
    progress_tokens: int = 0
    failed_tools: int = 0
    recovered_tools: int = 0
    steps_to_recover: int | None = None

    def scores(self) -> dict[str, int]:
        """The four sub-scores, 0..100 (100 = stable); all 100 when the run is not measured."""
        if not self.measured:
            return dict.fromkeys(SUB_SCORES, 100)
        return {
            "thrash": percent(self.calls - self.thrash, self.calls),
            "failure_loop": percent(self.calls - self.loops, self.calls),
            "progress": percent(self.progress_tokens, self.tokens) if self.tokens else 100,
            "recovery": percent(self.recovered_tools, self.failed_tools) if self.failed_tools else 100,
        }


def measure(trace: Trace) -> RunStability:
    """Count one run's thrash calls, failure-loop calls, progress tokens and recovered tools."""
    calls = trace.tool_calls
    if len(calls) < 2 or (trace.turns is not None and trace.turns <= 1):
        return RunStability(measured=False)
    keys = [_key(c) for c in calls]
    ok = [not c.is_error and not c.unknown_tool for c in calls]
    seen: set[tuple[str, str]] = set()
    done: set[tuple[str, str]] = set()
    thrash = loops = tokens = progress = 0
    for i, call in enumerate(calls):
        if i >= 2 and call.id == calls[i - 2].id != calls[i - 1].id and keys[i] in seen:
            thrash += 1
        if i >= 1 and not ok[i] and not ok[i - 1] and call.id == calls[i - 1].id:
            loops += 1
        cost = call_tokens(call, keys[i][1])
        tokens += cost
        if ok[i] and keys[i] not in done:
            progress += cost
            done.add(keys[i])
        seen.add(keys[i])
    last_failure = {c.id: i for i, c in enumerate(calls) if not ok[i]}
    recovered = sum(any(ok[j] and calls[j].id == t for j in range(i + 1, len(calls))) for t, i in last_failure.items())
    first = next((i for i in range(len(calls)) if not ok[i]), None)
    after = None if first is None else next((j for j in range(first + 1, len(calls)) if ok[j]), None)
    return RunStability(
        True, len(calls), thrash, loops, tokens, progress, len(last_failure), recovered,
        None if after is None or first is None else after - first,
    )  # fmt: skip


def evaluate(traces: Sequence[Trace], config: StabilityConfig, context: GateContext) -> GateOutcome:
    """Four within-run stability sub-scores and drift flags (seeded by the Agent Stability Index, arXiv:2601.04170;
    recovery after ToolMisuseBench, arXiv:2604.01508; spec 000, "Reliability and trace metrics").

    Per run, over its calls in order (a call "succeeds" when it is neither `is_error` nor an unknown tool):
    thrash = calls − thrash calls over calls, a thrash call being one that returns to the tool two calls back
    (A, B, A) with a tool and arguments already called in the run; failure_loop = calls − loop calls over calls, a
    loop call being a failed call right after a failed call to the same tool; progress = tokens of the calls that
    made progress over tokens of all calls, a call making progress when it succeeds with a tool and arguments not
    yet done successfully, a call's tokens being cl100k tokens of its name, its arguments JSON and its result
    text; recovery = tools whose last failure was followed by a success on the same tool over tools that failed
    (no failure: 100). Each is an integer percent, 100 = stable. A run of one turn or fewer than 2 calls has no
    progression: 100 everywhere, no flags, and it adds nothing to the pools.
    A drift flag is one run's sub-score below `threshold` (50). Folded over runs: each `stability.<sub-score>` is
    its counts pooled over the measured runs (100 with none); `stability.score` = the lowest of the four;
    `stability.drift_flags` = flags summed over runs; `stability.steps_to_recover` = ToolMisuseBench's
    TimeToRecovery (calls from a run's first failure to the next successful call), the mean over runs that had
    one (absent otherwise). Default gate: stability.drift_flags <= 0.
    """
    measured = [measure(t) for t in runs(traces)]
    pooled = _pool([m for m in measured if m.measured])
    scores = pooled.scores()
    rows: list[dict[str, Any]] = []
    for i, m in enumerate(measured, 1):
        run_scores = m.scores()
        flags = [FLAGS[s] for s in SUB_SCORES if run_scores[s] < config.threshold]
        rows.append({"run": i, "measured": m.measured, "scores": run_scores, "flags": flags, "calls": m.calls})
    targets: dict[str, int | float] = {f"stability.{s}": scores[s] for s in SUB_SCORES}
    targets["stability.score"] = min(scores.values())
    targets["stability.drift_flags"] = sum(len(r["flags"]) for r in rows)
    undefined = {}
    recoveries = [m.steps_to_recover for m in measured if m.steps_to_recover is not None]
    if recoveries:
        mean = Fraction(sum(recoveries), len(recoveries))
        targets["stability.steps_to_recover"] = int(mean) if mean.denominator == 1 else round(float(mean), 2)
    else:
        undefined["stability.steps_to_recover"] = "no run failed and then made a successful call"
    detail = {"threshold": config.threshold, "runs": rows}
    outcome = judged(BLOCK, targets, config, DEFAULT_GATE, undefined=undefined, detail=detail)
    outcome.lines = [summary_line(outcome, context.label), *failure_lines(outcome), *flag_lines(rows)]
    return outcome


def _pool(measured: Sequence[RunStability]) -> RunStability:
    if not measured:
        return RunStability(measured=False)
    total = RunStability(True)
    for m in measured:
        total = RunStability(
            True,
            total.calls + m.calls,
            total.thrash + m.thrash,
            total.loops + m.loops,
            total.tokens + m.tokens,
            total.progress_tokens + m.progress_tokens,
            total.failed_tools + m.failed_tools,
            total.recovered_tools + m.recovered_tools,
        )
    return total


def summary_line(outcome: GateOutcome, label: str) -> str:
    """`stability [PASS] label: score 80 (thrash 100, failure loop 100, progress 80, recovery 100), 0 drift flags`."""
    t = outcome.targets
    return (
        f"stability {status(outcome)} {label}: score {t['stability.score']} (thrash {t['stability.thrash']}, "
        f"failure loop {t['stability.failure_loop']}, progress {t['stability.progress']}, recovery "
        f"{t['stability.recovery']}), {plural(int(t['stability.drift_flags']), 'drift flag')}"
    )


def flag_lines(rows: Sequence[dict[str, Any]]) -> list[str]:
    """`DRIFT run 3: thrashing (thrash 40), stalled (progress 30)`: every flagged run."""
    out = []
    for r in rows:
        if r["flags"]:
            where = f"run {r['run']}: " if len(rows) > 1 else ""
            flagged = [s for s in SUB_SCORES if FLAGS[s] in r["flags"]]
            named = [f"{FLAGS[s]} ({s.replace('_', ' ')} {r['scores'][s]})" for s in flagged]
            out.append(f"DRIFT {where}{', '.join(named)}")
    return out
