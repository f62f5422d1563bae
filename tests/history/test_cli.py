"""`mcptest run` records into its history and `mcptest history` reads it back, end to end as a user runs them."""

from __future__ import annotations

import zlib
from pathlib import Path

import jsonschema
import pytest
import sqlalchemy as sa

from mcptest.cli.history import USAGE
from mcptest.core.exit_codes import ExitCode
from mcptest.history.location import history_url
from mcptest.history.store import open_store
from mcptest.schemas import SCHEMAS
from tests.conftest import run_cli
from tests.doctor.helpers import cli

SECRET = "hunter2-very-secret"
SUITE = """
secrets: [MY_VALUE]
agents:
  - name: finds it
    prompt: find it
    tool_calls: [{ name: search }]
    expect:
      - target: tool_calls[0].name
        matcher: { exact: search }
  - name: leaks nothing
    prompt: find it
    tool_calls: [{ name: search }]
    expect:
      - target: tool_calls[0].name
        matcher: { exact: "${MY_VALUE}" }
"""


@pytest.fixture
def on(monkeypatch: pytest.MonkeyPatch) -> None:
    """History on (as outside the test suite) and the suite's secret set."""
    monkeypatch.setenv("MCPTEST_HISTORY", "")
    monkeypatch.setenv("MY_VALUE", SECRET)


