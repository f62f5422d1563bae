"""`mcptest load --find-limit`: a step search over the offered rate (open model) for the highest rate at which every
operation's p95 stays within its budget and under 1% of the answers fail.

Each step is a whole load of `--duration` at one rate. From the starting rate the search doubles while a step is
within budget; after the first step over it, it bisects between the highest rate within and the lowest over, until
they are within `CLOSE` of each other (or halves down when the very first step is over). At most `MAX_STEPS` steps.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from mcptest.load.model import Limit, LimitStep

if TYPE_CHECKING:
    from mcptest.load.model import LoadReport

MAX_STEPS = 12
ERROR_PERCENT = 1.0
"""A step fails when this share of its answers (or more) failed."""
CLOSE = 1.25
"""The search ends when the lowest rate over budget is within this factor of the highest within it."""
LOWEST_RATE = 0.5


def budgets(tests: list[Any], p95_ms: float | None) -> dict[str, float]:
    """Each test's p95 budget in ms: its own `latency.p95_ms` `<=` (or `<`) bound in the suite, else `p95_ms`; a
    test with neither is judged by its errors alone."""
    out: dict[str, float] = {}
    for test in tests:
        bounds = [
            float(a.matcher.expected)
            for a in test.assertions
            if a.target == "latency.p95_ms" and a.matcher.kind in ("<=", "<")
        ]
        if bounds:
            out[test.name] = min(bounds)
        elif p95_ms is not None:
            out[test.name] = p95_ms
    return out


def step(rate: float, report: LoadReport, budget: dict[str, float]) -> LimitStep:
    """One step's verdict: within when every budgeted p95 holds and errors are under `ERROR_PERCENT`."""
    reasons = [
        f"{op.name} p95 {op.p95_ms:g} ms > {budget[op.name]:g} ms"
        for op in report.operations
        if op.name in budget and (op.p95_ms > budget[op.name] or op.count == 0)
    ]
    failed = sum(report.overall.errors.values())
    percent = 100 * failed / report.overall.count if report.overall.count else 100.0
    if percent >= ERROR_PERCENT:
        reasons.append(f"errors {percent:.1f}% >= {ERROR_PERCENT:g}%")
    return LimitStep(
        rate=rate,
        within=not reasons,
        reason="; ".join(reasons),
        count=report.overall.count,
        error_percent=round(percent, 2),
        p95_ms={op.name: op.p95_ms for op in report.operations},
    )


def search(
    start: float,
    highest: float,
    budget: dict[str, float],
    run: Callable[[float], LoadReport],
    stop: threading.Event,
    shown: Callable[[LimitStep], None],
) -> tuple[LoadReport, Limit]:
    """Run the steps; the report of the highest rate within budget (of the last step when none was) with the
    search (`limit`) in it."""
    steps: list[LimitStep] = []
    within: tuple[float, LoadReport] | None = None
    over: float | None = None
    last: LoadReport | None = None
    rate = start
    for _ in range(MAX_STEPS):
        last = run(rate)
        verdict = step(rate, last, budget)
        if last.interrupted:  # a cut step says nothing about its rate
            break
        steps.append(verdict)
        shown(verdict)
        if verdict.within:
            within = (rate, last) if within is None or rate > within[0] else within
        else:
            over = rate if over is None else min(over, rate)
        if stop.is_set():
            break
        if over is None:
            if rate >= highest:
                break
            rate = min(rate * 2, highest)
        elif within is None:
            if rate / 2 < LOWEST_RATE:
                break
            rate = rate / 2
        elif over / within[0] <= CLOSE:
            break
        else:
            rate = round((within[0] + over) / 2, 2)
    assert last is not None
    best = within[1] if within is not None else last
    limit = Limit(
        p95_budget_ms=budget,
        max_error_percent=ERROR_PERCENT,
        steps=steps,
        rate=within[0] if within is not None else None,
        over=over,
    )
    return best.model_copy(update={"limit": limit, "interrupted": last.interrupted}), limit
