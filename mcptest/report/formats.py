"""The reporter registry: format name -> function that renders a Report as text."""

from __future__ import annotations

from collections.abc import Callable

from mcptest.report.model import Report


def render_json(report: Report, color: bool = False) -> str:
    """The canonical JSON artifact (what `mcptest report` re-renders)."""
    return report.model_dump_json(indent=2) + "\n"


def _pretty(report: Report, color: bool = False) -> str:
    from mcptest.report.console import render_pretty

    return render_pretty(report, color=color)


REPORTERS: dict[str, Callable[[Report, bool], str]] = {
    "pretty": _pretty,
    "json": render_json,
}