def test_a_run_is_stored_beside_its_suite_with_secrets_masked_and_history_reads_it(
    write, tmp_path: Path, on: None, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    suite = write("project/suite.yml", SUITE)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    assert run_cli("run", str(suite), cwd=elsewhere).code == ExitCode.FAILED  # as a user runs it, from elsewhere
    monkeypatch.chdir(elsewhere)
    assert cli(capsys, "run", "--no-color", suite, "-q").code == ExitCode.FAILED
    store_file = suite.parent / ".mcptest" / "history.db"
    assert store_file.is_file() and not (elsewhere / ".mcptest").exists()
    with open_store(f"sqlite:///{store_file}") as store, store.engine.connect() as conn:
        blobs = conn.execute(sa.text("select report from runs")).scalars().all()
        failures = conn.execute(sa.text("select failure from results where failure is not null")).scalars().all()
    assert len(blobs) == 2 and failures == ['expected "***", got "search"'] * 2
    assert all(SECRET not in zlib.decompress(b).decode() for b in blobs)
    assert SECRET.encode() not in store_file.read_bytes()

    listing = cli(capsys, "history", suite)
    assert listing.code == ExitCode.OK, listing.stderr
    assert listing.stdout.splitlines()[0] == f"suite.yml · sqlite:///{store_file}"
    assert [line.split()[0] for line in listing.stdout.splitlines()[1:]] == ["#2", "#1"]
    assert "FAILED      1 passed, 1 failed" in listing.stdout
    timeline = cli(capsys, "history", "test", "leaks nothing", "--suite", suite)
    assert timeline.stdout.splitlines()[:2] == [
        "leaks nothing  ✗✗  (oldest → newest)",
        "  pass rate 0% [0%–66%] over 2 runs · flip rate 0% [0%–79%] (0 flips)",
    ]
    assert 'expected "***", got "search"' in timeline.stdout
    flaky = cli(capsys, "history", "flaky", "--suite", suite, "--json")
    assert flaky.code == ExitCode.OK, flaky.stderr
    jsonschema.validate(flaky.json(), SCHEMAS["history-flaky.v1.json"]())
    assert flaky.json()["tests"] == []


def test_an_unreachable_store_is_a_warning_and_the_run_exits_as_it_would_have(
    write, on: None, capsys: pytest.CaptureFixture[str]
) -> None:
    suite = write("suite.yml", SUITE)
    ran = cli(capsys, "run", "--no-color", suite, "--history", "postgresql://ci:pw@127.0.0.1:9/nowhere")
    assert ran.code == ExitCode.FAILED  # the verdict of the run, not of its history
    assert "FAIL  leaks nothing" in ran.stdout
    warning = [line for line in ran.stderr.splitlines() if "history" in line]
    assert len(warning) == 1 and warning[0].startswith(
        "mcptest: warning: history store postgresql://ci:***@127.0.0.1:9/nowhere cannot be used: "
    ), ran.stderr
    assert warning[0].endswith("; this run is not in the history")


def test_no_history_and_history_false_record_nothing_until_a_flag_names_a_store(
    write, tmp_path: Path, on: None, capsys: pytest.CaptureFixture[str]
) -> None:
    recorded = write("a/suite.yml", SUITE)
    off = write("b/suite.yml", "history: false\n" + SUITE)
    cli(capsys, "run", "--no-color", recorded, "--no-history")
    cli(capsys, "run", "--no-color", off)
    assert not (recorded.parent / ".mcptest").exists() and not (off.parent / ".mcptest").exists()
    store = tmp_path / "chosen.db"
    cli(capsys, "run", "--no-color", off, "--history", f"sqlite:///{store}")
    assert store.is_file()


def test_history_commands_refuse_extra_words_and_a_store_from_a_newer_mcptest(
    write, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    suite = write("suite.yml", SUITE)
    assert cli(capsys, "history", "test", "--suite", suite).stderr == (
        "mcptest: history test takes one test name (got 0); usage: " + USAGE + "\n"
    )
    url = f"sqlite:///{tmp_path / 'h.db'}"
    with open_store(url) as store, store.engine.begin() as conn:
        conn.execute(sa.text("update mcptest_schema set version = 99"))
    refused = cli(capsys, "history", "--suite", suite, "--history", url)
    assert refused.code == ExitCode.USAGE
    assert refused.stderr.startswith(f"mcptest: history store {url}: its schema is version 99, written by a newer")


def test_the_flag_then_the_environment_then_the_suite_choose_the_store(tmp_path: Path) -> None:
    suite = tmp_path / "s" / "suite.yml"
    default = f"sqlite:///{tmp_path}/s/.mcptest/history.db"
    env = {"MCPTEST_HISTORY": "postgresql://ci@db/history"}
    assert history_url(suite, environ={}) == default
    assert history_url(suite, environ={}, suite_setting=False) is None
    assert history_url(suite, environ=env, suite_setting=False) == "postgresql://ci@db/history"
    assert history_url(suite, "sqlite:///x.db", environ=env) == "sqlite:///x.db"
    assert history_url(suite, "sqlite:///x.db", environ=env, disabled=True) is None
    assert history_url(suite, environ={"MCPTEST_HISTORY": "off"}) is None


PROBE = """
import json, sys
from mcptest.cli import main
try:
    main(sys.argv[1:])
except SystemExit:
    pass
print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] in ('sqlalchemy', 'psycopg'))), file=sys.stderr)
"""


def test_a_run_into_an_existing_sqlite_store_records_without_importing_sqlalchemy(write, tmp_path: Path) -> None:
    import json
    import os
    import subprocess
    import sys

    from tests.conftest import ROOT

    suite = write("project/suite.yml", SUITE.replace("${MY_VALUE}", "search").replace("secrets: [MY_VALUE]\n", ""))
    env = {**os.environ, "MCPTEST_HISTORY": "", "PYTHONPATH": str(ROOT)}
    loaded = []
    for _ in range(2):  # the first run creates the store (SQLAlchemy's migrations), the second only appends
        proc = subprocess.run([sys.executable, "-c", PROBE, "run", str(suite)], capture_output=True, text=True,
                              env=env, timeout=60, cwd=tmp_path)  # fmt: skip
        assert proc.returncode == ExitCode.OK, proc.stderr
        loaded.append(json.loads(proc.stderr.strip().splitlines()[-1]))
    assert loaded[0] and loaded[1] == []
    with open_store(str(history_url(suite, environ={}))) as store:
        assert [r["passed"] for r in store.runs("suite.yml")] == [2, 2]
