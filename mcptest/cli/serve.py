"""`mcptest serve`: mcptest as an MCP server over stdio, for Claude Code and other MCP clients."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from mcptest.core.exit_codes import ExitCode


def register(app: typer.Typer) -> None:
    """Add `serve` to the app."""
    app.command("serve")(serve)


def serve(
    root: Annotated[
        Path | None,
        typer.Option("--root", help="The directory whose suites and catalogs may be used (default: this one)."),
    ] = None,
) -> int:
    """Serve mcptest's tools (validate, list, run, lint, scan, diff, explain) over stdio to an MCP client."""
    from mcptest.core.errors import usage_error

    chosen = (root or Path.cwd()).resolve()
    if not chosen.is_dir():
        raise usage_error(f"--root: {root} is not a directory")
    from mcptest.serve.server import serve as run

    run(chosen)
    return ExitCode.OK
