"""The HTML reporter: one self-contained page (inline CSS and SVG, no script, nothing fetched) that shows a run."""

from __future__ import annotations

from collections.abc import Iterable
from html import escape
from typing import TYPE_CHECKING, Any, NamedTuple

from mcptest.core.printable import printable
from mcptest.records.report import GateReport, Report, Status, TestResult, cut_short
from mcptest.report.tokens import token_lines

if TYPE_CHECKING:
    from mcptest.history.overview import Cell, GateLine, LoadLine, Overview, TestLine
    from mcptest.report.delta import Comparison

COLORS = {Status.PASSED: "#1a7f37", Status.FAILED: "#cf222e", Status.SKIPPED: "#9a6700"}
STYLE = """
body{font:14px/1.45 system-ui,sans-serif;margin:2em auto;max-width:72em;color:#1f2328;padding:0 1em}
h1{font-size:1.5em}h2{font-size:1.2em;margin-top:2em;border-bottom:1px solid #d0d7de}
table{border-collapse:collapse;width:100%}td,th{padding:.25em .5em;border-bottom:1px solid #eaeef2;text-align:left;
vertical-align:top}th{background:#f6f8fa}.passed{color:#1a7f37}.failed{color:#cf222e}.skipped{color:#9a6700}
.regression{color:#cf222e;font-weight:600}.improvement{color:#1a7f37}code,pre{font:12px ui-monospace,monospace}
pre{background:#f6f8fa;padding:.5em;overflow-x:auto;white-space:pre-wrap}.num{text-align:right}
.badge{display:inline-block;padding:.2em .7em;border-radius:1em;color:#fff;font-weight:600}
"""
HISTORY_STYLE = ".strip{white-space:nowrap}.cell{display:inline-block;width:9px;height:14px;margin-right:1px}\n"
"""Added only to a page that draws history, so a page without it is byte for byte what it was."""


class TimePoint(NamedTuple):
    """One second of a load for one operation: answers received in it, the failed ones, their percentiles."""

    second: int
    answers: int
    errors: int
    p50_ms: float
    p95_ms: float
    p99_ms: float


def render_html(
    report: Report,
    comparison: Comparison | None = None,
    history: Overview | None = None,
    over_time: dict[str, list[TimePoint]] | None = None,
) -> str:
    """The whole page: summary, failures, tests with timing, agent pass rates, gates, distractors, tool surface, and
    with a comparison the delta table; with the run history, each test's strip and pass-rate trend and each gate's
    figure over time, and each load operation's p95 and calls/s over the suite's loads; with a load's seconds
    (`over_time`, per row name), its latency over time and percentile plot.
    Every text from the run is HTML-escaped."""
    sections = [
        _summary(report),
        _failures(report),
        _tests(report.results),
        _latency(report.results),
        _over_time(report.results, over_time) if over_time is not None else "",
        _history_loads(history) if history is not None else "",
        _history_tests(history) if history is not None else "",
        _pass_rates(report.results),
        _tokens(report),
        _gates(report.gates),
        _history_gates(history) if history is not None else "",
        _distractors(report.gates),
        _surface(report.gates),
        _coverage(report),
        _delta(comparison) if comparison is not None else "",
    ]
    title = escape(f"mcptest {report.suite}")
    body = "\n".join(s for s in sections if s)
    return printable(  # a control character would reach the terminal when the page goes to stdout
        f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>{title}</title>'
        f'<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<style>{STYLE}{HISTORY_STYLE if history is not None else ''}</style></head>\n"
        f"<body>\n{body}\n</body></html>\n"
    )


