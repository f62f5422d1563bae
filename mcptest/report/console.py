"""The pretty reporter: one line per test, failure detail underneath, a summary line."""

from __future__ import annotations

import io

from rich.console import Console

from mcptest.core.figures import plural, shown
from mcptest.core.printable import markup_safe as escape
from mcptest.expect.assertions import show
from mcptest.expect.failure import AssertionFailure
from mcptest.records.report import GateReport, Report, Status, TestResult
from mcptest.report.tokens import token_lines

_BADGE = {
    Status.PASSED: "[green]PASS[/]",
    Status.FAILED: "[bold red]FAIL[/]",
    Status.SKIPPED: "[yellow]SKIP[/]",
    Status.INCOMPLETE: "[yellow]INCOMPLETE[/]",
}


def render_pretty(report: Report, color: bool = False, width: int = 100, *, framed: bool = True) -> str:
    """The report as console text; ANSI colour only when `color`. Without `framed`, only the rows: no suite header
    and no summary line (a pytest item's failure text, where pytest counts the tests itself)."""
    out = io.StringIO()
    console = Console(file=out, force_terminal=color, no_color=not color, width=width, highlight=False, soft_wrap=True)
    if framed:
        console.print(f"[bold]mcptest[/] {escape(report.suite)}")
    for result in report.results:
        _result(console, result)
    for tokens in token_lines(report) if framed else []:
        console.print(f"  [dim]tokens {escape(_label(tokens.test, tokens.model))}: {tokens.text()}[/]")
    for gate in report.gates:
        _gate(console, gate)
    if framed and report.coverage is not None:
        from mcptest.report.coverage import console_lines

        for line in console_lines(report.coverage):
            console.print(f"  [dim]{escape(line)}[/]")
    if framed:
        console.print(_summary_line(report))
    return out.getvalue()


def _result(console: Console, r: TestResult) -> None:
    called = r.tool or r.prompt or r.resource
    where = f"{r.server}.{called}" if r.tool or r.prompt else f"{r.server} {called}" if called else (r.server or "")
    name = r.name + (f" [{r.model}]" if r.model else "") + (f" #{r.run}" if r.run else "")
    meta = " · ".join(part for part in (where, f"{r.duration_ms:.0f} ms") if part)
    console.print(f"  {_BADGE[r.status]}  {escape(name)}  [dim]{escape(meta)}[/]")
    indent = " " * 8
    if r.latency is not None:
        console.print(f"{indent}[dim]{escape(r.latency.line())}[/]")
    for j in r.judgements if r.status != Status.FAILED else []:
        console.print(f"{indent}[dim]{j.kind} {escape(j.target)}: score {j.score:.3g}, {escape(j.reason)}[/]")
    if r.status != Status.FAILED:
        return
    if r.quarantined is not None:
        console.print(f"{indent}[yellow]quarantined: {escape(r.quarantined)} (out of the exit code)[/]")
    if r.error:
        console.print(f"{indent}[red]{escape(r.error)}[/]")
    _failures(console, r.failures, r.file, indent)
    if r.stderr:
        console.print(f"{indent}[dim]server stderr (last lines):[/]")
        for line in r.stderr.splitlines():
            console.print(f"{indent}[dim]| {escape(line)}[/]")
    console.print(f"{indent}[dim]defined at {escape(r.file)}:{r.line}[/]")


def _label(test: str, model: str | None) -> str:
    return test + (f" [{model}]" if model else "")


def _failures(console: Console, failures: list[AssertionFailure], file: str, indent: str) -> None:
    for f in failures:
        where = f"  [dim]at {escape(file)}:{f.line}:{f.col}[/]" if f.line is not None else ""
        console.print(f"{indent}[red]✗[/] {escape(f.target)} {escape(f.matcher)} {escape(show(f.expected, 80))}{where}")
        console.print(f"{indent}  {escape(f.message)}")


def _gate(console: Console, g: GateReport) -> None:
    name = g.test + (f" [{g.model}]" if g.model else "")
    figures = ", ".join(f"{k} {shown(v) if v is not None else 'null'}" for k, v in g.targets.items())
    runs = plural(g.runs, "run") + (f" of {g.runs_asked}" if g.runs_asked and g.runs_asked > g.runs else "")
    console.print(f"  {_BADGE[g.status]}  {escape(name)} · {escape(g.block)}  [dim]{runs} · {escape(figures)}[/]")
    if g.status == Status.PASSED:
        return
    indent = " " * 8
    if g.quarantined is not None:
        console.print(f"{indent}[yellow]quarantined: {escape(g.quarantined)} (out of the exit code)[/]")
    if g.status == Status.INCOMPLETE:
        console.print(f"{indent}[yellow]no verdict: judged on {g.runs} of {g.runs_asked} runs[/]")
    _failures(console, g.failures, g.file, indent)
    console.print(f"{indent}[dim]defined at {escape(g.file)}:{g.line}[/]")


def _summary_line(report: Report) -> str:
    s = report.summary
    parts = [f"[green]{s.passed} passed[/]", f"[red]{s.failed} failed[/]" if s.failed else f"{s.failed} failed"]
    if s.skipped:
        parts.append(f"[yellow]{s.skipped} skipped[/]")
    g = s.gates
    if g.total:
        if g.failed:
            parts.append(f"[red]{g.failed} of {plural(g.total, 'gate')} failed[/]")
        if g.incomplete:
            parts.append(f"[yellow]{g.incomplete} of {plural(g.total, 'gate')} incomplete[/]")
        if not g.failed and not g.incomplete:
            parts.append(f"{plural(g.total, 'gate')} passed")
    if s.quarantined:
        parts.append(f"[yellow]{s.quarantined} quarantined[/]")
    if s.not_run:
        parts.append(f"[yellow]{s.not_run} not run (stopped at the first failure: -x)[/]")
    if report.interrupted:
        parts.append("[yellow]interrupted: the tests that had not finished are not listed[/]")
    return ", ".join(parts) + f" [dim]in {report.duration_ms / 1000:.2f}s[/]"
