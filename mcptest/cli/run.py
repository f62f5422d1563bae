"""`mcptest run`: run a suite and report."""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING, Annotated

import typer

from mcptest.cli.annotate import AnnotationsOpt
from mcptest.core.exit_codes import ExitCode
from mcptest.core.printable import printable

if TYPE_CHECKING:
    from mcptest.agent.plan import RecordMode
    from mcptest.records.report import Report
    from mcptest.run.selection import Selection
    from mcptest.run.telemetry import ExportTarget, LiveTelemetry
    from mcptest.suite.models import Suite


def register(app: typer.Typer) -> None:
    """Add `run` to the app."""
    app.command("run")(run)


def run(
    suite: Annotated[str | None, typer.Argument(help="The suite file (default: mcptest.yaml or mcptest.yml).")] = None,
    reporter: Annotated[
        str, typer.Option("--reporter", "-r", help="pretty, json, junit, md, sarif, html, agent or codequality.")
    ] = "pretty",
    output: Annotated[
        str | None, typer.Option("--output", "-o", help="Write the report here (default: stdout).")
    ] = None,
    filter: Annotated[str | None, typer.Option("--filter", help="Test name substring, or re:REGEX.")] = None,
    tag: Annotated[list[str] | None, typer.Option("--tag", help="Only tests with this tag (repeatable).")] = None,
    skip_tag: Annotated[list[str] | None, typer.Option("--skip-tag", help="Skip tests with this tag.")] = None,
    update_snapshots: Annotated[
        bool, typer.Option("--update-snapshots", help="Write every `snapshot` matcher's value as its snapshot.")
    ] = False,
    allow_update_in_ci: Annotated[
        bool, typer.Option("--allow-update-in-ci", help="Let --update-snapshots run where CI is set.")
    ] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No live progress on stderr.")] = False,
    list_only: Annotated[bool, typer.Option("--list", help="Print the selected tests and run nothing.")] = False,
    fail_fast: Annotated[
        bool, typer.Option("--fail-fast", "-x", help="Start no test after the first failure.")
    ] = False,
    workers: Annotated[
        int, typer.Option("--workers", "-w", min=1, help="Tool, resource and prompt tests in flight at once.")
    ] = 1,
    shard: Annotated[
        str | None, typer.Option("--shard", help="K/N: run shard K of N (merge with `mcptest report merge`).")
    ] = None,
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
    history: Annotated[
        str | None,
        typer.Option("--history", help="Store the run in this history (sqlite:///PATH or postgresql://...)."),
    ] = None,
    no_history: Annotated[bool, typer.Option("--no-history", help="Do not store the run in any history.")] = False,
    annotations: AnnotationsOpt = "auto",
    check_pins: Annotated[
        bool | None,
        typer.Option("--check-pins/--no-check-pins", help="Check mcptest.lock first (default: if it exists)."),
    ] = None,
    otlp_endpoint: Annotated[
        str | None,
        typer.Option(
            "--otlp-endpoint",
            help="Send the run as OpenTelemetry spans to this OTLP/HTTP endpoint (or OTEL_EXPORTER_OTLP_ENDPOINT).",
        ),
    ] = None,
    otlp_file: Annotated[
        str | None, typer.Option("--otlp-file", help="Write the run's OpenTelemetry spans here as OTLP JSON.")
    ] = None,
    otlp_content: Annotated[
        bool,
        typer.Option(
            "--otlp-content", help="Spans carry prompts, answers, tool arguments and results (secrets masked)."
        ),
    ] = False,
) -> int:
    """Run a suite against its MCP servers and report; exit 1 when anything fails."""
    from mcptest.cli.common import check_output, emit, loading, use_color

    with loading():
        import anyio

        from mcptest.agent.plan import AgentOptions
        from mcptest.cli.annotate import annotate_run, chosen_mode
        from mcptest.cli.progress import live_progress, progress_mode
        from mcptest.core.errors import usage_error
        from mcptest.history.location import history_url
        from mcptest.report.formats import REPORTERS
        from mcptest.run.exit_status import run_exit_code
        from mcptest.run.runner import run_suite, select, selected_count
        from mcptest.run.selection import Selection, parse_shard
        from mcptest.run.state import RunState
        from mcptest.server.session import quiet_sdk_logs
        from mcptest.suite.loader import find_suite, load_suite

        if reporter not in REPORTERS:
            raise usage_error(f"--reporter: unknown format '{reporter}'; formats are {', '.join(REPORTERS)}")
        telemetry = _telemetry(otlp_endpoint, otlp_file, otlp_content)
        annotating = chosen_mode(annotations)
        loaded = load_suite(find_suite(suite))
        check_output(output)
    for agent in loaded.agents:  # OpenTelemetry spans an import skipped, by reason
        for note in agent.load_notes():
            print(f"mcptest: {printable(note)}", file=sys.stderr)
    selection = Selection(
        filter=filter, tags=tag or (), skip_tags=skip_tag or (), shard=parse_shard(shard) if shard else None
    )
    if not selected_count(loaded, selection.unsharded()):
        print(f"mcptest: no tests selected in {loaded.file} (check --filter / --tag / --skip-tag)", file=sys.stderr)
        return ExitCode.NOTHING_SELECTED
    if list_only:
        _print_selected(loaded, selection)
        return ExitCode.OK
    from mcptest.cli.pin import show_pin_check

    if (pinned := show_pin_check(loaded, check_pins)) is not None:
        return pinned
    from mcptest.run.snapshot_policy import UpdateRefusedInCI, run_snapshots

    try:
        snapshots = run_snapshots(loaded.file, update=update_snapshots, allow_update_in_ci=allow_update_in_ci)
    except UpdateRefusedInCI as exc:
        print(f"mcptest: {exc}", file=sys.stderr)
        return ExitCode.POLICY
    options = AgentOptions(
        record_mode=_record_mode(record, record_mode),
        concurrency=concurrency,
        max_cost=max_cost,
        models=[m.strip() for m in models.split(",") if m.strip()] if models else None,
    )
    quiet_sdk_logs(debug)
    state = RunState()
    history_at = history_url(
        loaded.file, history, disabled=no_history, suite_setting=loaded.history, environ=os.environ
    )

    def render(report: Report) -> str:
        if reporter == "html" and history_at is not None:  # the page draws the history too
            from mcptest.report.formats import html_with_history

            page, warning = html_with_history(report, history_at)
            if warning is not None:
                print(printable(warning), file=sys.stderr)
            return page
        return REPORTERS[reporter](report, use_color(no_color) and not output)

    try:
        mode = progress_mode(quiet or reporter == "agent")  # the agent reporter: no progress on either stream
        live = _live(telemetry)
        with live_progress(mode, len(select(loaded, selection))) as progress:
            options.on_progress = progress.on_agent_runs
            result = anyio.run(
                lambda: run_suite(
                    loaded, selection, agents_options=options, state=state, snapshots=snapshots,
                    on_result=progress.on_result, workers=workers, fail_fast=fail_fast, telemetry=live,
                )
            )  # fmt: skip
    except KeyboardInterrupt:  # Ctrl-C or SIGTERM: servers are stopped; report what finished
        emit(render(cut := state.report(interrupted=True)), output, f"the {reporter} report")
        annotate_run(cut, annotating)
        _remember(cut, history_at, shard)
        return ExitCode.INTERRUPTED
    except Exception:  # a bug in mcptest: the finished results still reach the report, then the traceback
        emit(render(state.report(interrupted=True)), output, f"the {reporter} report")
        raise
    for path in snapshots.written:
        print(f"mcptest: wrote snapshot {path}", file=sys.stderr)
    for line in result.notes:
        print(printable(line), file=sys.stderr)
    for gate in result.report.gates if reporter != "agent" else ():  # the agent report holds the floors itself
        for line in gate.lines:  # the floor lines go to stderr, so a JSON report on stdout stays clean
            print(printable(line), file=sys.stderr)
    emit(render(result.report), output, f"the {reporter} report")
    annotate_run(result.report, annotating)
    _remember(result.report, history_at, shard)
    if live is not None:  # after the report: an export never delays or changes it
        from mcptest.run.telemetry import export_run

        if (warning := export_run(result.report, result.agent_runs, live, state.secrets)) is not None:
            print(f"mcptest: warning: {printable(warning)}", file=sys.stderr)
    if result.report.summary.not_run:
        print(f"mcptest: -x: stopped at the first failure; {result.report.summary.not_run} not run", file=sys.stderr)
    if result.capped:
        print(f"mcptest: --max-cost {max_cost:g} USD spent; the remaining runs were not dispatched", file=sys.stderr)
    return run_exit_code(result)