def _summary(report: Report) -> str:
    s = report.summary
    failed_gates = sum(g.status == Status.FAILED for g in report.gates)
    verdict, color = ("PASSED", COLORS[Status.PASSED]) if report.ok else ("FAILED", COLORS[Status.FAILED])
    parts = [(s.passed, Status.PASSED), (s.failed, Status.FAILED), (s.skipped, Status.SKIPPED)]
    return (
        f"<h1>mcptest {escape(report.suite)} "
        f'<span class="badge" id="verdict" style="background:{color}">{verdict}</span></h1>\n'
        f"<p>{s.total} tests: {s.passed} passed, {s.failed} failed, {s.skipped} skipped; "
        f"{len(report.gates)} gates, {failed_gates} failed. Started {escape(report.started_at)}, "
        f"{report.duration_ms / 1000:.2f} s, mcptest {escape(report.mcptest_version)}.</p>\n"
        + "".join(f'<p class="note">{escape(note)}.</p>\n' for note in cut_short(report))
        + _stacked_bar([(n, COLORS[status], status.value) for n, status in parts])
    )


def _failures(report: Report) -> str:
    failed = [r for r in report.results if r.status == Status.FAILED]
    gates = [g for g in report.gates if g.status == Status.FAILED]
    if not failed and not gates:
        return ""
    items = [_failure(f"{r.name}{f' #{r.run}' if r.run else ''}", r.file, r.line, r) for r in failed]
    items += [_failure(f"{g.test} · {g.block}", g.file, g.line, g) for g in gates]
    return "<h2>Failures</h2>\n" + "\n".join(items)


def _failure(label: str, file: str, line: int, item: TestResult | GateReport) -> str:
    rows = "".join(
        f"<tr><td><code>{escape(f.target)}</code></td><td>{escape(f.matcher)}</td><td><code>{_value(f.expected)}"
        f"</code></td><td><code>{_value(f.actual)}</code></td><td>{escape(f.message)}</td></tr>"
        for f in item.failures
    )
    table = (
        f"<table><tr><th>target</th><th>matcher</th><th>expected</th><th>actual</th><th>message</th></tr>{rows}</table>"
        if rows
        else ""
    )
    extra = ""
    if isinstance(item, TestResult):
        extra += f"<p>{escape(item.error)}</p>" if item.error else ""
        extra += f"<pre>{escape(item.stderr)}</pre>" if item.stderr else ""
    else:
        extra += f"<pre>{escape(chr(10).join(item.lines))}</pre>" if item.lines else ""
    return f'<h3 class="failed">{escape(label)} <small>{escape(file)}:{line}</small></h3>{table}{extra}'


def _tests(results: list[TestResult]) -> str:
    if not results:
        return ""
    longest = max(r.duration_ms for r in results) or 1.0
    rows = "".join(
        f"<tr><td>{escape(r.name)}{f' #{r.run}' if r.run else ''}</td><td>{escape(r.kind)}</td>"
        f'<td>{escape(_subject(r))}</td><td class="{r.status.value}">{r.status.value}</td>'
        f'<td class="num">{r.duration_ms:.0f} ms</td><td>{_bar(r.duration_ms / longest, "#57606a")}</td></tr>'
        for r in results
    )
    return (
        "<h2>Tests</h2>\n<table><tr><th>test</th><th>kind</th><th>subject</th><th>status</th><th>time</th><th></th>"
        f"</tr>{rows}</table>"
    )


def _latency(results: list[TestResult]) -> str:
    """Each measured call's percentiles and a small histogram of its samples (log-spaced bins)."""
    measured = [r for r in results if r.latency is not None]
    if not measured:
        return ""
    rows = ""
    for r in measured:
        f = r.latency
        assert f is not None
        cells = "".join(f'<td class="num">{v:g}</td>' for v in (f.p50_ms, f.p90_ms, f.p95_ms, f.p99_ms, f.max_ms))
        rows += (
            f'<tr><td>{escape(r.name)}</td><td class="num">{f.samples}</td><td class="num">{f.concurrency}</td>'
            f'{cells}<td class="num">{f.errors}</td><td>{_histogram(f.histogram)}</td></tr>'
        )
    return (
        "<h2>Latency</h2>\n<table><tr><th>test</th><th>calls</th><th>concurrency</th><th>p50 ms</th><th>p90 ms</th>"
        f"<th>p95 ms</th><th>p99 ms</th><th>max ms</th><th>errors</th><th>histogram</th></tr>{rows}</table>"
    )


