"""Matching a run's calls against expected steps: the one implementation under `trajectory:` and `workflow:`."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from mcptest.expect.assertions import TargetMissing, resolve
from mcptest.gates.equal_function_sets import matches
from mcptest.records.trace import ToolCall
from mcptest.suite.blocks.trajectory import Step

MODES = ("strict", "subsequence", "subset", "unordered")


def arg_problems(step: Step, call: ToolCall) -> list[str]:
    """Why the call's arguments fail the step's matchers (empty when every matcher holds)."""
    out = []
    for path, matcher in step.args.items():
        try:
            actual = resolve(call.args if isinstance(call.args, dict) else {}, path)
        except TargetMissing:
            out.append(f"{path} is absent")
            continue
        why = matcher.test(actual)
        if why is not None:
            out.append(f"{path}: {why}")
    return out


def step_holds(step: Step, call: ToolCall) -> bool:
    """A step matches a call when the tool matches and every argument matcher holds."""
    return matches(step.tool, call) and not arg_problems(step, call)


@dataclass(frozen=True)
class Alignment:
    """Steps matched against calls: for each step the index of its call (or None), and the calls left over."""

    mode: str
    pairs: tuple[int | None, ...]
    extra: tuple[int, ...]
    matched: bool

    @property
    def matched_steps(self) -> int:
        """How many steps found their call."""
        return sum(p is not None for p in self.pairs)


def align(steps: Sequence[Step], calls: Sequence[ToolCall], mode: str) -> Alignment:
    """Match `steps` against `calls` under `mode` (strict | subsequence | subset | unordered).

    strict: step i against call i, and no call beyond the steps. subsequence: the most steps that appear in order
    (a longest common subsequence where "equal" is "the step matches the call"). subset and unordered: the most
    steps matched each by its own call in any order (a maximum bipartite matching); unordered also needs as many
    calls as steps. Deterministic: ties go to the earliest call.
    """
    ok = holds(steps, calls)
    if mode == "strict":
        pairs = tuple(i if i in ok[i] else None for i in range(len(steps)))
        matched = len(calls) == len(steps) and all(p is not None for p in pairs)
    elif mode == "subsequence":
        pairs = _earliest(ok) or _in_order(ok, len(calls))
        matched = all(p is not None for p in pairs)
    elif mode in ("subset", "unordered"):
        pairs = _any_order(ok, len(calls))
        matched = all(p is not None for p in pairs) and (mode == "subset" or len(calls) == len(steps))
    else:
        raise ValueError(f"unknown mode {mode!r} (one of {', '.join(MODES)})")
    used = {p for p in pairs if p is not None}
    extra = tuple(j for j in range(len(calls)) if j not in used)
    return Alignment(mode, pairs, extra, matched)


def holds(steps: Sequence[Step], calls: Sequence[ToolCall]) -> list[set[int]]:
    """For each step, the indexes of the calls it matches (found by tool first, then the argument matchers)."""
    where: dict[str, list[int]] = {}
    for j, call in enumerate(calls):
        where.setdefault(call.id, []).append(j)
        if call.name != call.id:
            where.setdefault(call.name, []).append(j)
    return [{j for j in where.get(s.tool, ()) if not s.args or not arg_problems(s, calls[j])} for s in steps]


def _earliest(ok: list[set[int]]) -> tuple[int, ...] | None:
    """Each step at its earliest call after the previous one, when that places every step (else None)."""
    pairs, last = [], -1
    for fits in ok:
        after = [j for j in fits if j > last]
        if not after:
            return None
        last = min(after)
        pairs.append(last)
    return tuple(pairs)


def _in_order(ok: list[set[int]], n: int) -> tuple[int | None, ...]:
    m = len(ok)
    best = [[0] * (n + 1) for _ in range(m + 1)]  # best[i][j]: steps i.. matched in order within calls j..
    for i in range(m - 1, -1, -1):
        row, below = best[i], best[i + 1]
        for j in range(n - 1, -1, -1):
            row[j] = max(below[j], row[j + 1], below[j + 1] + 1 if j in ok[i] else 0)
    pairs: list[int | None] = []
    i = j = 0
    while i < m:
        if j < n and j in ok[i] and best[i][j] == best[i + 1][j + 1] + 1:
            pairs.append(j)
            i, j = i + 1, j + 1
        elif j < n and best[i][j] == best[i][j + 1]:
            j += 1
        else:
            pairs.append(None)
            i += 1
    return tuple(pairs)


def _any_order(ok: list[set[int]], n: int) -> tuple[int | None, ...]:
    owner: list[int | None] = [None] * n  # call j -> the step holding it

    def claim(i: int, seen: set[int]) -> bool:
        for j in sorted(ok[i]):
            if j not in seen:
                seen.add(j)
                holder = owner[j]
                if holder is None or claim(holder, seen):
                    owner[j] = i
                    return True
        return False

    for i in range(len(ok)):
        claim(i, set())
    pairs: list[int | None] = [None] * len(ok)
    for j, holder in enumerate(owner):
        if holder is not None:
            pairs[holder] = j
    return tuple(pairs)


_OPS = {"exact": "=", "regex": "~", ">=": ">=", ">": ">", "<=": "<=", "<": "<"}


def show_step(step: Step) -> str:
    """`fetch(url ~ ^https://)`: the tool and each argument matcher (the bare tool when none)."""
    parts = []
    for path, matcher in step.args.items():
        op = _OPS.get(matcher.kind, matcher.kind)
        expected = matcher.expected if matcher.kind == "regex" else short(matcher.expected)
        parts.append(f"{path} {op} {expected}")
    return f"{step.tool}({', '.join(parts)})" if parts else step.tool


def show_call(call: ToolCall, only: Sequence[str] | None = None, limit: int = 3) -> str:
    """`fetch(url="ftp://…")`: the tool and its arguments (the `only` ones when given), values shortened."""
    args = call.args if isinstance(call.args, dict) else {}
    keys = [k for k in only if _present(args, k)] if only else list(args)
    shown = [f"{k}={short(resolve(args, k))}" for k in keys[:limit]]
    if len(keys) > limit:
        shown.append("…")
    if not isinstance(call.args, dict):
        shown = [short(call.args)]
    return f"{call.id}({', '.join(shown)})"


def short(value: Any, limit: int = 40) -> str:
    """A JSON value for a message; a long string keeps its quotes and ends in `…`."""
    if isinstance(value, str) and len(value) > limit:
        value = value[: limit - 1] + "…"
    text = json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= limit + 2 else text[: limit - 1] + "…"


def _present(args: dict[str, Any], path: str) -> bool:
    try:
        resolve(args, path)
    except TargetMissing:
        return False
    return True


def diffs(
    steps: Sequence[Step], calls: Sequence[ToolCall], a: Alignment, shown_steps: Sequence[str] | None = None
) -> list[dict[str, Any]]:
    """One entry per position that did not match: `step 2: expected fetch(url ~ ^https://), got fetch(...)`."""
    out: list[dict[str, Any]] = []
    used = {p for p in a.pairs if p is not None}
    for i, (step, pair) in enumerate(zip(steps, a.pairs, strict=True)):
        if pair is not None:
            continue
        got = _candidate(step, i, calls, a, used)
        shown = "nothing" if a.mode == "strict" else f"no call to {step.tool}"
        after = [p for p in a.pairs[:i] if p is not None] if a.mode == "subsequence" else []
        shown += f" after call {after[-1] + 1}" if after else ""
        why: list[str] = []
        if got is not None:
            call = calls[got]
            fits = matches(step.tool, call)
            shown = show_call(call, list(step.args) if fits else None)
            why = arg_problems(step, call) if fits else [f"{call.id} is not {step.tool}"]
        expected = shown_steps[i] if shown_steps else show_step(step)
        message = f"step {i + 1}: expected {expected}, got {shown}"
        out.append({"step": i + 1, "call": None if got is None else got + 1, "message": message, "why": why})
    if a.mode in ("strict", "unordered"):
        nearest = {d["call"] for d in out}
        for j in a.extra:
            if j + 1 in nearest:
                continue  # already reported against the step it was nearest to
            message = f"call {j + 1}: unexpected {show_call(calls[j])} ({a.mode} allows no other call)"
            out.append({"step": None, "call": j + 1, "message": message, "why": []})
    return out


def _candidate(step: Step, i: int, calls: Sequence[ToolCall], a: Alignment, used: set[int]) -> int | None:
    """The call to show against an unmatched step: at its position (strict), or the nearest call to its tool."""
    if a.mode == "strict":
        return i if i < len(calls) else None
    start = 0
    if a.mode == "subsequence":
        before = [p for p in a.pairs[:i] if p is not None]
        start = before[-1] + 1 if before else 0
    free = [j for j in range(start, len(calls)) if a.mode == "subsequence" or j not in used]
    return next((j for j in free if matches(step.tool, calls[j])), None)
