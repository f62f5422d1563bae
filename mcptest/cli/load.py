"""`mcptest load`: many virtual users running a suite's tool, resource and prompt tests against its servers."""

from __future__ import annotations

import os
import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from typing import TYPE_CHECKING, Annotated, Any

import typer

from mcptest.core.exit_codes import ExitCode

if TYPE_CHECKING:
    from mcptest.load.live import Progress
    from mcptest.load.model import LimitStep, LoadReport, Operation
    from mcptest.load.orchestrate import Watch

MAX_USERS = 1000
MAX_DURATION_S = 3600.0
MAX_RATE = 100_000.0


def register(app: typer.Typer) -> None:
    """Add `load` to the app."""
    app.command("load")(load)


def load(
    suite: Annotated[
        str | None, typer.Option("--suite", help="The suite (default: mcptest.yaml or mcptest.yml).")
    ] = None,
    server: Annotated[str | None, typer.Option("--server", help="Only this server's tests.")] = None,
    users: Annotated[int, typer.Option("--users", help=f"Virtual users, each its own session (1-{MAX_USERS}).")] = 10,
    duration: Annotated[str, typer.Option("--duration", help="How long: 30s, 2m (at most 1h).")] = "30s",
    ramp: Annotated[
        str, typer.Option("--ramp", help="Raise the load from 0 to full over this time first, e.g. 10s.")
    ] = "0s",
    profile: Annotated[
        str,
        typer.Option(
            "--profile",
            help="The offered load over the run: constant, ramp (0 to full over the run), spike (a fifth of the load, "
            "full in the middle fifth of the run) or soak (constant; first and last fifth compared).",
        ),
    ] = "constant",
    rate: Annotated[
        float | None, typer.Option("--rate", help="Open model: calls per second offered, whoever is free makes them.")
    ] = None,
    processes: Annotated[
        int | None, typer.Option("--processes", help="Generator processes (default: one per core).")
    ] = None,
    shard: Annotated[
        str | None, typer.Option("--shard", help="K/N: run shard K of the users on this machine, N machines in all.")
    ] = None,
    max_requests: Annotated[int, typer.Option("--max-requests", help="Stop after this many calls.")] = 1_000_000,
    sdk_client: Annotated[
        bool,
        typer.Option("--sdk-client", help="Make every call through the SDK's session, not the lean path (slower)."),
    ] = False,
    find_limit: Annotated[
        bool,
        typer.Option(
            "--find-limit",
            help="Step search over the rate (open model, from --rate, default 10/s; each step --duration) for the "
            "highest rate whose p95 stays within budget with under 1% errors.",
        ),
    ] = False,
    p95_ms: Annotated[
        float | None,
        typer.Option("--p95-ms", help="--find-limit: the p95 budget of tests without a latency.p95_ms bound."),
    ] = None,
    history: Annotated[
        str | None,
        typer.Option(
            "--history",
            help="Store the load in this run history (sqlite:///PATH or postgresql://...); by default, in the "
            "suite's history when it exists.",
        ),
    ] = None,
    no_history: Annotated[bool, typer.Option("--no-history", help="Do not store the load in any history.")] = False,
    json_output: Annotated[
        bool, typer.Option("--json", help="Print the report as JSON (schema/load.v1.json).")
    ] = False,
    reporter: Annotated[
        str, typer.Option("--reporter", "-r", help="The report's format: json (schema/load.v1.json), md or html.")
    ] = "json",
    output: Annotated[
        str | None, typer.Option("--output", "-o", help="Write the report here (without it, -r md|html: stdout).")
    ] = None,
) -> int:
    """Run a suite's tool, resource and prompt tests as weighted scenarios (`weight:`) under N virtual users; print
    per operation throughput, errors by kind and p50/p90/p95/p99/max; Ctrl-C stops at once and reports (exit 130)."""

    from mcptest.cli.common import check_output, emit
    from mcptest.core.errors import usage_error
    from mcptest.load.engine import Plan, scenarios
    from mcptest.load.formats import FORMATS
    from mcptest.load.formats import render as render_as
    from mcptest.load.limit import MAX_STEPS, budgets, search
    from mcptest.load.live import Progress
    from mcptest.load.orchestrate import run_load, shard_users, split
    from mcptest.load.profile import check
    from mcptest.run.selection import parse_shard
    from mcptest.suite.loader import find_suite, load_suite

    path = find_suite(suite, "mcptest load --suite FILE")
    if not 1 <= users <= MAX_USERS:
        raise usage_error(f"--users: between 1 and {MAX_USERS}; got {users}")
    seconds = _seconds(duration, "--duration")
    ramp_s = _seconds(ramp, "--ramp", zero=True)
    if seconds > MAX_DURATION_S or ramp_s >= seconds:
        raise usage_error(f"--duration: at most 1h, and longer than --ramp; got {duration} (ramp {ramp})")
    if wrong := check(profile, seconds, ramp_s):
        raise usage_error(wrong)
    if rate is not None and not 0 < rate <= MAX_RATE:
        raise usage_error(f"--rate: calls per second above 0, at most {MAX_RATE:g}; got {rate:g}")
    if max_requests < 1:
        raise usage_error(f"--max-requests: at least 1; got {max_requests}")
    if p95_ms is not None and (not find_limit or not p95_ms > 0):
        raise usage_error(f"--p95-ms: a budget above 0 ms for --find-limit; got {p95_ms:g}")
    if find_limit and (shard or profile != "constant" or seconds * MAX_STEPS > MAX_DURATION_S):
        raise usage_error(
            "--find-limit: each step is a whole load on this machine: no --shard, the constant profile, and "
            f"--duration at most {MAX_DURATION_S / MAX_STEPS / 60:g}m (up to {MAX_STEPS} steps)"
        )
    if reporter not in FORMATS:
        raise usage_error(f"--reporter: unknown format '{reporter}'; formats are {', '.join(FORMATS)}")
    if json_output and reporter != "json":
        raise usage_error(f"--json prints the JSON report: leave out --reporter {reporter}, or --json")
    check_output(output)
    loaded = load_suite(path)
    if server is not None and server not in loaded.servers:
        raise usage_error(f"--server: the suite has no server '{server}'; it has {', '.join(loaded.servers)}")
    if not scenarios(loaded, server):
        raise usage_error(
            f"{path}: no tool, resource or prompt tests{f' of server {server!r}' if server else ''} to run"
        )
    mine = shard_users(users, parse_shard(shard) if shard else None)
    if not mine:
        raise usage_error(f"--shard {shard}: no users in this shard (only {users} users); use fewer shards")
    count = processes if processes is not None else os.cpu_count() or 1
    if not 1 <= count <= 64:
        raise usage_error(f"--processes: between 1 and 64; got {count}")
    budget = budgets(scenarios(loaded, server), p95_ms) if find_limit else {}
    if find_limit and not budget:
        raise usage_error(
            '--find-limit needs a p95 budget: --p95-ms, or `latency.p95_ms: { "<=": MS }` on a test of the suite'
        )
    if find_limit and rate is None:
        rate = 10.0
    share = rate * len(mine) / users if rate is not None else None  # a shard offers its users' part of the rate
    plan = Plan(path, server, mine, users, seconds, ramp_s, share, max_requests, sdk_client=sdk_client, profile=profile)
    stop = threading.Event()
    names = [t.name for t in scenarios(loaded, server)]
    live = sys.stdout.isatty() and not json_output

    def one(plan: Plan) -> LoadReport:
        with _showing(Progress(len(split(mine, count)), names), live) as watch:
            return run_load(plan, count, stop, watch)

    previous = signal.signal(signal.SIGINT, lambda *_: stop.set())
    try:
        if find_limit:
            assert rate is not None
            report, _ = search(
                rate,
                MAX_RATE,
                budget,
                lambda r: one(replace(plan, rate=r)),
                stop,
                lambda s: print(_step(s), file=sys.stderr, flush=True),
            )
        else:
            report = one(plan)
    finally:
        signal.signal(signal.SIGINT, previous)
    text = render_as(report, reporter, _store(loaded, history, no_history) if shard is None else None)
    if output:
        emit(text, output, "the load report")
    to_stdout = json_output or (reporter != "json" and not output)  # then stdout holds the report alone
    print(render(report), file=sys.stderr if to_stdout else sys.stdout)
    if to_stdout:
        sys.stdout.write(text)
    for warning in report.warnings:
        print(f"mcptest: warning: {warning}", file=sys.stderr)
    if shard is None:  # a shard is part of a load: the whole one is the merge of all of them
        _remember(report, loaded, history, no_history)
    if report.interrupted:
        return ExitCode.INTERRUPTED
    if report.limit is not None:  # the search overloads the server on purpose: failing is finding no rate within
        return ExitCode.OK if report.limit.rate is not None else ExitCode.FAILED
    return ExitCode.FAILED if sum(report.overall.errors.values()) else ExitCode.OK


