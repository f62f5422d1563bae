"""`mcptest doctor`'s diagnosis: probe the chosen sources, lint and scan their catalogs, decide the verdict.

It lives here, not in `server/`, because the provider-key check reads the suite's agent models (`agent/`).
Nothing here prints; the CLI renders the `Diagnosis`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from mcptest.checks.lint.engine import QualityReport
    from mcptest.checks.lint.model_view import ModelView
    from mcptest.checks.security.engine import SecurityReport
    from mcptest.records.catalog import Catalog
    from mcptest.server.doctor import Check, Probe
    from mcptest.server.sources import Sources

FAIL_ON = {"critical": 2, "warning": 1, "never": 99}
"""`--fail-on`'s choices: the lowest finding severity rank that fails doctor."""


@dataclass
class Diagnosis:
    """What doctor found: every check, each source's probe, the lint reports, model views and security scan asked
    for, the rule selection's label, and whether it fails."""

    sources: Sources
    selection: str
    checks: list[Check] = field(default_factory=list)
    probes: list[Probe] = field(default_factory=list)
    reports: list[tuple[str, QualityReport]] = field(default_factory=list)
    views: list[tuple[str, ModelView]] = field(default_factory=list)
    provider: str | None = None
    losses: list[tuple[str, list[tuple[str, str, str]]]] = field(default_factory=list)
    """Per source, what `provider` cannot take of each tool's inputSchema: (tool, field, what was lost)."""
    scanned: SecurityReport | None = None
    failed: bool = False


def diagnose(
    suite: str | None = None,
    server: str | None = None,
    catalog: str | None = None,
    command: str | None = None,
    url: str | None = None,
    header: list[str] | None = None,
    timeout: float = 30.0,
    *,
    fail_on: str = "critical",
    select: Sequence[str] = (),
    ignore: Sequence[str] = (),
    strict: bool = False,
    server_managed: list[str] | None = None,
    lint: bool = False,
    model_view: bool = False,
    provider: str | None = None,
    security: bool = False,
    dump_catalog: str | None = None,
    debug: bool = False,
) -> Diagnosis:
    """Check the sources the options name and judge them against `fail_on`; bad options raise UserError (exit 2)."""
    from mcptest.checks.lint import assess, select_rules
    from mcptest.checks.lint.registry import configure, selection_label
    from mcptest.core.errors import usage_error
    from mcptest.server.sources import resolve_sources

    if fail_on not in FAIL_ON:
        raise usage_error(f"--fail-on: expected one of {', '.join(FAIL_ON)}, got {fail_on!r}")
    if provider is not None:
        from mcptest.providers import LIVE

        if provider not in LIVE:
            raise usage_error(f"--provider: expected one of {', '.join(LIVE)}, got {provider!r}")
        if not model_view:
            raise usage_error("--provider goes with --model-view (the view as that provider's model is sent it)")
    rules = configure(select_rules(select, ignore, strict=strict), server_managed=server_managed)
    selection = selection_label(select, ignore, strict=strict)
    out = Diagnosis(
        resolve_sources(suite, server, catalog, command, url, header, timeout), selection, provider=provider
    )
    if dump_catalog and len(out.sources.servers) > 1:
        raise usage_error("--dump-catalog saves one catalog; pick a server with --server")
    out.checks, out.probes = gather(out.sources, debug)
    if lint:
        out.reports = [(p.source, assess(p.catalog, rules)) for p in out.probes if p.catalog]
    if model_view:
        out.views = [(p.source, _view(p.catalog, server_managed)) for p in out.probes if p.catalog]
    if provider is not None:
        from mcptest.providers import schema_losses

        out.losses = [
            (p.source, schema_losses(provider, [t.raw for t in p.catalog.tools])) for p in out.probes if p.catalog
        ]
    if dump_catalog:
        from mcptest.records.catalog import save_catalog

        for p in out.probes:
            if p.catalog is not None:
                save_catalog(p.catalog, dump_catalog)
    out.scanned = scan_probes(out.probes) if security else None
    out.failed = (
        any(c.status == "fail" for c in out.checks)
        or any(f.severity.rank >= FAIL_ON[fail_on] for _, r in out.reports for f in r.findings)
        or bool(out.scanned and out.scanned.failed(fail_on))
    )
    return out


def gather(sources: Sources, debug: bool = False) -> tuple[list[Check], list[Probe]]:
    """Every check and probe of `sources`: the suite, a saved catalog, each server live, then the provider keys."""
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


def scan_probes(probes: list[Probe]) -> SecurityReport:
    """The SEC scan over every catalog doctor listed, together (so names colliding across servers are found)."""
    from mcptest.checks.security.engine import scan
    from mcptest.records.entries import from_catalog

    return scan([from_catalog(p.catalog, p.source, p.source) for p in probes if p.catalog is not None])


def _view(catalog: Catalog, managed: list[str] | None) -> ModelView:
    from mcptest.checks.lint.model_view import model_view
    from mcptest.checks.lint.server_managed import DEFAULT_SERVER_MANAGED

    return model_view(catalog, DEFAULT_SERVER_MANAGED if managed is None else managed)
