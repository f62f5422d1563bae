"""`mcptest validate`: check a suite without running anything."""

from __future__ import annotations

from typing import Annotated

import typer

from mcptest.core.exit_codes import ExitCode
from mcptest.core.figures import plural


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
    # the four kinds every suite may have always; the newer ones only when the suite uses them
    kinds = [(loaded.servers, "server"), (loaded.tools, "tool test")]
    kinds += [(v, k) for v, k in ((loaded.resources, "resource test"), (loaded.prompts, "prompt test")) if v]
    kinds += [(loaded.agents, "agent test"), (loaded.tool_quality, "tool_quality block")]
    kinds += [(loaded.security, "security block")] if loaded.security else []
    counts = ", ".join(plural(len(v), k) for v, k in kinds)
    print(f"{loaded.file}: ok ({counts})", file=sys.stderr)
    return ExitCode.OK
