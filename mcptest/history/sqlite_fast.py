"""Recording a run into an existing, current SQLite store through the standard library's `sqlite3`.

Why: importing SQLAlchemy is most of what history would add to a short `mcptest run` (about 0.3 s on an idle
machine against a 30 ms budget), and recording needs only a version check and three INSERTs. The statements are
still SQLAlchemy's: compiled for SQLite from `tables.py` ahead of time and kept here, with a test holding them equal
to what SQLAlchemy compiles today, so no SQL is built by hand. Anything else (a store to create or migrate, one
written by a newer mcptest, `report merge`'s update of its shards, PostgreSQL) goes through `store.py`.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from mcptest.history.context import RunContext
from mcptest.history.rows import gate_rows, result_row, run_row
from mcptest.records.report import Report

SCHEMA_VERSION = 1
"""The schema version this module writes: `migrations.SCHEMA_VERSION` (a test holds them equal)."""
BUSY_TIMEOUT_S = 30

VERSION_SQL = "SELECT max(mcptest_schema.version) AS max_1 \nFROM mcptest_schema"
RUNS_COLUMNS = (
    "id", "suite", "started_at", "ended_at", "duration_ms", "mcptest_version", "commit", "branch", "ci_job", "shard",
    "source", "ok", "interrupted", "capped", "total", "passed", "failed", "skipped", "not_run", "gates_total",
    "gates_failed", "merged_into", "report",
)  # fmt: skip
RESULTS_COLUMNS = (
    "run_id", "position", "test", "kind", "model", "run_index", "status", "duration_ms", "quarantined", "tokens",
    "cost_usd", "failure", "targets",
)  # fmt: skip
GATES_COLUMNS = ("run_id", "position", "test", "model", "block", "status", "runs", "targets")
INSERT_SQL = {
    "runs": 'INSERT INTO runs (id, suite, started_at, ended_at, duration_ms, mcptest_version, "commit", branch, '
    "ci_job, shard, source, ok, interrupted, capped, total, passed, failed, skipped, not_run, gates_total, "
    "gates_failed, merged_into, report) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
    "results": "INSERT INTO results (run_id, position, test, kind, model, run_index, status, duration_ms, quarantined, "
    "tokens, cost_usd, failure, targets) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
    "gates": "INSERT INTO gates (run_id, position, test, model, block, status, runs, targets) "
    "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
}
"""SQLAlchemy's `insert(TABLE).compile(dialect=sqlite.dialect())` for each table, with the column order above."""


def sqlite_file(url: str) -> Path | None:
    """The file of a `sqlite:///PATH` URL, else None (another engine, a driver named, or an in-memory database)."""
    scheme, sep, rest = url.partition(":///")
    if not sep or scheme != "sqlite" or rest in ("", ":memory:") or "?" in rest:
        return None
    return Path(rest)


def record_fast(
    report: Report, url: str, suite: str, context: RunContext, *, source: str, merged: Sequence[str] = ()
) -> bool:
    """Store the run if `url` is an existing SQLite store at this schema version; False (nothing written) when the
    store needs `store.py` instead. Errors of the database itself propagate, as `store.py`'s do."""
    path = sqlite_file(url)
    if path is None or merged or not path.is_file():
        return False
    conn = sqlite3.connect(path, timeout=BUSY_TIMEOUT_S, isolation_level=None)
    try:
        try:
            version = conn.execute(VERSION_SQL).fetchone()[0]
        except sqlite3.OperationalError:  # no schema table: a database to create, not ours to guess at
            return False
        if version != SCHEMA_VERSION:
            return False
        conn.execute("PRAGMA synchronous=NORMAL")  # as store.py's connections; WAL is the file's own setting
        conn.execute("PRAGMA foreign_keys=ON")
        conn.execute("BEGIN IMMEDIATE")  # the write lock first, so a second writer waits instead of failing half-way
        try:
            run = {**run_row(report, suite, context, source), "id": None, "merged_into": None}
            run_id = conn.execute(INSERT_SQL["runs"], _values(run, RUNS_COLUMNS)).lastrowid
            for table, columns, rows in (
                ("results", RESULTS_COLUMNS, [result_row(i, r) for i, r in enumerate(report.results)]),
                ("gates", GATES_COLUMNS, gate_rows(report)),
            ):
                conn.executemany(INSERT_SQL[table], [_values({**r, "run_id": run_id}, columns) for r in rows])
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
    finally:
        conn.close()
    return True


def _values(row: dict[str, Any], columns: tuple[str, ...]) -> tuple[Any, ...]:
    return tuple(row[c] for c in columns)
