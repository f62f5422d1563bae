"""The Markdown reporter: a compact summary and the failures for a PR comment or `$GITHUB_STEP_SUMMARY`."""

from __future__ import annotations

from mcptest.core.figures import plural
from mcptest.core.printable import printable
from mcptest.expect.assertions import show
from mcptest.records.report import GateReport, Report, Status, TestResult, cut_short
from mcptest.report.delta import CaseDelta, Comparison, Verdict
from mcptest.report.tokens import token_lines

MAX_ROWS = 50


def render_md(report: Report, color: bool = False, comparison: Comparison | None = None) -> str:
    """The report (and, when given, its delta against a baseline) as GitHub-flavoured Markdown."""
    out = [f"## mcptest: {_headline(report)}", "", f"Suite `{report.suite}` · started {report.started_at}", ""]
    failed = [r for r in report.results if r.status == Status.FAILED]
    failed_gates = [g for g in report.gates if g.status == Status.FAILED]
    if report.gates:
        out += ["| gate | status | runs | figures |", "|---|---|---|---|"]
        out += [_gate_row(g) for g in report.gates] + [""]
    out += _latency(report.results)
    out += _tokens(report)
    if failed or failed_gates:
        out += ["### Failures", ""]
        out += [line for r in failed[:MAX_ROWS] for line in _failure(r)]
        out += [line for g in failed_gates[:MAX_ROWS] for line in _gate_failure(g)]
        out += _more(len(failed) - MAX_ROWS, "failed tests") + [""]
    if report.coverage is not None:
        from mcptest.report.coverage import markdown_lines

        out += markdown_lines(report.coverage)
    if comparison is not None:
        out += render_delta_md(comparison)
    return printable("\n".join(out).rstrip("\n") + "\n")


def _headline(report: Report) -> str:
    s = report.summary
    parts = [f"{s.passed} passed", f"{s.failed} failed"] + ([f"{s.skipped} skipped"] if s.skipped else [])
    gates = report.gates
    if gates:
        bad = sum(g.status == Status.FAILED for g in gates)
        parts.append(f"gates {len(gates) - bad}/{len(gates)} passed")
    parts += [note for note in cut_short(report)]
    verdict = "**PASS**" if report.ok else "**FAIL**"
    return f"{verdict} · " + ", ".join(parts) + f" in {report.duration_ms / 1000:.2f}s"


def _latency(results: list[TestResult]) -> list[str]:
    """A table of the measured calls' figures (tests with `latency:`, or the operations of a load), in ms."""
    measured = [r for r in results if r.latency is not None]
    if not measured:
        return []
    out = [
        "### Latency",
        "",
        "| test | calls | errors | p50 | p90 | p95 | p99 | max (ms) |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in measured[:MAX_ROWS]:
        f = r.latency
        assert f is not None
        figures = [f"{v:g}" for v in (f.p50_ms, f.p90_ms, f.p95_ms, f.p99_ms, f.max_ms)]
        out.append(_row(_name(r.name, r.model), str(f.samples), str(f.errors), *figures))
    return out + _more(len(measured) - MAX_ROWS, "measured tests") + [""]


def _tokens(report: Report) -> list[str]:
    """Tokens per agent test and model, side by side: input (of it cached), output (of it reasoning), total."""
    lines = token_lines(report)
    if not lines:
        return []
    out = ["| agent test | runs | input | cached | output | reasoning | total |", "|---|---|---|---|---|---|---|"]
    for t in lines[:MAX_ROWS]:
        parts = (t.input, t.cached, t.output, t.reasoning, t.total)
        out.append(_row(_name(t.test, t.model), str(t.runs), *(_num(v) for v in parts)))
    return out + _more(len(lines) - MAX_ROWS, "agent tests") + [""]


def _gate_row(g: GateReport) -> str:
    figures = ", ".join(f"{k} {v}" for k, v in g.targets.items())
    return _row(_name(g.test, g.model) + f" · {g.block}", g.status.value.upper(), str(g.runs), figures)


def _failure(r: TestResult) -> list[str]:
    name = _name(r.name, r.model) + (f" #{r.run}" if r.run else "")
    lines = [f"- **{_cell(name)}** (`{r.file}:{r.line}`)"]
    if r.error:
        lines.append(f"  - {_cell(r.error)}")
    lines += [f"  - `{f.target}` {f.matcher} `{show(f.expected, 80)}`: {_cell(f.message)}" for f in r.failures]
    return lines


def _gate_failure(g: GateReport) -> list[str]:
    lines = [f"- **{_cell(_name(g.test, g.model))} · {g.block}** (`{g.file}:{g.line}`, {plural(g.runs, 'run')})"]
    return lines + [
        f"  - {_cell(f.message)}" if f.matcher == "floor" else f"  - `{f.target}`: {_cell(f.message)}"
        for f in g.failures
    ]


def render_delta_md(comparison: Comparison) -> list[str]:
    """The delta table: every case whose verdict is not `unchanged` (lines of Markdown)."""
    c, t = comparison, comparison.totals
    counts = ", ".join(f"{t[v]} {v.value}" for v in Verdict if t[v] and v != Verdict.UNCHANGED) or "no changes"
    out = ["### Compared with the baseline", "", f"Baseline started {c.baseline.started_at}: {counts}."]
    if c.suite_changed:
        out.append(f"Suite changed: `{c.baseline.suite}` → `{c.current.suite}`.")
    if c.models_added or c.models_removed:
        out.append(f"Models added: {_list(c.models_added)}; removed: {_list(c.models_removed)}.")
    shown = [d for d in c.cases if d.verdict != Verdict.UNCHANGED]
    if shown:
        out += ["", "| verdict | case | status | figures | note |", "|---|---|---|---|---|"]
        out += [_delta_row(d) for d in shown[:MAX_ROWS]] + _more(len(shown) - MAX_ROWS, "cases (see --json)")
    verdict = "**regression**" if c.regressed else "no regression"
    return [*out, "", f"Verdict: {verdict}.", ""]


def _delta_row(d: CaseDelta) -> str:
    status = f"{_status(d.baseline_status)} → {_status(d.current_status)}"
    moved = [f for f in d.figures if f.delta not in (0, None)]
    figures = "; ".join(f"{f.name} {_num(f.baseline)} → {_num(f.current)}" for f in moved)
    return _row(d.verdict.value, d.label, status, figures, d.note)


def _status(s: Status | None) -> str:
    return s.value if s else "—"


def _num(value: float | int | None) -> str:
    return "—" if value is None else f"{value:g}"


def _name(test: str, model: str | None) -> str:
    return test + (f" [{model}]" if model else "")


def _list(items: list[str]) -> str:
    return ", ".join(f"`{i}`" for i in items) or "none"


def _more(hidden: int, what: str) -> list[str]:
    return [f"- … and {hidden} more {what}"] if hidden > 0 else []


def _row(*cells: str) -> str:
    return "| " + " | ".join(_cell(c) for c in cells) + " |"


def _cell(text: str) -> str:
    return text.replace("\\", "\\\\").replace("|", "\\|").replace("\n", " ").replace("\r", "")
