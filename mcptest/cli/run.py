"""`mcptest run`: run a suite and report."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Annotated

import typer

from mcptest.exit_codes import ExitCode
from mcptest.printable import printable

if TYPE_CHECKING:
    from mcptest.agent_plan import RecordMode


def register(app: typer.Typer) -> None:
    """Add `run` to the app."""
    app.command("run")(run)


def run(
    suite: Annotated[str | None, typer.Argument(help="The suite file (default: mcptest.yaml or mcptest.yml).")] = None,
    reporter: Annotated[
        str, typer.Option("--reporter", "-r", help="pretty, json, junit, md, sarif or html.")
    ] = "pretty",
    output: Annotated[
        str | None, typer.Option("--output", "-o", help="Write the report here (default: stdout).")
    ] = None,
    filter: Annotated[str | None, typer.Option("--filter", help="Test name substring, or re:REGEX.")] = None,
    tag: Annotated[list[str] | None, typer.Option("--tag", help="Only tests with this tag (repeatable).")] = None,
    skip_tag: Annotated[list[str] | None, typer.Option("--skip-tag", help="Skip tests with this tag.")] = None,
    no_color: Annotated[bool, typer.Option("--no-color", help="No ANSI colour.")] = False,
    debug: Annotated[bool, typer.Option("--debug", help="Log the SDK's debug output to stderr.")] = False,
    record: Annotated[
        bool, typer.Option("--record", help="Run agent tests live and (re)write their cassettes (--record-mode all).")
    ] = False,
    record_mode: Annotated[
        str | None, typer.Option("--record-mode", help="none (replay, default), once (record missing), all.")
    ] = None,
    models: Annotated[
        str | None, typer.Option("--models", help="Run live agent tests on these models instead: a,b,c.")
    ] = None,
    concurrency: Annotated[int, typer.Option("--concurrency", min=1, help="Agent runs at once.")] = 4,
    max_cost: Annotated[
        float | None,
        typer.Option("--max-cost", min=0, help="Stop dispatching runs once this many USD are spent (exit 5)."),
    ] = None,
) -> int:
    """Run a suite against its MCP servers and report; exit 1 when anything fails."""
    from mcptest.cli.common import emit, loading, use_color

    with loading():
        import anyio

        from mcptest.agent_plan import AgentOptions
        from mcptest.cli.progress import live_progress
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
    options = AgentOptions(
        record_mode=_record_mode(record, record_mode),
        concurrency=concurrency,
        max_cost=max_cost,
        models=[m.strip() for m in models.split(",") if m.strip()] if models else None,
    )
    quiet_sdk_logs(debug)
    with live_progress(any(not a.recorded for a in loaded.agents)) as hook:
        options.on_progress = hook
        result = anyio.run(lambda: run_suite(loaded, selection, agents_options=options))
    for line in result.notes:
        print(printable(line), file=sys.stderr)
    for gate in result.report.gates:  # the floor lines go to stderr, so a JSON report on stdout stays clean
        for line in gate.lines:
            print(printable(line), file=sys.stderr)
    emit(REPORTERS[reporter](result.report, use_color(no_color) and not output), output)
    if result.capped:
        print(f"mcptest: --max-cost {max_cost:g} USD spent; the remaining runs were not dispatched", file=sys.stderr)
        return ExitCode.POLICY
    if result.report.ok:
        return ExitCode.OK
    return ExitCode.NOT_READY if result.not_ready else ExitCode.FAILED


def _record_mode(record: bool, mode: str | None) -> RecordMode:
    from mcptest.agent_plan import RecordMode
    from mcptest.errors import usage_error

    if mode is None:
        return RecordMode.ALL if record else RecordMode.NONE
    if mode not in RecordMode.__members__.values():
        raise usage_error(f"--record-mode: unknown mode '{mode}'; modes are {', '.join(RecordMode)}")
    if record and mode != RecordMode.ALL:
        raise usage_error(f"--record means --record-mode all; it contradicts --record-mode {mode}")
    return RecordMode(mode)
