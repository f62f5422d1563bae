"""The history store: open (migrating), record a run, and read back runs, outcomes and baselines.

Every statement is SQLAlchemy Core, the same for SQLite and PostgreSQL. SQLite runs in WAL mode with a 30 s busy
timeout and takes its write lock at the start of a write transaction (`BEGIN IMMEDIATE`), so a second writer waits
for the first instead of failing half-way; PostgreSQL gives each run one transaction and its own ids.
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import sqlalchemy as sa

from mcptest.history.context import RunContext
from mcptest.history.location import shown
from mcptest.history.migrations import NewerSchema, migrate
from mcptest.history.rows import gate_rows, result_row, run_row
from mcptest.history.tables import GATES, RESULTS, RUNS
from mcptest.history.trends import Outcome
from mcptest.records.report import Report, Status

BUSY_TIMEOUT_S = 30
"""How long a SQLite writer waits for another to finish before giving up (then: a warning, never a lost verdict)."""
CONNECT_TIMEOUT_S = 5


class HistoryError(Exception):
    """The store cannot be used: unreachable, unreadable, or written by a newer mcptest. The message says which."""


class Store:
    """An open history store."""

    def __init__(self, engine: sa.Engine, url: str) -> None:
        self.engine = engine
        self.url = url

    def close(self) -> None:
        """Release the store's connections."""
        self.engine.dispose()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def record(
        self, report: Report, suite: str, context: RunContext, *, source: str = "run", merged: Sequence[str] = ()
    ) -> int:
        """Store one run (its report is already masked) and return its id. `merged` names the start times of the
        shard runs a `report merge` combined: those stored runs are marked as merged into this one."""
        row = run_row(report, suite, context, source)
        results = [result_row(i, r) for i, r in enumerate(report.results)]
        gates = gate_rows(report)
        with self._writing() as conn:
            run_id = int(conn.execute(sa.insert(RUNS), row).inserted_primary_key[0])
            _insert_many(conn, RESULTS, results, run_id)
            _insert_many(conn, GATES, gates, run_id)
            if merged:
                conn.execute(
                    sa.update(RUNS)
                    .where(RUNS.c.suite == suite, RUNS.c.shard.is_not(None), RUNS.c.started_at.in_(list(merged)))
                    .where(RUNS.c.merged_into.is_(None), RUNS.c.id != run_id)
                    .values(merged_into=run_id)
                )
        return run_id

    def runs(self, suite: str, limit: int = 20) -> list[dict[str, Any]]:
        """The suite's last runs, newest first (shards merged into a whole run left out)."""
        columns = [c for c in RUNS.c if c.name not in ("report", "merged_into")]
        query = sa.select(*columns).where(*_counted(suite)).order_by(RUNS.c.id.desc()).limit(limit)
        with self._reading() as conn:
            return [dict(r._mapping) for r in conn.execute(query)]

    def outcomes(self, suite: str, test: str, limit: int = 20) -> list[Outcome]:
        """The test's last `limit` outcomes in the suite (every model, every run index), newest first."""
        query = (
            sa.select(*_OUTCOME_COLUMNS)
            .join(RUNS, RUNS.c.id == RESULTS.c.run_id)
            .where(*_counted(suite), RESULTS.c.test == test)
            .order_by(RESULTS.c.run_id.desc(), RESULTS.c.run_index.desc())
            .limit(limit)
        )
        with self._reading() as conn:
            return [_outcome(r) for r in conn.execute(query)]

    def last_failure(self, suite: str, test: str) -> Outcome | None:
        """The test's most recent failed outcome, however far back."""
        query = (
            sa.select(*_OUTCOME_COLUMNS)
            .join(RUNS, RUNS.c.id == RESULTS.c.run_id)
            .where(*_counted(suite), RESULTS.c.test == test, RESULTS.c.status == Status.FAILED.value)
            .order_by(RESULTS.c.run_id.desc())
            .limit(1)
        )
        with self._reading() as conn:
            row = conn.execute(query).first()
        return _outcome(row) if row else None

    def recent_outcomes(self, suite: str, window: int, lookback: int) -> dict[tuple[str, str | None], list[Outcome]]:
        """Each test's (and model's) last `window` passed/failed outcomes among the suite's last `lookback` runs,
        newest first.

        Two reads, because most tests ran in every recent run: first every outcome of the last `window` runs (an
        index range, no sorting of the whole lookback); then, numbered by the database (a window function), the
        older runs' outcomes of every test and model not already full, which is nothing in the common case.
        """
        with self._reading() as conn:
            ids = list(
                conn.execute(
                    sa.select(RUNS.c.id).where(*_counted(suite)).order_by(RUNS.c.id.desc()).limit(lookback)
                ).scalars()
            )
            if not ids:
                return {}
            recent, older = ids[:window], ids[window:]
            out: dict[tuple[str, str | None], list[Outcome]] = {}
            rows = conn.execute(
                sa.select(*_OUTCOME_COLUMNS)
                .join(RUNS, RUNS.c.id == RESULTS.c.run_id)
                .where(*_counted(suite), RESULTS.c.run_id >= recent[-1], _DECIDED)
                .order_by(RESULTS.c.run_id.desc(), RESULTS.c.run_index.desc())
            )
            for r in rows:
                found = out.setdefault((r[0], r[1]), [])
                if len(found) < window:
                    found.append(_outcome_of(r))
            full = [_key_text(test, model) for (test, model), found in out.items() if len(found) == window]
            if older and len(full) <= _MAX_EXCLUDED:
                key = RESULTS.c.test + _KEY_SEPARATOR + sa.func.coalesce(RESULTS.c.model, "")
                rows = _numbered(
                    conn, suite, window, RESULTS.c.run_id >= older[-1], RESULTS.c.run_id < recent[-1],
                    key.not_in(full) if full else sa.true(),
                )  # fmt: skip
                for r in rows:
                    found = out.setdefault((r[0], r[1]), [])
                    if len(found) < window:
                        found.append(_outcome_of(r))
            elif older:  # too many to name: number the whole lookback instead
                return self._numbered_outcomes(conn, suite, window, older[-1])
        return out

    def _numbered_outcomes(
        self, conn: sa.Connection, suite: str, window: int, cutoff: int
    ) -> dict[tuple[str, str | None], list[Outcome]]:
        out: dict[tuple[str, str | None], list[Outcome]] = {}
        for r in _numbered(conn, suite, window, RESULTS.c.run_id >= cutoff):
            out.setdefault((r[0], r[1]), []).append(_outcome_of(r))
        return out

    def baseline(self, suite: str, which: str, before: str | None = None, branch: str = "main") -> Report | None:
        """The stored report `report --compare` takes as baseline: `last` (the last run, before the run started at
        `before` when given), `last-green` (the last that exited 0) or `main` (the last on `branch`)."""
        query = sa.select(RUNS.c.report).where(*_counted(suite))
        if before is not None:
            query = query.where(RUNS.c.started_at < before)
        if which == "last-green":
            query = query.where(RUNS.c.ok.is_(True))
        elif which == "main":
            query = query.where(RUNS.c.branch == branch)
        with self._reading() as conn:
            blob = conn.execute(query.order_by(RUNS.c.id.desc()).limit(1)).scalar()
        return None if blob is None else Report.model_validate_json(zlib.decompress(blob))

    def strip_outcomes(
        self, suite: str, window: int, lookback: int, *, until: str | None = None
    ) -> dict[tuple[str, str | None], list[Outcome]]:
        """Each test's (and model's) last `window` outcomes of any status but incomplete (what the HTML report's
        strips show) among the suite's last `lookback` runs started at or before `until`, newest first; numbered by
        the database (a window function), so only those rows travel."""
        counted = (*_counted(suite), *((RUNS.c.started_at <= until,) if until is not None else ()))
        shown = RESULTS.c.status.in_((Status.PASSED.value, Status.FAILED.value, Status.SKIPPED.value))
        with self._reading() as conn:
            cutoff = conn.execute(
                sa.select(RUNS.c.id).where(*counted).order_by(RUNS.c.id.desc()).offset(lookback - 1).limit(1)
            ).scalar()
            numbered = (
                sa.select(
                    *_OUTCOME_COLUMNS,
                    sa.func.row_number()
                    .over(
                        partition_by=(RESULTS.c.test, RESULTS.c.model),
                        order_by=(RESULTS.c.run_id.desc(), RESULTS.c.run_index.desc()),
                    )
                    .label("n"),
                )
                .join(RUNS, RUNS.c.id == RESULTS.c.run_id)
                .where(*counted, RESULTS.c.run_id >= (cutoff or 0), shown)
                .subquery()
            )
            out: dict[tuple[str, str | None], list[Outcome]] = {}
            for r in conn.execute(sa.select(numbered).where(numbered.c.n <= window).order_by(numbered.c.n)):
                out.setdefault((r[0], r[1]), []).append(_outcome_of(r))
        return out

    def gate_series(
        self, suite: str, limit: int = 20, *, until: str | None = None
    ) -> dict[tuple[str, str | None, str], list[dict[str, Any]]]:
        """Each gate block's figures over the suite's last `limit` runs (started at or before `until` when given),
        oldest first."""
        counted = (*_counted(suite), *((RUNS.c.started_at <= until,) if until is not None else ()))
        runs = sa.select(RUNS.c.id).where(*counted).order_by(RUNS.c.id.desc()).limit(limit).subquery()
        query = (
            sa.select(
                GATES.c.test,
                GATES.c.model,
                GATES.c.block,
                GATES.c.status,
                GATES.c.targets,
                RUNS.c.id,
                RUNS.c.started_at,
                RUNS.c.commit,
            )  # fmt: skip
            .join(RUNS, RUNS.c.id == GATES.c.run_id)
            .where(GATES.c.run_id.in_(sa.select(runs.c.id)))
            .order_by(RUNS.c.id)
        )
        out: dict[tuple[str, str | None, str], list[dict[str, Any]]] = {}
        with self._reading() as conn:
            for r in conn.execute(query):
                point = {"run_id": r.id, "started_at": r.started_at, "commit": r.commit, "status": r.status,
                         "targets": json.loads(r.targets)}  # fmt: skip
                out.setdefault((r.test, r.model, r.block), []).append(point)
        return out

    def result_targets(self, run_ids: Sequence[int]) -> dict[int, dict[str, dict[str, Any]]]:
        """Per run of `run_ids`, each result's figures (`targets`) by test name."""
        if not run_ids:
            return {}
        query = sa.select(RESULTS.c.run_id, RESULTS.c.test, RESULTS.c.targets).where(RESULTS.c.run_id.in_(run_ids))
        out: dict[int, dict[str, dict[str, Any]]] = {}
        with self._reading() as conn:
            for r in conn.execute(query.order_by(RESULTS.c.run_id, RESULTS.c.position)):
                out.setdefault(r.run_id, {})[r.test] = json.loads(r.targets) if r.targets else {}
        return out

    def has_run(self, suite: str, started_at: str) -> bool:
        """Whether the suite's run that started at `started_at` is stored (and counted)."""
        query = sa.select(RUNS.c.id).where(*_counted(suite), RUNS.c.started_at == started_at).limit(1)
        with self._reading() as conn:
            return conn.execute(query).first() is not None

    def suites(self) -> list[str]:
        """Every suite the store holds runs of, sorted (to name them when the one asked for has none)."""
        with self._reading() as conn:
            return sorted(conn.execute(sa.select(RUNS.c.suite).distinct()).scalars())

    def _reading(self) -> sa.Connection:
        return self.engine.connect()

    def _writing(self) -> Any:
        return _Transaction(self.engine.connect().execution_options(mcptest_write=True))


