"""`mcptest init`: connect to a server, read its catalog and write a starter suite and a CI workflow."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from mcptest.cli.server_options import CommandOpt, HeaderOpt, TimeoutOpt, UrlOpt
from mcptest.core.exit_codes import ExitCode


def register(app: typer.Typer) -> None:
    """Add `init` to the app."""
    app.command("init")(init)


def init(
    command: CommandOpt = None,
    url: UrlOpt = None,
    header: HeaderOpt = None,
    timeout: TimeoutOpt = 30.0,
    name: Annotated[
        str | None, typer.Option("--name", help="The server's name in the suite (default: from its serverInfo).")
    ] = None,
    directory: Annotated[str, typer.Option("--dir", help="Where to write mcptest.yml and .github/.")] = ".",
    mcptest_spec: Annotated[
        str | None,
        typer.Option(
            "--mcptest-spec",
            help="What the CI workflow pip-installs, e.g. a git URL (default: how this mcptest was installed).",
        ),
    ] = None,
    force: Annotated[bool, typer.Option("--force", help="Overwrite files that exist.")] = False,
) -> int:
    """Write a starter suite (a smoke test per tool, a tool_quality gate) and .github/workflows/mcptest.yml."""
    from mcptest.cli.common import warn_problems
    from mcptest.core.printable import printable
    from mcptest.scaffold import write_starter
    from mcptest.server.surfaces import Unreachable

    try:
        done = write_starter(
            command, url, header, timeout, name=name, directory=directory, mcptest_spec=mcptest_spec, force=force
        )
    except Unreachable as exc:
        print(printable(f"mcptest: {exc.message}"), file=sys.stderr)
        if exc.stderr:
            print(printable(exc.stderr), file=sys.stderr)
        return ExitCode.NOT_READY
    warn_problems(done.problems)
    written, suite_path, workflow_path = done.starter, done.suite_path, done.workflow_path
    unfilled = [tool for tool, args in written.args.items() if args is None]
    active = written.active
    held = f"; {len(written.writers)} more, of tools that may change state, commented out" if written.writers else ""
    if written.held:
        held += f"; {len(written.held)} the server refused when init tried them, commented out"
    print(f"mcptest: wrote {suite_path} ({active} smoke tests{held}) and {workflow_path}", file=sys.stderr)
    if unfilled:
        print(f"mcptest: fill in the arguments of {', '.join(unfilled)} (none valid could be built)", file=sys.stderr)
    return ExitCode.OK