def _remember(report: LoadReport, suite: Any, flag: str | None, disabled: bool) -> None:
    """Store the load in the run history (under the suite's name + `#load`) when a store is named (`--history`,
    MCPTEST_HISTORY) or the suite's default one exists; a store that fails is a warning, never a different exit
    code."""
    from mcptest.core.printable import printable
    from mcptest.history.recording import LOAD_SUFFIX, record_run
    from mcptest.load.formats import as_run_report

    url = _store(suite, flag, disabled)
    if url is None:
        return
    run = as_run_report(report)
    if (warning := record_run(run, url, environ=os.environ, source="load", suffix=LOAD_SUFFIX)) is not None:
        print(printable(warning), file=sys.stderr)


def _store(suite: Any, flag: str | None, disabled: bool) -> str | None:
    """The history store a whole load goes to (and its HTML page draws the suite's last loads from): `--history`,
    MCPTEST_HISTORY, or the suite's default store when it exists already (a load never creates it); None: none."""
    from mcptest.history.location import default_url, history_url, missing_file

    url = history_url(suite.file, flag, disabled=disabled, suite_setting=suite.history, environ=os.environ)
    if url is None or (url == default_url(suite.file) and missing_file(url) is not None):
        return None
    return url


def _step(s: LimitStep) -> str:
    """A step of `--find-limit` as one line."""
    figures = ", ".join(f"{name} {ms:g}" for name, ms in s.p95_ms.items())
    verdict = "within budget" if s.within else f"over budget ({s.reason})"
    return (
        f"mcptest load: find-limit: {s.rate:g}/s: {s.count} answers, {s.error_percent:g}% errors, p95 ms {figures}: "
        + verdict
    )


