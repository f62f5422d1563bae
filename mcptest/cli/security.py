"""`mcptest security`: scan what servers tell the model (tools, resources, prompts) with the SEC rules."""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING, Annotated

import typer

from mcptest.cli.annotate import AnnotationsOpt
from mcptest.cli.server_options import CommandOpt, HeaderOpt, ServerOpt, SuiteArg, TimeoutOpt, UrlOpt
from mcptest.core.exit_codes import ExitCode

if TYPE_CHECKING:
    from mcptest.checks.security.engine import SecurityReport

_COLOR = {"critical": "red", "warning": "yellow"}


def register(app: typer.Typer) -> None:
    """Add `security` to the app."""
    app.command("security")(security)


def security(
    suite: SuiteArg = None,
    server: ServerOpt = None,
    catalog: Annotated[
        list[str] | None, typer.Option("--catalog", help="A saved catalog or cassette (repeatable: one per server).")
    ] = None,
    command: CommandOpt = None,
    url: UrlOpt = None,
    header: HeaderOpt = None,
    timeout: TimeoutOpt = 30.0,
    json_output: Annotated[bool, typer.Option("--json", help="Print JSON on stdout.")] = False,
    sarif: Annotated[bool, typer.Option("--sarif", help="Print the findings as SARIF 2.1.0.")] = False,
    fail_on: Annotated[str, typer.Option("--fail-on", help="critical, warning or never.")] = "critical",
    select: Annotated[list[str] | None, typer.Option("--select", help="Only these rules or prefixes.")] = None,
    ignore: Annotated[list[str] | None, typer.Option("--ignore", help="Skip these rules or prefixes.")] = None,
    no_color: Annotated[bool, typer.Option("--no-color", help="No ANSI colour.")] = False,
    debug: Annotated[bool, typer.Option("--debug", help="Log the SDK's debug output to stderr.")] = False,
    annotations: AnnotationsOpt = "auto",
) -> int:
    """Scan catalogs for poisoning, shadowing, exfiltration, hidden text and secrets; exit 1 at --fail-on."""
    from mcptest.checks.security.engine import FAIL_ON
    from mcptest.cli.common import warn_problems
    from mcptest.core.errors import usage_error
    from mcptest.run.security_scan import scan_sources
    from mcptest.server.surfaces import Unreachable

    if fail_on not in FAIL_ON:
        raise usage_error(f"--fail-on: expected one of {', '.join(FAIL_ON)}, got {fail_on!r}")
    from mcptest.cli.annotate import chosen_mode

    annotating = chosen_mode(annotations)
    try:
        chosen = (suite, server, catalog or (), command, url, header, timeout)
        report, uri, problems = scan_sources(*chosen, select=select or (), ignore=ignore or (), debug=debug)
    except Unreachable as exc:
        print(f"mcptest: {exc}", file=sys.stderr)
        if exc.stderr:
            print(exc.stderr, file=sys.stderr)
        return ExitCode.FAILED
    warn_problems(problems)
    failed = report.failed(fail_on)
    if sarif:
        from mcptest.checks.security.sarif import security_sarif

        sys.stdout.write(security_sarif(report, uri))
    elif json_output:
        out = {"ok": not failed, "fail_on": fail_on} | report.to_json()
        sys.stdout.write(json.dumps(out, indent=2, ensure_ascii=False) + "\n")
    else:
        print_report(report, no_color)
    if annotating != "off":
        from mcptest.cli.annotate import annotate
        from mcptest.report.annotations import security_annotations

        annotate(security_annotations(report, uri), annotating)
    return ExitCode.FAILED if failed else ExitCode.OK


def print_report(report: SecurityReport, no_color: bool) -> None:
    """The findings, source by source, then the totals (doctor --security prints the same)."""
    from rich.console import Console
    from rich.markup import escape

    from mcptest.cli.common import use_color

    color = use_color(no_color, sys.stdout)
    console = Console(file=sys.stdout, color_system="auto" if color else None, highlight=False, soft_wrap=True)
    entries = "entries" if report.entries != 1 else "entry"
    for source in report.sources:
        mine = [f for f in report.flagged if f.source == source]
        console.print(f"[bold]{escape(source)}[/]: {len(mine)} finding(s)")
        for flagged in mine:
            f, sev = flagged.finding, flagged.finding.severity.value
            console.print(f"  [{_COLOR[sev]}]{sev:<8}[/] {f.rule}  {escape(flagged.entry.label)}: {escape(f.message)}")
            if f.pointer:
                console.print(f"  {'':<8} [dim]at {escape(f.pointer)}[/]")
    s = report.summary()
    console.print(
        f"\n{report.entries} {entries} scanned with {len(report.rules)} rules: "
        f"{s['critical_count']} critical, {s['warning_count']} warning"
    )
