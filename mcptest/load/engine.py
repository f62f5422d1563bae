"""One generator process: its share of the virtual users, each with its own session pool (its own HTTP session, or
its own server process for a stdio server), calling weighted scenarios until the deadline, a stop, or the cap."""

from __future__ import annotations

import math
import random
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import anyio

from mcptest.core import latency as hist

if TYPE_CHECKING:
    from mcptest.run.call_tests import CallTest
    from mcptest.server.session import CallOutcome

EARLY_S = 0.001
"""Open model: a user wakes this much before a call is due. asyncio's timers fire up to a millisecond late (epoll's
timeout is whole milliseconds, rounded up), which counted from when the call was due would be the generator's own
latency in every figure (0.8 to 1 ms at the median, measured); a call sent early counts from when it was sent."""


@dataclass(frozen=True)
class Plan:
    """What one process runs (plain data: it crosses to a spawned process)."""

    suite: str
    server: str | None
    users: list[int]
    """The indexes (0-based, over all users of all processes) of this process's users: they set the ramp."""
    total_users: int
    duration_s: float
    ramp_s: float = 0.0
    rate: float | None = None
    """Open model: this process's share of the arrivals per second."""
    max_requests: int = 1_000_000
    seed: int = 0
    sdk_client: bool = False
    """Every call through the SDK's session, not the lean path (`load/calls.py`): slower, to compare."""
    profile: str = "constant"
    """The offered load's shape over the run (`load/profile.py`)."""


Sink = Callable[[dict[int, dict[str, dict[str, Any]]]], None]
"""Takes each second of the run once it is over: per second, per test name, its plain tally (`load/series.py`)."""


@dataclass
class Tally:
    """One operation's answers in one process."""

    histogram: Any = field(default_factory=hist.new_histogram)
    count: int = 0
    errors: dict[str, int] = field(default_factory=dict)

    def plain(self) -> dict[str, Any]:
        return {"count": self.count, "errors": self.errors, "histogram": hist.encode(self.histogram)}


def scenarios(suite: Any, server: str | None) -> list[CallTest]:
    """The suite's tool, resource and prompt tests (of `server`, when named), in file order."""
    tests = [*suite.tools, *suite.resources, *suite.prompts]
    return [t for t in tests if server is None or t.server == server]


def failure_kind(test: CallTest, outcome: CallOutcome) -> str | None:
    """How an answer failed, judged by the test's checks but the latency ones; None when it passed."""
    from mcptest.run.call_tests import judge

    failures, error = judge(test, outcome, per_answer=True)
    if failures:
        return "assertion"
    if error is None:
        return None
    if outcome.capture.unanswered:
        return "unanswered"
    return "protocol" if outcome.error else "tool_error"


def drive(plan: Plan, stop: threading.Event, sink: Sink) -> dict[str, Any]:
    """Run this process's users; their tallies by test name, the elapsed time and this process's CPU seconds. Each
    second of the run goes to `sink` once it is over (all of them before this returns)."""
    from mcptest.load.series import Seconds
    from mcptest.suite.loader import load_suite

    suite = load_suite(plan.suite)
    tests = scenarios(suite, plan.server)
    tallies = {t.name: Tally() for t in tests}
    clock: dict[str, float] = {}
    seconds = Seconds()
    try:
        capped = anyio.run(_users, plan, suite, tests, tallies, stop, clock, seconds, sink)
    finally:
        sink(seconds.over(math.inf))
    return {
        "tallies": {name: tally.plain() for name, tally in tallies.items()},
        "elapsed_s": clock.get("end", 0.0) - clock.get("start", 0.0),
        "cpu_s": clock.get("cpu_end", 0.0) - clock.get("cpu", 0.0),
        "capped": capped,
    }


