"""`mcptest diff`'s comparison: the old catalog file against a new file or a live server, with its selection effect.

Nothing here prints; a server that cannot be listed raises `mcptest.server.surfaces.Unreachable`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from mcptest.core.errors import Problem
    from mcptest.diff.model import DiffReport


def diff_sources(
    old: str,
    new: str | None = None,
    suite: str | None = None,
    server: str | None = None,
    command: str | None = None,
    url: str | None = None,
    header: list[str] | None = None,
    timeout: float = 30.0,
    *,
    intents: str | None = None,
    debug: bool = False,
) -> tuple[DiffReport, list[Problem]]:
    """Every change from the catalog at `old` to the one at `new`, else to the one server the options name, live;
    with `intents`, also what the changes do to tool selection. Tools that break the schema are compared like any
    other (those that cannot be read at all are left out); what is wrong with them comes back beside the report."""
    from mcptest.diff.classify import diff
    from mcptest.records.entries import load

    before = load(old)
    if new is not None:
        after = load(new)
    else:
        from mcptest.server.surfaces import chosen_surfaces

        _, listed = chosen_surfaces(suite, server, command, url, header, timeout, debug=debug, one=True)
        after = listed[0][1]
    report = diff(before, after)
    if intents:
        from mcptest.diff.selection import selection_effect

        report.selection = selection_effect(report, before, after, intents)
    return report, [*before.problems, *after.problems]
