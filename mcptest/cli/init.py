"""`mcptest init`: connect to a server, read its catalog and write a starter suite and a CI workflow."""

from __future__ import annotations

import sys
from pathlib import Path
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
    name: Annotated[str, typer.Option("--name", help="The server's name in the suite.")] = "server",
    directory: Annotated[str, typer.Option("--dir", help="Where to write mcptest.yml and .github/.")] = ".",
    mcptest_spec: Annotated[
        str, typer.Option("--mcptest-spec", help="What the CI workflow pip-installs, e.g. a git URL or a version.")
    ] = "mcptest",
    force: Annotated[bool, typer.Option("--force", help="Overwrite files that exist.")] = False,
) -> int:
    """Write a starter suite (a smoke test per tool, a tool_quality gate) and .github/workflows/mcptest.yml."""
    import shlex

    import anyio

    from mcptest.core.atomic import atomic_write_text
    from mcptest.core.errors import usage_error
    from mcptest.scaffold import starter
    from mcptest.server.doctor import probe_server
    from mcptest.server.sources import resolve_sources

    if not command and not url:
        raise usage_error("init needs the server to read: --command 'uvx mcp-server-time' or --url URL")
    sources = resolve_sources(None, None, None, command, url, header, timeout)
    root = Path(directory)
    suite_path, workflow_path = root / "mcptest.yml", root / ".github" / "workflows" / "mcptest.yml"
    existing = [str(p) for p in (suite_path, workflow_path) if p.exists()]
    if existing and not force:
        raise usage_error(f"{' and '.join(existing)} exists; pass --force to overwrite")
    _, config = sources.servers[0]
    probe = anyio.run(probe_server, name, config, sources.base_dir)
    if probe.catalog is None:
        failed = next(c for c in probe.checks if c.status == "fail")
        print(f"mcptest: {failed.name}: {failed.detail}", file=sys.stderr)
        return ExitCode.NOT_READY
    connection = {"command": shlex.split(command)} if command else {"url": url}
    written = starter(probe.catalog, name, connection, mcptest_spec)
    workflow_path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_text(suite_path, written.suite)
    atomic_write_text(workflow_path, written.workflow)
    unfilled = [tool for tool, args in written.args.items() if args is None]
    active = len(written.args) - len(written.writers)
    held = f"; {len(written.writers)} more, of tools that may change state, commented out" if written.writers else ""
    print(f"mcptest: wrote {suite_path} ({active} smoke tests{held}) and {workflow_path}", file=sys.stderr)
    if unfilled:
        print(f"mcptest: fill in the arguments of {', '.join(unfilled)} (none valid could be built)", file=sys.stderr)
    return ExitCode.OK
