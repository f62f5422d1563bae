"""Reports to store: built in memory, as a run would make them, one status per test."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from mcptest.records.report import GateReport, Report, Status, TestResult, summarize

START = datetime(2026, 11, 1, tzinfo=UTC)


def report(statuses: dict[str, str], index: int = 0, suite: str = "suite.yml", gates: dict[str, float] | None = None,
           ) -> Report:  # fmt: skip
    """A report whose tests have these statuses (`passed`/`failed`/`skipped`), started `index` hours after START."""
    results = [
        TestResult(
            name=name, kind="tool", file=suite, line=i + 1, status=Status(status), duration_ms=1.5,
            error="boom: the server said no" if status == "failed" else None,
        )
        for i, (name, status) in enumerate(statuses.items())
    ]  # fmt: skip
    gate_rows = [
        GateReport(test=name, block="tool_selection", file=suite, line=1, runs=3,
                   status=Status.PASSED if value >= 80 else Status.FAILED,
                   targets={"tool_selection.selection_rate": value})
        for name, value in (gates or {}).items()
    ]  # fmt: skip
    return Report(
        mcptest_version="0.1.0", suite=suite, started_at=(START + timedelta(hours=index)).isoformat(),
        duration_ms=100.0, results=results, gates=gate_rows, summary=summarize(results, gate_rows),
    )  # fmt: skip


def agent_report(index: int = 0, suite: str = "suite.yml") -> Report:
    """A report of one agent test's two runs on a model, with tokens and cost."""
    results = [
        TestResult(name="agent answers", kind="agent", model="claude-x", run=run, file=suite, line=3,
                   status=Status.PASSED, duration_ms=2.0,
                   targets={"tool_calls": 1, "tokens.total": 1200 + run, "cost_usd": 0.0025})
        for run in (1, 2)
    ]  # fmt: skip
    return Report(
        mcptest_version="0.1.0", suite=suite, started_at=(START + timedelta(hours=index)).isoformat(),
        duration_ms=50.0, results=results, summary=summarize(results),
    )  # fmt: skip
