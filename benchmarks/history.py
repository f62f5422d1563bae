"""Run-history figures (issue 29): recording a 10,000-result run on SQLite (target < 0.5 s); `history flaky` over
1,000 runs × 1,000 tests on SQLite and on PostgreSQL (target < 1 s each); the wall time history adds to a one-test
`mcptest run` (target < 30 ms).

PostgreSQL: `--postgres URL` of an empty database, else a throwaway server of Debian's `postgresql` like the tests
start (skipped when none is installed). `--quick` uses 200 runs × 200 tests for the flaky figure.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
import zlib
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks._timing import AS_USERS_RUN, load_note, measure  # noqa: E402
from mcptest.history.context import RunContext  # noqa: E402
from mcptest.records.report import Report, Status, TestResult, summarize  # noqa: E402

START = datetime(2026, 1, 1, tzinfo=UTC)
ONE_TEST = """agents:
  - name: finds it
    prompt: find it
    tool_calls: [{ name: search }]
    expect: [{ target: "tool_calls[0].name", matcher: { exact: search } }]
"""


def big_report(n: int) -> Report:
    results = [
        TestResult(name=f"test {i}", kind="tool", server="s", tool="t", file="suite.yml", line=i + 1,
                   status=Status.FAILED if i % 50 == 0 else Status.PASSED, duration_ms=1.25,
                   error="the server said no" if i % 50 == 0 else None)
        for i in range(n)
    ]  # fmt: skip
    return Report(mcptest_version="0.1.0", suite="suite.yml", started_at=START.isoformat(), duration_ms=1000.0,
                  results=results, summary=summarize(results))  # fmt: skip


def recording(folder: Path, repeats: int = 7) -> tuple[list[float], list[float]]:
    """Wall and CPU seconds to record a 10,000-result run into an open SQLite store (a fresh file each time)."""
    from mcptest.history.store import open_store

    report = big_report(10_000)
    walls, cpus = [], []
    for i in range(repeats):
        with open_store(f"sqlite:///{folder / f'record-{i}.db'}") as store:
            start, cpu = time.perf_counter(), time.process_time()
            store.record(report, "suite.yml", RunContext(commit="0" * 40, branch="main"))
            walls.append(time.perf_counter() - start)
            cpus.append(time.process_time() - cpu)
    return walls, cpus


def fill(url: str, runs: int, tests: int) -> None:
    """`runs` stored runs of `tests` tests each, written straight into the tables (set-up, not measured): every
    tenth test flips at random-looking steps, the rest pass."""
    import sqlalchemy as sa

    from mcptest.history.store import open_store
    from mcptest.history.tables import RESULTS, RUNS

    blob = zlib.compress(b"{}")
    with open_store(url) as store, store.engine.begin() as conn:
        rows = [
            {"id": r + 1, "suite": "suite.yml", "started_at": (START + timedelta(minutes=r)).isoformat(),
             "ended_at": (START + timedelta(minutes=r, seconds=30)).isoformat(), "duration_ms": 30000.0,
             "mcptest_version": "0.1.0", "commit": None, "branch": "main", "ci_job": None, "shard": None,
             "source": "run", "ok": True, "interrupted": False, "capped": False, "total": tests, "passed": tests,
             "failed": 0, "skipped": 0, "not_run": 0, "gates_total": 0, "gates_failed": 0, "merged_into": None,
             "report": blob}
            for r in range(runs)
        ]  # fmt: skip
        conn.execute(sa.insert(RUNS), rows)
        batch: list[dict[str, object]] = []
        for r in range(runs):
            for t in range(tests):
                flaky = t % 10 == 0 and (r * 7 + t) % 3 == 0
                batch.append({"run_id": r + 1, "position": t, "test": f"test {t}", "kind": "tool", "model": None,
                              "run_index": None, "status": "failed" if flaky else "passed", "duration_ms": 1.0,
                              "quarantined": False, "tokens": None, "cost_usd": None, "failure": None,
                              "targets": None})  # fmt: skip
            if len(batch) >= 50_000:
                conn.execute(sa.insert(RESULTS), batch)
                batch = []
        if batch:
            conn.execute(sa.insert(RESULTS), batch)
        if conn.dialect.name == "postgresql":
            conn.execute(sa.text("ANALYZE"))
            conn.execute(sa.text(f"SELECT setval(pg_get_serial_sequence('runs', 'id'), {runs})"))


def flaky_query(url: str, repeats: int = 5) -> tuple[list[float], int]:
    """Wall seconds of `history flaky`'s work in process (open the store, find the flaky tests; on PostgreSQL most
    of it is the server's), and how many it found."""
    from mcptest.history.queries import flaky
    from mcptest.history.store import open_store

    times, found = [], 0
    for _ in range(repeats):
        start = time.perf_counter()
        with open_store(url) as store:
            found = len(flaky(store, "suite.yml").tests)
        times.append(time.perf_counter() - start)
    return times, found


