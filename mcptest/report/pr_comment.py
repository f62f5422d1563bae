"""One pull-request comment per suite: the verdict, counts, what broke and what was fixed against a baseline, floor
flips, significant rate changes, cost and a link to the run, under a hidden marker a CI step finds to update the
same comment in place."""

from __future__ import annotations

from mcptest.core.printable import printable
from mcptest.records.report import Report, Status
from mcptest.report.delta import CaseDelta, CaseKind, Comparison

MAX_ROWS = 20
"""Rows per section; the rest are counted."""


def marker(report: Report) -> str:
    """The hidden first line that identifies this suite's comment (one comment per suite, updated in place)."""
    return f"<!-- mcptest:pr-comment suite={_cell(report.suite).replace('--', '-‐')} -->"


def render_pr_comment(report: Report, comparison: Comparison | None = None, link: str | None = None) -> str:
    """The comment as GitHub/GitLab Markdown; without `comparison`, the failures of the run stand for the news."""
    s = report.summary
    counts = [f"{s.passed} passed", f"{s.failed} failed"] + ([f"{s.skipped} skipped"] if s.skipped else [])
    if s.gates.total:
        counts.append(f"gates {s.gates.passed}/{s.gates.total} passed")
    cost = sum(v for r in report.results if isinstance(v := r.targets.get("cost_usd"), int | float))
    tail = [f"{report.duration_ms / 1000:.1f}s"] + ([f"cost ${cost:.4f}"] if cost else [])
    out = [
        marker(report),
        f"### mcptest {'✅ PASS' if report.ok else '❌ FAIL'} · `{_cell(report.suite)}`",
        "",
        " · ".join(counts + tail),
        "",
    ]
    if comparison is None:
        out += _section("Failures", _failures(report))
    else:
        out += _delta(comparison)
    if link:
        out += [f"[The run]({link})", ""]
    return printable("\n".join(out).rstrip("\n") + "\n")


def _failures(report: Report) -> list[str]:
    rows = []
    for r in report.results:
        if r.status == Status.FAILED:
            f = next(iter(r.failures), None)
            why = f.text() if f is not None else r.error or "failed"
            name = r.name + (f" [{r.model}]" if r.model else "") + (f" #{r.run}" if r.run else "")
            rows.append(f"| {_cell(name)} | `{_cell(r.file)}:{(f.line if f and f.line else r.line)}` | {_cell(why)} |")
    for g in report.gates:
        if g.status == Status.FAILED:
            why = "; ".join(f.message for f in g.failures) or f"the {g.block} gate failed"
            rows.append(f"| {_cell(g.test)} · {g.block} | `{_cell(g.file)}:{g.line}` | {_cell(why)} |")
    return rows


def _delta(c: Comparison) -> list[str]:
    cases = [d for d in c.cases if not (d.kind == CaseKind.TEST and d.run is not None)]  # runs judged as groups
    tests = [d for d in cases if d.kind != CaseKind.GATE]
    broke = [d for d in tests if d.current_status == Status.FAILED and d.baseline_status != Status.FAILED]
    fixed = [d for d in tests if d.baseline_status == Status.FAILED and d.current_status == Status.PASSED]
    flips = [
        d
        for d in cases
        if d.kind == CaseKind.GATE and None not in (d.baseline_status, d.current_status)
        and d.baseline_status != d.current_status
    ]  # fmt: skip
    rates = [(d, t) for d in cases for t in d.rates if t.significant]
    out = _section("New failures", [_case_row(d) for d in broke])
    out += _section("Fixed", [_case_row(d) for d in fixed])
    out += _section(
        "Floor flips",
        [f"| {_cell(d.label)} | {d.baseline_status} → {d.current_status} | {_cell(d.note)} |" for d in flips],
        "| gate | status | detail |",
    )
    out += _section(
        "Significant rate changes",
        [
            f"| {_cell(d.label)} | {t.target}: {t.baseline_passes}/{t.baseline_runs} → {t.current_passes}/"
            f"{t.current_runs} | p = {t.p_value:.3g} |"
            for d, t in rates
        ],
        "| case | passes | significance |",
    )
    if not (broke or fixed or flips or rates):
        out += ["No change against the baseline that is more than noise.", ""]
    return out


def _case_row(d: CaseDelta) -> str:
    detail = d.note or f"{d.baseline_status or 'new'} → {d.current_status}"
    return f"| {_cell(d.label)} | `{_cell(d.file)}:{d.line}` | {_cell(detail)} |"


def _section(title: str, rows: list[str], header: str = "| case | where | detail |") -> list[str]:
    if not rows:
        return []
    more = [f"| … {len(rows) - MAX_ROWS} more | | |"] if len(rows) > MAX_ROWS else []
    return [f"#### {title} ({len(rows)})", "", header, "|---|---|---|", *rows[:MAX_ROWS], *more, ""]


def _cell(text: str) -> str:
    """One table cell: one line, pipes escaped, at most 200 characters, no HTML comment closer."""
    one = " ".join(text.split()).replace("|", "\\|").replace("-->", "--\\>")
    return one if len(one) <= 200 else one[:199] + "…"
