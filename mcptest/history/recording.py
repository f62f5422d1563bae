"""Append a finished run to its history store: what `mcptest run` and `report merge` call after reporting.

An existing, current SQLite store is written through the standard library (`sqlite_fast`), so a run pays no
SQLAlchemy import; any other store through `store.py`. History never changes a verdict: a store that cannot be
reached or is refused is one warning line, and the run reports and exits as it would have.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from mcptest.history.context import run_context, suite_identity
from mcptest.history.location import shown
from mcptest.history.sqlite_fast import record_fast
from mcptest.records.report import Report

LOAD_SUFFIX = "#load"
"""A `mcptest load` is stored under its suite's name with this suffix: its rows (one per operation, failed when any
answer failed under load) never count in the suite's test timelines, pass rates, flaky list or baselines."""


def record_run(
    report: Report,
    url: str,
    *,
    environ: Mapping[str, str],
    shard: str | None = None,
    source: str = "run",
    merged: Sequence[str] = (),
    suffix: str = "",
) -> str | None:
    """Store `report` (already masked) in the store at `url`; None when stored, else the warning to print. `suffix`
    is added to the suite's stored name: `#load` keeps loads apart from the suite's test runs (`LOAD_SUFFIX`)."""
    suite = Path(report.suite)
    identity, context = suite_identity(suite) + suffix, run_context(suite.parent, environ, shard)
    try:
        if record_fast(report, url, identity, context, source=source, merged=merged):
            return None
        from mcptest.history.store import HistoryError, open_store  # SQLAlchemy: only when the fast path cannot

        try:
            with open_store(url) as store:
                store.record(report, identity, context, source=source, merged=merged)
        except HistoryError as exc:
            return f"mcptest: warning: {exc}; this run is not in the history"
    except Exception as exc:  # any failure of the store: the verdict stands, the user hears why history missed it
        reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        return f"mcptest: warning: history store {shown(url)}: {reason}; this run is not in the history"
    return None