def postgres_url(given: str | None) -> tuple[str | None, object]:
    if given:
        return given, None
    from tests.history.postgres import running_server, why_not

    if why_not():
        return None, None
    server = running_server()
    return server.__enter__(), server


def ms(values: list[float]) -> str:
    q1, _, q3 = statistics.quantiles(values, n=4, method="inclusive")
    return f"{statistics.median(values) * 1000:.0f} ms [{q1 * 1000:.0f}–{q3 * 1000:.0f}]"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--postgres", help="an empty PostgreSQL database to fill (default: start a throwaway one)")
    parser.add_argument("--quick", action="store_true", help="200 runs x 200 tests for the flaky figure")
    args = parser.parse_args()
    runs = tests = 200 if args.quick else 1000
    print(load_note())
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        walls, cpus = recording(folder)
        print(f"record a 10,000-result run, SQLite: wall {ms(walls)}, cpu {ms(cpus)}  (target < 500 ms)")

        sqlite = f"sqlite:///{folder / 'flaky.db'}"
        fill(sqlite, runs, tests)
        times, found = flaky_query(sqlite)
        print(f"history flaky, {runs} runs x {tests} tests, SQLite:     {ms(times)}  ({found} flaky; target < 1 s)")
        cli = [sys.executable, "-m", "mcptest", "history", "flaky", "--history", sqlite, "--suite"]
        suite = folder / "suite.yml"
        suite.write_text(ONE_TEST)
        whole = measure({"flaky": [*cli, str(suite)]}, rounds=5, cwd=folder)["flaky"]
        print(f"  the whole `mcptest history flaky` process:   {whole.line()}")

        url, server = postgres_url(args.postgres)
        if url is None:
            print("history flaky, PostgreSQL: skipped (no PostgreSQL installed: make postgres)")
        else:
            try:
                fill(url, runs, tests)
                times, found = flaky_query(url)
                print(f"history flaky, {runs} runs x {tests} tests, PostgreSQL: {ms(times)}  ({found} flaky; "
                      "target < 1 s)")  # fmt: skip
            finally:
                if server is not None:
                    server.__exit__(None, None, None)  # type: ignore[attr-defined]

        env = {**AS_USERS_RUN, "MCPTEST_HISTORY": ""}
        run = [sys.executable, "-m", "mcptest", "run", "-q", str(suite)]
        turns = measure({"off": [*run, "--no-history"], "on": [*run, "--history", f"sqlite:///{folder / 'one.db'}"]},
                        rounds=15, cwd=folder, env=env)  # fmt: skip
        off, on = statistics.median(turns["off"].walls), statistics.median(turns["on"].walls)
        cpu = statistics.median(turns["on"].cpus) - statistics.median(turns["off"].cpus)
        print(f"one-test run, no history:    {turns['off'].line()}")
        print(f"one-test run, with history:  {turns['on'].line()}")
        print(f"overhead history adds to a one-test run: {(on - off) * 1000:.0f} ms wall, {cpu * 1000:.0f} ms cpu "
              "(target < 30 ms)")  # fmt: skip
        print(json.dumps({"sqlalchemy_import_ms": import_ms()}))


def import_ms() -> float:
    """What importing SQLAlchemy alone costs in a fresh process (the bulk of the per-run overhead)."""
    import subprocess

    code = "import time; t = time.perf_counter(); import sqlalchemy; print(time.perf_counter() - t)"
    values = [float(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                                   env=AS_USERS_RUN).stdout) for _ in range(5)]  # fmt: skip
    return round(statistics.median(values) * 1000, 1)


if __name__ == "__main__":
    main()