def _insert_many(conn: sa.Connection, table: sa.Table, rows: list[dict[str, Any]], run_id: int) -> None:
    """Insert rows of one run with the statement SQLAlchemy compiles for this database, handing the driver the
    parameters directly: building them row by row through `Connection.execute` was most of recording 10,000."""
    if not rows:
        return
    compiled = sa.insert(table).compile(dialect=conn.dialect)
    if compiled.positiontup is not None:  # SQLite's `?` style: tuples in the statement's column order
        order = compiled.positiontup
        params: list[Any] = [tuple(run_id if k == "run_id" else r[k] for k in order) for r in rows]
    else:
        params = [{**r, "run_id": run_id} for r in rows]
    conn.exec_driver_sql(str(compiled), params)


class _Transaction:
    """A connection with one transaction: committed on success, rolled back on error, closed either way."""

    def __init__(self, conn: sa.Connection) -> None:
        self.conn = conn

    def __enter__(self) -> sa.Connection:
        self.conn.begin()
        return self.conn

    def __exit__(self, kind: type[BaseException] | None, *exc: object) -> None:
        try:
            if kind is None:
                self.conn.commit()
            else:
                self.conn.rollback()
        finally:
            self.conn.close()


_OUTCOME_COLUMNS = (
    RESULTS.c.test, RESULTS.c.model, RESULTS.c.run_index, RESULTS.c.status, RESULTS.c.duration_ms,
    RESULTS.c.quarantined, RESULTS.c.failure, RESULTS.c.run_id, RUNS.c.started_at, RUNS.c.commit,
)  # fmt: skip


