"""The text of `doctor --lint-descriptions`: built as one string, written once (thousands of tools stay fast)."""

from __future__ import annotations

from mcptest.checks.findings import Severity
from mcptest.checks.lint.engine import QualityReport
from mcptest.checks.lint.grouped import ToolGroup, group, per_rule
from mcptest.checks.lint.registry import RULES
from mcptest.cli.common import Style
from mcptest.core.figures import plural
from mcptest.core.printable import clipped

_COLOR = {Severity.CRITICAL: "31", Severity.WARNING: "33", Severity.PASS: "32"}


def render_lint(source: str, report: QualityReport, selection: str, *, verbose: bool = False, color: bool) -> str:
    """The grouped report of one catalog: a header, one block per tool with findings (most severe first, one line per
    rule; `verbose` adds every finding's field pointer, message and fix), the clean tools, the rules that fired, and
    the totals."""
    style = Style(color)
    summaries = {r.code: r.summary for r in RULES}
    groups, clean = group(report)
    s = report.summary()
    crit, warn = (sum(1 for f in report.findings if f.severity is sev) for sev in (Severity.CRITICAL, Severity.WARNING))
    out = [
        "",
        f"{style('Descriptions', '1')} {source}: {plural(len(report.tools), 'tool')}, {crit} critical, {warn} warning "
        f"(rules: {selection})",
    ]
    for g in groups:
        out += _tool_block(g, style, verbose, summaries)
    if clean:
        names = ", ".join(clipped(t.name) for t in clean)
        out.append(f"  {style('✓', '32')} {len(clean)} tool{'s' if len(clean) > 1 else ''} meet every rule: {names}")
    rows = per_rule(report)
    if rows:
        out.append("  By rule:")
        for code, sev, n, tools in rows:
            label = style(f"{sev.value:<8}", _COLOR[sev])
            out.append(f"    {label} {code:<8} {n:>4} in {tools:>3} tool(s)  {summaries[code]}")
    out.append(
        f"  TDQS mean {s['mean_score']:.3f}, min {s['min_score']:.3f}; DESC {s['critical_count']} critical, "
        f"{s['warning_count']} warning; SCH {s['schema_criticals']} critical, {s['schema_warnings']} warning"
    )
    smells = ", ".join(f"{k} {v}" for k, v in s["smells"].items() if v) or "none"
    out.append(f"  Smells: {smells} (total {s['smell_total']}); {s['tool_surface_tokens']} surface tokens")
    return "\n".join(out) + "\n"


def _tool_block(g: ToolGroup, style: Style, verbose: bool, summaries: dict[str, str]) -> list[str]:
    counts = g.counts
    tally = ", ".join(f"{counts[sev]} {sev.value}" for sev in (Severity.CRITICAL, Severity.WARNING) if counts[sev])
    out = [f"  {style(clipped(g.tool.name), '1')}  score {g.tool.score:.3f}  {g.tool.tokens} tokens  ({tally})"]
    for line in g.lines:
        label = style(f"{line.severity.value:<8}", _COLOR[line.severity])
        out.append(f"    {label} {line.rule:<8} {line.summary(summaries[line.rule])}")
        if verbose:
            several = len(line.findings) > 1  # one finding's message is already the summary line
            for f in line.findings:
                out += [
                    f"{'':<22}{p or '(tool)'}{'  ' + f.message if several else ''}"
                    for p in f.pointers or (f.pointer or "",)
                ]
            fixes = dict.fromkeys(f.suggestion for f in line.findings if f.suggestion)
            out += [f"{'':<22}{style('→ ' + fix, '2')}" for fix in fixes]
    return out
