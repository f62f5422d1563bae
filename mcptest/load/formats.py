"""A load report in the run reporters' formats (Markdown, HTML): the load as a test-run Report, one row per
operation with its latency figures and histogram, so the existing writers render it (no second writer)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from mcptest.load.model import LoadReport
    from mcptest.records.report import Report

FORMATS = ("json", "md", "html")


def as_run_report(report: LoadReport) -> Report:
    """One row per operation: failed when any of its answers failed (the kinds in the failure's message), with
    `latency` holding its percentiles and encoded histogram (the HTML report draws it) and `targets` its counts."""
    from mcptest.expect.failure import AssertionFailure
    from mcptest.records.report import LatencyFigures, Report, Status, TestResult, summarize

    rows = []
    for op in report.operations:
        failed = sum(op.errors.values())
        failures = []
        if failed:
            kinds = ", ".join(f"{kind} {n}" for kind, n in op.errors.items())
            failures.append(
                AssertionFailure(
                    target="errors",
                    matcher="load",
                    expected=0,
                    actual=failed,
                    message=f"{failed} of {op.count} answers failed under load ({kinds})",
                )
            )
        rows.append(
            TestResult(
                name=op.name,
                kind=op.kind,
                file=report.suite,
                line=1,
                status=Status.FAILED if failed else Status.PASSED,
                duration_ms=round(report.elapsed_s * 1000, 3),
                failures=failures,
                targets={  # what the run history keeps of a load (`mcptest history load`)
                    "calls": op.count,
                    "calls_per_s": op.throughput_rps,
                    "weight": op.weight,
                    "errors": failed,
                    "p50_ms": op.p50_ms,
                    "p95_ms": op.p95_ms,
                    "p99_ms": op.p99_ms,
                },
                latency=LatencyFigures(
                    samples=op.count,
                    concurrency=report.users,
                    errors=failed,
                    p50_ms=op.p50_ms,
                    p90_ms=op.p90_ms,
                    p95_ms=op.p95_ms,
                    p99_ms=op.p99_ms,
                    max_ms=op.max_ms,
                    mean_ms=op.mean_ms,
                    histogram=op.histogram,
                ),
            )
        )
    return Report(
        mcptest_version=report.mcptest_version,
        suite=report.suite,
        started_at=report.started_at,
        duration_ms=round(report.elapsed_s * 1000, 3),
        results=rows,
        summary=summarize(rows, interrupted=report.interrupted),
        interrupted=report.interrupted,
    )


def render(report: LoadReport, fmt: str, history: str | None = None) -> str:
    """The report as `fmt`: its own JSON (`schema/load.v1.json`), or Markdown/HTML through the run reporters. The
    HTML page draws the suite's last loads from the store at `history` when one is given and exists (a store that
    fails is a warning on stderr; the page is then drawn without it)."""
    if fmt == "json":
        return report.model_dump_json(indent=2) + "\n"
    from mcptest.report.formats import REPORTERS

    if fmt == "html":  # the run page, with each operation's latency over time and percentile plot
        import sys

        from mcptest.core.printable import printable
        from mcptest.report.formats import shown
        from mcptest.report.html import TimePoint, render_html

        over_time = {
            op.name: [TimePoint(s.second, s.count, s.errors, s.p50_ms, s.p95_ms, s.p99_ms) for s in op.series]
            for op in report.operations
        }
        run = as_run_report(report)
        drawn = None
        if history is not None:
            from mcptest.history.overview import read_overview

            drawn, warning = read_overview(run, history, load=True)
            if warning is not None:
                print(printable(warning), file=sys.stderr)
        return render_html(shown(run), history=drawn, over_time=over_time)
    return REPORTERS[fmt](as_run_report(report), False)
