"""Selection F1 over equal-function sets (`equal_function_sets:`): precision, recall and F1 against tool classes."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from mcptest.core.stats import percent
from mcptest.gates.outcome import GateContext, GateOutcome, default, failure_lines, judged, runs, status
from mcptest.records.trace import ToolCall, Trace
from mcptest.suite.blocks.equal_function_sets import EqualFunctionSetsConfig
from mcptest.suite.blocks.gate import FunctionClass

BLOCK = "equal_function_sets"
DEFAULT_GATE = (default("tool_selection.f1", ">=", 50),)


def matches(member: str, call: ToolCall) -> bool:
    """A member id matches a call equal to its qualified id `server.tool` or, bare, to its tool name."""
    return member in (call.id, call.name)


@dataclass(frozen=True)
class RunSelection:
    """One run scored against the classes."""

    hit: dict[str, str]
    missed: list[str]
    unexpected: list[str]

    @property
    def tp(self) -> int:
        """Classes reached."""
        return len(self.hit)

    @property
    def fn(self) -> int:
        """Classes never reached."""
        return len(self.missed)

    @property
    def fp(self) -> int:
        """Calls that reached no class (each such call counts)."""
        return len(self.unexpected)


@dataclass(frozen=True)
class Selection:
    """The runs scored and micro-averaged: counts summed over runs, percents derived from the sums."""

    runs: list[RunSelection] = field(default_factory=list)
    order: tuple[str, ...] = ()

    @property
    def tp(self) -> int:
        """True positives over every run."""
        return sum(r.tp for r in self.runs)

    @property
    def fp(self) -> int:
        """False positives over every run."""
        return sum(r.fp for r in self.runs)

    @property
    def fn(self) -> int:
        """False negatives over every run."""
        return sum(r.fn for r in self.runs)

    def percents(self) -> tuple[int, int, int]:
        """(precision, recall, F1): 100 each when nothing was declared or called; a zero denominator gives 0."""
        tp, fp, fn = self.tp, self.fp, self.fn
        if tp + fp + fn == 0:
            return 100, 100, 100
        precision = percent(tp, tp + fp) if tp + fp else 0
        recall = percent(tp, tp + fn) if tp + fn else 0
        return precision, recall, percent(2 * tp, 2 * tp + fp + fn)


def class_index(classes: Sequence[FunctionClass]) -> dict[str, list[str]]:
    """member id -> the names of the classes listing it."""
    index: dict[str, list[str]] = {}
    for c in classes:
        for member in dict.fromkeys(c.members):
            index.setdefault(member, []).append(c.name)
    return index


def classes_of(call: ToolCall, index: dict[str, list[str]]) -> list[str]:
    """The classes a call reaches: those with a member equal to its qualified id or its bare name."""
    return index.get(call.id, []) + (index.get(call.name, []) if call.name != call.id else [])


def score_run(classes: Sequence[FunctionClass], trace: Trace) -> RunSelection:
    """Walk the calls: a class is hit by its first member call; a call that names no member is unexpected."""
    index = class_index(classes)
    hit: dict[str, str] = {}
    unexpected = []
    for call in trace.tool_calls:
        names = classes_of(call, index)
        if not names:
            unexpected.append(call.id)
        for name in names:
            hit.setdefault(name, call.id)
    ordered = {c.name: hit[c.name] for c in classes if c.name in hit}
    return RunSelection(ordered, [c.name for c in classes if c.name not in hit], unexpected)


def score(classes: Sequence[FunctionClass], traces: Sequence[Trace]) -> Selection:
    """Score every run against the same classes."""
    return Selection([score_run(classes, t) for t in traces], tuple(c.name for c in classes))


def evaluate(traces: Sequence[Trace], config: EqualFunctionSetsConfig, context: GateContext) -> GateOutcome:
    """Selection precision, recall and F1 over equal-function sets (spec 000, "Selection F1"; MSC-Bench 2510.19423).

    Per run, each class is consumed at most once: a class is a true positive (TP) the first time a call names one of
    its members, a false negative (FN) when no call does; a call naming no member of any class is a false positive
    (FP); further calls to a reached class count nothing. A member `server.tool` matches that qualified id only; a
    bare `tool` matches the tool on any server. Runs are micro-averaged: TP, FP and FN are summed over runs, then
    precision = TP/(TP+FP), recall = TP/(TP+FN), F1 = 2TP/(2TP+FP+FN) (the harmonic mean of the two), each an
    integer percent (`mcptest.core.stats.percent`: half up, never rounded to 100 or 0). No classes and no calls: 100
    each; otherwise a zero denominator gives 0. Targets: `tool_selection.f1`, `tool_selection.precision`,
    `tool_selection.recall`. Default gate: `tool_selection.f1 >= 50`.
    """
    selection = score(config.classes, runs(traces))
    precision, recall, f1 = selection.percents()
    targets = {"tool_selection.f1": f1, "tool_selection.precision": precision, "tool_selection.recall": recall}
    outcome = judged(BLOCK, dict(targets), config, DEFAULT_GATE, detail=detail(selection))
    outcome.lines = lines(outcome, context.label)
    return outcome


def detail(selection: Selection) -> dict[str, object]:
    """Counts, missed classes, unexpected tools and one row per run, for the JSON report."""
    return {
        "tp": selection.tp,
        "fp": selection.fp,
        "fn": selection.fn,
        "missed_classes": missed(selection),
        "unexpected_tools": unexpected(selection),
        "runs": [
            {"run": i, "tp": r.tp, "fp": r.fp, "fn": r.fn, "hit": r.hit, "missed": r.missed, "unexpected": r.unexpected}
            for i, r in enumerate(selection.runs, 1)
        ],
    }


def missed(selection: Selection) -> dict[str, int]:
    """Each class missed in some run, in declaration order, with the number of runs that missed it."""
    counts = {name: sum(name in run.missed for run in selection.runs) for name in selection.order}
    return {name: k for name, k in counts.items() if k}


def unexpected(selection: Selection) -> list[str]:
    """The distinct tool ids that reached no class, in order of first call."""
    return list(dict.fromkeys(tool for run in selection.runs for tool in run.unexpected))


def lines(outcome: GateOutcome, label: str) -> list[str]:
    """`selection F1 [FAIL] label: F1 50, precision 50, recall 50 (1 TP, 1 FP, 1 FN); missed class: fetch; ...`."""
    t, d = outcome.targets, outcome.detail
    n = len(d["runs"])
    counts = f"{d['tp']} TP, {d['fp']} FP, {d['fn']} FN" + (f" over {n} runs" if n > 1 else "")
    text = (
        f"selection F1 {status(outcome)} {label}: F1 {t['tool_selection.f1']}, precision "
        f"{t['tool_selection.precision']}, recall {t['tool_selection.recall']} ({counts})"
    )
    if d["missed_classes"]:
        names = [c if n == 1 else f"{c} ({k} of {n} runs)" for c, k in d["missed_classes"].items()]
        text += f"; missed class{'es' if len(names) > 1 else ''}: {', '.join(names)}"
    if d["unexpected_tools"]:
        text += f"; unexpected tool{'s' if len(d['unexpected_tools']) > 1 else ''}: {', '.join(d['unexpected_tools'])}"
    return [text, *failure_lines(outcome)]