def _histogram(encoded: str, width: int = 192, height: int = 32) -> str:
    from mcptest.core.latency import bars, decode

    try:
        bins = bars(decode(encoded))
    except ValueError:
        return "(unreadable histogram)"
    top = max((n for _, n in bins), default=0) or 1
    step = width / max(len(bins), 1)
    low = 0.0
    rects = ""
    for i, (edge, n) in enumerate(bins):
        h = n / top * height
        rects += (
            f'<rect x="{i * step:.1f}" y="{height - h:.1f}" width="{step - 1:.1f}" height="{h:.1f}" fill="#0969da">'
            f"<title>{n} calls {low:g}-{edge:g} ms</title></rect>"
        )
        low = edge
    return f'<svg width="{width}" height="{height}" role="img" aria-label="latency histogram">{rects}</svg>'


def _over_time(results: list[TestResult], over_time: dict[str, list[TimePoint]]) -> str:
    """Per operation of a load: p50/p95/p99 and answers per second over the run, and its percentile plot."""
    rows = ""
    for r in results:
        if r.latency is None or r.name not in over_time:
            continue
        rows += (
            f"<tr><td>{escape(r.name)}</td><td>{_time_chart(over_time[r.name])}</td>"
            f"<td>{_percentile_plot(r.latency.histogram)}</td></tr>"
        )
    if not rows:
        return ""
    return (
        "<h2>Latency over time</h2>\n<p>Per second of the load: p50 (blue), p95 (orange) and p99 (red) of the answers "
        "received in it, over grey bars of how many there were (errors in red); beside it, the latency at each "
        "percentile of the whole run (hover a point for its figures).</p>\n"
        f"<table><tr><th>operation</th><th>over time</th><th>percentiles</th></tr>{rows}</table>"
    )


LINES = (("p50_ms", "#0969da"), ("p95_ms", "#bc4c00"), ("p99_ms", "#cf222e"))


def _time_chart(points: list[TimePoint], width: int = 480, height: int = 160, pad: int = 46) -> str:
    if not points:
        return "(no answers)"
    last = max(p.second for p in points) + 1
    top_ms = max(p.p99_ms for p in points) or 1.0
    top_n = max(p.answers for p in points) or 1
    step = (width - 2 * pad) / last

    def x(second: float) -> float:
        return pad + second * step

    def y(ms: float) -> float:
        return height - pad - ms / top_ms * (height - 2 * pad)

    bars = ""
    for p in points:
        h = p.answers / top_n * (height - 2 * pad)
        e = p.errors / top_n * (height - 2 * pad)
        bars += (
            f'<rect x="{x(p.second):.1f}" y="{height - pad - h:.1f}" width="{max(step - 1, 0.5):.1f}" '
            f'height="{h:.1f}" fill="#eaeef2"><title>second {p.second}: {p.answers} answers, {p.errors} failed, '
            f"p50 {p.p50_ms:g} p95 {p.p95_ms:g} p99 {p.p99_ms:g} ms</title></rect>"
        )
        if e:
            bars += f'<rect x="{x(p.second):.1f}" y="{height - pad - e:.1f}" width="{max(step - 1, 0.5):.1f}" '
            bars += f'height="{e:.1f}" fill="#ffcecb"/>'
    lines = ""
    for key, color in LINES:
        coords = " ".join(f"{x(p.second + 0.5):.1f},{y(getattr(p, key)):.1f}" for p in points if p.answers)
        lines += (
            f'<polyline points="{coords}" fill="none" stroke="{color}" stroke-width="1.5"><title>{key[:-3]}</title>'
        )
        lines += "</polyline>"
    axes = (
        f'<line x1="{pad}" y1="{height - pad}" x2="{width - pad}" y2="{height - pad}" stroke="#57606a"/>'
        f'<line x1="{pad}" y1="{pad}" x2="{pad}" y2="{height - pad}" stroke="#57606a"/>'
        f'<text x="{pad - 4}" y="{pad + 4}" text-anchor="end" font-size="10">{top_ms:g}</text>'
        f'<text x="{pad - 4}" y="{height - pad}" text-anchor="end" font-size="10">0 ms</text>'
        f'<text x="{width - pad}" y="{height - pad + 14}" text-anchor="end" font-size="10">{last} s</text>'
        f'<text x="{width - pad}" y="{pad - 6}" text-anchor="end" font-size="10">bars: answers/s, top {top_n}</text>'
    )
    return f'<svg width="{width}" height="{height}" role="img" aria-label="latency over time">{axes}{bars}{lines}</svg>'


