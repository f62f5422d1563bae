"""`mcptest report`: re-render a saved JSON report, or compare it with a baseline."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from mcptest.exit_codes import ExitCode


def register(app: typer.Typer) -> None:
    """Add `report` to the app."""
    app.command("report")(report)


def report(
    run_json: Annotated[str, typer.Argument(help="A report saved by `mcptest run --reporter json`.")],
    format: Annotated[str, typer.Option("--format", "-f", help="pretty, json, junit, md, sarif or html.")] = "pretty",
    output: Annotated[str | None, typer.Option("--output", "-o", help="Write here (default: stdout).")] = None,
    compare: Annotated[str | None, typer.Option("--compare", help="A baseline JSON report to compare with.")] = None,
    json_output: Annotated[bool, typer.Option("--json", help="With --compare: the delta as JSON.")] = False,
    advisory: Annotated[bool, typer.Option("--advisory", help="Exit 0 even on a regression.")] = False,
    no_color: Annotated[bool, typer.Option("--no-color", help="No ANSI colour.")] = False,
) -> int:
    """Re-render a JSON report; with --compare, show its delta and exit 1 on any regression."""
    from mcptest.cli.common import emit, loading, use_color
    from mcptest.errors import usage_error
    from mcptest.report.formats import REPORTERS, render_compared
    from mcptest.report.load import load_report

    if format not in REPORTERS:
        raise usage_error(f"--format: unknown format '{format}'; formats are {', '.join(REPORTERS)}")
    if json_output and not compare:
        raise usage_error("--json prints the comparison and needs --compare; use --format json to re-render")
    color = use_color(no_color) and not output
    if not compare:
        with loading():
            current = load_report(run_json)
        emit(REPORTERS[format](current, color), output)
        return ExitCode.OK
    from mcptest.report.compare import compare as compare_reports
    from mcptest.report.delta_text import summary

    with loading():  # two reports and their delta: ~half the time at 50,000 results was the cyclic GC walking them
        current = load_report(run_json)
        comparison = compare_reports(load_report(compare, "baseline"), current)
    emit(render_compared(current, comparison, "json-delta" if json_output else format, color), output)
    if json_output or output or format != "pretty":
        print(f"mcptest {summary(comparison)}", file=sys.stderr)
    return ExitCode.FAILED if comparison.regressed and not advisory else ExitCode.OK
