"""`mcptest doctor`: check a suite's servers (or a command, URL or saved catalog) and lint tool descriptions."""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING, Annotated, Any

import typer

from mcptest.cli.server_options import CommandOpt, HeaderOpt, ServerOpt, SuiteArg, TimeoutOpt, UrlOpt
from mcptest.core.exit_codes import ExitCode

if TYPE_CHECKING:
    from mcptest.checks.lint.engine import QualityReport
    from mcptest.checks.lint.model_view import ModelView
    from mcptest.checks.security.engine import SecurityReport
    from mcptest.server.doctor import Check, Probe
    from mcptest.server.sources import Sources

FAIL_ON = {"critical": 2, "warning": 1, "never": 99}
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
) -> int:
    """Check servers, handshake, tools/list and token cost, one line each; exit 1 when a check fails."""
    from mcptest.checks.lint import assess, select_rules
    from mcptest.checks.lint.registry import configure, selection_label
    from mcptest.core.errors import usage_error
    from mcptest.server.sources import resolve_sources

    if fail_on not in FAIL_ON:
        raise usage_error(f"--fail-on: expected one of {', '.join(FAIL_ON)}, got {fail_on!r}")
    managed = None if server_managed is None else [n.strip() for v in server_managed for n in v.split(",") if n.strip()]
    rules = configure(select_rules(select or (), ignore or (), strict=strict), server_managed=managed)
    selection = selection_label(select or (), ignore or (), strict=strict)
    sources = resolve_sources(suite, server, catalog, command, url, header, timeout)
    if dump_catalog and len(sources.servers) > 1:
        raise usage_error("--dump-catalog saves one catalog; pick a server with --server")
    checks, probes = _gather(sources, debug)
    lint_descriptions = lint_descriptions or sarif
    reports = [(p.source, assess(p.catalog, rules)) for p in probes if p.catalog] if lint_descriptions else []
    views = [(p.source, _view(p.catalog, managed)) for p in probes if p.catalog] if model_view else []
    for p in probes:
        if dump_catalog and p.catalog is not None:
            from mcptest.records.catalog import save_catalog

            save_catalog(p.catalog, dump_catalog)
    scanned = _security(probes) if security else None
    failed = any(c.status == "fail" for c in checks) or any(
        f.severity.rank >= FAIL_ON[fail_on] for _, r in reports for f in r.findings
    )
    failed = failed or bool(scanned and scanned.failed(fail_on))
    if sarif:
        from mcptest.checks.sarif import lint_sarif

        log = lint_sarif(reports, sources.catalog_path or (sources.suite.file if sources.suite else None))
        sys.stdout.write(_with_security_run(log, scanned, sources.catalog_path) if scanned else log)
    elif json_output:
        _print_json(checks, reports, views, fail_on, failed, selection, scanned)
    else:
        _print_console(checks, probes, reports, views, no_color, selection, verbose)
        if scanned:
            from mcptest.cli.security import print_report

            print("")
            print_report(scanned, no_color)
    return ExitCode.FAILED if failed else ExitCode.OK


def _security(probes: list[Probe]) -> SecurityReport:
    """The SEC scan over every catalog doctor listed, together (so names colliding across servers are found)."""
    from mcptest.checks.security.engine import scan
    from mcptest.records.entries import from_catalog

    return scan([from_catalog(p.catalog, p.source, p.source) for p in probes if p.catalog is not None])


def _with_security_run(log: str, report: SecurityReport, uri: str | None) -> str:
    from mcptest.checks.security.sarif import security_sarif

    merged = json.loads(log)
    merged["runs"] += json.loads(security_sarif(report, uri))["runs"]
    return json.dumps(merged, indent=2, ensure_ascii=False) + "\n"


def _view(catalog: Any, managed: list[str] | None) -> ModelView:
    from mcptest.checks.lint.model_view import model_view
    from mcptest.checks.lint.server_managed import DEFAULT_SERVER_MANAGED

    return model_view(catalog, DEFAULT_SERVER_MANAGED if managed is None else managed)


def _gather(sources: Sources, debug: bool) -> tuple[list[Check], list[Probe]]:
    from mcptest.server import doctor as d

    checks = [d.suite_check(sources.suite)] if sources.suite else []
    probes = [d.probe_catalog_file(sources.catalog_path)] if sources.catalog_path else []
    if sources.servers:
        import anyio

        from mcptest.server.session import quiet_sdk_logs

        quiet_sdk_logs(debug)
        for name, config in sources.servers:
            probes.append(anyio.run(d.probe_server, name, config, sources.base_dir))
    checks += [c for p in probes for c in p.checks]
    if sources.suite:
        from mcptest.agent.plan import agent_models

        checks.append(d.provider_key_check(agent_models(sources.suite)))
    return checks, probes


def _print_json(
    checks: list[Check],
    reports: list[tuple[str, QualityReport]],
    views: list[tuple[str, ModelView]],
    fail_on: str,
    failed: bool,
    selection: str,
    scanned: SecurityReport | None = None,
) -> None:
    out: dict[str, Any] = {"ok": not failed, "fail_on": fail_on, "checks": [c.to_json() for c in checks]}
    if scanned is not None:
        out["security"] = scanned.to_json()
    if views:
        out["model_view"] = [{"source": source} | view.to_json() for source, view in views]
    if reports:
        out["lint"] = [{"source": source, "selection": selection} | report.to_json() for source, report in reports]
    sys.stdout.write(json.dumps(out, indent=2, ensure_ascii=False) + "\n")


def _print_console(
    checks: list[Check],
    probes: list[Probe],
    reports: list[tuple[str, QualityReport]],
    views: list[tuple[str, ModelView]],
    no_color: bool,
    selection: str,
    verbose: bool,
) -> None:
    from mcptest.cli.common import Style, use_color
    from mcptest.core.printable import printable

    color = use_color(no_color, sys.stdout)
    style = Style(color)
    out: list[str] = []
    for c in checks:
        where = f"{style(f'[{printable(c.source)}]', '1')} " if c.source else ""
        out.append(f"{style(*_MARK[c.status])} {c.name:<20} {where}{printable(c.detail)}\n")
    for p in probes:
        if p.stderr:
            out.append(style(printable(f"stderr of {p.source}:\n{p.stderr}"), "2") + "\n")
    for source, view in views:
        from mcptest.checks.lint.model_view import render

        out.append(f"\n{style('As the model sees it', '1')} {printable(source)}\n\n{printable(render(view))}")
    sys.stdout.write("".join(out))
    if reports:
        from mcptest.cli.lint_text import render_lint

        text = "".join(render_lint(s, r, selection, verbose=verbose, color=color) for s, r in reports)
        sys.stdout.write(text if color else printable(text))  # styled text cannot be escaped whole
