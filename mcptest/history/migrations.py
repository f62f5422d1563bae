"""Versioned migrations of the history store, applied when a store is opened.

A small table of our own (`mcptest_schema`, one row: the version reached) rather than Alembic: a run that records
opens the store once, and Alembic's script directory, environment module and Mako templates would add to every
run's start for a list of steps this short. Each step is a function of a connection, run inside the one
transaction that holds the store's migration lock, so eight CI shards opening a fresh database at once apply each
step exactly once.
"""

from __future__ import annotations

from collections.abc import Callable

import sqlalchemy as sa

from mcptest.history.tables import GATES, RESULTS, RUNS, SCHEMA

LOCK_KEY = 0x6D637074  # "mcpt": PostgreSQL's advisory lock the migrations take


def create_v1(conn: sa.Connection) -> None:
    """Version 1: runs, their results and their gates."""
    for table in (RUNS, RESULTS, GATES):
        table.create(conn, checkfirst=True)


MIGRATIONS: tuple[Callable[[sa.Connection], None], ...] = (create_v1,)
"""Step i lifts the store from version i to i + 1. Append only: a released step is never edited."""
SCHEMA_VERSION = len(MIGRATIONS)


class NewerSchema(Exception):
    """The store was written by a newer mcptest: its schema version is one this mcptest does not know."""

    def __init__(self, found: int) -> None:
        self.found = found
        super().__init__(
            f"its schema is version {found}, written by a newer mcptest (this one knows up to {SCHEMA_VERSION}): "
            "upgrade mcptest, or point --history at another store"
        )


def stored_version(conn: sa.Connection) -> int:
    """The version the store has reached: 0 for an empty database."""
    if not sa.inspect(conn).has_table(SCHEMA.name):
        return 0
    return conn.execute(sa.select(sa.func.max(SCHEMA.c.version))).scalar() or 0


def migrate(engine: sa.Engine) -> int:
    """Bring the store up to SCHEMA_VERSION under the migration lock; refuse a newer one. Returns the version."""
    with engine.connect() as conn:
        version = stored_version(conn)
    if version > SCHEMA_VERSION:
        raise NewerSchema(version)
    if version == SCHEMA_VERSION:
        return version
    with engine.connect().execution_options(mcptest_write=True) as conn, conn.begin():
        if conn.dialect.name == "postgresql":  # DDL is transactional there: the lock holds until the commit
            conn.execute(sa.select(sa.func.pg_advisory_xact_lock(LOCK_KEY)))
        version = stored_version(conn)  # another process may have migrated while this one waited
        if version > SCHEMA_VERSION:
            raise NewerSchema(version)
        if version < SCHEMA_VERSION:
            SCHEMA.create(conn, checkfirst=True)
            for step in MIGRATIONS[version:]:
                step(conn)
            conn.execute(sa.delete(SCHEMA))
            conn.execute(sa.insert(SCHEMA).values(version=SCHEMA_VERSION))
    return SCHEMA_VERSION
