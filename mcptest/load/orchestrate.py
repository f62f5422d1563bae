"""`mcptest load` across processes: the users split over one generator process per core (or one shard of them
across machines), each process's histograms merged exactly, the generator's own CPU use measured."""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

from mcptest.core import latency as hist
from mcptest.load.engine import Plan, drive, scenarios
from mcptest.load.model import Generator, LoadReport, Operation

SATURATED = 0.9
"""The share of its cores' time a generator may use before its figures are suspect."""


def split(users: list[int], processes: int) -> list[list[int]]:
    """The users dealt round-robin over the processes (none left empty when there are fewer users)."""
    processes = max(1, min(processes, len(users)))
    return [users[k::processes] for k in range(processes)]


def shard_users(total: int, shard: tuple[int, int] | None) -> list[int]:
    """The user indexes of shard K of N (all of them without a shard): machines together run `total` users."""
    if shard is None:
        return list(range(total))
    k, n = shard
    return [u for u in range(total) if u % n == k - 1]


Watch = Callable[[int, dict[int, dict[str, dict[str, Any]]]], None]
"""Sees each second as a process hands it on: (the process's index, its seconds)."""


def run_load(plan: Plan, processes: int, stop: threading.Event, watch: Watch | None = None) -> LoadReport:
    """Run the plan's users over `processes` processes (in this one when 1) and merge what they measured: the
    totals and each second of the run (`series`), exactly, histograms added."""
    from mcptest import __version__
    from mcptest.load.series import merged, second
    from mcptest.suite.loader import load_suite

    suite = load_suite(plan.suite)
    tests = scenarios(suite, plan.server)
    started = datetime.now(UTC).isoformat()
    shares = split(plan.users, processes)
    rate = plan.rate / len(shares) if plan.rate is not None else None
    plans = [
        replace(plan, users=share, rate=rate, max_requests=plan.max_requests // len(shares), seed=plan.seed + k)
        for k, share in enumerate(shares)
    ]
    collected: dict[int, dict[str, list[dict[str, Any]]]] = {}

    def seen(k: int, done: dict[int, dict[str, dict[str, Any]]]) -> None:
        for at, ops in done.items():
            for name, part in ops.items():
                collected.setdefault(at, {}).setdefault(name, []).append(part)
        if watch is not None:
            watch(k, done)

    if len(plans) == 1:
        results = [drive(plans[0], stop, lambda done: seen(0, done))]
    else:
        results = _in_processes(plans, stop, seen)
    series = {
        t.name: [second(at, merged(ops[t.name])) for at, ops in sorted(collected.items()) if t.name in ops]
        for t in tests
    }
    # each process's window from its users' first call to their last: start-up and shutdown are not load
    elapsed = max(r["elapsed_s"] for r in results)
    cpu = sum(r["cpu_s"] for r in results)
    cores = os.cpu_count() or 1
    busy = cpu / max(elapsed, 1e-9) / min(len(plans), cores)
    warnings = []
    if busy > SATURATED:
        warnings.append(
            f"the load generator was busy {busy:.0%} of the time its {len(plans)} process(es) could run: the figures "
            "may measure the client, not the server; use fewer users, --rate, or more machines (--shard)"
        )
    operations = [
        _operation(t.name, _kind(t), t.weight, [r["tallies"][t.name] for r in results], elapsed, series[t.name])
        for t in tests
    ]
    overall = _operation(
        "all",
        "all",
        sum(t.weight for t in tests),
        [r["tallies"][t.name] for r in results for t in tests],
        elapsed,
        [second(at, merged([p for parts in ops.values() for p in parts])) for at, ops in sorted(collected.items())],
    )
    return LoadReport(
        mcptest_version=__version__,
        suite=suite.file,
        started_at=started,
        users=len(plan.users),
        duration_s=plan.duration_s,
        profile=plan.profile,
        ramp_s=plan.ramp_s,
        rate=plan.rate,
        elapsed_s=round(elapsed, 3),
        interrupted=stop.is_set(),
        capped=any(r["capped"] for r in results),
        operations=operations,
        overall=overall,
        generator=Generator(
            processes=len(plans),
            cores=cores,
            cpu_percent=round(100 * cpu / max(elapsed, 1e-9) / cores, 1),
            saturated=busy > SATURATED,
        ),
        warnings=warnings,
    )


def _kind(test: Any) -> str:
    from mcptest.run.call_tests import call_fields

    return str(call_fields(test, "")["kind"])


def _operation(
    name: str, kind: str, weight: int, tallies: list[dict[str, Any]], elapsed: float, series: list[Any]
) -> Operation:
    histogram = hist.merged([t["histogram"] for t in tallies])
    errors: dict[str, int] = {}
    for t in tallies:
        for k, n in t["errors"].items():
            errors[k] = errors.get(k, 0) + n
    count = sum(t["count"] for t in tallies)
    return Operation(
        name=name,
        kind=kind,
        weight=weight,
        count=count,
        errors=dict(sorted(errors.items())),
        throughput_rps=round(count / max(elapsed, 1e-9), 1),
        histogram=hist.encode(histogram),
        series=series,
        **hist.figures(histogram),
    )


def _child(plan: Plan, out: Any) -> None:
    """A spawned generator process: Ctrl-C (which the terminal sends the whole group) stops it and it reports. Each
    second goes to the parent once it is over, then the totals."""
    stop = threading.Event()
    signal.signal(signal.SIGINT, lambda *_: stop.set())
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    result = drive(plan, stop, lambda done: out.put(("seconds", done)))
    out.put(("result", result))


def _in_processes(
    plans: list[Plan], stop: threading.Event, seen: Callable[[int, dict[int, Any]], None]
) -> list[dict[str, Any]]:
    import multiprocessing
    import queue

    context = multiprocessing.get_context("spawn")
    outs = [context.Queue() for _ in plans]
    children = [
        context.Process(target=_child, args=(plan, out), daemon=True) for plan, out in zip(plans, outs, strict=True)
    ]
    for child in children:
        child.start()
    results: dict[int, dict[str, Any]] = {}
    forwarded = False
    bound = max(p.duration_s + p.ramp_s for p in plans) + 60  # start-up and shutdown, beyond the run itself
    began = time.monotonic()
    try:
        while len(results) < len(plans):
            if stop.is_set() and not forwarded:  # a stop seen by this process alone reaches the children
                forwarded = True
                for c in children:
                    if c.pid is not None and c.is_alive():
                        os.kill(c.pid, signal.SIGINT)
            quiet = True
            for k, (child, out) in enumerate(zip(children, outs, strict=True)):
                if k in results:
                    continue
                try:
                    kind, payload = out.get_nowait()
                except queue.Empty:
                    if not child.is_alive() and out.empty():
                        raise RuntimeError(f"a load generator process died (exit code {child.exitcode})") from None
                    continue
                quiet = False
                if kind == "seconds":
                    seen(k, payload)
                else:
                    results[k] = payload
            if time.monotonic() - began > bound:
                raise RuntimeError("a load generator process did not finish in time")
            if quiet:
                time.sleep(0.05)
    finally:
        for child in children:
            child.join(timeout=5)
            if child.is_alive():
                child.kill()
    return [results[k] for k in range(len(plans))]
