"""`mcptest doctor`: check a suite's servers (or a command, URL or saved catalog) and lint tool descriptions."""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING, Annotated, Any

import typer

from mcptest.cli.server_options import CommandOpt, HeaderOpt, ServerOpt, SuiteArg, TimeoutOpt, UrlOpt
from mcptest.exit_codes import ExitCode

if TYPE_CHECKING:
    from mcptest.lint.doctor import Check, Probe
    from mcptest.lint.engine import QualityReport
    from mcptest.lint.model_view import ModelView
    from mcptest.lint.sources import Sources

FAIL_ON = {"critical": 2, "warning": 1, "never": 99}
_MARK = {"pass": "[green]✓[/]", "fail": "[red]✗[/]", "skip": "[dim]-[/]"}


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
    model_view: Annotated[
        bool, typer.Option("--model-view", help="Print each catalog as a model reads it, with its token cost.")
    ] = False,
    server_managed: Annotated[
        list[str] | None,
        typer.Option(
            "--server-managed", help="Field names the server assigns, comma-separated (replaces the default)."
        ),
    ] = None,
    dump_catalog: Annotated[str | None, typer.Option("--dump-catalog", help="Save the tools/list here.")] = None,
    no_color: Annotated[bool, typer.Option("--no-color", help="No ANSI colour.")] = False,
    debug: Annotated[bool, typer.Option("--debug", help="Log the SDK's debug output to stderr.")] = False,
) -> int:
    """Check servers, handshake, tools/list and token cost, one line each; exit 1 when a check fails."""
    from mcptest.errors import usage_error
    from mcptest.lint import assess, select_rules
    from mcptest.lint.registry import configure
    from mcptest.lint.sources import resolve_sources

    if fail_on not in FAIL_ON:
        raise usage_error(f"--fail-on: expected one of {', '.join(FAIL_ON)}, got {fail_on!r}")
    managed = None if server_managed is None else [n.strip() for v in server_managed for n in v.split(",") if n.strip()]
    rules = configure(select_rules(select or (), ignore or ()), server_managed=managed)
    sources = resolve_sources(suite, server, catalog, command, url, header, timeout)
    if dump_catalog and len(sources.servers) > 1:
        raise usage_error("--dump-catalog saves one catalog; pick a server with --server")
    checks, probes = _gather(sources, debug)
    lint_descriptions = lint_descriptions or sarif
    reports = [(p.source, assess(p.catalog, rules)) for p in probes if p.catalog] if lint_descriptions else []
    views = [(p.source, _view(p.catalog, managed)) for p in probes if p.catalog] if model_view else []
    for p in probes:
        if dump_catalog and p.catalog is not None:
            from mcptest.catalog import save_catalog

            save_catalog(p.catalog, dump_catalog)
    failed = any(c.status == "fail" for c in checks) or any(
        f.severity.rank >= FAIL_ON[fail_on] for _, r in reports for f in r.findings
    )
    if sarif:
        from mcptest.report.sarif import lint_sarif

        sys.stdout.write(lint_sarif(reports, sources.catalog_path or (sources.suite.file if sources.suite else None)))
    elif json_output:
        _print_json(checks, reports, views, fail_on, failed)
    else:
        _print_console(checks, probes, reports, views, no_color)
    return ExitCode.FAILED if failed else ExitCode.OK


def _view(catalog: Any, managed: list[str] | None) -> ModelView:
    from mcptest.lint.model_view import model_view
    from mcptest.lint.server_managed import DEFAULT_SERVER_MANAGED

    return model_view(catalog, DEFAULT_SERVER_MANAGED if managed is None else managed)


def _gather(sources: Sources, debug: bool) -> tuple[list[Check], list[Probe]]:
    from mcptest.lint import doctor as d

    checks = [d.suite_check(sources.suite)] if sources.suite else []
    probes = [d.probe_catalog_file(sources.catalog_path)] if sources.catalog_path else []
    if sources.servers:
        import anyio

        from mcptest.session import quiet_sdk_logs

        quiet_sdk_logs(debug)
        for name, config in sources.servers:
            probes.append(anyio.run(d.probe_server, name, config, sources.base_dir))
    checks += [c for p in probes for c in p.checks]
    if sources.suite:
        checks.append(d.provider_key_check(d.agent_models(sources.suite)))
    return checks, probes


def _print_json(
    checks: list[Check],
    reports: list[tuple[str, QualityReport]],
    views: list[tuple[str, ModelView]],
    fail_on: str,
    failed: bool,
) -> None:
    out: dict[str, Any] = {"ok": not failed, "fail_on": fail_on, "checks": [c.to_json() for c in checks]}
    if views:
        out["model_view"] = [{"source": source} | view.to_json() for source, view in views]
    if reports:
        out["lint"] = [{"source": source} | report.to_json() for source, report in reports]
    sys.stdout.write(json.dumps(out, indent=2, ensure_ascii=False) + "\n")


def _print_console(
    checks: list[Check],
    probes: list[Probe],
    reports: list[tuple[str, QualityReport]],
    views: list[tuple[str, ModelView]],
    no_color: bool,
) -> None:
    from rich.console import Console

    from mcptest.cli.common import use_color
    from mcptest.lint.model_view import render
    from mcptest.printable import markup_safe as escape
    from mcptest.printable import printable

    color = use_color(no_color, sys.stdout)
    console = Console(file=sys.stdout, color_system="auto" if color else None, highlight=False, soft_wrap=True)
    for c in checks:
        where = f"[bold]\\[{escape(c.source)}][/] " if c.source else ""
        console.print(f"{_MARK[c.status]} {c.name:<20} {where}{escape(c.detail)}")
    for p in probes:
        if p.stderr:
            console.print(f"[dim]stderr of {escape(p.source)}:\n{escape(p.stderr)}[/]")
    for source, view in views:
        console.print(f"\n[bold]As the model sees it[/] {escape(source)}\n")
        console.print(printable(render(view)), markup=False, end="")
    for source, report in reports:
        _print_lint(console, source, report)


def _print_lint(console: Any, source: str, report: QualityReport) -> None:
    from mcptest.printable import markup_safe as escape

    color = {"critical": "red", "warning": "yellow", "pass": "green"}
    console.print(f"\n[bold]Descriptions[/] {escape(source)}: {len(report.tools)} tools")
    for tool in report.tools:
        console.print(f"  [bold]{escape(tool.name)}[/]  score {tool.score:.3f}  {tool.tokens} tokens")
        for f in tool.findings:
            sev = f"[{color[f.severity]}]{f.severity.value:<8}[/]"
            console.print(f"    {sev} {f.rule:<8} {escape(f.message)}")
            if f.suggestion:
                console.print(f"    {'':<17} [dim]→ {escape(f.suggestion)}[/]")
    s = report.summary()
    console.print(
        f"  TDQS mean {s['mean_score']:.3f}, min {s['min_score']:.3f}; DESC {s['critical_count']} critical, "
        f"{s['warning_count']} warning; SCH {s['schema_criticals']} critical, {s['schema_warnings']} warning"
    )
    smells = ", ".join(f"{k} {v}" for k, v in s["smells"].items() if v) or "none"
    console.print(f"  Smells: {smells} (total {s['smell_total']}); {s['tool_surface_tokens']} surface tokens")
