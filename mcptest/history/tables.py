"""The history store's tables, one schema for SQLite and PostgreSQL (SQLAlchemy Core)."""

from __future__ import annotations

import sqlalchemy as sa

METADATA = sa.MetaData()

SCHEMA = sa.Table(
    "mcptest_schema",
    METADATA,
    sa.Column("version", sa.Integer, nullable=False),
)
"""One row: the schema version the migrations have reached (`migrations.SCHEMA_VERSION`)."""

RUNS = sa.Table(
    "runs",
    METADATA,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("suite", sa.String(1000), nullable=False),
    sa.Column("started_at", sa.String(40), nullable=False),
    sa.Column("ended_at", sa.String(40), nullable=False),
    sa.Column("duration_ms", sa.Float, nullable=False),
    sa.Column("mcptest_version", sa.String(40), nullable=False),
    sa.Column("commit", sa.String(64)),
    sa.Column("branch", sa.String(255)),
    sa.Column("ci_job", sa.String(255)),
    sa.Column("shard", sa.String(20)),
    sa.Column("source", sa.String(10), nullable=False),
    sa.Column("ok", sa.Boolean, nullable=False),
    sa.Column("interrupted", sa.Boolean, nullable=False),
    sa.Column("capped", sa.Boolean, nullable=False),
    sa.Column("total", sa.Integer, nullable=False),
    sa.Column("passed", sa.Integer, nullable=False),
    sa.Column("failed", sa.Integer, nullable=False),
    sa.Column("skipped", sa.Integer, nullable=False),
    sa.Column("not_run", sa.Integer, nullable=False),
    sa.Column("gates_total", sa.Integer, nullable=False),
    sa.Column("gates_failed", sa.Integer, nullable=False),
    sa.Column("merged_into", sa.Integer),
    sa.Column("report", sa.LargeBinary, nullable=False),
    sa.Index("runs_by_suite", "suite", "id"),
)
"""One row per stored run. `merged_into` is set on a shard's run once `report merge` stored the whole run, so the
shard's tests are not counted twice; `report` is the whole masked JSON report, zlib-compressed (a baseline)."""

RESULTS = sa.Table(
    "results",
    METADATA,
    sa.Column("run_id", sa.Integer, sa.ForeignKey("runs.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("position", sa.Integer, primary_key=True),
    sa.Column("test", sa.String(1000), nullable=False),
    sa.Column("kind", sa.String(20), nullable=False),
    sa.Column("model", sa.String(255)),
    sa.Column("run_index", sa.Integer),
    sa.Column("status", sa.String(12), nullable=False),
    sa.Column("duration_ms", sa.Float, nullable=False),
    sa.Column("quarantined", sa.Boolean, nullable=False),
    sa.Column("tokens", sa.Integer),
    sa.Column("cost_usd", sa.Float),
    sa.Column("failure", sa.Text),
    sa.Column("targets", sa.Text),
    sa.Index("results_by_test", "test", "run_id"),
)
"""One row per result of a run (a test, or one run of an agent test): agent rows carry model, tokens and cost;
`targets` holds the figures (JSON), e.g. a `tool_quality` test's lint counts."""

GATES = sa.Table(
    "gates",
    METADATA,
    sa.Column("run_id", sa.Integer, sa.ForeignKey("runs.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("position", sa.Integer, primary_key=True),
    sa.Column("test", sa.String(1000), nullable=False),
    sa.Column("model", sa.String(255)),
    sa.Column("block", sa.String(100), nullable=False),
    sa.Column("status", sa.String(12), nullable=False),
    sa.Column("runs", sa.Integer, nullable=False),
    sa.Column("targets", sa.Text, nullable=False),
    sa.Index("gates_by_test", "test", "run_id"),
)
"""One row per gate block judged in a run, its figures as JSON."""
