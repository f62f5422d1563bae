"""The delta of a comparison as plain console text: one line per case that is not unchanged, then the counts."""

from __future__ import annotations

from mcptest.core.printable import printable
from mcptest.report.delta import CaseDelta, Comparison, Verdict


def render_delta_text(comparison: Comparison, color: bool = False) -> str:
    """The comparison for a terminal (`color` is ignored: the verdict words carry the meaning)."""
    c = comparison
    out = [f"mcptest compare: {c.current.suite} ({c.current.started_at}) vs baseline ({c.baseline.started_at})"]
    if c.suite_changed:
        out.append(f"  suite changed: {c.baseline.suite} → {c.current.suite}")
    if c.models_added or c.models_removed:
        added, removed = ", ".join(c.models_added) or "none", ", ".join(c.models_removed) or "none"
        out.append(f"  models added: {added}; removed: {removed}")
    out += [_line(d) for d in c.cases if d.verdict != Verdict.UNCHANGED or d.failure]
    out.append(summary(c))
    return printable("\n".join(out) + "\n")


def summary(c: Comparison) -> str:
    """`compare: 3 unchanged, 1 regression, 2 noise; regression`: the one-line verdict."""
    counts = ", ".join(f"{c.totals[v]} {v.value}" for v in Verdict if c.totals[v]) or "nothing to compare"
    return f"compare: {counts}; " + ("regression" if c.regressed else "no regression")


def _line(d: CaseDelta) -> str:
    before = d.baseline_status.value if d.baseline_status else "-"
    after = d.current_status.value if d.current_status else "-"
    moved = [f for f in d.figures if f.delta not in (0, None)]
    figures = "; ".join(f"{f.name} {_num(f.baseline)} → {_num(f.current)}" for f in moved)
    where = f"{d.file}:{d.line}" if d.line else d.file
    failure = f"({d.failure.value} failure)" if d.failure else ""
    parts = [f"  {d.verdict.value.upper():<11} {d.label}  [{before} → {after}]", failure, figures, d.note, where]
    return "  ".join(p for p in parts if p)


def _num(value: float | int | None) -> str:
    return "-" if value is None else f"{value:g}"
