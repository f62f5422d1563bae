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
    from mcptest.cli.common import check_output, warn_problems
    from mcptest.records.catalog import save_catalog
    from mcptest.server.surfaces import Unreachable, from_chosen_server, live_catalog

    check_output(output)
    usage = "mcptest tools FILE (or --command, --url)"
    try:
        catalog = from_chosen_server(
            live_catalog, suite, server, command, url, header, timeout, usage=usage, debug=debug
        )
    except Unreachable as exc:
        print(printable(f"mcptest: {exc.message}"), file=sys.stderr)
        if exc.stderr:
            print(printable(exc.stderr), file=sys.stderr)
        return ExitCode.FAILED
    warn_problems(catalog.problems)
    if output:
        save_catalog(catalog, output)
        print(f"mcptest: saved {plural(len(catalog.wire()['tools']), 'tool')} to {output}", file=sys.stderr)
    else:
        sys.stdout.write(json.dumps(catalog.wire(), indent=2, ensure_ascii=False) + "\n")
    return ExitCode.OK
