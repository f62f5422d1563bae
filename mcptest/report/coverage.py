"""Coverage as the reporters show it: plain lines for the console, Markdown tables, HTML bars and tables."""

from __future__ import annotations

from html import escape

from mcptest.core.figures import plural
from mcptest.records.coverage import Coverage, ServerCoverage, summary_line
from mcptest.records.report import GateReport

MOST_SHOWN = 8
"""A console line names at most this many untested tools."""

UNTESTED = {"tools": "tool", "arguments": "argument", "enums": "enum value", "resources": "resource",
            "templates": "template", "prompts": "prompt"}  # fmt: skip
"""The kinds of item the tables of untested items list (the other figures are views of the same tools)."""


def not_counted_note(coverage: Coverage) -> str:
    """Why the figures may be lower than the suite would reach, or an empty string."""
    if not coverage.not_counted:
        return ""
    n = plural(coverage.not_counted, "test")
    return f"{n} of the suite did not run (filtered out, sharded away, -x, skipped): not counted"


def console_lines(coverage: Coverage) -> list[str]:
    """One line per server (the untested tools named), then the notes."""
    lines = []
    for cov in coverage.servers:
        untested = cov.missing().get("tools", [])
        named = ", ".join(untested[:MOST_SHOWN]) + (f" and {len(untested) - MOST_SHOWN} more" if len(untested) >
                                                    MOST_SHOWN else "")  # fmt: skip
        tail = f"; untested: {named}" if untested else ("; every tool called" if cov.tools else "")
        lines.append(f"coverage {cov.server}: {summary_line(cov)}{tail}")
    note = not_counted_note(coverage)
    return lines + ([note] if note else []) + coverage.notes


def untested_items(cov: ServerCoverage) -> list[tuple[str, str]]:
    """(kind, item) of everything never reached, tools first."""
    missing = cov.missing()
    return [(kind, item) for key, kind in UNTESTED.items() for item in missing.get(key, [])]


def markdown_lines(coverage: Coverage, most: int = 50) -> list[str]:
    """A `### Coverage` section: the figures per server, and a table of untested items."""
    out = ["### Coverage", "", "| server | tools | arguments | enums | resources | templates | prompts |",
           "|---|---|---|---|---|---|---|"]  # fmt: skip
    for cov in coverage.servers:
        cells = [cov.server] + [_figure(cov, name) for name in UNTESTED]
        out.append("| " + " | ".join(_cell(c) for c in cells) + " |")
    items = [(cov.server, kind, item) for cov in coverage.servers for kind, item in untested_items(cov)]
    if items:
        out += ["", "| server | untested | item |", "|---|---|---|"]
        out += [f"| {_cell(s)} | {kind} | `{_cell(item)}` |" for s, kind, item in items[:most]]
        out += [f"- … and {len(items) - most} more untested items (see the JSON report)"] if len(items) > most else []
    notes = [n for n in [not_counted_note(coverage), *coverage.notes] if n]
    return [*out, "", *[f"- {_cell(n)}" for n in notes], *([""] if notes else [])]


def html_section(coverage: Coverage, most: int = 200) -> str:
    """A bar per server (the share of its tools called, the figures beside it) and a table of untested items."""
    rows = "".join(
        f"<tr><td>{escape(cov.server)}</td><td>{_bar(cov)}</td><td>{escape(summary_line(cov))}</td></tr>"
        for cov in coverage.servers
    )
    items = [(cov.server, kind, item) for cov in coverage.servers for kind, item in untested_items(cov)]
    untested = "".join(
        f"<tr><td>{escape(s)}</td><td>{kind}</td><td><code>{escape(item)}</code></td></tr>" for s, kind, item in
        items[:most]
    )  # fmt: skip
    more = f"<p>… and {len(items) - most} more untested items (see the JSON report).</p>" if len(items) > most else ""
    notes = "".join(f"<p>{escape(n)}</p>" for n in [not_counted_note(coverage), *coverage.notes] if n)
    table = (
        f"<h3>Untested</h3>\n<table><tr><th>server</th><th>kind</th><th>item</th></tr>{untested}</table>{more}"
        if items
        else ""
    )
    return (
        "<h2>Coverage</h2>\n<table><tr><th>server</th><th>tools called</th><th>figures</th></tr>"
        f"{rows}</table>\n{table}{notes}"
    )


def _figure(cov: ServerCoverage, name: str) -> str:
    f = cov.figures.get(name)
    return "—" if f is None or not f.total else f"{f.percent}% ({f.covered}/{f.total})"


def _bar(cov: ServerCoverage, width: int = 200) -> str:
    f = cov.figures["tools"]
    fraction = f.covered / f.total if f.total else 0.0
    label = f"{f.percent}% of tools called" if f.total else "no tools"
    return (
        f'<svg width="{width}" height="12" role="img" aria-label="{escape(label)}"><title>{escape(label)}</title>'
        f'<rect width="{width}" height="12" fill="#eaeef2"/>'
        f'<rect width="{fraction * width:.1f}" height="12" fill="#1a7f37"/></svg>'
    )


def _cell(text: str) -> str:
    return text.replace("\\", "\\\\").replace("|", "\\|").replace("\n", " ").replace("\r", "")


COVERAGE_FORMATS = ("pretty", "json", "md")
"""The formats `mcptest report RUN.json --coverage` renders."""


def render_coverage(coverage: Coverage, format: str, gates: list[GateReport] | None = None) -> str:
    """The coverage section alone: per server its figures and every untested item (`pretty`), the section as JSON
    (`json`), or its Markdown tables (`md`); `gates`, the run's verdicts of its `coverage:` gates, follow."""
    if format == "json":
        return coverage.model_dump_json(indent=2) + "\n"
    if format == "md":
        return "\n".join(markdown_lines(coverage, most=10**9)).rstrip("\n") + "\n"
    lines = []
    for cov in coverage.servers:
        lines.append(f"{cov.server}: {summary_line(cov)}")
        lines += [f"  untested {kind}: {item}" for kind, item in untested_items(cov)]
        lines += [f"  called but not listed: {name}" for name in cov.unlisted]
    lines += [n for n in [not_counted_note(coverage), *coverage.notes] if n]
    for g in gates or []:
        lines.append(f"{g.status.value.upper()} {g.test}")
        lines += [f"  {f.target}: {f.message}" for f in g.failures]
    return "\n".join(lines) + "\n"
