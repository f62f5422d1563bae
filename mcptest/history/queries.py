"""The answers of `mcptest history`: a store's rows made into the models of `history.models`."""

from __future__ import annotations

from collections.abc import Sequence

from mcptest.history.location import shown
from mcptest.history.models import (
    Failure,
    FlakyList,
    Interval,
    LoadFigures,
    LoadHistory,
    LoadRun,
    Point,
    RunList,
    Series,
    StoredRun,
    TestHistory,
)
from mcptest.history.store import Store
from mcptest.history.trends import LOOKBACK, MIN_RUNS, THRESHOLD, WINDOW, Outcome, is_flaky, trend


def run_list(store: Store, suite: str, limit: int = 20) -> RunList:
    """The suite's last `limit` runs, newest first."""
    runs = [StoredRun.model_validate(r, from_attributes=False) for r in _run_fields(store.runs(suite, limit))]
    return RunList(store=shown(store.url), suite=suite, runs=runs)


def load_history(store: Store, suite: str, limit: int = 20) -> LoadHistory:
    """The suite's last `limit` loads (stored under `suite`, its name with `#load`), newest first, with each
    operation's figures."""
    runs = store.runs(suite, limit)
    figures = store.result_targets([int(str(r["id"])) for r in runs])
    keys = set(LoadFigures.model_fields)
    loads = [
        LoadRun(
            id=r["id"],
            started_at=r["started_at"],
            commit=r["commit"],
            branch=r["branch"],
            ok=r["ok"],
            interrupted=r["interrupted"],
            operations={
                name: LoadFigures.model_validate({k: v for k, v in t.items() if k in keys})
                for name, t in figures.get(int(str(r["id"])), {}).items()
                if keys <= set(t)
            },
        )  # fmt: skip
        for r in runs
    ]
    return LoadHistory(store=shown(store.url), suite=suite, runs=loads)


def _run_fields(rows: list[dict[str, object]]) -> list[dict[str, object]]:
    keep = set(StoredRun.model_fields)
    return [{k: v for k, v in r.items() if k in keep} for r in rows]


def history_of_test(store: Store, suite: str, test: str, window: int = WINDOW) -> TestHistory:
    """The test's last `window` outcomes per model, with its rates and its last failure."""
    by_model: dict[str | None, list[Outcome]] = {}
    for o in store.outcomes(suite, test, limit=window * 50):
        by_model.setdefault(o.model, []).append(o)
    last = store.last_failure(suite, test)
    series = []
    for model, outcomes in by_model.items():
        mine = outcomes[:window]
        failure = last if last is not None and last.model == model else None
        series.append(_series(test, model, mine, failure, with_timeline=True))
    return TestHistory(store=shown(store.url), suite=suite, test=test, window=window, series=series)


def flaky(
    store: Store, suite: str, window: int = WINDOW, min_runs: int = MIN_RUNS, threshold: float = THRESHOLD
) -> FlakyList:
    """The suite's flaky tests: flip rate over each test's last `window` runs above `threshold`."""
    found = []
    for (test, model), outcomes in store.recent_outcomes(suite, window, window * LOOKBACK).items():
        s = _series(test, model, outcomes, None, with_timeline=False, min_runs=min_runs, threshold=threshold)
        if s.flaky:
            found.append(s)
    found.sort(key=lambda s: (-(s.flip_rate or 0), s.test, s.model or ""))
    return FlakyList(
        store=shown(store.url), suite=suite, window=window, min_runs=min_runs, threshold=threshold, tests=found
    )


def _series(
    test: str,
    model: str | None,
    newest_first: Sequence[Outcome],
    failure: Outcome | None,
    *,
    with_timeline: bool,
    min_runs: int = MIN_RUNS,
    threshold: float = THRESHOLD,
) -> Series:
    t = trend(newest_first)
    return Series(
        test=test, model=model, runs=t.runs, passed=t.passed, flips=t.flips,
        pass_rate=t.pass_rate, pass_interval=Interval(low=t.pass_interval[0], high=t.pass_interval[1]),
        flip_rate=t.flip_rate, flip_interval=Interval(low=t.flip_interval[0], high=t.flip_interval[1]),
        flaky=is_flaky(t, min_runs, threshold),
        last_failure=Failure(run_id=failure.run_id, started_at=failure.started_at, commit=failure.commit,
                             text=failure.failure) if failure else None,
        timeline=[_point(o) for o in reversed(newest_first)] if with_timeline else [],
    )  # fmt: skip


def _point(o: Outcome) -> Point:
    return Point(
        run_id=o.run_id, started_at=o.started_at, commit=o.commit, run=o.run_index, status=o.status,
        duration_ms=o.duration_ms, quarantined=o.quarantined,
    )  # fmt: skip
