"""Distractor accuracy (`distractors:`): does the agent still pick correctly when the tool list is padded?"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from mcptest.core.stats import clopper_pearson_lower, percent
from mcptest.gates.equal_function_sets import matches
from mcptest.gates.outcome import GateContext, GateOutcome, default, failure_lines, judged, runs, status
from mcptest.records.distractor_tools import bare_name, from_catalog, near_duplicates
from mcptest.records.trace import CatalogTool, Trace
from mcptest.suite.blocks.distractors import DistractorsConfig

BLOCK = "distractors"
DEFAULT_GATE = (default("distractors.accuracy", ">=", 50),)
CONFIDENCE_ALPHA = 0.05


def generate(config: DistractorsConfig, catalog: Sequence[CatalogTool] = ()) -> list[CatalogTool]:
    """The distractor tools to present alongside `catalog` (the real tools), as full MCP definitions."""
    real = [t for t in catalog if not t.distractor]
    exclude = {t.name for t in real} | {bare_name(c) for c in config.correct}
    if config.source.from_ == "catalog":
        return from_catalog(config.count, exclude)
    return near_duplicates(config.source.of or [], config.count, real, exclude)


def distractor_names(config: DistractorsConfig, traces: Sequence[Trace]) -> set[str]:
    """The injected tool names: generated from the config (against the recorded catalog) plus any flagged ones."""
    recorded = next((t.catalog for t in traces if t.catalog), [])
    flagged = {tool.name for t in traces for tool in t.catalog or [] if tool.distractor}
    return {t.name for t in generate(config, recorded)} | flagged


@dataclass(frozen=True)
class RunChoices:
    """One run's distinct chosen tool ids, split by scope."""

    correct: list[str]
    distractor: list[str]
    ignored: list[str]
    declared: bool

    @property
    def accuracy(self) -> Fraction:
        """correct / (correct + distractor); nothing in scope: 1 when no correct ids are declared, else 0."""
        in_scope = len(self.correct) + len(self.distractor)
        return Fraction(len(self.correct), in_scope) if in_scope else Fraction(int(not self.declared))

    @property
    def success(self) -> bool:
        """The run chose only correct tools in scope: no distractor, and a correct one unless none is declared."""
        return not self.distractor and (bool(self.correct) or not self.declared)


def score_run(trace: Trace, correct: Sequence[str], distractors: set[str]) -> RunChoices:
    """Classify each distinct tool the run called: correct, distractor, or out of scope.

    A distractor is named by its own id, the bare name it was injected under (it belongs to no server), in every
    line, target and detail; correct and ignored choices keep their qualified `server.tool` ids.
    """
    chosen = {c.id: c for c in trace.tool_calls}.values()
    right = [c.id for c in chosen if any(matches(m, c) for m in correct)]
    wrong = list(dict.fromkeys(c.name for c in chosen if c.id not in right and c.name in distractors))
    ignored = [c.id for c in chosen if c.id not in right and c.name not in distractors]
    return RunChoices(right, wrong, ignored, bool(correct))


def certified_percent(successes: int, n: int) -> int:
    """The one-sided 95% Clopper–Pearson lower bound as a percent, rounded down (a floor is never overstated)."""
    return math.floor(clopper_pearson_lower(successes, n, CONFIDENCE_ALPHA) * 100 + 1e-9)


def evaluate(traces: Sequence[Trace], config: DistractorsConfig, context: GateContext) -> GateOutcome:
    """Distractor accuracy and its certified floor (spec 000, "Distractor accuracy"; MCPAgentBench 2512.24565,
    MCP-Atlas 2602.00933, LLMCert-T 2510.03992).

    Per run, each distinct tool id called is one choice: correct when it matches an id in `correct` (qualified or
    bare, as in equal_function_sets), a distractor when its name is one of the injected distractors, otherwise
    ignored. Run accuracy = chose_correct / (chose_correct + chose_distractor); a run with nothing in scope scores 0,
    or 1 when no correct ids are declared (vacuous). `distractors.accuracy` is the mean of the run accuracies as an
    integer percent (`mcptest.core.stats.percent`), so a run that chose nothing in scope pulls it down.
    `distractors.chose_distractor` / `distractors.chose_correct` sum the runs' choices. A run succeeds when it chose
    only correct tools in scope (no distractor, at least one correct id unless none is
    declared); `distractors.certified_lower` is the exact one-sided 95% Clopper–Pearson lower bound on the
    success rate, Beta⁻¹(0.05; s, n - s + 1), as a percent rounded down (1 perfect run of 1 certifies 5).
    Default gate: `distractors.accuracy >= 50`.
    """
    names = distractor_names(config, runs(traces))
    scored = [score_run(t, config.correct, names) for t in traces]
    n, successes = len(scored), sum(r.success for r in scored)
    targets = {
        "distractors.accuracy": percent(sum((r.accuracy for r in scored), Fraction(0)) / n),
        "distractors.chose_correct": sum(len(r.correct) for r in scored),
        "distractors.chose_distractor": sum(len(r.distractor) for r in scored),
        "distractors.certified_lower": certified_percent(successes, n),
        "distractors.successes": successes,
        "distractors.runs": n,
    }
    detail = {
        "count": config.count,
        "source": config.source.from_,
        "complexity": config.complexity,
        "distractors": sorted(names),
        "passes": {"distractors.certified_lower": successes},
        "runs": [
            {
                "run": i,
                "accuracy": percent(r.accuracy),
                "success": r.success,
                "chose_correct": r.correct,
                "chose_distractor": r.distractor,
                "ignored": r.ignored,
            }
            for i, r in enumerate(scored, 1)
        ],
    }
    outcome = judged(BLOCK, dict(targets), config, DEFAULT_GATE, detail=detail)
    outcome.lines = [summary_line(outcome, context.label), *failure_lines(outcome)]
    return outcome


def summary_line(outcome: GateOutcome, label: str) -> str:
    """`distractors [PASS] label: accuracy 100% (4 correct, 0 distractor), certified lower 47% (4 of 4 runs ...)`."""
    t, d = outcome.targets, outcome.detail
    chosen = [r["chose_distractor"] for r in d["runs"]]
    named = list(dict.fromkeys(x for run in chosen for x in run))
    tags = ", ".join(x for x in (f"{d['count']} from {d['source']}", d["complexity"]) if x)
    return (
        f"distractors {status(outcome)} {label}: accuracy {t['distractors.accuracy']}% "
        f"({t['distractors.chose_correct']} correct, {t['distractors.chose_distractor']} distractor"
        f"{': ' + ', '.join(named) if named else ''}), certified lower {t['distractors.certified_lower']}% "
        f"({t['distractors.successes']} of {t['distractors.runs']} runs chose only correct tools) [{tags}]"
    )
