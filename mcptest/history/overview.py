"""What the HTML report draws from the run history: per test its last outcomes (a strip) and its pass rate over
them with the Wilson interval, per gate block its main figure over the runs. Plain data, read once from the store.

The run the page shows is always the newest point: taken from the store when it is stored there (a saved report
re-rendered), else from the report itself (a run that is recorded after its page is written). Runs started after it
are left out, so re-rendering an old report draws the history as it stood then.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from mcptest.core.stats import wilson_interval
from mcptest.history.context import git_head, suite_identity
from mcptest.history.location import missing_file, shown
from mcptest.history.trends import LOOKBACK, WINDOW, Outcome, Trend, trend
from mcptest.records.report import Report

if TYPE_CHECKING:
    from mcptest.history.store import Store

STATUSES = ("passed", "failed", "skipped")
"""The outcomes a strip shows (an incomplete one is no outcome of the test)."""


@dataclass(frozen=True, slots=True)
class Cell:
    """One outcome in a test's strip."""

    status: str
    started_at: str
    commit: str | None
    run_index: int | None


@dataclass(frozen=True, slots=True)
class RatePoint:
    """The pass rate over a strip's outcomes up to one run, with its Wilson 95% interval."""

    started_at: str
    rate: float
    low: float
    high: float


@dataclass(frozen=True)
class TestLine:
    """A test's (and model's) last outcomes, oldest first, and what they say."""

    __test__ = False

    test: str
    model: str | None
    cells: tuple[Cell, ...]
    trend: Trend
    rates: tuple[RatePoint, ...]


@dataclass(frozen=True, slots=True)
class GatePoint:
    """A gate block's main figure in one run."""

    started_at: str
    commit: str | None
    status: str
    value: float | None


@dataclass(frozen=True)
class GateLine:
    """A gate block's main figure (its first named figure in this run) over the runs, oldest first."""

    test: str
    model: str | None
    block: str
    figure: str
    points: tuple[GatePoint, ...]


@dataclass(frozen=True)
class Overview:
    """The history the HTML report draws, keyed as the report's results and gates are."""

    store: str
    window: int
    tests: dict[tuple[str, str | None], TestLine]
    gates: dict[tuple[str, str | None, str], GateLine]


def read_overview(report: Report, url: str, window: int = WINDOW) -> tuple[Overview | None, str | None]:
    """The overview of `report`'s tests and gates from the store at `url` and a warning to print, or None. Nothing
    is drawn, and nothing created, when the store does not exist; a store that fails is the warning, never an
    error (the page is then drawn without history)."""
    if missing_file(url) is not None:
        return None, None
    try:
        from mcptest.history.store import HistoryError, open_store  # SQLAlchemy: only for a page drawn with history

        try:
            with open_store(url) as store:
                return overview(store, report, window), None
        except HistoryError as exc:
            return None, f"mcptest: warning: {exc}; the report is drawn without it"
    except Exception as exc:  # any failure of the store: the page and the verdict stand
        reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        return None, f"mcptest: warning: history store {shown(url)}: {reason}; the report is drawn without it"


def overview(store: Store, report: Report, window: int = WINDOW) -> Overview:
    """Read the overview of `report` from an open store (see the module's docstring for which runs count)."""
    suite = suite_identity(report.suite)
    stored = store.has_run(suite, report.started_at)
    until = report.started_at
    outcomes = store.strip_outcomes(suite, window, window * LOOKBACK, until=until)
    series = store.gate_series(suite, window if stored else window - 1, until=until)
    if not stored:  # this run is not in the store (yet): it is the newest point, read from the report
        commit = git_head(Path(report.suite).resolve().parent)[0]
        outcomes = _with_report(outcomes, report, commit, window)
        for g in report.gates:
            point = {"started_at": until, "commit": commit, "status": g.status.value, "targets": dict(g.targets)}
            series.setdefault((g.test, g.model, g.block), []).append(point)
    tests = {}
    for r in report.results:
        key = (r.name, r.model)
        if key not in tests and key in outcomes:
            tests[key] = _line(r.name, r.model, outcomes[key])
    gates = {}
    for g in report.gates:
        key3 = (g.test, g.model, g.block)
        figure = next((k for k, v in g.targets.items() if isinstance(v, int | float)), None)
        if figure is None or key3 not in series:
            continue
        points = tuple(
            GatePoint(p["started_at"], p.get("commit"), p["status"], _number(p["targets"].get(figure)))
            for p in series[key3]
        )
        gates[key3] = GateLine(g.test, g.model, g.block, figure, points)
    return Overview(store=shown(store.url), window=window, tests=tests, gates=gates)


def _with_report(
    outcomes: dict[tuple[str, str | None], list[Outcome]], report: Report, commit: str | None, window: int
) -> dict[tuple[str, str | None], list[Outcome]]:
    """The stored outcomes (newest first) with the report's own put in front, cut to `window` per test."""
    mine: dict[tuple[str, str | None], list[Outcome]] = {}
    for r in report.results:
        if r.status.value in STATUSES:
            mine.setdefault((r.name, r.model), []).append(Outcome(
                run_id=0, started_at=report.started_at, commit=commit, model=r.model, run_index=r.run,
                status=r.status.value, duration_ms=r.duration_ms, quarantined=r.quarantined is not None, failure=None,
            ))  # fmt: skip
    out = dict(outcomes)
    for key, new in mine.items():
        out[key] = (list(reversed(new)) + outcomes.get(key, []))[:window]
    return out


def _line(test: str, model: str | None, newest_first: list[Outcome]) -> TestLine:
    oldest_first = list(reversed(newest_first))
    cells = tuple(Cell(o.status, o.started_at, o.commit, o.run_index) for o in oldest_first)
    rates = []
    passed = runs = 0
    for i, o in enumerate(oldest_first):
        if o.status in ("passed", "failed"):
            runs += 1
            passed += o.status == "passed"
        last_of_run = i + 1 == len(oldest_first) or oldest_first[i + 1].started_at != o.started_at
        if last_of_run and runs:
            low, high = wilson_interval(passed, runs)
            rates.append(RatePoint(o.started_at, passed / runs, low, high))
    return TestLine(test, model, cells, trend(newest_first), tuple(rates))


def _number(value: object) -> float | None:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None