def _percentile_plot(encoded: str, width: int = 300, height: int = 160, pad: int = 46) -> str:
    """Latency (linear, ms) against the percentile on a 'nines' axis: 0, 90, 99, 99.9, 99.99 evenly apart."""
    import math

    from mcptest.core.latency import curve, decode

    try:
        points = curve(decode(encoded))
    except ValueError:
        return "(unreadable histogram)"
    if not points:
        return "(no answers)"
    nines = 4.0
    top = max(ms for _, ms in points) or 1.0

    def x(p: float) -> float:
        return pad + min(-math.log10(max(1 - p / 100, 1e-4)), nines) / nines * (width - 2 * pad)

    def y(ms: float) -> float:
        return height - pad - ms / top * (height - 2 * pad)

    line = " ".join(f"{x(p):.1f},{y(ms):.1f}" for p, ms in points)
    dots = "".join(
        f'<circle cx="{x(p):.1f}" cy="{y(ms):.1f}" r="2.5" fill="#8250df"><title>'
        f"{'max' if p == 100 else f'p{p:g}'}: {ms:g} ms</title></circle>"
        for p, ms in points
    )
    ticks = "".join(
        f'<text x="{x(p):.1f}" y="{height - pad + 14}" text-anchor="middle" font-size="10">{p:g}</text>'
        for p in (0, 90, 99, 99.9, 99.99)
    )
    axes = (
        f'<line x1="{pad}" y1="{height - pad}" x2="{width - pad}" y2="{height - pad}" stroke="#57606a"/>'
        f'<line x1="{pad}" y1="{pad}" x2="{pad}" y2="{height - pad}" stroke="#57606a"/>'
        f'<text x="{pad - 4}" y="{pad + 4}" text-anchor="end" font-size="10">{top:g}</text>'
        f'<text x="{pad - 4}" y="{height - pad}" text-anchor="end" font-size="10">0 ms</text>{ticks}'
    )
    return (
        f'<svg width="{width}" height="{height}" role="img" aria-label="latency by percentile">'
        f'{axes}<polyline points="{line}" fill="none" stroke="#8250df"/>{dots}</svg>'
    )


def _history_tests(history: Overview) -> str:
    if not history.tests:
        return ""
    rows = "".join(_history_row(line) for line in history.tests.values())
    return (
        f"<h2>History: each test's last {history.window} outcomes</h2>\n"
        f"<p>From {escape(history.store)}, oldest first. The pass rate is over the outcomes shown, with its Wilson "
        f'95% interval.</p>\n<table id="history-tests"><tr><th>test</th><th>outcomes</th><th>pass rate</th>'
        f"<th>95% interval</th><th>trend</th></tr>{rows}</table>"
    )


def _history_row(line: TestLine) -> str:
    cells = "".join(
        f'<span class="cell" style="background:{COLORS[Status(c.status)]}" title="{escape(_cell_title(c))}"></span>'
        for c in line.cells
    )
    t = line.trend
    rate = f"{t.passed}/{t.runs} = {pass_rate_text(t.pass_rate)}" if t.runs else "no runs"
    low, high = t.pass_interval
    label = escape(line.test + (f" [{line.model}]" if line.model else ""))
    return (
        f'<tr><td>{label}</td><td class="strip">{cells}</td><td class="num">{rate}</td>'
        f'<td class="interval">{interval_text(low, high)}</td><td>{_rate_trend(line)}</td></tr>'
    )


