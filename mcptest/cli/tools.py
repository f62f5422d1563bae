"""`mcptest tools`: save a server's exact `tools/list` for the mock server, tool-bench and air-gapped lint."""

from __future__ import annotations

import json
import sys
from typing import Annotated

import typer

from mcptest.cli.server_options import CommandOpt, HeaderOpt, ServerOpt, SuiteArg, TimeoutOpt, UrlOpt
from mcptest.core.exit_codes import ExitCode
from mcptest.core.figures import plural
from mcptest.core.printable import printable


def register(app: typer.Typer) -> None:
    """Add `tools` to the app."""
    app.command("tools")(tools)


def tools(
    suite: SuiteArg = None,
    server: ServerOpt = None,
    command: CommandOpt = None,
    url: UrlOpt = None,
    header: HeaderOpt = None,
    timeout: TimeoutOpt = 30.0,
    output: Annotated[
        str | None, typer.Option("--output", "-o", help="Write the catalog here (default: stdout).")
    ] = None,
    debug: Annotated[bool, typer.Option("--debug", help="Log the SDK's debug output to stderr.")] = False,
) -> int:
    """Print or save a server's tools/list result ({"tools": [...]}); exit 1 when the server cannot be listed."""
    import anyio

    from mcptest.cli.common import check_output
    from mcptest.records.catalog import save_catalog
    from mcptest.server.doctor import probe_server
    from mcptest.server.session import quiet_sdk_logs
    from mcptest.server.sources import resolve_sources

    check_output(output)
    usage = "mcptest tools FILE (or --command, --url)"
    sources = resolve_sources(suite, server, None, command, url, header, timeout, usage)
    name, config = sources.one()
    quiet_sdk_logs(debug)
    probe = anyio.run(probe_server, name, config, sources.base_dir)
    if probe.catalog is None:
        failed = next(c for c in probe.checks if c.status == "fail")
        print(printable(f"mcptest: {failed.name}: {failed.detail}"), file=sys.stderr)
        if probe.stderr:
            print(printable(probe.stderr), file=sys.stderr)
        return ExitCode.FAILED
    if output:
        save_catalog(probe.catalog, output)
        print(f"mcptest: saved {plural(len(probe.catalog.tools), 'tool')} to {output}", file=sys.stderr)
    else:
        sys.stdout.write(json.dumps(probe.catalog.wire(), indent=2, ensure_ascii=False) + "\n")
    return ExitCode.OK
