"""What a test's outcomes over time say: flips, flip rate, pass rate, each with a Wilson 95% interval, and whether
the test is flaky. Pure functions of outcome lists, newest first, as the store returns them."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from mcptest.core.stats import wilson_interval

WINDOW = 20
"""How many of a test's latest runs the flaky verdict looks at."""
MIN_RUNS = 5
"""Fewer runs than this in the window and a test is never called flaky: too little to tell."""
THRESHOLD = 0.1
"""A flip rate above this over the window makes a test flaky."""
LOOKBACK = 5
"""The window's runs are found among the suite's last LOOKBACK × WINDOW runs (a test left out of most runs by
filters is judged on what it has there)."""


@dataclass(frozen=True, slots=True)
class Outcome:
    """One stored outcome of a test."""

    run_id: int
    started_at: str
    commit: str | None
    model: str | None
    run_index: int | None
    status: str
    duration_ms: float
    quarantined: bool
    failure: str | None


@dataclass(frozen=True)
class Trend:
    """Counts and rates over a list of outcomes (skipped and incomplete ones are not runs)."""

    runs: int
    passed: int
    flips: int
    pass_rate: float | None
    pass_interval: tuple[float, float]
    flip_rate: float | None
    flip_interval: tuple[float, float]


def trend(outcomes: Sequence[Outcome]) -> Trend:
    """The pass rate (passes ÷ runs) and flip rate (flips ÷ (runs − 1)), each with its Wilson score 95% interval
    without continuity correction (`core.stats.wilson_interval`). A flip is a run whose status differs from the
    run before it; only passed and failed runs count."""
    statuses = [o.status for o in outcomes if o.status in ("passed", "failed")]
    runs = len(statuses)
    passed = statuses.count("passed")
    flips = sum(a != b for a, b in zip(statuses, statuses[1:], strict=False))
    return Trend(
        runs=runs,
        passed=passed,
        flips=flips,
        pass_rate=passed / runs if runs else None,
        pass_interval=wilson_interval(passed, runs),
        flip_rate=flips / (runs - 1) if runs > 1 else None,
        flip_interval=wilson_interval(flips, max(runs - 1, 0)),
    )


def is_flaky(t: Trend, min_runs: int = MIN_RUNS, threshold: float = THRESHOLD) -> bool:
    """At least `min_runs` runs and a flip rate above `threshold`."""
    return t.runs >= min_runs and t.flip_rate is not None and t.flip_rate > threshold