def pass_rate_text(rate: float | None) -> str:
    """A pass rate as the history section prints it."""
    return "-" if rate is None else f"{rate:.1%}"


def interval_text(low: float, high: float) -> str:
    """A Wilson interval as the history section prints it."""
    return f"{low:.1%}–{high:.1%}"


def _cell_title(c: Cell) -> str:
    run = f" run {c.run_index}" if c.run_index is not None else ""
    commit = f" at {c.commit[:12]}" if c.commit else ""
    return f"{c.status}{run}: {c.started_at}{commit}"


def _rate_trend(line: TestLine, width: int = 120, height: int = 24) -> str:
    """The running pass rate after each run (a line) inside its running Wilson interval (a band), 0–100%."""
    points = line.rates
    if not points:
        return ""
    step = width / max(len(points) - 1, 1)

    def y(v: float) -> str:
        return f"{height - 1 - v * (height - 2):.1f}"

    xs = [f"{i * step:.1f}" for i in range(len(points))]
    band = " ".join(f"{x},{y(p.high)}" for x, p in zip(xs, points, strict=True))
    band += " " + " ".join(f"{x},{y(p.low)}" for x, p in reversed(list(zip(xs, points, strict=True))))
    rate = " ".join(f"{x},{y(p.rate)}" for x, p in zip(xs, points, strict=True))
    dots = "".join(
        f'<circle cx="{x}" cy="{y(p.rate)}" r="1.5" fill="#1a7f37"><title>{escape(p.started_at)}: '
        f"{pass_rate_text(p.rate)} ({interval_text(p.low, p.high)})</title></circle>"
        for x, p in zip(xs, points, strict=True)
    )
    return (
        f'<svg class="rate-trend" width="{width}" height="{height}" role="img" aria-label="pass rate over runs">'
        f'<polygon points="{band}" fill="#dafbe1"/><polyline points="{rate}" fill="none" stroke="#1a7f37"/>'
        f"{dots}</svg>"
    )


def _history_gates(history: Overview) -> str:
    if not history.gates:
        return ""
    rows = "".join(
        f"<tr><td>{escape(g.test)}{f' [{escape(g.model)}]' if g.model else ''}</td><td>{escape(g.block)}</td>"
        f"<td><code>{escape(g.figure)}</code></td><td>{_gate_line(g)}</td></tr>"
        for g in history.gates.values()
    )
    return (
        "<h2>History: each gate's main figure over the runs</h2>\n"
        f'<table id="history-gates"><tr><th>agent test</th><th>block</th><th>figure</th><th>over the runs</th></tr>'
        f"{rows}</table>"
    )


def _gate_line(g: GateLine, width: int = 160, height: int = 32) -> str:
    """The figure in each run (a dot coloured by the gate's status there), joined by a line; the axis runs from
    the smallest to the largest value shown."""
    known = [p.value for p in g.points if p.value is not None]
    if not known:
        return ""
    low, high = min(known), max(known)
    span = (high - low) or 1.0
    step = (width - 8) / max(len(g.points) - 1, 1)
    coords = [
        (4 + i * step, None if p.value is None else height - 4 - (p.value - low) / span * (height - 8))
        for i, p in enumerate(g.points)
    ]
    line = " ".join(f"{x:.1f},{y:.1f}" for x, y in coords if y is not None)
    dots = "".join(
        f'<circle class="point" cx="{x:.1f}" cy="{y:.1f}" r="2.5" fill="{COLORS.get(Status(p.status), "#57606a")}">'
        f"<title>{escape(p.started_at)}{f' at {p.commit[:12]}' if p.commit else ''}: {p.value:g} "
        f"({escape(p.status)})</title></circle>"
        for (x, y), p in zip(coords, g.points, strict=True)
        if y is not None and p.value is not None
    )
    return (
        f'<svg class="gate-trend" width="{width}" height="{height}" role="img" aria-label="{escape(g.figure)} over '
        f'runs: {low:g} to {high:g}"><polyline points="{line}" fill="none" stroke="#8250df"/>{dots}</svg>'
    )


