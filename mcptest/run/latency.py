"""A call test with `latency:`: the call repeated `samples` times at `concurrency`, after `warmup` calls, each
answer judged by the test's other checks, every measured duration recorded in one HdrHistogram."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

import anyio

from mcptest.core import latency as hist
from mcptest.records.report import LatencyFigures

if TYPE_CHECKING:
    from mcptest.server.session import CallOutcome, ServerSession
    from mcptest.suite.blocks.latency import Latency

Call = Callable[[], Awaitable["CallOutcome"]]
Failed = Callable[["CallOutcome"], bool]


async def measure(
    config: Latency, call: Call, failed: Failed, session: ServerSession
) -> tuple[CallOutcome, LatencyFigures]:
    """Make the warm-up calls, then the measured ones, `concurrency` at a time.

    Returns the outcome the test is judged on (the first measured call whose answer failed, else the first measured
    call) and the figures. A call that raises (an unknown resource or prompt) ends the test as a single call would.
    Sampling stops early when the session is lost (its calls would only time out): `samples` says how many ran.
    """
    await _repeat(config.warmup, config.concurrency, call, lambda _: None, session)
    histogram = hist.new_histogram()
    kept: list[CallOutcome] = []
    errors = 0

    def take(outcome: CallOutcome) -> None:
        nonlocal errors
        hist.record_ms(histogram, outcome.duration_ms)
        if failed(outcome):
            errors += 1
            if errors == 1:  # the first failed answer is the one the test shows
                kept[:] = [outcome]
        elif not kept:
            kept.append(outcome)

    ran = await _repeat(config.samples, config.concurrency, call, take, session)
    figures = LatencyFigures(
        samples=ran,
        concurrency=config.concurrency,
        warmup=config.warmup,
        errors=errors,
        histogram=hist.encode(histogram),
        **hist.figures(histogram),
    )
    return kept[0], figures


async def _repeat(
    count: int, concurrency: int, call: Call, take: Callable[[CallOutcome], None], session: ServerSession
) -> int:
    """Make `count` calls with `concurrency` workers; how many were made."""
    made = 0

    async def worker() -> None:
        nonlocal made
        while made < count and not session.stale:
            made += 1
            take(await call())

    if count:
        first = await call()  # alone: a failure to even make the call (UnknownName) raises before any overlap
        made = 1
        take(first)
        async with anyio.create_task_group() as tg:
            for _ in range(min(concurrency, count)):
                tg.start_soon(worker)
    return made
