"""The reporter registry: format name -> function that renders a Report as text."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from mcptest.records.report import Report

if TYPE_CHECKING:
    from mcptest.report.delta import Comparison


def render_json(report: Report, color: bool = False) -> str:
    """The canonical JSON artifact (what `mcptest report` re-renders)."""
    return report.model_dump_json(indent=2) + "\n"


def shown(report: Report) -> Report:
    """The report as a human-readable format shows it: an unbroken run of over `RUN_LIMIT` characters in any string
    (a 10 KB tool name a server sent, quoted in a failure) is cut, saying so. The JSON report keeps it whole, and so
    does this copy for the latency figures: their encoded histogram is decoded to draw it, never shown as text."""
    from mcptest.core.printable import for_display

    clipped = for_display(report)
    if clipped is not report:
        for row, whole in zip(clipped.results, report.results, strict=True):
            row.latency = whole.latency
    return clipped


def _pretty(report: Report, color: bool = False) -> str:
    from mcptest.report.console import render_pretty

    return render_pretty(shown(report), color=color)


def _junit(report: Report, color: bool = False) -> str:
    from mcptest.report.junit import render_junit

    return render_junit(shown(report))


def _md(report: Report, color: bool = False) -> str:
    from mcptest.report.markdown import render_md

    return render_md(shown(report))


def _sarif(report: Report, color: bool = False) -> str:
    from mcptest.report.sarif import render_sarif

    return render_sarif(shown(report))


def _html(report: Report, color: bool = False) -> str:
    from mcptest.report.html import render_html

    return render_html(shown(report))


def html_with_history(report: Report, url: str | None) -> tuple[str, str | None]:
    """The HTML page with the run history of the store at `url` drawn in (per test its strip and pass-rate trend,
    per gate its figure over time), and a warning to print when the store failed. Without a store (`url` None, or
    no file there) the page is the plain one."""
    from mcptest.report.html import render_html

    history, warning = (None, None)
    if url is not None:
        from mcptest.history.overview import read_overview

        history, warning = read_overview(report, url)
    return render_html(shown(report), history=history), warning


def _codequality(report: Report, color: bool = False) -> str:
    from mcptest.report.annotations import codequality, run_annotations

    return codequality(run_annotations(shown(report)))


def _agent(report: Report, color: bool = False) -> str:
    from mcptest.report.agent import render_agent

    return render_agent(report)


REPORTERS: dict[str, Callable[[Report, bool], str]] = {
    "pretty": _pretty,
    "json": render_json,
    "junit": _junit,
    "md": _md,
    "sarif": _sarif,
    "html": _html,
    "agent": _agent,
    "codequality": _codequality,
}


def render_compared(report: Report, comparison: Comparison, fmt: str, color: bool = False) -> str:
    """A report compared with its baseline: `json-delta` the delta document, `pretty` the delta lines, `md` and
    `html` the report with the delta table; the other formats carry no delta and render the report alone."""
    if fmt == "json-delta":
        return comparison.model_dump_json(indent=2) + "\n"
    if fmt == "pretty":
        from mcptest.report.delta_text import render_delta_text

        return render_delta_text(comparison, color)
    if fmt == "md":
        from mcptest.report.markdown import render_md

        return render_md(shown(report), comparison=comparison)
    if fmt == "html":
        from mcptest.report.html import render_html

        return render_html(shown(report), comparison)
    return REPORTERS[fmt](report, color)
