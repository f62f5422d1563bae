"""A suite's `quarantine:` list: quarantined tests run and are reported but stay out of the exit code until their
date; an expired entry says so and counts again; a bad entry is a load error at its line and column."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

import pytest

from mcptest.core.exit_codes import ExitCode
from mcptest.history.context import RunContext
from mcptest.history.queries import flaky
from mcptest.history.render import suggestion
from mcptest.history.store import open_store
from tests.doctor.helpers import cli
from tests.history.build import report

TESTS = """
agents:
  - name: finds it
    prompt: find it
    tool_calls: [{ name: search }]
    expect: [{ target: "tool_calls[0].name", matcher: { exact: search } }]
  - name: flaky one
    prompt: find it
    tool_calls: [{ name: search }]
    expect: [{ target: "tool_calls[0].name", matcher: { exact: other } }]
"""


def test_a_quarantined_failure_is_reported_and_stored_but_the_run_exits_0(
    write, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    suite = write("suite.yml", "quarantine:\n  - {test: flaky one, reason: 'flaky: #12', until: 2999-01-01}\n" + TESTS)
    out = write("run.json", "")
    url = f"sqlite:///{tmp_path / 'h.db'}"
    ran = cli(capsys, "run", "--no-color", suite, "-o", out, "-r", "json", "--history", url)
    assert ran.code == ExitCode.OK, ran.stderr
    with open_store(url) as store:
        assert [o.quarantined for o in store.outcomes("suite.yml", "flaky one")] == [True]
    data = json.loads(Path(out).read_text())
    assert [(r["name"], r["status"], r.get("quarantined")) for r in data["results"]] == [
        ("finds it", "passed", None),
        ("flaky one", "failed", "flaky: #12"),
    ]
    assert (data["summary"]["failed"], data["summary"]["quarantined"], data["summary"]["ok"]) == (1, 1, True)
    pretty = cli(capsys, "report", "--no-color", out)
    assert "        quarantined: flaky: #12 (out of the exit code)" in pretty.stdout
    assert "1 passed, 1 failed, 1 quarantined" in pretty.stdout


def test_an_expired_quarantine_says_so_and_its_test_fails_the_run_again(
    write, capsys: pytest.CaptureFixture[str]
) -> None:
    suite = write("suite.yml", "quarantine:\n  - {test: flaky one, reason: old, until: 2020-01-31}\n" + TESTS)
    ran = cli(capsys, "run", "--no-color", suite)
    assert ran.code == ExitCode.FAILED
    assert (
        f"mcptest: the quarantine of 'flaky one' in {suite} expired on 2020-01-31: its failures count again "
        "(remove the entry, or extend `until:` if it is still flaky)"
    ) in ran.stderr.splitlines()
    assert "quarantined" not in ran.stdout


def test_bad_quarantine_entries_are_load_errors_at_line_and_column(write, capsys: pytest.CaptureFixture[str]) -> None:
    shapes = write(
        "shapes.yml",
        "quarantine:\n  - {test: finds it, reason: x, until: '2020-1-x'}\n  - {test: finds it, until: 2020-12-01}\n"
        + TESTS,
    )
    ran = cli(capsys, "validate", shapes)
    assert ran.code == ExitCode.USAGE
    assert ran.stderr.splitlines() == [
        f"{shapes}:2:40: quarantine[0].until: input should be a valid date or datetime, input is too short, "
        "got str '2020-1-x'",
        f"{shapes}:3:5: quarantine[1]: missing required key 'reason'",
    ]
    typo = write("typo.yml", "quarantine:\n  - {test: flaky on, reason: x, until: 2030-01-01}\n" + TESTS)
    assert cli(capsys, "validate", typo).stderr == (
        f"{typo}:2:12: quarantine[0].test: no test named 'flaky on' (did you mean 'flaky one'?)\n"
    )


def test_history_flaky_suggest_prints_entries_a_suite_accepts(
    write, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = f"sqlite:///{tmp_path / 'h.db'}"
    with open_store(url) as store:
        for i in range(8):
            store.record(report({"flaky one": ("passed", "failed")[i % 2], "finds it": "passed"}, i), "suite.yml",
                         RunContext())  # fmt: skip
        found = flaky(store, "suite.yml")
    yaml = suggestion(found, date(2026, 11, 26))
    assert yaml == (
        'quarantine:\n  - {test: "flaky one", reason: "flaky: flip rate 100% over 8 runs", until: 2026-12-10}\n'
    )
    suite = write("suite.yml", yaml + TESTS)
    assert cli(capsys, "validate", suite).code == ExitCode.OK
    printed = cli(capsys, "history", "flaky", "--suggest", "--suite", suite, "--history", url)
    assert printed.stdout.startswith('quarantine:\n  - {test: "flaky one", reason: "flaky: flip rate 100% over 8 runs"')