async def _users(
    plan: Plan,
    suite: Any,
    tests: list[CallTest],
    tallies: dict[str, Tally],
    stop: threading.Event,
    clock: dict[str, float],
    seconds: Any,
    sink: Sink,
) -> bool:
    """Open every user's sessions, then start the clock (servers' start-up is not load), then run the users."""
    from mcptest.load.calls import Call, prepare
    from mcptest.load.profile import Arrivals, segments, windows
    from mcptest.run.call_tests import UnknownName
    from mcptest.server.session import ServerUnavailable, SessionPool

    weights = [t.weight for t in tests]
    parts = segments(plan.profile, plan.duration_s, plan.ramp_s)
    arrivals = Arrivals(parts, plan.rate) if plan.rate is not None else None
    made = {"requests": 0, "arrivals": 0}
    base = Path(suite.file).parent
    ready = {"users": 0}
    go = anyio.Event()

    def arrived() -> None:
        ready["users"] += 1
        if ready["users"] == len(plan.users):
            clock["start"], clock["cpu"] = time.perf_counter(), time.process_time()
            go.set()

    def arrival() -> float | None:
        """Open model: when the next call is due (arrivals at a fixed rate, whoever is free makes it)."""
        if arrivals is None:
            return None
        due = clock["start"] + arrivals.due(made["arrivals"])
        made["arrivals"] += 1
        return due

    async def user(index: int) -> None:
        rng = random.Random(plan.seed * 1_000_003 + index)
        servers = {t.server for t in tests}
        lean: dict[str, Any] = {}
        prepared: dict[str, Call | None] = {}
        async with SessionPool({s: suite.servers[s] for s in servers}, base_dir=base) as pool:
            try:
                for test in tests:  # sessions, listings and requests' bytes: start-up, not load
                    try:
                        prepared[test.name] = await prepare(test, pool, lean, plan.sdk_client)
                    except (UnknownName, ServerUnavailable):
                        prepared[test.name] = None  # its calls fail as `unavailable`, counted
            finally:
                arrived()
            await go.wait()
            start = clock["start"]
            # open model: every user takes whichever arrival is due; closed: user i calls while the level >= i/N
            spans = [(0.0, plan.duration_s)] if arrivals else windows(parts, index / max(plan.total_users, 1))
            try:
                for begin, end in spans:
                    await anyio.sleep(max(0.0, start + begin - time.perf_counter()))
                    if not await calls(rng, prepared, start + end):
                        break
            finally:  # the load ends when the last user stops calling; closing sessions is no part of it
                clock["end"], clock["cpu_end"] = time.perf_counter(), time.process_time()
                for connection in lean.values():
                    connection.close()

    async def calls(rng: random.Random, prepared: dict[str, Call | None], deadline: float) -> bool:
        """Call until the deadline; False when the load is over (the cap, or no arrival due before the end)."""
        start = clock["start"]
        while made["requests"] < plan.max_requests:
            due = arrival()
            if due is not None:
                if due >= deadline:
                    return False
                await anyio.sleep(max(0.0, due - EARLY_S - time.perf_counter()))
            elif time.perf_counter() >= deadline:
                return True
            made["requests"] += 1
            test = rng.choices(tests, weights)[0]
            tally = tallies[test.name]
            began = time.perf_counter()
            seconds.started(test.name, int((due if due is not None else began) - start))
            call = prepared[test.name]
            try:
                if call is None:
                    raise ServerUnavailable("no session, or an unknown name")
                outcome = await call()
            except (UnknownName, ServerUnavailable):
                tally.count += 1
                tally.errors["unavailable"] = tally.errors.get("unavailable", 0) + 1
                now = time.perf_counter()
                hist.record_ms(tally.histogram, (now - began) * 1000)
                seconds.answered(test.name, int(now - start), (now - began) * 1000, True)
                await anyio.sleep(0.1)  # a server that is not there is not hammered
                continue
            # open model: from when the call was due, so a slow server cannot hide its queue (no coordinated
            # omission), or from when it was sent if that was earlier (EARLY_S); closed model: the call's own time
            now = time.perf_counter()
            ms = (now - min(due, began)) * 1000 if due is not None else outcome.duration_ms
            hist.record_ms(tally.histogram, ms)
            tally.count += 1
            kind = failure_kind(test, outcome)
            if kind:
                tally.errors[kind] = tally.errors.get(kind, 0) + 1
            seconds.answered(test.name, int(now - start), ms, kind is not None)
        return False

    async with anyio.create_task_group() as tg:

        async def watch() -> None:
            while not stop.is_set():
                await anyio.sleep(0.05)
            tg.cancel_scope.cancel()

        async def users() -> None:
            async with anyio.create_task_group() as inner:
                for index in plan.users:
                    inner.start_soon(user, index)
            tg.cancel_scope.cancel()

        async def tick() -> None:
            """Each second once it is over, to the sink (the live table and the report's series)."""
            await go.wait()
            while True:
                elapsed = time.perf_counter() - clock["start"]
                await anyio.sleep(math.floor(elapsed) + 1.001 - elapsed)
                done = seconds.over(time.perf_counter() - clock["start"])
                if done:
                    sink(done)

        tg.start_soon(watch)
        tg.start_soon(users)
        tg.start_soon(tick)
    return made["requests"] >= plan.max_requests
