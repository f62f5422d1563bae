"""The history store on a real SQLite file and a real PostgreSQL server: what a run stores, what reads give back,
migrations on open, a newer schema refused, flaky tests found."""

from __future__ import annotations

import json
import multiprocessing
import os
import subprocess
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import sqlalchemy as sa

from mcptest.core.stats import wilson_interval
from mcptest.history.context import RunContext, git_head, run_context, suite_identity
from mcptest.history.migrations import SCHEMA_VERSION
from mcptest.history.queries import flaky, history_of_test, run_list
from mcptest.history.recording import record_run
from mcptest.history.store import HistoryError, open_store
from mcptest.history.trends import Outcome, trend
from mcptest.report.merge import merge_reports
from mcptest.schemas import SCHEMAS
from tests.history.build import agent_report, report


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh store of each engine: a SQLite file, and a new database on the session's PostgreSQL server."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / '.mcptest' / 'history.db'}"
    return str(request.getfixturevalue("postgres_url"))


def test_a_run_is_stored_with_its_context_results_gates_and_agent_figures(url: str) -> None:
    context = RunContext(commit="a" * 40, branch="main", ci_job="4242", shard=None)
    with open_store(url) as store:
        first = store.record(report({"lists tools": "passed", "reads file": "failed"}, gates={"agent": 90.0}),
                             "suite.yml", context)  # fmt: skip
        second = store.record(agent_report(1), "suite.yml", RunContext())
        runs = store.runs("suite.yml")
        with store.engine.connect() as conn:
            agent_rows = conn.execute(sa.text("select model, run_index, tokens, cost_usd from results "
                                              "where run_id = :r order by position"), {"r": second}).all()  # fmt: skip
        gates = store.gate_series("suite.yml")
        failed = store.last_failure("suite.yml", "reads file")
    assert [r["id"] for r in runs] == [second, first]
    newest, oldest = runs[1], runs[0]
    assert (newest["commit"], newest["branch"], newest["ci_job"], newest["ok"]) == ("a" * 40, "main", "4242", False)
    assert (newest["total"], newest["passed"], newest["failed"], newest["gates_total"]) == (2, 1, 1, 1)
    assert newest["ended_at"] == "2026-11-01T00:00:00.100000+00:00"
    assert oldest["ok"] is True
    assert [tuple(r) for r in agent_rows] == [("claude-x", 1, 1201, 0.0025), ("claude-x", 2, 1202, 0.0025)]
    assert gates == {("agent", None, "tool_selection"): [
        {"run_id": first, "started_at": "2026-11-01T00:00:00+00:00", "commit": "a" * 40, "status": "passed",
         "targets": {"tool_selection.selection_rate": 90.0}}]}  # fmt: skip
    assert failed is not None and failed.failure == "boom: the server said no" and failed.commit == "a" * 40


def test_opening_a_fresh_store_applies_the_migrations_once_and_reopening_keeps_the_runs(url: str) -> None:
    with open_store(url) as store:
        store.record(report({"t": "passed"}), "suite.yml", RunContext())
    with open_store(url) as store:
        with store.engine.connect() as conn:
            versions = conn.execute(sa.text("select version from mcptest_schema")).scalars().all()
        assert versions == [SCHEMA_VERSION]
        assert len(store.runs("suite.yml")) == 1


def test_a_store_written_by_a_newer_mcptest_is_refused_and_left_untouched(url: str) -> None:
    with open_store(url) as store, store.engine.begin() as conn:
        conn.execute(sa.text("update mcptest_schema set version = :v"), {"v": SCHEMA_VERSION + 1})
    with pytest.raises(HistoryError) as caught:
        open_store(url)
    assert f"its schema is version {SCHEMA_VERSION + 1}, written by a newer mcptest" in str(caught.value)
    assert f"this one knows up to {SCHEMA_VERSION}" in str(caught.value)
    assert "upgrade mcptest, or point --history at another store" in str(caught.value)


def test_a_sqlite_store_is_created_beside_its_path_in_wal_mode(tmp_path: Path) -> None:
    path = tmp_path / "deep" / ".mcptest" / "history.db"
    with open_store(f"sqlite:///{path}") as store, store.engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
    assert path.is_file()


