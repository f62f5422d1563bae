"""`mcptest fuzz`: call a server's tools with inputs made from their inputSchemas and report what breaks."""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING, Annotated

import typer

from mcptest.cli.server_options import CommandOpt, HeaderOpt, ServerOpt, SuiteArg, TimeoutOpt, UrlOpt
from mcptest.core.exit_codes import ExitCode

if TYPE_CHECKING:
    from mcptest.fuzz.report import FuzzReport

_COLOR = {"error": "red", "warning": "yellow", "info": "cyan"}


def register(app: typer.Typer) -> None:
    """Add `fuzz` to the app."""
    app.command("fuzz")(fuzz)


def fuzz(
    suite: SuiteArg = None,
    server: ServerOpt = None,
    command: CommandOpt = None,
    url: UrlOpt = None,
    header: HeaderOpt = None,
    timeout: TimeoutOpt = 30.0,
    tool: Annotated[list[str] | None, typer.Option("--tool", help="Only this tool (repeatable).")] = None,
    cases: Annotated[int, typer.Option("--cases", help="Calls per tool (valid and invalid inputs in turn).")] = 100,
    seed: Annotated[int, typer.Option("--seed", help="The same seed makes the same inputs.")] = 0,
    max_call_ms: Annotated[
        int, typer.Option("--max-call-ms", help="A call with no answer after this long is a hang (scaled by load).")
    ] = 5000,
    allow_writes: Annotated[
        bool, typer.Option("--allow-writes", help="Fuzz tools that may change state too (default: read-only ones).")
    ] = False,
    replay: Annotated[
        str | None, typer.Option("--replay", help="Make one call with this JSON input (with one --tool).")
    ] = None,
    reporter: Annotated[
        str,
        typer.Option(
            "--reporter", "-r", help="pretty, json, sarif, junit, md or html (junit/md/html: one test row per tool)."
        ),
    ] = "pretty",
    output: Annotated[
        str | None, typer.Option("--output", "-o", help="Write the report here (default: stdout).")
    ] = None,
    json_output: Annotated[bool, typer.Option("--json", help="Same as -r json.")] = False,
    sarif: Annotated[bool, typer.Option("--sarif", help="Same as -r sarif.")] = False,
    fail_on: Annotated[str, typer.Option("--fail-on", help="error, warning, info or never.")] = "error",
    no_color: Annotated[bool, typer.Option("--no-color", help="No ANSI colour.")] = False,
    debug: Annotated[bool, typer.Option("--debug", help="Log the SDK's debug output to stderr.")] = False,
) -> int:
    """Fuzz a server's tools from their inputSchemas; exit 1 on a finding at --fail-on (default: error)."""
    from mcptest.cli.common import check_output
    from mcptest.core.errors import usage_error
    from mcptest.core.printable import printable
    from mcptest.fuzz.report import FAIL_ON
    from mcptest.run.fuzz import FuzzOptions
    from mcptest.run.fuzz import fuzz as run_fuzz
    from mcptest.server.session import ServerUnavailable
    from mcptest.server.surfaces import chosen_server

    reporter = "sarif" if sarif else "json" if json_output else reporter
    if reporter not in REPORTS:
        raise usage_error(f"--reporter: unknown format '{reporter}'; formats are {', '.join(REPORTS)}")
    check_output(output)
    if fail_on not in FAIL_ON:
        raise usage_error(f"--fail-on: expected one of {', '.join(FAIL_ON)}, got {fail_on!r}")
    if cases < 1:
        raise usage_error("--cases must be at least 1")
    if max_call_ms < 1:
        raise usage_error("--max-call-ms must be at least 1")
    args = None
    if replay is not None:
        try:
            args = json.loads(replay)
        except json.JSONDecodeError as exc:
            raise usage_error(f"--replay:1:{exc.colno}: not JSON: {exc.msg}") from None
        if not isinstance(args, dict):
            raise usage_error("--replay: the input must be a JSON object (a tool's arguments)")
    usage = "mcptest fuzz FILE --server NAME (or --command, --url)"
    name, config, base_dir = chosen_server(suite, server, command, url, header, timeout, usage=usage, debug=debug)
    options = FuzzOptions(
        tools=tool or (),
        cases=cases,
        seed=seed,
        max_call_ms=max_call_ms,
        allow_writes=allow_writes,
        fail_on=fail_on,
        replay=args,
        command_line=_naming(suite, name, command, url),
    )
    try:
        report = run_fuzz(name, config, base_dir, options)
    except ServerUnavailable as exc:
        print(printable(f"mcptest: {exc.message}"), file=sys.stderr)
        if exc.stderr:
            print(printable(exc.stderr), file=sys.stderr)
        return ExitCode.FAILED
    if reporter == "pretty" and output is None:
        print_report(report, no_color)
    else:
        from mcptest.cli.common import emit

        emit(render(report, reporter, suite), output, f"the {reporter} report")
    return ExitCode.OK if report.ok else ExitCode.FAILED