def _remember(report: Report, url: str | None, shard: str | None) -> None:
    """Append the run to its history; a store that fails is a warning, never a different exit code."""
    if url is None:
        return
    from mcptest.history.recording import record_run

    if (warning := record_run(report, url, environ=os.environ, shard=shard)) is not None:
        print(printable(warning), file=sys.stderr)


def _live(target: ExportTarget | None) -> LiveTelemetry | None:
    """The tracer of a run that exports: its sessions' request hook (None, and no hook, when nothing exports)."""
    if target is None:
        return None
    from mcptest.run.telemetry import LiveTelemetry

    return LiveTelemetry(target)


def _telemetry(endpoint: str | None, file: str | None, content: bool) -> ExportTarget | None:
    """The OpenTelemetry export asked for by the flags or the OTEL_* variables; a bad one is a usage error."""
    from mcptest.cli.common import check_output
    from mcptest.core.errors import usage_error
    from mcptest.run.telemetry import export_target

    if endpoint is not None and not endpoint.startswith(("http://", "https://")):
        raise usage_error(f"--otlp-endpoint: {endpoint!r} is not an http(s) URL (e.g. http://localhost:4318)")
    if file is not None:
        check_output(file)
    try:
        return export_target(endpoint, file, content, os.environ)
    except ValueError as exc:
        raise usage_error(str(exc)) from None


def _print_selected(suite: Suite, selection: Selection) -> None:
    """One line per selected test, in run order: kind, name, where it is defined."""
    from mcptest.run.listing import selected_rows

    rows = selected_rows(suite, selection)
    for kind, name, line in rows:
        print(f"{kind:<8} {name}  {suite.file}:{line}")
    print(f"{len(rows)} selected", file=sys.stderr)


def _record_mode(record: bool, mode: str | None) -> RecordMode:
    from mcptest.agent.plan import RecordMode
    from mcptest.core.errors import usage_error

    if mode is None:
        return RecordMode.ALL if record else RecordMode.NONE
    if mode not in RecordMode.__members__.values():
        raise usage_error(f"--record-mode: unknown mode '{mode}'; modes are {', '.join(RecordMode)}")
    if record and mode != RecordMode.ALL:
        raise usage_error(f"--record means --record-mode all; it contradicts --record-mode {mode}")
    return RecordMode(mode)
