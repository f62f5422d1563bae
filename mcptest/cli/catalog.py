"""`mcptest catalog`: save every primitive a server offers (tools, resources, templates, prompts) in one snapshot."""

from __future__ import annotations

import json
import sys
from typing import Annotated

import typer

from mcptest.cli.server_options import CommandOpt, HeaderOpt, ServerOpt, SuiteArg, TimeoutOpt, UrlOpt
from mcptest.core.exit_codes import ExitCode


def register(app: typer.Typer) -> None:
    """Add `catalog` to the app."""
    app.command("catalog")(catalog)


def catalog(
    suite: SuiteArg = None,
    server: ServerOpt = None,
    command: CommandOpt = None,
    url: UrlOpt = None,
    header: HeaderOpt = None,
    timeout: TimeoutOpt = 30.0,
    output: Annotated[
        str | None, typer.Option("--output", "-o", help="Write the snapshot here (default: stdout).")
    ] = None,
    debug: Annotated[bool, typer.Option("--debug", help="Log the SDK's debug output to stderr.")] = False,
) -> int:
    """Print or save a server's catalog snapshot (schema/catalog.v1.json); exit 1 when it cannot be listed."""
    from mcptest.cli.common import check_output, warn_problems
    from mcptest.core.printable import printable
    from mcptest.records.catalog_snapshot import counts, save_snapshot
    from mcptest.server.capture import snapshot_server
    from mcptest.server.session import ServerUnavailable
    from mcptest.server.surfaces import from_chosen_server

    check_output(output)
    usage = "mcptest catalog FILE (or --command, --url)"
    try:
        snapshot, problems = from_chosen_server(
            snapshot_server, suite, server, command, url, header, timeout, usage=usage, debug=debug
        )
    except ServerUnavailable as exc:
        print(printable(f"mcptest: {exc.message}"), file=sys.stderr)
        if exc.stderr:
            print(printable(exc.stderr), file=sys.stderr)
        return ExitCode.FAILED
    warn_problems(problems)
    if output:
        save_snapshot(snapshot, output)
        print(f"mcptest: saved {counts(snapshot)} to {output}", file=sys.stderr)
    else:
        sys.stdout.write(json.dumps(snapshot.model_dump(mode="json", exclude_none=True), indent=2) + "\n")
    return ExitCode.OK
