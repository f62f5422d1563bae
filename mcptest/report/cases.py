"""A report as comparable cases: result rows, the runs of multi-run agent tests, and gate blocks, by identity."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path, PureWindowsPath

from mcptest.core.stats import percent, rate
from mcptest.records.report import GateReport, Report, Status, TestResult
from mcptest.report.delta import CaseKind, Number

Key = tuple[CaseKind, str, str, str | None, int | None, str | None]
"""(kind, file, test, model, run, block): what stays the same about a case from one run to the next."""

PASS_COUNTS = {
    "tool_selection.selection_rate": "tool_selection.selected",
    "distractors.accuracy": "distractors.successes",
    "distractors.certified_lower": "distractors.successes",
}
"""Rate targets whose pass count (over the gate's runs) is another target. Distractor accuracy is a mean of per-run
fractions, not a count: its change is tested on the run successes it summarizes, the count certified_lower rests on."""

PERCENT_OF_RUNS = ("tool_selection.pass_k",)
"""Rate targets that are `rate(passes, runs)` (exact; a format "1" report held `percent(passes, runs)`, rounded):
the count is recovered when exactly one count gives the figure."""


@dataclass(slots=True)
class Case:
    """One side of a case: its status, numeric figures and the (passes, runs) of its rate figures."""

    key: Key
    line: int
    status: Status
    figures: dict[str, Number]
    counts: dict[str, tuple[int, int]] = field(default_factory=dict)


def cases_of(report: Report) -> dict[Key, Case]:
    """Every case of a report, in report order: rows, then runs groups, then gates."""
    out: dict[Key, Case] = {}
    for case in [*map(_row, report.results), *_runs(report.results), *map(_gate, report.gates)]:
        key = case.key
        while key in out:  # a duplicate identity stays visible instead of overwriting its twin
            key = (*key[:2], key[2] + " (again)", *key[3:])  # type: ignore[assignment]
        case.key = key
        out[key] = case
    return out


def suite_path(file: str, cwd: Path | None = None) -> str:
    """A suite path as cases are matched on: POSIX separators, `./` and `a/../` folded, relative to the current
    folder when it lies under it; so `./suite.yml`, `suite.yml` and `/project/suite.yml` (run in /project) agree."""
    folded = _folded(file)
    if not folded.startswith("/"):  # what PurePosixPath.is_absolute tests, without building a path per case
        return folded
    here = (cwd or Path.cwd()).resolve().as_posix()
    if folded == here or folded.startswith(here.rstrip("/") + "/"):
        return os.path.relpath(folded, here).replace("\\", "/")
    return folded


@lru_cache(maxsize=256)
def _folded(file: str) -> str:
    # a report names a handful of suite files across tens of thousands of cases: fold each spelling once
    posix = PureWindowsPath(file).as_posix() if "\\" in file else file
    return os.path.normpath(posix).replace("\\", "/")


def models_of(report: Report) -> list[str]:
    """The models the report's agent tests ran, sorted."""
    return sorted({r.model for r in report.results if r.model} | {g.model for g in report.gates if g.model})


def _numbers(targets: dict[str, float | int | None]) -> dict[str, Number]:
    return {k: v for k, v in targets.items() if isinstance(v, int | float)}


def _row(r: TestResult) -> Case:
    key: Key = (CaseKind.TEST, suite_path(r.file), r.name, r.model, r.run, None)
    figures: dict[str, Number] = {"duration_ms": r.duration_ms}
    if r.targets:
        figures.update(_numbers(r.targets))
    return Case(key, r.line, r.status, figures)


def _runs(results: list[TestResult]) -> list[Case]:
    groups: dict[Key, list[TestResult]] = {}
    for r in results:
        if r.run is not None:
            groups.setdefault((CaseKind.RUNS, suite_path(r.file), r.name, r.model, None, None), []).append(r)
    return [_group(key, rows) for key, rows in groups.items()]


def _group(key: Key, rows: list[TestResult]) -> Case:
    judged = [r for r in rows if r.status != Status.SKIPPED]
    passed = sum(r.status == Status.PASSED for r in judged)
    status = Status.SKIPPED if not judged else Status.PASSED if passed == len(judged) else Status.FAILED
    figures: dict[str, Number] = {"passed": passed, "runs": len(judged)}
    if not judged:
        return Case(key, rows[0].line, status, figures)
    figures["pass_rate"] = percent(passed, len(judged))
    return Case(key, rows[0].line, status, figures, {"pass_rate": (passed, len(judged))})


def _gate(g: GateReport) -> Case:
    key: Key = (CaseKind.GATE, suite_path(g.file), g.test, g.model, None, g.block)
    return Case(key, g.line, g.status, _numbers(g.targets), gate_counts(g))


def gate_counts(g: GateReport) -> dict[str, tuple[int, int]]:
    """(passes, runs) of each rate target of a gate whose pass count is known.

    Known means: given in `detail["passes"]` (any gate may state its counts there), held in a count target
    (`PASS_COUNTS`), or recovered from an integer percent of the runs (`PERCENT_OF_RUNS`).
    """
    given = g.detail.get("passes")
    given = given if isinstance(given, dict) else {}
    out = {}
    for target, value in g.targets.items():
        passes = given.get(target)
        if passes is None and g.targets.get(PASS_COUNTS.get(target, "")) is not None:
            passes = g.targets[PASS_COUNTS[target]]
        if passes is None and target in PERCENT_OF_RUNS and isinstance(value, int | float) and g.runs > 0:
            passes = _from_rate(value, g.runs)
        if isinstance(passes, int) and g.runs > 0 and 0 <= passes <= g.runs:
            out[target] = (passes, g.runs)
    return out


@lru_cache(maxsize=4096)
def _from_rate(value: float, runs: int) -> int | None:
    # a few (figure, runs) pairs recur across thousands of gates: search each once
    exact = [k for k in range(runs + 1) if rate(k, runs) == value]
    if exact:
        return exact[0]
    return _from_percent(int(value), runs) if float(value).is_integer() else None


def _from_percent(value: int, runs: int) -> int | None:
    # percent(k, n) lies within 1 of 100k/n (rounding plus the clamps), so only k in that window can give `value`
    low, high = max(0, (value - 1) * runs // 100), min(runs, -(-(value + 1) * runs // 100))
    found = [k for k in range(low, high + 1) if percent(k, runs) == value] if runs > 0 else []
    return found[0] if len(found) == 1 else None
