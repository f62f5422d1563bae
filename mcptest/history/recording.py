"""Append a finished run to its history store: what `mcptest run` and `report merge` call after reporting.

History never changes a verdict: a store that cannot be reached or is refused is one warning line, and the run
reports and exits as it would have.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from mcptest.history.context import run_context, suite_identity
from mcptest.history.location import shown
from mcptest.records.report import Report


def record_run(
    report: Report,
    url: str,
    *,
    environ: Mapping[str, str],
    shard: str | None = None,
    source: str = "run",
    merged: Sequence[str] = (),
) -> str | None:
    """Store `report` (already masked) in the store at `url`; None when stored, else the warning to print."""
    from mcptest.history.store import HistoryError, open_store

    suite = Path(report.suite)
    try:
        with open_store(url) as store:
            store.record(
                report, suite_identity(suite), run_context(suite.parent, environ, shard), source=source, merged=merged
            )
    except HistoryError as exc:
        return f"mcptest: warning: {exc}; this run is not in the history"
    except Exception as exc:  # any failure of the store: the verdict stands, the user hears why history missed it
        reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        return f"mcptest: warning: history store {shown(url)}: {reason}; this run is not in the history"
    return None
