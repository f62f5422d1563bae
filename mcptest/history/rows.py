"""The rows a run is stored as: one for the run, one per result, one per gate. Free of SQLAlchemy, so that the
standard library's sqlite3 can write them too (`sqlite_fast`)."""

from __future__ import annotations

import json
import zlib
from datetime import datetime, timedelta
from typing import Any

from mcptest.history.context import RunContext
from mcptest.records.report import Report, TestResult

FAILURE_CHARS = 2000


def run_row(report: Report, suite: str, context: RunContext, source: str) -> dict[str, Any]:
    """The `runs` row of a report."""
    s = report.summary
    try:
        ended = (datetime.fromisoformat(report.started_at) + timedelta(milliseconds=report.duration_ms)).isoformat()
    except ValueError:
        ended = report.started_at
    return {
        "suite": suite, "started_at": report.started_at, "ended_at": ended, "duration_ms": report.duration_ms,
        "mcptest_version": report.mcptest_version, "commit": context.commit, "branch": context.branch,
        "ci_job": context.ci_job, "shard": context.shard, "source": source, "ok": s.ok,
        "interrupted": report.interrupted, "capped": s.capped, "total": s.total, "passed": s.passed,
        "failed": s.failed, "skipped": s.skipped, "not_run": s.not_run, "gates_total": s.gates.total,
        "gates_failed": s.gates.failed + s.gates.incomplete,
        "report": zlib.compress(report.model_dump_json().encode(), 1),
    }  # fmt: skip


def result_row(position: int, r: TestResult) -> dict[str, Any]:
    """The `results` row of one result: agent figures in their own columns, every figure in `targets`."""
    tokens = r.targets.get("tokens.total")
    cost = r.targets.get("cost_usd")
    return {
        "position": position, "test": r.name, "kind": r.kind, "model": r.model, "run_index": r.run,
        "status": r.status.value, "duration_ms": r.duration_ms, "quarantined": r.quarantined is not None,
        "tokens": int(tokens) if isinstance(tokens, int | float) else None,
        "cost_usd": float(cost) if isinstance(cost, int | float) else None,
        "failure": failure_text(r), "targets": json.dumps(r.targets) if r.targets else None,
    }  # fmt: skip


def failure_text(r: TestResult) -> str | None:
    """What went wrong, as one text: the error, then each failed assertion's message (cut at 2,000 characters)."""
    parts = ([r.error] if r.error else []) + [f.message for f in r.failures]
    return "\n".join(parts)[:FAILURE_CHARS] if parts else None


def gate_rows(report: Report) -> list[dict[str, Any]]:
    """The `gates` rows of a report: each gate block judged, its figures as JSON."""
    return [
        {"position": i, "test": g.test, "model": g.model, "block": g.block, "status": g.status.value,
         "runs": g.runs, "targets": json.dumps(g.targets)}
        for i, g in enumerate(report.gates)
    ]  # fmt: skip
