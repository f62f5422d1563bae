"""`mcptest run`: run a suite and report."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from mcptest.exit_codes import ExitCode


def register(app: typer.Typer) -> None:
    """Add `run` to the app."""
    app.command("run")(run)


def run(
    suite: Annotated[str | None, typer.Argument(help="The suite file (default: mcptest.yaml or mcptest.yml).")] = None,
    reporter: Annotated[str, typer.Option("--reporter", "-r", help="pretty, json, junit, md or sarif.")] = "pretty",
    output: Annotated[
        str | None, typer.Option("--output", "-o", help="Write the report here (default: stdout).")
    ] = None,
    filter: Annotated[str | None, typer.Option("--filter", help="Test name substring, or re:REGEX.")] = None,
    tag: Annotated[list[str] | None, typer.Option("--tag", help="Only tests with this tag (repeatable).")] = None,
    skip_tag: Annotated[list[str] | None, typer.Option("--skip-tag", help="Skip tests with this tag.")] = None,
    no_color: Annotated[bool, typer.Option("--no-color", help="No ANSI colour.")] = False,
    debug: Annotated[bool, typer.Option("--debug", help="Log the SDK's debug output to stderr.")] = False,
) -> int:
    """Run a suite against its MCP servers and report; exit 1 when anything fails."""
    import anyio

    from mcptest.cli.common import emit, use_color
    from mcptest.errors import usage_error
    from mcptest.report.formats import REPORTERS
    from mcptest.runner import run_suite, selected_count
    from mcptest.selection import Selection
    from mcptest.session import quiet_sdk_logs
    from mcptest.suite.loader import find_suite, load_suite

    if reporter not in REPORTERS:
        raise usage_error(f"--reporter: unknown format '{reporter}'; formats are {', '.join(REPORTERS)}")
    loaded = load_suite(find_suite(suite))
    selection = Selection(filter=filter, tags=tag or (), skip_tags=skip_tag or ())
    if not selected_count(loaded, selection):
        print(f"mcptest: no tests selected in {loaded.file} (check --filter / --tag / --skip-tag)", file=sys.stderr)
        return ExitCode.NOTHING_SELECTED
    quiet_sdk_logs(debug)
    result = anyio.run(lambda: run_suite(loaded, selection))
    for gate in result.report.gates:  # the floor lines go to stderr, so a JSON report on stdout stays clean
        for line in gate.lines:
            print(line, file=sys.stderr)
    emit(REPORTERS[reporter](result.report, use_color(no_color) and not output), output)
    if result.report.ok:
        return ExitCode.OK
    return ExitCode.NOT_READY if result.not_ready else ExitCode.FAILED