def test_an_unreachable_postgres_is_a_history_error_naming_the_store_without_its_password() -> None:
    with pytest.raises(HistoryError) as caught:
        open_store("postgresql://ci:s3cret-pw@127.0.0.1:9/history")
    message = str(caught.value)
    assert message.startswith("history store postgresql://ci:***@127.0.0.1:9/history cannot be used: ")
    assert "s3cret-pw" not in message


def test_flaky_tests_are_those_flipping_above_the_threshold_over_their_last_runs(url: str) -> None:
    # "flips" alternates in its last 20 runs (after 10 steady ones); "steady" never changes; "young" flips but ran
    # only 4 times; "once" failed once in 20 runs (2 flips over 19: 0.105, above 0.1)
    with open_store(url) as store:
        for i in range(30):
            statuses = {"flips": "passed" if i < 10 or i % 2 else "failed", "steady": "passed",
                        "once": "failed" if i == 20 else "passed"}  # fmt: skip
            if i >= 26:
                statuses["young"] = "passed" if i % 2 else "failed"
            store.record(report(statuses, i), "suite.yml", RunContext())
        found = flaky(store, "suite.yml")
        strict = flaky(store, "suite.yml", threshold=0.2)
        history = history_of_test(store, "suite.yml", "flips", window=5)
        listing = run_list(store, "suite.yml", limit=3)
    assert [(s.test, s.runs, s.flips) for s in found.tests] == [("flips", 20, 19), ("once", 20, 2)]
    assert found.tests[0].flip_rate == 1.0 and found.tests[1].flip_rate == pytest.approx(2 / 19)
    assert [s.test for s in strict.tests] == ["flips"]
    (series,) = history.series
    assert [p.status for p in series.timeline] == ["passed", "failed", "passed", "failed", "passed"]
    assert (series.runs, series.passed, series.flips, series.flip_rate) == (5, 3, 4, 1.0)
    assert series.last_failure is not None and series.last_failure.text == "boom: the server said no"
    assert [r.id for r in listing.runs] == [30, 29, 28]
    for model, schema in ((found, "history-flaky.v1.json"), (history, "history-test.v1.json"),
                          (listing, "history-runs.v1.json")):  # fmt: skip
        jsonschema.validate(json.loads(model.model_dump_json()), SCHEMAS[schema]())


def test_pass_and_flip_rates_carry_wilson_95_intervals_without_continuity_correction() -> None:
    statuses = ["passed", "failed", "passed", "skipped", "passed", "failed"]
    t = trend([Outcome(i, "", None, None, None, s, 1.0, False, None) for i, s in enumerate(statuses)])
    assert (t.runs, t.passed, t.flips) == (5, 3, 3)  # the skipped run is not a run: passed -> passed is no flip
    assert t.pass_rate == 0.6 and t.flip_rate == 0.75
    # Wilson (1927) for 3 of 5 at z = 1.96: 0.2307 to 0.8824 (Newcombe 1998, table I, method 3 gives these)
    assert t.pass_interval == pytest.approx((0.2307, 0.8824), abs=1e-4)
    assert t.flip_interval == wilson_interval(3, 4)  # flips out of the runs - 1 transitions


