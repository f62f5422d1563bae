"""`mcptest security`'s scan: the saved catalogs or live servers the options name, scanned together with the SEC rules.

Nothing here prints; the CLI renders the report and judges it with `SecurityReport.failed`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from mcptest.checks.security.engine import SecurityReport
    from mcptest.core.errors import Problem
    from mcptest.records.entries import Surface


def scan_sources(
    suite: str | None = None,
    server: str | None = None,
    catalogs: Sequence[str] = (),
    command: str | None = None,
    url: str | None = None,
    header: list[str] | None = None,
    timeout: float = 30.0,
    *,
    select: Sequence[str] = (),
    ignore: Sequence[str] = (),
    debug: bool = False,
) -> tuple[SecurityReport, str | None, list[Problem]]:
    """The scan, the file its SARIF points at (the one catalog, or the suite), and what is wrong with tools that
    break the schema (scanned anyway when they can be read); bad options raise UserError, a server that cannot be
    listed raises `mcptest.server.surfaces.Unreachable`."""
    from mcptest.checks.security.engine import scan
    from mcptest.checks.security.registry import select_sec_rules

    rules = select_sec_rules(select, ignore)
    surfaces, uri = named_surfaces(suite, server, catalogs, command, url, header, timeout, debug=debug)
    return scan(surfaces, rules), uri, [p for s in surfaces for p in s.problems]


def named_surfaces(
    suite: str | None,
    server: str | None,
    catalogs: Sequence[str],
    command: str | None,
    url: str | None,
    header: list[str] | None,
    timeout: float,
    *,
    debug: bool = False,
) -> tuple[list[Surface], str | None]:
    """The saved catalogs (each a snapshot or cassette), else every live server the options name; with the file
    a report points at."""
    from mcptest.core.errors import usage_error
    from mcptest.records.entries import load

    if catalogs:
        if suite or server or command or url:
            raise usage_error("--catalog reads saved files; it cannot be combined with SUITE, --command or --url")
        return [load(path) for path in catalogs], catalogs[0] if len(catalogs) == 1 else None
    from mcptest.server.surfaces import chosen_surfaces

    sources, listed = chosen_surfaces(suite, server, command, url, header, timeout, debug=debug)
    return [s for _, s in listed], sources.suite.file if sources.suite else None
