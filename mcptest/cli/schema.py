"""`mcptest schema`: print the suite JSON Schema."""

from __future__ import annotations

from typing import Annotated

import typer

from mcptest.core.exit_codes import ExitCode


def register(app: typer.Typer) -> None:
    """Add `schema` to the app."""
    app.command("schema")(schema)


def schema(
    format: Annotated[str, typer.Option("--format", help="Which schema: suite or report.")] = "suite",
) -> int:
    """Print the JSON Schema of the suite file (or of the JSON report) to stdout."""
    import sys

    from mcptest.core.errors import usage_error
    from mcptest.schemas import render

    files = {"suite": "v1.json", "report": "report.v2.json"}
    if format not in files:
        raise usage_error(f"--format: unknown schema '{format}'; schemas are {', '.join(files)}")
    sys.stdout.write(render(files[format]))
    return ExitCode.OK
