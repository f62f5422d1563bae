"""Compare a run with its baseline: match cases by identity, give each a delta and a verdict.

The verdict rule, case by case (a case is a result row, the runs of a multi-run agent test, or a gate block;
it is matched on suite file, test name, model, run index and gate block):

1. A case only in the current report is `new`; only in the baseline, `removed`. Neither is a regression. Suite
   paths are compared normalised (`./suite.yml` is `suite.yml`, see `cases.suite_path`); two reports that share no
   case at all are not compared: `mcptest report --compare` says so and exits 2.
2. A rate figure with known pass counts on both sides (a gate's selection rate, pass^k or distractor successes,
   the pass rate of a multi-run test's runs) that moved is tested with a two-sided Fisher's exact test on the two
   pass counts. p < alpha (0.05) is significant; otherwise the note says "not significant at this N; about M runs
   would be needed".
3. Any significant fall is a `regression`.
4. A single run of a multi-run test that flipped is only `changed`: its runs case judges the runs together.
5. A flip to failed (from passed or skipped) is a `regression`, unless some rate fell and none significantly:
   then the flip rests on noise and is `noise`.
6. Any significant rise is an `improvement`; so is a flip from failed to passed, unless it rests on rates that rose
   without significance (`noise`).
7. Otherwise a moved rate is `noise`, another moved figure or status is `changed`, and the rest is `unchanged`.
   Wall time (`duration_ms`) is shown but never makes a case changed.

`mcptest report --compare` exits 1 when any case is a `regression` (unless `--advisory`).
"""

from __future__ import annotations

from functools import cache
from typing import Any

from pydantic import TypeAdapter

from mcptest.records.report import Report, Status
from mcptest.report.cases import Case, Key, cases_of, models_of, suite_path
from mcptest.report.delta import CaseDelta, CaseKind, Comparison, RateTest, Verdict
from mcptest.report.significance import ALPHA, moved, rate_test

INFORMATIONAL = frozenset({"duration_ms"})
"""Figures shown in the delta but never verdict-bearing: wall time varies from run to run."""


def compare(baseline: Report, current: Report, alpha: float = ALPHA) -> Comparison:
    """The delta of `current` against `baseline` (pure: no I/O, no clock)."""
    before, after = cases_of(baseline), cases_of(current)
    keys = [*after, *(k for k in before if k not in after)]
    totals = {v: 0 for v in Verdict}
    cases: list[CaseDelta] = []
    # Built as plain data and validated a block at a time: pydantic-core checks thousands of cases in a fraction of
    # the time building models one by one takes, and only one block's plain data is alive at once.
    for start in range(0, len(keys), _BLOCK):
        block = [judge(k, before.get(k), after.get(k), alpha) for k in keys[start : start + _BLOCK]]
        for case in block:
            totals[case["verdict"]] += 1
        cases += _case_list().validate_python(block)
    del before, after  # the cases are judged: free them before the comparison is built
    old, new = models_of(baseline), models_of(current)
    return Comparison.model_validate(
        {
            "alpha": alpha,
            "baseline": _side(baseline, old),
            "current": _side(current, new),
            "suite_changed": suite_path(baseline.suite) != suite_path(current.suite),
            "models_added": [m for m in new if m not in old],
            "models_removed": [m for m in old if m not in new],
            "totals": totals,
            "regressed": totals[Verdict.REGRESSION] > 0,
            "cases": cases,
        }
    )


_BLOCK = 4096
# looked up once: an enum member read through its class costs a descriptor call, 50,000 cases several times over
_NEW, _REMOVED, _CHANGED, _UNCHANGED, _TEST = (
    Verdict.NEW,
    Verdict.REMOVED,
    Verdict.CHANGED,
    Verdict.UNCHANGED,
    CaseKind.TEST,
)


@cache
def _case_list() -> TypeAdapter[list[CaseDelta]]:
    return TypeAdapter(list[CaseDelta])


def shared_cases(comparison: Comparison) -> int:
    """How many cases the two reports have in common (neither new nor removed)."""
    return sum(d.verdict not in (Verdict.NEW, Verdict.REMOVED) for d in comparison.cases)


