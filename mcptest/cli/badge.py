"""`mcptest badge`: a saved run's pass rate as a shields.io endpoint JSON, for a README badge."""

from __future__ import annotations

from typing import Annotated

import typer

from mcptest.core.exit_codes import ExitCode


def register(app: typer.Typer) -> None:
    """Add `badge` to the app."""
    app.command("badge")(badge)


def badge(
    run_json: Annotated[str, typer.Argument(help="A report saved by `mcptest run --reporter json`.")],
    output: Annotated[str | None, typer.Option("--output", "-o", help="Write here (default: stdout).")] = None,
    label: Annotated[str, typer.Option("--label", help="The badge's left-hand text.")] = "mcptest",
) -> int:
    """Write a shields.io endpoint JSON (pass rate, counts, colour) for the run in RUN_JSON."""
    from mcptest.cli.common import check_output, emit
    from mcptest.report.badge import render_badge
    from mcptest.report.load import load_report

    check_output(output)
    emit(render_badge(load_report(run_json), label), output, "the badge")
    return ExitCode.OK