def _history_loads(history: Overview) -> str:
    """Each operation's p95 and calls/s over the suite's last loads (`mcptest load`), as two small trends, then
    the loads themselves, newest first, with their commits and figures."""
    if not history.loads:
        return ""
    order = sorted({p.started_at for line in history.loads.values() for p in line.points})
    rows = "".join(
        f"<tr><td>{escape(line.operation)}</td>"
        + "".join(
            f'<td>{_load_trend(line, order, figure, unit)}</td><td class="num">{_load_span(line, figure, unit)}</td>'
            for figure, unit in (("p95_ms", "ms"), ("calls_per_s", "/s"))
        )
        + "</tr>"
        for line in history.loads.values()
    )
    loads: dict[str, tuple[str | None, dict[str, str]]] = {}  # started_at: commit, per operation its figures
    for line in history.loads.values():
        for p in line.points:
            cell = f"{p.p95_ms:g} ms, {p.calls_per_s:,.1f}/s" + (f", {p.errors} failed" if p.errors else "")
            loads.setdefault(p.started_at, (p.commit, {}))[1][line.operation] = cell
    names = list(history.loads)
    head = "".join(f"<th>{escape(n)}</th>" for n in names)
    table = "".join(
        f"<tr><td>{escape(started)}</td><td><code>{escape(commit[:12]) if commit else '-'}</code></td>"
        + "".join(f'<td class="num">{escape(cells.get(n, "-"))}</td>' for n in names)
        + "</tr>"
        for started, (commit, cells) in sorted(loads.items(), reverse=True)
    )
    return (
        f"<h2>History: load latency over the last {len(loads)} loads</h2>\n"
        f"<p>From {escape(history.store)}: each operation's p95 and calls/s in each stored <code>mcptest load</code> "
        "of this suite, oldest first (a red point: some of its answers failed; hover a point for its load).</p>\n"
        '<table id="history-loads"><tr><th>operation</th><th>p95 over the loads</th><th>first → newest</th>'
        f"<th>calls/s over the loads</th><th>first → newest</th></tr>{rows}</table>\n"
        f'<table id="history-loads-runs"><tr><th>load started</th><th>commit</th>{head}</tr>{table}</table>'
    )


def _load_span(line: LoadLine, figure: str, unit: str) -> str:
    first, last = getattr(line.points[0], figure), getattr(line.points[-1], figure)
    change = f" ({(last - first) / first:+.0%})" if first and len(line.points) > 1 else ""
    return f"{first:,.4g} → {last:,.4g} {unit}{change}"


def _load_trend(line: LoadLine, order: list[str], figure: str, unit: str, width: int = 160, height: int = 32) -> str:
    """`figure` in each load (a dot, red when answers failed, placed at its load's place in `order`, the start
    times of all the loads shown, so every operation's trend lines up), joined by a line; the axis runs from 0 to
    the largest value shown, so a doubling looks like one."""
    values = [float(getattr(p, figure)) for p in line.points]
    high = max(values) or 1.0
    step = (width - 8) / max(len(order) - 1, 1)
    coords = [
        (4 + order.index(p.started_at) * step, height - 4 - v / high * (height - 8))
        for p, v in zip(line.points, values, strict=True)
    ]
    polyline = " ".join(f"{x:.1f},{y:.1f}" for x, y in coords)
    dots = "".join(
        f'<circle class="point" cx="{x:.1f}" cy="{y:.1f}" r="2.5" fill="{"#cf222e" if p.errors else "#8250df"}">'
        f"<title>{escape(p.started_at)}{f' at {escape(p.commit[:12])}' if p.commit else ''}: {v:,.4g} {unit}; "
        f"{p.calls:,} calls, {p.errors:,} failed</title></circle>"
        for (x, y), p, v in zip(coords, line.points, values, strict=True)
    )
    label = f"{figure} of {line.operation} over loads: up to {high:,.4g} {unit}"
    return (
        f'<svg class="load-trend" width="{width}" height="{height}" role="img" aria-label="{escape(label)}">'
        f'<polyline points="{polyline}" fill="none" stroke="#8250df"/>{dots}</svg>'
    )


