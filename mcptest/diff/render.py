"""The diff report as text for a terminal and as Markdown for a changelog or a pull-request comment."""

from __future__ import annotations

from mcptest.core.printable import for_display
from mcptest.diff.model import Change, DiffReport, Impact, SelectionEffect

_COLOR = {Impact.BREAKING: "red", Impact.RISKY: "yellow", Impact.COMPATIBLE: "green"}


def summary_line(report: DiffReport) -> str:
    """`2 breaking, 1 risky, 3 compatible` (or `no changes`)."""
    c = report.counts
    return f"{c.breaking} breaking, {c.risky} risky, {c.compatible} compatible" if report.changes else "no changes"


def render_text(report: DiffReport) -> str:
    """Rich markup: one line per change, grouped by impact, then the selection effect."""
    from rich.markup import escape

    report = for_display(report)
    lines = [f"[bold]{escape(report.old)}[/] → [bold]{escape(report.new)}[/]: {summary_line(report)}"]
    for impact in Impact:
        group = [c for c in report.changes if c.impact is impact]
        if group:
            lines.append(f"\n[{_COLOR[impact]} bold]{impact.value}[/] ({len(group)})")
            for c in group:
                lines.append(f"  [{_COLOR[impact]}]{c.code:<24}[/] {escape(_where(c) + c.message)}")
                lines += [f"      [dim]{escape(t)}[/]" for t in _texts(c)]
    if report.selection:
        lines += ["", *(escape(line) for line in _selection_lines(report.selection))]
    return "\n".join(lines) + "\n"


def render_markdown(report: DiffReport) -> str:
    """A Markdown section: the counts, a table per impact, and the selection effect."""
    report = for_display(report)
    out = [f"## Catalog changes: {summary_line(report)}", "", f"`{report.old}` → `{report.new}`", ""]
    for impact in Impact:
        group = [c for c in report.changes if c.impact is impact]
        if not group:
            continue
        out += [f"### {impact.value.capitalize()} ({len(group)})", "", "| change | what |", "|---|---|"]
        out += [f"| `{c.code}` | {_cell(_where(c) + c.message)} |" for c in group]
        out.append("")
    if report.selection:
        out += ["### Effect on tool selection", "", *_selection_lines(report.selection, markdown=True), ""]
    return "\n".join(out)


def _selection_lines(s: SelectionEffect, markdown: bool = False) -> list[str]:
    star = lambda sig: " (significant)" if sig else ""  # noqa: E731
    head = f"Selection over {s.intents} ({s.selector}): {s.before:.0%} → {s.after:.0%}, p = {s.p_value:.3g}"
    lines = [head + star(s.significant)]
    moved = [t for t in s.tools if t.lost or t.gained]
    if markdown and moved:
        lines += ["", "| tool | intents | before | after | p |", "|---|---|---|---|---|"]
        lines += [
            f"| `{t.tool}` | {t.intents} | {t.before:.0%} | {t.after:.0%} | {t.p_value:.3g}{star(t.significant)} |"
            for t in moved
        ]
    else:
        lines += [
            f"  {t.tool}: {t.before:.0%} → {t.after:.0%} of {t.intents} intents, "
            f"p = {t.p_value:.3g}{star(t.significant)}"
            for t in moved
        ]
    if not moved:
        lines.append("  no tool's selection moved")
    return lines


def _where(c: Change) -> str:
    return f"[{c.server}] " if c.server else ""


def _texts(c: Change) -> list[str]:
    if c.code != "description_rewritten":
        return []
    return [f"- {_short(c.old)}", f"+ {_short(c.new)}"]


def _short(text: object, limit: int = 160) -> str:
    s = " ".join(str(text or "").split())
    return s if len(s) <= limit else s[: limit - 1] + "…"


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")