def _counted(suite: str) -> tuple[sa.ColumnElement[bool], ...]:
    return RUNS.c.suite == suite, RUNS.c.merged_into.is_(None)


_DECIDED = RESULTS.c.status.in_((Status.PASSED.value, Status.FAILED.value))
_KEY_SEPARATOR = "\x1f"
_MAX_EXCLUDED = 5000
"""At most this many full (test, model) keys are named in the second read of `recent_outcomes` (bound parameters
are limited: SQLite's 32,766, PostgreSQL's 65,535); a larger suite numbers its whole lookback in one read."""


def _numbered(conn: sa.Connection, suite: str, window: int, *where: sa.ColumnElement[bool]) -> Any:
    """The suite's passed/failed outcomes meeting `where`, each test's (and model's) newest `window` of them,
    numbered by the database (a window function) so only those rows travel; by number, newest first."""
    numbered = (
        sa.select(
            *_OUTCOME_COLUMNS,
            sa.func.row_number()
            .over(
                partition_by=(RESULTS.c.test, RESULTS.c.model),
                order_by=(RESULTS.c.run_id.desc(), RESULTS.c.run_index.desc()),
            )
            .label("n"),
        )
        .join(RUNS, RUNS.c.id == RESULTS.c.run_id)
        .where(*_counted(suite), _DECIDED, *where)
        .subquery()
    )
    return conn.execute(sa.select(numbered).where(numbered.c.n <= window).order_by(numbered.c.n))


