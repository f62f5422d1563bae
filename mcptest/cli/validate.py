"""`mcptest validate`: check a suite without running anything."""

from __future__ import annotations

from typing import Annotated

import typer

from mcptest.exit_codes import ExitCode
from mcptest.figures import plural


def register(app: typer.Typer) -> None:
    """Add `validate` to the app."""
    app.command("validate")(validate)


def validate(suite: Annotated[str, typer.Argument(help="The suite file to check.")]) -> int:
    """Check a suite file (keys, types, servers, matchers, env vars); nothing runs. Exit 2 on a problem."""
    import sys

    from mcptest.cli.common import loading

    with loading():
        from mcptest.suite.loader import load_suite

        loaded = load_suite(suite)
    counts = (
        f"{plural(len(loaded.servers), 'server')}, {plural(len(loaded.tools), 'tool test')}, "
        f"{plural(len(loaded.resources), 'resource test')}, {plural(len(loaded.prompts), 'prompt test')}, "
        f"{plural(len(loaded.agents), 'agent test')}, "
        f"{plural(len(loaded.tool_quality), 'tool_quality block')}"
    )
    print(f"{loaded.file}: ok ({counts})", file=sys.stderr)
    return ExitCode.OK