def _side(report: Report, models: list[str]) -> dict[str, Any]:
    return {
        "suite": report.suite,
        "started_at": report.started_at,
        "mcptest_version": report.mcptest_version,
        "models": models,
    }


def judge(key: Key, base: Case | None, cur: Case | None, alpha: float = ALPHA) -> dict[str, Any]:
    """One case's delta and verdict (the rule in this module's docstring), as the data of a `CaseDelta`."""
    kind, file, test, model, run, block = key
    either = cur or base
    assert either is not None
    delta: dict[str, Any] = {
        "kind": kind, "file": file, "test": test, "model": model, "run": run, "block": block, "line": either.line,
        "verdict": _NEW if base is None else _REMOVED,
        "baseline_status": base.status if base else None, "current_status": cur.status if cur else None,
        "figures": figures(base, cur),
    }  # fmt: skip
    if base is None or cur is None:
        return delta
    rates = [
        rate_test(t, base.counts[t], cur.counts[t], alpha)
        for t in cur.counts
        if t in base.counts and moved(base.counts[t], cur.counts[t])
    ]
    moved_figure = any(f["baseline"] != f["current"] for f in delta["figures"] if f["name"] not in INFORMATIONAL)
    one_run = kind is _TEST and run is not None
    delta["rates"] = rates
    delta["verdict"], delta["note"] = verdict(base.status, cur.status, rates, moved_figure, one_run)
    return delta


def verdict(
    base: Status, cur: Status, rates: list[RateTest], moved_figure: bool, one_run: bool = False
) -> tuple[Verdict, str]:
    """The verdict and its note for a case present on both sides (steps 3-7 of the module's rule)."""
    fell = [r for r in rates if r.current_passes * r.baseline_runs < r.baseline_passes * r.current_runs]
    rose = [r for r in rates if r.current_passes * r.baseline_runs > r.baseline_passes * r.current_runs]
    if not rates and base == cur:  # most cases at scale: nothing flipped, no rate moved
        return (_CHANGED, "") if moved_figure else (_UNCHANGED, "")
    to_fail = cur == Status.FAILED and base != Status.FAILED
    to_pass = base == Status.FAILED and cur == Status.PASSED
    if any(r.significant for r in fell):
        return Verdict.REGRESSION, _notes("fell", [r for r in fell if r.significant])
    if one_run and (to_fail or to_pass):
        return Verdict.CHANGED, "one run of several: the runs are judged together"
    if to_fail:
        return (Verdict.NOISE, f"the flip rests on noise: {_notes('fell', fell)}") if fell else (Verdict.REGRESSION, "")
    if any(r.significant for r in rose):
        return Verdict.IMPROVEMENT, _notes("rose", [r for r in rose if r.significant])
    if to_pass:
        return (
            (Verdict.NOISE, f"the flip rests on noise: {_notes('rose', rose)}") if rose else (Verdict.IMPROVEMENT, "")
        )
    if rates:
        return Verdict.NOISE, _notes("moved", rates)
    if moved_figure or base != cur:
        return Verdict.CHANGED, ""
    return Verdict.UNCHANGED, ""


def _notes(how: str, rates: list[RateTest]) -> str:
    """One clause per distinct finding: targets resting on the same counts share it."""
    by_note: dict[str, list[str]] = {}
    for r in rates:
        by_note.setdefault(r.note, []).append(r.target)
    return "; ".join(f"{', '.join(targets)} {how}: {note}" for note, targets in by_note.items())


def figures(base: Case | None, cur: Case | None) -> list[dict[str, Any]]:
    """Every figure of either side, the current side's order first, with its delta when both are numbers."""
    old, new = base.figures if base else {}, cur.figures if cur else {}
    out = []
    for name, b in new.items():
        a = old.get(name)
        change = None if a is None or b is None else _round(b - a)
        out.append({"name": name, "baseline": a, "current": b, "delta": change})
    for name, a in old.items():
        if name not in new:
            out.append({"name": name, "baseline": a, "current": None, "delta": None})
    return out


def _round(value: float | int) -> float | int:
    return value if isinstance(value, int) else round(value, 6)
