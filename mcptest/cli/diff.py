"""`mcptest diff OLD NEW`: what changed between two catalogs, classified, and what it does to tool selection."""

from __future__ import annotations

import json
import sys
from typing import Annotated

import typer

from mcptest.cli.server_options import CommandOpt, HeaderOpt, ServerOpt, TimeoutOpt, UrlOpt
from mcptest.core.exit_codes import ExitCode

FORMATS = ("pretty", "json", "md")


def register(app: typer.Typer) -> None:
    """Add `diff` to the app."""
    app.command("diff")(diff)


def diff(
    old: Annotated[str, typer.Argument(help="The old catalog: a snapshot (tools/catalog --output) or a cassette.")],
    new: Annotated[
        str | None, typer.Argument(help="The new catalog (a file); omit it to list a live server instead.")
    ] = None,
    suite: Annotated[str | None, typer.Option("--suite", help="Take the new catalog from this suite's server.")] = None,
    server: ServerOpt = None,
    command: CommandOpt = None,
    url: UrlOpt = None,
    header: HeaderOpt = None,
    timeout: TimeoutOpt = 30.0,
    json_output: Annotated[bool, typer.Option("--json", help="Print the versioned JSON report.")] = False,
    fmt: Annotated[str, typer.Option("--format", help="pretty, json or md (Markdown).")] = "pretty",
    fail_on: Annotated[str, typer.Option("--fail-on", help="breaking, risky or never.")] = "breaking",
    intents: Annotated[
        str | None, typer.Option("--intents", help="Intents (a tool-bench spec's list): the effect on selection.")
    ] = None,
    output: Annotated[str | None, typer.Option("--output", "-o", help="Write the report here.")] = None,
    no_color: Annotated[bool, typer.Option("--no-color", help="No ANSI colour.")] = False,
    debug: Annotated[bool, typer.Option("--debug", help="Log the SDK's debug output to stderr.")] = False,
) -> int:
    """Classify every change between two catalogs; exit 1 when one reaches --fail-on (default: breaking)."""
    from mcptest.cli.common import warn_problems
    from mcptest.core.errors import usage_error
    from mcptest.diff.compare import diff_sources
    from mcptest.diff.model import FAIL_ON
    from mcptest.server.surfaces import Unreachable

    fmt = "json" if json_output else fmt
    if fmt not in FORMATS:
        raise usage_error(f"--format: expected one of {', '.join(FORMATS)}, got {fmt!r}")
    if fail_on not in FAIL_ON:
        raise usage_error(f"--fail-on: expected one of {', '.join(FAIL_ON)}, got {fail_on!r}")
    live = bool(suite or server or command or url)
    if live == (new is not None):
        raise usage_error("give NEW as a file, or a live server with --command, --url or --suite (not both)")
    try:
        report, problems = diff_sources(
            old, new, suite, server, command, url, header, timeout, intents=intents, debug=debug
        )
    except Unreachable as exc:
        print(f"mcptest: {exc}", file=sys.stderr)
        if exc.stderr:
            print(exc.stderr, file=sys.stderr)
        return ExitCode.FAILED
    warn_problems(problems)
    _emit(report, fmt, output, no_color)
    return ExitCode.FAILED if report.fails(fail_on) else ExitCode.OK


def _emit(report: object, fmt: str, output: str | None, no_color: bool) -> None:
    from mcptest.cli.common import emit, use_color
    from mcptest.diff.model import DiffReport
    from mcptest.diff.render import render_markdown, render_text

    assert isinstance(report, DiffReport)
    if fmt == "json":
        emit(json.dumps(report.model_dump(mode="json"), indent=2, ensure_ascii=False) + "\n", output)
    elif fmt == "md":
        emit(render_markdown(report), output)
    elif output:
        from rich.text import Text

        emit(Text.from_markup(render_text(report)).plain, output)
    else:
        from rich.console import Console

        color = use_color(no_color, sys.stdout)
        console = Console(file=sys.stdout, color_system="auto" if color else None, highlight=False, soft_wrap=True)
        console.print(render_text(report), end="")