def test_a_runs_context_comes_from_the_git_files_and_the_ci_variables(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    (repo / "suites").mkdir(parents=True)
    git = ["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false"]
    subprocess.run([*git, "init", "-q", "-b", "trunk"], check=True)
    subprocess.run([*git, "commit", "-q", "--allow-empty", "-m", "one"], check=True)
    sha = subprocess.run([*git, "rev-parse", "HEAD"], check=True, capture_output=True, text=True).stdout.strip()
    assert git_head(repo / "suites") == (sha, "trunk")
    subprocess.run([*git, "pack-refs", "--all"], check=True)  # the ref now lives in packed-refs only
    assert run_context(repo / "suites", {"GITHUB_RUN_ID": "77"}, "2/8") == RunContext(sha, "trunk", "77", "2/8")
    subprocess.run([*git, "checkout", "-q", "--detach"], check=True)
    assert git_head(repo) == (sha, None)
    assert git_head(tmp_path / "elsewhere") == (None, None)
    assert suite_identity(repo / "suites" / ".." / "suites" / "a.yml", cwd=tmp_path) == "suites/a.yml"


def _writer(url: str, job: str, start: Any) -> None:
    """One writer process: 20 runs of 200 results, started when the other writer is ready too (forked)."""
    start.wait(timeout=60)
    with open_store(url) as store:
        for i in range(20):
            store.record(report({f"t{k}": "passed" for k in range(200)}, i), "suite.yml", RunContext(ci_job=job))
    os._exit(0)


def test_two_writers_on_one_sqlite_file_wait_for_each_other_and_lose_nothing(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'history.db'}"
    fork = multiprocessing.get_context("fork")
    start = fork.Barrier(2)
    writers = [fork.Process(target=_writer, args=(url, job, start)) for job in ("a", "b")]
    for w in writers:
        w.start()
    for w in writers:
        w.join(timeout=120)
    assert [w.exitcode for w in writers] == [0, 0]
    with open_store(url) as store, store.engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA integrity_check").scalar() == "ok"
        per_job = conn.execute(sa.text("select ci_job, count(*) from runs group by ci_job order by ci_job")).all()
        assert [tuple(r) for r in per_job] == [("a", 20), ("b", 20)]
        assert conn.execute(sa.text("select count(*) from results")).scalar() == 40 * 200


def _shard(url: str, k: int, start: Any) -> None:
    """One CI shard: its report of 3 tests, recorded when every shard is ready (a forked process)."""
    shard = report({f"test {3 * k + i}": "passed" for i in range(3)}, k)
    start.wait(timeout=60)
    warning = record_run(shard, url, environ={"GITHUB_RUN_ID": "9001"}, shard=f"{k + 1}/8")
    os._exit(0 if warning is None else 3)


def test_eight_shards_writing_to_one_fresh_postgres_at_once_lose_nothing(postgres_url: str) -> None:
    fork = multiprocessing.get_context("fork")  # the shards start with everything imported: they write at once
    start = fork.Barrier(8)
    shards = [fork.Process(target=_shard, args=(postgres_url, k, start)) for k in range(8)]
    for p in shards:
        p.start()
    for p in shards:
        p.join(timeout=120)
    assert [p.exitcode for p in shards] == [0] * 8
    reports = [report({f"test {3 * k + i}": "passed" for i in range(3)}, k) for k in range(8)]
    merged = merge_reports([(f"shard-{k}.json", r) for k, r in enumerate(reports)])
    environ = {"GITHUB_RUN_ID": "9001"}
    assert record_run(merged, postgres_url, environ=environ, source="merge", merged=[r.started_at for r in reports]) \
        is None  # fmt: skip
    with open_store(postgres_url) as store, store.engine.connect() as conn:
        rows = conn.execute(sa.text("select shard, ci_job, total, merged_into, source from runs order by id")).all()
        results = conn.execute(sa.text("select count(*), count(distinct test) from results")).one()
        listed = store.runs("suite.yml")
        flaky_tests = store.recent_outcomes("suite.yml", 20, 100)
    shard_rows, (whole,) = rows[:8], rows[8:]
    assert sorted(r.shard for r in shard_rows) == [f"{k}/8" for k in range(1, 9)]
    assert {r.ci_job for r in rows} == {"9001"} and sum(r.total for r in shard_rows) == 24
    assert whole.source == "merge" and whole.total == 24 and whole.shard is None
    assert {r.merged_into for r in shard_rows} == {len(rows)}  # the shards are folded into the merged run
    assert tuple(results) == (48, 24)
    assert [r["source"] for r in listed] == ["merge"]
    assert all(len(outcomes) == 1 for outcomes in flaky_tests.values())  # no test counted twice


def test_the_fast_sqlite_writer_holds_sqlalchemys_own_statements_and_schema_version() -> None:
    from sqlalchemy.dialects import sqlite

    from mcptest.history import sqlite_fast
    from mcptest.history.tables import GATES, RESULTS, RUNS, SCHEMA

    assert sqlite_fast.SCHEMA_VERSION == SCHEMA_VERSION
    for table, columns in ((RUNS, sqlite_fast.RUNS_COLUMNS), (RESULTS, sqlite_fast.RESULTS_COLUMNS),
                           (GATES, sqlite_fast.GATES_COLUMNS)):  # fmt: skip
        compiled = sa.insert(table).compile(dialect=sqlite.dialect())
        assert sqlite_fast.INSERT_SQL[table.name] == str(compiled)
        assert tuple(compiled.positiontup or ()) == columns
    version = sa.select(sa.func.max(SCHEMA.c.version)).compile(dialect=sqlite.dialect())
    assert str(version) == sqlite_fast.VERSION_SQL


def test_a_run_recorded_by_the_fast_sqlite_writer_reads_back_as_one_recorded_through_sqlalchemy(
    tmp_path: Path,
) -> None:
    from mcptest.history.sqlite_fast import record_fast

    runs = [report({"lists tools": "passed", "reads file": "failed"}, 0, gates={"agent": 70.0}), agent_report(1)]
    context = RunContext(commit="b" * 40, branch="dev", ci_job="7", shard="1/2")
    stored: list[Any] = []
    for name, fast in (("slow", False), ("fast", True)):
        url = f"sqlite:///{tmp_path / name / 'history.db'}"
        assert record_fast(runs[0], url, "suite.yml", context, source="run") is False  # no store yet: SQLAlchemy's
        with open_store(url) as store:  # creates and migrates
            if not fast:
                for r in runs:
                    store.record(r, "suite.yml", context)
        if fast:
            assert all(record_fast(r, url, "suite.yml", context, source="run") for r in runs)
        with open_store(url) as store, store.engine.connect() as conn:
            stored.append([
                conn.execute(sa.text(f"select * from {table} order by 1, 2")).all()
                for table in ("runs", "results", "gates")
            ])  # fmt: skip
            assert conn.exec_driver_sql("PRAGMA integrity_check").scalar() == "ok"
    assert stored[0] == stored[1] and len(stored[0][1]) == 4


def test_the_fast_sqlite_writer_leaves_stores_it_does_not_know_to_sqlalchemy(url: str, tmp_path: Path) -> None:
    from mcptest.history.sqlite_fast import record_fast

    with open_store(url) as store, store.engine.begin() as conn:
        conn.execute(sa.text("update mcptest_schema set version = :v"), {"v": SCHEMA_VERSION + 1})
    one = report({"t": "passed"})
    assert record_fast(one, url, "suite.yml", RunContext(), source="run") is False  # newer, or PostgreSQL
    merged = f"sqlite:///{tmp_path / 'merged.db'}"
    open_store(merged).close()
    assert record_fast(one, merged, "suite.yml", RunContext(), source="merge", merged=["x"]) is False
    warning = record_run(one, url, environ={})
    assert warning is not None and "written by a newer mcptest" in warning


def test_a_test_missing_from_the_latest_runs_is_judged_on_its_own_last_runs_within_the_lookback(url: str) -> None:
    # 60 runs: "nightly" ran (alternating) only in runs 0-29, never in the last 30; "gappy" in every third run
    # (alternating), so its last 20 outcomes reach back past the latest 20 runs; "steady" in every run
    with open_store(url) as store:
        for i in range(60):
            statuses = {"steady": "passed"}
            if i < 30:
                statuses["nightly"] = "passed" if i % 2 else "failed"
            if i % 3 == 0:
                statuses["gappy"] = "passed" if (i // 3) % 2 else "failed"
            store.record(report(statuses, i), "suite.yml", RunContext())
        outcomes = store.recent_outcomes("suite.yml", 20, 100)
        found = flaky(store, "suite.yml")
    assert {k: len(v) for k, v in outcomes.items()} == {("steady", None): 20, ("nightly", None): 20,
                                                       ("gappy", None): 20}  # fmt: skip
    assert [o.run_id for o in outcomes[("gappy", None)]] == list(range(58, 0, -3))
    assert [o.run_id for o in outcomes[("nightly", None)]] == list(range(30, 10, -1))
    assert [(s.test, s.runs, s.flips) for s in found.tests] == [("gappy", 20, 19), ("nightly", 20, 19)]
