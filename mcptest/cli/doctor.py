"""`mcptest doctor`: check a suite's servers (or a command, URL or saved catalog) and lint tool descriptions."""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING, Annotated, Any

import typer

from mcptest.cli.annotate import AnnotationsOpt
from mcptest.cli.server_options import CommandOpt, HeaderOpt, ServerOpt, SuiteArg, TimeoutOpt, UrlOpt
from mcptest.core.exit_codes import ExitCode

if TYPE_CHECKING:
    from mcptest.checks.security.engine import SecurityReport
    from mcptest.run.doctor import Diagnosis

_MARK = {"pass": ("✓", "32"), "fail": ("✗", "31"), "skip": ("-", "2")}


def register(app: typer.Typer) -> None:
    """Add `doctor` to the app."""
    app.command("doctor")(doctor)


def doctor(
    suite: SuiteArg = None,
    server: ServerOpt = None,
    catalog: Annotated[str | None, typer.Option("--catalog", help="A saved tools/list result (JSON).")] = None,
    command: CommandOpt = None,
    url: UrlOpt = None,
    header: HeaderOpt = None,
    timeout: TimeoutOpt = 30.0,
    lint_descriptions: Annotated[bool, typer.Option("--lint-descriptions", help="Lint every tool.")] = False,
    json_output: Annotated[bool, typer.Option("--json", help="Print JSON on stdout.")] = False,
    sarif: Annotated[bool, typer.Option("--sarif", help="Print the lint findings as SARIF 2.1.0.")] = False,
    fail_on: Annotated[str, typer.Option("--fail-on", help="critical, warning or never.")] = "critical",
    select: Annotated[list[str] | None, typer.Option("--select", help="Only these rules or prefixes.")] = None,
    ignore: Annotated[list[str] | None, typer.Option("--ignore", help="Skip these rules or prefixes.")] = None,
    strict: Annotated[
        bool, typer.Option("--strict", help="Also run the pedantic rules (see `mcptest rules`).")
    ] = False,
    verbose: Annotated[bool, typer.Option("--verbose", help="List every finding's field pointer.")] = False,
    model_view: Annotated[
        bool, typer.Option("--model-view", help="Print each catalog as a model reads it, with its token cost.")
    ] = False,
    provider: Annotated[
        str | None,
        typer.Option(
            "--provider",
            help="With --model-view: warn about each schema field this provider's tool format cannot take "
            "(anthropic, openai, openai-responses, gemini, mistral, bedrock).",
        ),
    ] = None,
    server_managed: Annotated[
        list[str] | None,
        typer.Option(
            "--server-managed", help="Field names the server assigns, comma-separated (replaces the default)."
        ),
    ] = None,
    dump_catalog: Annotated[str | None, typer.Option("--dump-catalog", help="Save the tools/list here.")] = None,
    security: Annotated[bool, typer.Option("--security", help="Scan the catalogs with the SEC rules too.")] = False,
    no_color: Annotated[bool, typer.Option("--no-color", help="No ANSI colour.")] = False,
    debug: Annotated[bool, typer.Option("--debug", help="Log the SDK's debug output to stderr.")] = False,
    annotations: AnnotationsOpt = "auto",
) -> int:
    """Check servers, handshake, tools/list and token cost, one line each; exit 1 when a check fails."""
    from mcptest.cli.annotate import chosen_mode
    from mcptest.run.doctor import diagnose

    annotating = chosen_mode(annotations)
    managed = None if server_managed is None else [n.strip() for v in server_managed for n in v.split(",") if n.strip()]
    found = diagnose(
        suite,
        server,
        catalog,
        command,
        url,
        header,
        timeout,
        fail_on=fail_on,
        select=select or (),
        ignore=ignore or (),
        strict=strict,
        server_managed=managed,
        lint=lint_descriptions or sarif,
        model_view=model_view,
        provider=provider,
        security=security,
        dump_catalog=dump_catalog,
        debug=debug,
    )
    sources, scanned = found.sources, found.scanned
    if sarif:
        from mcptest.checks.sarif import lint_sarif

        log = lint_sarif(found.reports, sources.catalog_path or (sources.suite.file if sources.suite else None))
        sys.stdout.write(_with_security_run(log, scanned, sources.catalog_path) if scanned else log)
    elif json_output:
        _print_json(found, fail_on)
    else:
        _print_console(found, no_color, verbose)
        if scanned:
            from mcptest.cli.security import print_report

            print("")
            print_report(scanned, no_color)
    if annotating != "off":
        _annotate(found, annotating)
    return ExitCode.FAILED if found.failed else ExitCode.OK