REPORTS = ("pretty", "json", "sarif", "junit", "md", "html")


def render(report: FuzzReport, reporter: str, suite: str | None) -> str:
    """The fuzz report in one of `REPORTS`: its own JSON and SARIF, or JUnit/Markdown/HTML (and pretty, to a file)
    through the run reporters, over the report as one test row per tool (the suite file, if any, as their file)."""
    if reporter == "json":
        return json.dumps(report.model_dump(mode="json"), indent=2, ensure_ascii=False) + "\n"
    if reporter == "sarif":
        from mcptest.fuzz.sarif import fuzz_sarif

        return fuzz_sarif(report, suite)
    from mcptest.fuzz.report import as_run_report
    from mcptest.report.formats import REPORTERS

    return REPORTERS[reporter](as_run_report(report, suite or "mcptest fuzz"), False)


def _naming(suite: str | None, name: str, command: str | None, url: str | None) -> list[str]:
    """The options that name the server again in a replay line (headers left out: they may hold credentials)."""
    if command is not None:
        return ["--command", command]
    if url is not None:
        return ["--url", url]
    return [*([suite] if suite else []), "--server", name]


def print_report(report: FuzzReport, no_color: bool) -> None:
    """Each tool's calls and finding counts, then each finding with its minimal input and replay line."""
    from rich.console import Console
    from rich.markup import escape

    from mcptest.cli.common import use_color
    from mcptest.core.printable import printable

    color = use_color(no_color, sys.stdout)
    console = Console(file=sys.stdout, color_system="auto" if color else None, highlight=False, soft_wrap=True)
    console.print(
        f"[bold]server '{escape(report.server)}'[/]: seed {report.seed}, {report.cases_per_tool} cases per tool"
    )
    for tool in report.tools:
        if tool.skipped:
            console.print(f"  {escape(tool.tool)}: [dim]skipped: {escape(tool.skipped)}[/]")
            continue
        counts = ", ".join(f"{k} {v}" for k, v in tool.counts.items()) or "no findings"
        calls = f"{tool.cases} calls ({tool.valid_cases} valid, {tool.invalid_cases} invalid)"
        console.print(f"  {escape(tool.tool)}: {calls}: {escape(counts)}")
    for f in report.findings:
        sev = f.severity
        console.print(f"\n[{_COLOR[sev]}]{sev:<7}[/] {f.kind}  {escape(f.tool)}: {escape(printable(f.detail))}")
        smaller = f.first_input_size > len(json.dumps(f.input, ensure_ascii=False))
        shrunk = f" (shrunk from {f.first_input_size} characters)" if smaller else ""
        where = "valid" if f.input_valid else "invalid"
        console.print(f"  input ({where}, {escape(f.how)}){shrunk}: {escape(printable(json.dumps(f.input)))}")
        for line in f.stderr.splitlines()[-3:]:
            console.print(f"  [dim]stderr: {escape(printable(line))}[/]")
        console.print(f"  replay: {escape(printable(f.replay))}")
    if report.coverage is not None:
        from mcptest.records.coverage import summary_line

        untested = report.coverage.missing().get("tools", [])
        named = f"; not called: {', '.join(untested)}" if untested else ""
        console.print(f"\ncoverage: {escape(summary_line(report.coverage))}{escape(named)}")
    c = report.counts()
    scale = f", timeouts x{report.timeout_scale:g} for load" if report.timeout_scale > 1 else ""
    restarts = f", {report.restarts} restart(s) after a crash" if report.restarts else ""
    console.print(
        f"\n{c['error']} error, {c['warning']} warning, {c['info']} info finding(s) in {report.seconds:.1f}s"
        f"{restarts}{scale}"
    )