@contextmanager
def _showing(progress: Progress, live: bool) -> Iterator[Watch]:
    """The watch that shows each second once every process is past it: a table redrawn in place on a terminal
    (`live`), else one plain line per second on stderr (CI logs)."""
    from mcptest.load.live import line, table

    if not live:

        def plain(process: int, done: dict[int, Any]) -> None:
            progress.seen(process, done)
            for tick in progress.ready():
                print(line(tick), file=sys.stderr, flush=True)

        yield plain
        return
    from rich.console import Console
    from rich.live import Live

    with Live(console=Console(), refresh_per_second=4, transient=True) as screen:

        def redraw(process: int, done: dict[int, Any]) -> None:
            progress.seen(process, done)
            if ticks := progress.ready():
                screen.update(table(ticks[-1]))

        yield redraw


def _seconds(text: str, flag: str, zero: bool = False) -> float:
    from mcptest.core.errors import usage_error

    units = {"ms": 0.001, "s": 1.0, "m": 60.0, "h": 3600.0}
    unit = next((u for u in ("ms", "s", "m", "h") if text.endswith(u)), "")
    number = text[: len(text) - len(unit)]
    try:
        value = float(number) * units.get(unit, 1.0)
    except ValueError:
        raise usage_error(f"{flag}: a time like 30s, 2m or 1h; got {text!r}") from None
    if value < 0 or (value == 0 and not zero) or value != value:
        raise usage_error(f"{flag}: a time above 0, like 30s; got {text!r}")
    return value


def render(report: LoadReport) -> str:
    """The report as plain lines: one per operation, then all of them, then the generator's own use."""
    model = f"open, {report.rate:g}/s offered" if report.rate is not None else "closed"
    if report.profile != "constant":
        model += f", {report.profile}"
    head = (
        f"mcptest load {report.suite}: {report.users} users, {report.elapsed_s:.1f}s ({model})"
        + (" INTERRUPTED" if report.interrupted else "")
        + (" (stopped at --max-requests)" if report.capped else "")
    )
    figures = " ".join(f"{name:>8}" for name in ("p50 ms", "p90", "p95", "p99", "max"))
    header = f"{'operation':<32} {'calls':>8} {'calls/s':>9} {'errors':>7} {figures}"
    lines = [head, header, *(_row(op) for op in [*report.operations, report.overall])]
    for op in [*report.operations, report.overall]:
        if op.errors:
            lines.append(f"  errors of {op.name}: " + ", ".join(f"{k} {n}" for k, n in op.errors.items()))
    if report.profile == "soak":
        from mcptest.load.series import drift

        for op in [*report.operations, report.overall]:
            if ends := drift(op, report.duration_s):
                change = f"{(ends[1] - ends[0]) / ends[0]:+.0%}" if ends[0] else ""
                lines.append(
                    f"  soak {op.name}: p95 {ends[0]:g} ms over the first fifth, {ends[1]:g} ms over the last {change}"
                )
    if report.limit is not None:
        limit = report.limit
        lines += [_step(s) for s in limit.steps]
        found = f"{limit.rate:g}/s" if limit.rate is not None else "none (no step was within budget)"
        lines.append(
            f"find-limit: the highest rate within budget: {found}"
            + (f"; {limit.over:g}/s was over" if limit.over is not None else "")
            + (" (the figures above are its step's)" if limit.rate is not None else "")
        )
    g = report.generator
    lines.append(f"generator: {g.processes} process(es) on {g.cores} cores, CPU {g.cpu_percent:g}% of the machine")
    return "\n".join(lines)


def _row(op: Operation) -> str:
    name = op.name if len(op.name) <= 32 else op.name[:31] + "…"
    errors = sum(op.errors.values())
    figures = " ".join(f"{v:>8.1f}" for v in (op.p50_ms, op.p90_ms, op.p95_ms, op.p99_ms, op.max_ms))
    return f"{name:<32} {op.count:>8} {op.throughput_rps:>9.1f} {errors:>7} {figures}"