def _annotate(found: Diagnosis, mode: str) -> None:
    """The lint and security findings at their tool's place in the catalog or suite doctor read."""
    from mcptest.cli.annotate import annotate
    from mcptest.report.annotations import lint_annotations, security_annotations

    sources = found.sources
    file = sources.catalog_path or (sources.suite.file if sources.suite else None)
    scanned = security_annotations(found.scanned, file) if found.scanned else []
    annotate(lint_annotations(found.reports, file) + scanned, mode)


def _with_security_run(log: str, report: SecurityReport, uri: str | None) -> str:
    from mcptest.checks.security.sarif import security_sarif

    merged = json.loads(log)
    merged["runs"] += json.loads(security_sarif(report, uri))["runs"]
    return json.dumps(merged, indent=2, ensure_ascii=False) + "\n"


def _print_json(found: Diagnosis, fail_on: str) -> None:
    out: dict[str, Any] = {"ok": not found.failed, "fail_on": fail_on, "checks": [c.to_json() for c in found.checks]}
    if found.scanned is not None:
        out["security"] = found.scanned.to_json()
    if found.views:
        out["model_view"] = [{"source": source} | view.to_json() for source, view in found.views]
    if found.provider is not None:
        out["schema_losses"] = [
            {
                "source": source,
                "provider": found.provider,
                "losses": [{"tool": tool, "field": at, "why": why} for tool, at, why in losses],
            }
            for source, losses in found.losses
        ]
    if found.reports:
        selection = found.selection
        out["lint"] = [{"source": source, "selection": selection} | r.to_json() for source, r in found.reports]
    sys.stdout.write(json.dumps(out, indent=2, ensure_ascii=False) + "\n")


def _print_console(found: Diagnosis, no_color: bool, verbose: bool) -> None:
    from mcptest.cli.common import Style, use_color
    from mcptest.core.printable import printable

    color = use_color(no_color, sys.stdout)
    style = Style(color)
    out: list[str] = []
    for c in found.checks:
        where = f"{style(f'[{printable(c.source)}]', '1')} " if c.source else ""
        out.append(f"{style(*_MARK[c.status])} {c.name:<20} {where}{printable(c.detail)}\n")
    for p in found.probes:
        if p.stderr:
            out.append(style(printable(f"stderr of {p.source}:\n{p.stderr}"), "2") + "\n")
    for source, view in found.views:
        from mcptest.checks.lint.model_view import render

        out.append(f"\n{style('As the model sees it', '1')} {printable(source)}\n\n{printable(render(view))}")
    for source, losses in found.losses:
        head = (
            f"{found.provider} cannot take {len(losses)} schema field(s)"
            if losses
            else f"{found.provider} loses nothing of any tool's schema"
        )
        out.append(f"\n{style(head, '1')} {printable(source)}\n")
        for tool, at, why in losses:
            out.append(f"{style('!', '33')} {printable(tool)}: inputSchema.{printable(at)}: {printable(why)}\n")
    sys.stdout.write("".join(out))
    if found.reports:
        from mcptest.cli.lint_text import render_lint

        text = "".join(render_lint(s, r, found.selection, verbose=verbose, color=color) for s, r in found.reports)
        sys.stdout.write(text if color else printable(text))  # styled text cannot be escaped whole