def _key_text(test: str, model: str | None) -> str:
    return f"{test}{_KEY_SEPARATOR}{model or ''}"


def _outcome_of(r: Sequence[Any]) -> Outcome:
    """An outcome from a row of `_OUTCOME_COLUMNS` by position (attribute access on 20,000 rows was a third of
    `history flaky`'s time)."""
    return Outcome(
        run_id=r[7], started_at=r[8], commit=r[9], model=r[1], run_index=r[2], status=r[3], duration_ms=r[4],
        quarantined=bool(r[5]), failure=r[6],
    )  # fmt: skip


def _outcome(r: Any) -> Outcome:
    return Outcome(
        run_id=r.run_id, started_at=r.started_at, commit=r.commit, model=r.model, run_index=r.run_index,
        status=r.status, duration_ms=r.duration_ms, quarantined=bool(r.quarantined), failure=r.failure,
    )  # fmt: skip


def open_store(url: str) -> Store:
    """Open (creating and migrating) the store at `url`; a HistoryError says why it cannot be used."""
    try:
        engine = _engine(url)
    except (sa.exc.SQLAlchemyError, OSError, ImportError, ValueError) as exc:
        raise HistoryError(f"history store {shown(url)} cannot be used: {_reason(exc)}") from None
    try:
        migrate(engine)
    except NewerSchema as exc:
        engine.dispose()
        raise HistoryError(f"history store {shown(url)}: {exc}") from None
    except (sa.exc.SQLAlchemyError, OSError, ImportError, ValueError) as exc:
        engine.dispose()
        raise HistoryError(f"history store {shown(url)} cannot be used: {_reason(exc)}") from None
    return Store(engine, url)


def _engine(url: str) -> sa.Engine:
    parsed = sa.make_url(url)
    if parsed.get_backend_name() == "sqlite":
        if parsed.database and parsed.database != ":memory:":
            Path(parsed.database).parent.mkdir(parents=True, exist_ok=True)
        engine = sa.create_engine(parsed.set(drivername="sqlite+pysqlite"), connect_args={"timeout": BUSY_TIMEOUT_S})
        sa.event.listen(engine, "connect", _sqlite_connect)
        sa.event.listen(engine, "begin", _sqlite_begin)
        return engine
    if parsed.get_backend_name() == "postgresql":
        if "+" not in parsed.drivername:
            parsed = parsed.set(drivername="postgresql+psycopg")
        return sa.create_engine(parsed, connect_args={"connect_timeout": CONNECT_TIMEOUT_S}, pool_size=1)
    raise ValueError(f"unsupported database {parsed.get_backend_name()!r}: use sqlite:///PATH or postgresql://...")


def _sqlite_connect(dbapi: Any, record: Any) -> None:
    dbapi.isolation_level = None  # SQLAlchemy's "begin" event below issues BEGIN, as its docs advise for pysqlite
    cursor = dbapi.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


def _sqlite_begin(conn: sa.Connection) -> None:
    conn.exec_driver_sql("BEGIN IMMEDIATE" if conn.get_execution_options().get("mcptest_write") else "BEGIN")


def _reason(exc: BaseException) -> str:
    if isinstance(exc, ImportError) and exc.name and exc.name.startswith("psycopg"):
        return "PostgreSQL needs psycopg 3: pip install 'mcptest[postgres]'"
    orig = getattr(exc, "orig", None) or exc
    text = str(orig).strip().splitlines()[0] if str(orig).strip() else type(orig).__name__
    return text
