"""`mcptest pin`: write `mcptest.lock` (hashes of every pinned catalog); and the check `mcptest run` makes first."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Annotated

import typer

from mcptest.cli.server_options import ServerOpt, SuiteArg
from mcptest.core.exit_codes import ExitCode

if TYPE_CHECKING:
    from mcptest.diff.model import DiffReport
    from mcptest.records.entries import Surface
    from mcptest.suite.models import Suite


def register(app: typer.Typer) -> None:
    """Add `pin` to the app."""
    app.command("pin")(pin)


def pin(
    suite: SuiteArg = None,
    server: ServerOpt = None,
    update: Annotated[bool, typer.Option("--update", help="Accept the servers' current catalogs.")] = False,
    debug: Annotated[bool, typer.Option("--debug", help="Log the SDK's debug output to stderr.")] = False,
) -> int:
    """Pin the suite's servers' catalogs in mcptest.lock; exit 1 when a pinned one changed (accept with --update)."""
    from mcptest.diff.pins import Lock, changes, lock_path, pin, read_lock, write_lock
    from mcptest.server.session import quiet_sdk_logs
    from mcptest.server.sources import resolve_sources
    from mcptest.server.surfaces import Unreachable, live_surfaces

    sources = resolve_sources(suite, server)
    assert sources.suite is not None
    path = lock_path(sources.suite.file)
    lock = read_lock(path) or Lock()
    quiet_sdk_logs(debug)
    try:
        live = live_surfaces(sources)
    except Unreachable as exc:
        _unreachable(exc)
        return ExitCode.FAILED
    moved = [(n, d, s) for n, s in live if n in lock.servers and (d := changes(lock.servers[n], s, n)) is not None]
    if moved and not update:
        _print_changes(moved)
        print(f"mcptest: {path}: run `mcptest pin --update` to accept these changes", file=sys.stderr)
        return ExitCode.FAILED
    fresh = [n for n, _ in live if n not in lock.servers]
    for name, surface in live:
        lock.servers[name] = pin(surface)
    write_lock(lock, path)
    entries = sum(len(s.entries) for _, s in live)
    what = f"{len(moved)} changed, {len(fresh)} new"
    print(f"mcptest: pinned {len(live)} server(s), {entries} entries in {path} ({what})", file=sys.stderr)
    return ExitCode.OK


def check_before_run(suite: Suite, check_pins: bool | None) -> int | None:
    """`mcptest run`'s pin check: None to go on, or the exit code when a pinned catalog changed.

    On by default when the suite has a lock; `--check-pins` without a lock is a usage error.
    """
    from mcptest.core.errors import usage_error
    from mcptest.diff.pins import lock_path, pinned_changes, read_lock
    from mcptest.server.surfaces import Unreachable

    if check_pins is False:
        return None
    lock = read_lock(lock_path(suite.file))
    if lock is None:
        if check_pins:
            raise usage_error(f"--check-pins: no {lock_path(suite.file)}; create it with `mcptest pin`")
        return None
    try:
        moved = pinned_changes(suite, lock)
    except Unreachable as exc:
        _unreachable(exc)
        return ExitCode.FAILED
    if not moved:
        return None
    _print_changes(moved)
    print("mcptest: pinned catalogs changed; no test ran (review, then `mcptest pin --update`)", file=sys.stderr)
    return ExitCode.FAILED


def _print_changes(moved: list[tuple[str, DiffReport, Surface]]) -> None:
    """Each server's diff, then what the SEC rules find in the entries that changed (a rug pull shows up here)."""
    from rich.text import Text

    from mcptest.checks.security.engine import scan
    from mcptest.diff.pins import changed_entries
    from mcptest.diff.render import render_text

    for name, report, live in moved:
        print(f"mcptest: server '{name}' no longer matches its pin", file=sys.stderr)
        print(Text.from_markup(render_text(report)).plain, file=sys.stderr, end="")
        for flagged in scan([changed_entries(report, live)]).flagged:
            f = flagged.finding
            print(f"  security: {f.severity.value} {f.rule} {flagged.entry.label}: {f.message}", file=sys.stderr)


def _unreachable(exc: Exception) -> None:
    print(f"mcptest: {exc}", file=sys.stderr)
    if getattr(exc, "stderr", ""):
        print(exc.stderr, file=sys.stderr)  # type: ignore[attr-defined]
