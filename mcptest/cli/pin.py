"""`mcptest pin`: write `mcptest.lock` (hashes of every pinned catalog); and how the check `mcptest run` makes first
is shown (the checks themselves are `mcptest.diff.pin_check`)."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Annotated

import typer

from mcptest.cli.server_options import ServerOpt, SuiteArg
from mcptest.core.exit_codes import ExitCode

if TYPE_CHECKING:
    from mcptest.diff.pin_check import Moved
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
    from mcptest.cli.common import warn_problems
    from mcptest.diff.pin_check import update_pins
    from mcptest.server.session import quiet_sdk_logs
    from mcptest.server.sources import resolve_sources
    from mcptest.server.surfaces import Unreachable

    sources = resolve_sources(suite, server)
    quiet_sdk_logs(debug)
    try:
        pinned = update_pins(sources, update)
    except Unreachable as exc:
        _unreachable(exc)
        return ExitCode.FAILED
    warn_problems(p for _, s in pinned.live for p in s.problems)
    if not pinned.written:
        _print_changes(pinned.moved)
        print(f"mcptest: {pinned.path}: run `mcptest pin --update` to accept these changes", file=sys.stderr)
        return ExitCode.FAILED
    what = f"{len(pinned.moved)} changed, {len(pinned.fresh)} new"
    print(
        f"mcptest: pinned {len(pinned.live)} server(s), {pinned.entries} entries in {pinned.path} ({what})",
        file=sys.stderr,
    )
    return ExitCode.OK


def show_pin_check(suite: Suite, check_pins: bool | None) -> int | None:
    """`mcptest run`'s pin check, rendered: None to go on, or the exit code when a pinned catalog changed."""
    from mcptest.diff.pin_check import check_before_run
    from mcptest.server.surfaces import Unreachable

    try:
        moved = check_before_run(suite, check_pins)
    except Unreachable as exc:
        _unreachable(exc)
        return ExitCode.FAILED
    if not moved:
        return None
    _print_changes(moved)
    print("mcptest: pinned catalogs changed; no test ran (review, then `mcptest pin --update`)", file=sys.stderr)
    return ExitCode.FAILED


def _print_changes(moved: list[Moved]) -> None:
    """Each server's diff, then what the SEC rules find in the entries that changed (a rug pull shows up here)."""
    from rich.text import Text

    from mcptest.diff.pin_check import changed_entry_findings
    from mcptest.diff.render import render_text

    for name, report, live in moved:
        print(f"mcptest: server '{name}' no longer matches its pin", file=sys.stderr)
        print(Text.from_markup(render_text(report)).plain, file=sys.stderr, end="")
        for flagged in changed_entry_findings(report, live):
            f = flagged.finding
            print(f"  security: {f.severity.value} {f.rule} {flagged.entry.label}: {f.message}", file=sys.stderr)


def _unreachable(exc: Exception) -> None:
    print(f"mcptest: {exc}", file=sys.stderr)
    if getattr(exc, "stderr", ""):
        print(exc.stderr, file=sys.stderr)  # type: ignore[attr-defined]