def _subject(r: TestResult) -> str:
    if r.model:
        return r.model
    if r.resource:
        return f"{r.server} {r.resource}" if r.server else r.resource
    return ".".join(p for p in (r.server, r.tool or r.prompt) if p)


def _pass_rates(results: list[TestResult]) -> str:
    groups: dict[tuple[str, str | None], list[TestResult]] = {}
    for r in results:
        if r.run is not None:
            groups.setdefault((r.name, r.model), []).append(r)
    if not groups:
        return ""
    rows = ""
    for (name, model), runs in groups.items():
        judged = [r for r in runs if r.status != Status.SKIPPED]
        passed = sum(r.status == Status.PASSED for r in judged)
        rate = passed / len(judged) if judged else 0.0
        label = escape(name + (f" [{model}]" if model else ""))
        rows += (
            f'<tr><td>{label}</td><td class="num">{passed}/{len(judged)}</td>'
            f"<td>{_bar(rate, COLORS[Status.PASSED], background='#ffebe9')}</td></tr>"
        )
    return f"<h2>Pass rate across runs</h2>\n<table><tr><th>agent test</th><th>passed</th><th></th></tr>{rows}</table>"


def _tokens(report: Report) -> str:
    lines = token_lines(report)
    if not lines:
        return ""
    rows = "".join(
        f'<tr><td>{escape(t.test + (f" [{t.model}]" if t.model else ""))}</td><td class="num">{t.runs}</td>'
        + "".join(f'<td class="num">{"—" if v is None else v}</td>' for v in (t.input, t.cached, t.output, t.reasoning))
        + f'<td class="num">{t.total}</td>'
        + "</tr>"
        for t in lines
    )
    head = "".join(f"<th>{h}</th>" for h in ("agent test", "runs", "input", "cached", "output", "reasoning", "total"))
    return (
        "<h2>Tokens per agent test and model</h2>\n<p>Input includes cached tokens; output includes reasoning "
        f"tokens.</p>\n<table><tr>{head}</tr>{rows}</table>"
    )


def _gates(gates: list[GateReport]) -> str:
    if not gates:
        return ""
    rows = "".join(
        f"<tr><td>{escape(g.test)}{f' [{escape(g.model)}]' if g.model else ''}</td><td>{escape(g.block)}</td>"
        f'<td class="{g.status.value}">{g.status.value}</td><td class="num">{g.runs}</td>'
        f"<td><code>{escape(', '.join(f'{k}={v}' for k, v in g.targets.items()))}</code></td></tr>"
        for g in gates
    )
    return (
        "<h2>Gates</h2>\n<table><tr><th>agent test</th><th>block</th><th>status</th><th>runs</th><th>figures</th>"
        f"</tr>{rows}</table>"
    )


def _coverage(report: Report) -> str:
    if report.coverage is None:
        return ""
    from mcptest.report.coverage import html_section

    return html_section(report.coverage)


def _distractors(gates: list[GateReport]) -> str:
    points = [
        (int(g.detail["count"]), float(acc), f"{g.test}{f' [{g.model}]' if g.model else ''}")
        for g in gates
        if g.block == "distractors"
        and isinstance(g.detail.get("count"), int)
        and isinstance(acc := g.targets.get("distractors.accuracy"), int | float)
    ]
    if not points:
        return ""
    return "<h2>Distractor accuracy against distractor count</h2>\n" + _scatter(points, "distractors", "accuracy %")


