"""`mcptest conformance`: does this server speak MCP correctly? Raw probes over stdio or Streamable HTTP, judged by
checks with stable ids, levels (MUST/SHOULD) and spec sections."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from mcptest.cli.server_options import CommandOpt, HeaderOpt, ServerOpt, SuiteArg, UrlOpt
from mcptest.core.exit_codes import ExitCode

if TYPE_CHECKING:
    from mcptest.run.conformance import ConformanceReport

_MARK = {"fail": "FAIL", "warn": "WARN", "stale": "STALE", "expected": "XFAIL", "skip": "skip", "pass": "ok"}
_COLOR = {"FAIL": "red", "WARN": "yellow", "STALE": "red", "XFAIL": "cyan", "skip": "dim", "ok": "green"}


def register(app: typer.Typer) -> None:
    """Add `conformance` to the app."""
    app.command("conformance")(conformance)


def conformance(
    suite: SuiteArg = None,
    server: ServerOpt = None,
    command: CommandOpt = None,
    url: UrlOpt = None,
    header: HeaderOpt = None,
    timeout: Annotated[float, typer.Option("--timeout", help="Seconds for start-up and for each probe.")] = 10.0,
    protocol_version: Annotated[
        str | None,
        typer.Option(
            "--protocol-version",
            help="The one protocol version to offer and check (default: every version mcptest ships, in parallel).",
        ),
    ] = None,
    reporter: Annotated[
        str,
        typer.Option(
            "--reporter", "-r", help="pretty, json, sarif, junit, md or html (junit/md/html: one test row per check)."
        ),
    ] = "pretty",
    output: Annotated[
        str | None, typer.Option("--output", "-o", help="Write the report here (default: stdout).")
    ] = None,
    json_output: Annotated[bool, typer.Option("--json", help="Same as -r json.")] = False,
    fail_on: Annotated[str, typer.Option("--fail-on", help="must (default) or should.")] = "must",
    expected_failures: Annotated[
        Path | None, typer.Option("--expected-failures", help="A YAML list of check ids known to fail.")
    ] = None,
    verbose: Annotated[bool, typer.Option("--verbose", "-v", help="List passed and skipped checks too.")] = False,
    no_color: Annotated[bool, typer.Option("--no-color", help="No ANSI colour.")] = False,
) -> int:
    """Check that a server follows the MCP protocol; exit 1 on a MUST failure, 3 when it cannot be reached."""
    from mcptest.cli.common import check_output
    from mcptest.core.errors import usage_error
    from mcptest.run.conformance import FAIL_ON, Unreachable, run_conformance
    from mcptest.server.sources import resolve_sources

    reporter = "json" if json_output else reporter
    if reporter not in REPORTS:
        raise usage_error(f"--reporter: unknown format '{reporter}'; formats are {', '.join(REPORTS)}")
    check_output(output)
    if fail_on not in FAIL_ON:
        raise usage_error(f"--fail-on: expected one of {', '.join(FAIL_ON)}, got {fail_on!r}")
    from mcptest.checks.conformance.messages import SCHEMA_VERSIONS

    version = protocol_version
    if version is not None and version not in SCHEMA_VERSIONS:
        raise usage_error(f"--protocol-version: mcptest checks {', '.join(SCHEMA_VERSIONS)}; got {version!r}")
    expected = _baseline(expected_failures) if expected_failures else frozenset()
    usage = "mcptest conformance SUITE --server NAME (or --command, --url)"
    sources = resolve_sources(suite, server, None, command, url, header, timeout, usage=usage)
    name, config = sources.one()
    try:
        report = run_conformance(name, config, sources.base_dir, timeout, expected, version)
    except Unreachable as exc:
        print(f"mcptest: server '{name}': {exc.message}", file=sys.stderr)
        if exc.stderr:
            print(exc.stderr, file=sys.stderr)
        return ExitCode.NOT_READY
    if reporter == "pretty" and output is None:
        print_report(report, verbose, no_color)
    else:
        from mcptest.cli.common import emit

        emit(render(report, reporter, suite, fail_on), output, f"the {reporter} report")
    return ExitCode.FAILED if report.failed(fail_on) else ExitCode.OK


REPORTS = ("pretty", "json", "sarif", "junit", "md", "html")


def render(report: ConformanceReport, reporter: str, suite: str | None, fail_on: str) -> str:
    """The report in one of `REPORTS`: its own JSON (`schema/conformance.v1.json`) and SARIF, or JUnit, Markdown,
    HTML (and pretty, to a file) through the run reporters, over the report as one test row per check."""
    from mcptest.checks.conformance.report import as_run_report, conformance_sarif

    if reporter == "json":
        return json.dumps(report.to_json(fail_on), indent=2, ensure_ascii=False) + "\n"
    if reporter == "sarif":
        return conformance_sarif(report, suite)
    from mcptest.report.formats import REPORTERS

    return REPORTERS[reporter](as_run_report(report, suite or "mcptest conformance", fail_on), False)


def _baseline(path: Path) -> frozenset[str]:
    """The check ids of an expected-failures file (a YAML list); a bad file or unknown id: exit 2 with its place."""
    from mcptest.core.errors import Problem, UserError
    from mcptest.core.yaml_source import load
    from mcptest.run.conformance import unknown_ids

    doc = load(path)
    ids = doc.data if isinstance(doc.data, list) else None
    if ids is None or not all(isinstance(i, str) for i in ids):
        line, col = doc.value_pos(())
        raise UserError([Problem(str(path), line, col, "expected a YAML list of check ids, e.g. `- http-origin`")])
    unknown = unknown_ids(ids)
    if unknown:
        from mcptest.checks.conformance.rules import BY_ID
        from mcptest.core.errors import did_you_mean

        problems = []
        for i, check_id in enumerate(ids):
            if check_id in unknown:
                hint = did_you_mean(check_id, list(BY_ID)) or " (docs/conformance.md lists the checks)"
                problems.append(doc.problem((i,), f"no conformance check '{check_id}'{hint}"))
        raise UserError(problems)
    return frozenset(ids)


def print_report(report: ConformanceReport, verbose: bool, no_color: bool) -> None:
    """Each version checked, newest first: failures first (MUST, then SHOULD, stale baseline entries), then the rest
    when `verbose`, then the counts; then what the probes reached of the server (its coverage line)."""
    for i, version in enumerate(report.every_version()):
        if i:
            print()
        _print_version(version, verbose, no_color)
    if report.coverage is not None:  # as `mcptest fuzz` prints it
        from mcptest.core.printable import printable
        from mcptest.records.coverage import summary_line

        untested = report.coverage.missing().get("tools", [])
        named = f"; not called: {', '.join(untested)}" if untested else ""
        print(f"\ncoverage: {summary_line(report.coverage)}{printable(named)}")


def _print_version(report: ConformanceReport, verbose: bool, no_color: bool) -> None:
    from rich.console import Console
    from rich.markup import escape

    from mcptest.checks.conformance.messages import schema_version
    from mcptest.cli.common import use_color

    color = use_color(no_color, sys.stdout)
    console = Console(file=sys.stdout, color_system="auto" if color else None, highlight=False, soft_wrap=True)
    info = report.server_info
    named = f"{info.get('name')} {info.get('version')}" if info else report.server
    console.print(
        f"[bold]{escape(str(named))}[/] over {report.transport}: protocol {report.protocol_version} "
        f"(offered {report.offered_version}; schema {schema_version(report.protocol_version, report.offered_version)})"
    )
    order = {"stale": 0, "fail": 1, "expected": 3, "pass": 4, "skip": 5}
    shown = sorted(report.outcomes, key=lambda o: order[o.status] + (1 if o.level == "SHOULD" else 0) * 0.5)
    for o in shown:
        mark = "WARN" if o.status == "fail" and o.level == "SHOULD" else _MARK[o.status]
        if not verbose and o.status in ("pass", "skip"):
            continue
        line = f"  [{_COLOR[mark]}]{mark:<5}[/] {o.id} ({o.level})"
        console.print(line + (f": {escape(o.message)}" if o.message else f": {escape(o.title)}"))
        if o.status in ("fail", "stale") and o.evidence:
            for evidence in o.evidence.splitlines():
                console.print(f"        [dim]{escape(evidence)}[/]")
            console.print(f"        [dim]{escape(report.url(o.id))}[/]")
    for note in report.notes:
        console.print(f"  [dim]note: {escape(note)}[/]")
    if not report.outcomes:
        return  # an older version the server does not speak: its note says so
    if report.stderr:
        console.print("  [dim]server stderr:[/]\n" + escape(report.stderr))
    c = report.counts()
    console.print(
        f"\n{len(report.outcomes)} checks: {c['pass']} passed, {c['fail']} failed, {c['warn']} warnings, "
        f"{c['skip']} skipped"
        + (f", {c['expected']} expected failures" if c["expected"] else "")
        + (f", {c['stale']} stale baseline entries" if c["stale"] else "")
        + f" ({report.duration_s:.2f}s). Tier: {report.tier()}."
    )
