"""What the HTML report draws from the run history: per test its last outcomes (a strip) and its pass rate over
them with the Wilson interval, per gate block its main figure over the runs, per operation of the suite's loads
(`mcptest load`) its p95 and calls/s over the loads. Plain data, read once from the store.

The run the page shows is always the newest point: taken from the store when it is stored there (a saved report
re-rendered), else from the report itself (a run that is recorded after its page is written). Runs started after it
are left out, so re-rendering an old report draws the history as it stood then.
"""

from __future__ import annotations

from dataclasses import dataclass, field
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


@dataclass(frozen=True, slots=True)
class LoadPoint:
    """An operation's figures in one stored load."""

    started_at: str
    commit: str | None
    calls: int
    calls_per_s: float
    errors: int
    p95_ms: float


@dataclass(frozen=True)
class LoadLine:
    """An operation (a suite test's name) over the suite's loads, oldest first."""

    operation: str
    points: tuple[LoadPoint, ...]


@dataclass(frozen=True)
class Overview:
    """The history the HTML report draws, keyed as the report's results and gates are (loads by operation)."""

    store: str
    window: int
    tests: dict[tuple[str, str | None], TestLine]
    gates: dict[tuple[str, str | None, str], GateLine]
    loads: dict[str, LoadLine] = field(default_factory=dict)


def read_overview(
    report: Report, url: str, window: int = WINDOW, load: bool = False
) -> tuple[Overview | None, str | None]:
    """The overview of `report`'s tests and gates and of its suite's loads from the store at `url` (with `load`,
    `report` is a load's, as `mcptest load` renders it: its loads alone) and a warning to print, or None. Nothing
    is drawn, and nothing created, when the store does not exist; a store that fails is the warning, never an
    error (the page is then drawn without history)."""
    if missing_file(url) is not None:
        return None, None
    try:
        from mcptest.history.store import HistoryError, open_store  # SQLAlchemy: only for a page drawn with history

        try:
            with open_store(url) as store:
                return (load_overview if load else overview)(store, report, window), None
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
    loads = _loads(store, suite, window, until, None)
    return Overview(store=shown(store.url), window=window, tests=tests, gates=gates, loads=loads)


def load_overview(store: Store, report: Report, window: int = WINDOW) -> Overview:
    """The suite's last `window` loads per operation, `report` (a load as a run report, one row per operation with
    its figures in `targets`) the newest: read from the store when stored there, else from the report itself (a
    load is stored right after its page is written)."""
    from mcptest.history.recording import LOAD_SUFFIX

    suite = suite_identity(report.suite)
    mine = None
    if not store.has_run(suite + LOAD_SUFFIX, report.started_at):
        commit = git_head(Path(report.suite).resolve().parent)[0]
        mine = {r.name: _load_point(report.started_at, commit, r.targets) for r in report.results}
    loads = _loads(store, suite, window, report.started_at, mine)
    return Overview(store=shown(store.url), window=window, tests={}, gates={}, loads=loads)


def _loads(
    store: Store, suite: str, window: int, until: str, mine: dict[str, LoadPoint | None] | None
) -> dict[str, LoadLine]:
    """Per operation, its figures in the suite's loads started up to `until` (the last `window`, and `mine` as the
    newest when given), oldest first; the operations in the order of their first appearance, newest load first."""
    from mcptest.history.queries import load_history
    from mcptest.history.recording import LOAD_SUFFIX

    stored = [
        r for r in load_history(store, suite + LOAD_SUFFIX, window + 1).runs if r.started_at <= until
    ]  # fmt: skip
    runs: list[dict[str, LoadPoint]] = []  # newest first
    if mine is not None:
        runs.append({name: p for name, p in mine.items() if p is not None})
    for r in stored:
        runs.append({
            name: LoadPoint(r.started_at, r.commit, f.calls, f.calls_per_s, f.errors, f.p95_ms)
            for name, f in r.operations.items()
        })  # fmt: skip
    lines: dict[str, list[LoadPoint]] = {}
    for points in runs[:window]:
        for name, point in points.items():
            lines.setdefault(name, []).append(point)
    return {name: LoadLine(name, tuple(reversed(points))) for name, points in lines.items()}


def _load_point(started_at: str, commit: str | None, targets: dict[str, float | int | None]) -> LoadPoint | None:
    """An operation's point from its row's targets (what `mcptest load` stores), or None when they are not there."""
    calls, rate, errors, p95 = (_number(targets.get(k)) for k in ("calls", "calls_per_s", "errors", "p95_ms"))
    if calls is None or rate is None or errors is None or p95 is None:
        return None
    return LoadPoint(started_at, commit, int(calls), rate, int(errors), p95)


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