def _surface(gates: list[GateReport]) -> str:
    tools: dict[str, int] = {}
    for g in gates:
        per_tool = g.detail.get("tool_tokens") if g.block == "token_efficiency" else None
        if isinstance(per_tool, dict):
            tools.update({str(k): int(v) for k, v in per_tool.items() if isinstance(v, int)})
    if not tools:
        return ""
    largest = max(tools.values()) or 1
    rows = "".join(
        f'<tr><td><code>{escape(name)}</code></td><td class="num">{tokens}</td>'
        f"<td>{_bar(tokens / largest, '#0969da')}</td></tr>"
        for name, tokens in sorted(tools.items(), key=lambda kv: -kv[1])
    )
    return (
        "<h2>Tool-surface tokens per tool (cl100k_base)</h2>\n"
        f"<table><tr><th>tool</th><th>tokens</th><th></th></tr>{rows}</table>"
    )


def _delta(comparison: Comparison) -> str:
    moved = [c for c in comparison.cases if c.verdict.value != "unchanged"]
    totals = ", ".join(f"{n} {v.value}" for v, n in comparison.totals.items() if n)
    rows = "".join(
        f'<tr><td>{escape(c.label)}</td><td class="{c.verdict.value}">{c.verdict.value}</td>'
        f"<td>{c.baseline_status.value if c.baseline_status else '-'} → "
        f"{c.current_status.value if c.current_status else '-'}</td><td>{escape(c.note)}</td></tr>"
        for c in moved
    )
    return (
        f"<h2>Compared with the baseline</h2>\n<p>{escape(totals) or 'no cases'}.</p>\n"
        f"<table><tr><th>case</th><th>verdict</th><th>status</th><th>why</th></tr>{rows}</table>"
    )


def _value(value: Any) -> str:
    import json

    return escape(json.dumps(value, ensure_ascii=False, default=str))


def _bar(fraction: float, color: str, background: str = "#eaeef2", width: int = 160) -> str:
    filled = max(0.0, min(1.0, fraction)) * width
    return (
        f'<svg width="{width}" height="10" role="img" aria-label="{fraction:.0%}">'
        f'<rect width="{width}" height="10" fill="{background}"/>'
        f'<rect width="{filled:.1f}" height="10" fill="{color}"/></svg>'
    )


def _stacked_bar(parts: Iterable[tuple[int, str, str]], width: int = 600) -> str:
    parts = [p for p in parts if p[0] > 0]
    total = sum(n for n, _, _ in parts) or 1
    x, rects = 0.0, ""
    for n, color, label in parts:
        w = n / total * width
        rects += f'<rect x="{x:.1f}" width="{w:.1f}" height="18" fill="{color}"><title>{n} {label}</title></rect>'
        x += w
    return f'<svg width="{width}" height="18" role="img" aria-label="results by status">{rects}</svg>'


def _scatter(points: list[tuple[int, float, str]], x_label: str, y_label: str) -> str:
    """Points (x, y 0..100, label) on axes from 0 to the largest x."""
    width, height, pad = 480, 240, 40
    top_x = max(x for x, _, _ in points) or 1
    dots = "".join(
        f'<circle cx="{pad + x / top_x * (width - 2 * pad):.1f}" cy="{height - pad - y / 100 * (height - 2 * pad):.1f}"'
        f' r="5" fill="#8250df"><title>{escape(label)}: {y:g}% at {x}</title></circle>'
        for x, y, label in points
    )
    axes = (
        f'<line x1="{pad}" y1="{height - pad}" x2="{width - pad}" y2="{height - pad}" stroke="#57606a"/>'
        f'<line x1="{pad}" y1="{pad}" x2="{pad}" y2="{height - pad}" stroke="#57606a"/>'
        f'<text x="{width / 2}" y="{height - 8}" text-anchor="middle">{x_label} (0-{top_x})</text>'
        f'<text x="12" y="{height / 2}" transform="rotate(-90 12 {height / 2})" text-anchor="middle">{y_label}</text>'
    )
    return f'<svg width="{width}" height="{height}" role="img" aria-label="{x_label} vs {y_label}">{axes}{dots}</svg>'
