"""Fixtures of the history tests: one real PostgreSQL server per session, a fresh database per test."""

from __future__ import annotations

import itertools
from collections.abc import Iterator

import pytest

from tests.history.postgres import running_server, why_not

_names = itertools.count()


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[str]:
    """A URL of a real PostgreSQL server's maintenance database, started once for the session."""
    reason = why_not()
    if reason:
        pytest.skip(reason)
    with running_server() as url:
        yield url


@pytest.fixture
def postgres_url(postgres_server: str) -> Iterator[str]:
    """A URL of a new, empty database on the session's server, dropped after the test."""
    import sqlalchemy as sa

    name = f"history_{next(_names)}"
    admin = sa.create_engine(postgres_server.replace("postgresql://", "postgresql+psycopg://"),
                             isolation_level="AUTOCOMMIT")  # fmt: skip
    with admin.connect() as conn:
        conn.execute(sa.text(f'CREATE DATABASE "{name}"'))
    try:
        yield postgres_server.rsplit("/", 1)[0] + "/" + name
    finally:
        with admin.connect() as conn:
            conn.execute(sa.text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()
