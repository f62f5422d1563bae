"""`mcptest report RUN.json --compare last|last-green|main`: the baseline comes from the run history and each
failing test says whether it is new, recurring or flaky."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from mcptest.core.exit_codes import ExitCode
from mcptest.history.context import RunContext, suite_identity
from mcptest.history.store import open_store
from mcptest.schemas import SCHEMAS
from tests.doctor.helpers import cli
from tests.history.build import report


def statuses(i: int) -> dict[str, str]:
    """Run i of twelve: `flips` alternates, `breaks` fails from run 10 (one flip in 11: not flaky), the rest pass."""
    return {"finds": "passed", "flips": ("passed", "failed")[i % 2], "breaks": "failed" if i >= 10 else "passed",
            "fresh": "passed"}  # fmt: skip


@pytest.fixture
def stored(tmp_path: Path) -> tuple[Path, str]:
    """Twelve stored runs (run 3 on main), and the current run's report saved as JSON, not yet stored."""
    suite = str(tmp_path / "suite.yml")
    url = f"sqlite:///{tmp_path / 'history.db'}"
    with open_store(url) as store:
        for i in range(12):
            branch = "main" if i == 3 else "feature"
            store.record(report(statuses(i), i, suite), suite_identity(suite), RunContext(branch=branch))
    current = report({"finds": "passed", "flips": "failed", "breaks": "failed", "fresh": "failed"}, 12, suite)
    path = tmp_path / "run.json"
    path.write_text(current.model_dump_json())
    return path, url


def labels(out: str) -> dict[str, tuple[str, str | None]]:
    return {c["test"]: (c["verdict"], c.get("failure")) for c in json.loads(out)["cases"]}


def test_compare_last_labels_each_failure_new_recurring_or_flaky(
    stored: tuple[Path, str], capsys: pytest.CaptureFixture[str]
) -> None:
    path, url = stored
    ran = cli(capsys, "report", "--no-color", path, "--compare", "last", "--history", url, "--json")
    assert ran.code == ExitCode.FAILED  # `fresh` flipped to failed: a regression
    jsonschema.validate(json.loads(ran.stdout), SCHEMAS["compare.v1.json"]())
    assert json.loads(ran.stdout)["baseline"]["started_at"] == "2026-11-01T11:00:00+00:00"
    assert labels(ran.stdout) == {
        "finds": ("unchanged", None),
        "flips": ("unchanged", "flaky"),
        "breaks": ("unchanged", "recurring"),
        "fresh": ("regression", "new"),
    }
    text = cli(capsys, "report", "--no-color", path, "--compare", "last", "--history", url)
    assert "  REGRESSION  fresh  [passed → failed]  (new failure)" in text.stdout
    assert "  UNCHANGED   breaks  [failed → failed]  (recurring failure)" in text.stdout


def test_compare_last_green_and_main_pick_their_baselines(
    stored: tuple[Path, str], capsys: pytest.CaptureFixture[str]
) -> None:
    path, url = stored
    green = cli(capsys, "report", "--no-color", path, "--compare", "last-green", "--history", url, "--json")
    assert json.loads(green.stdout)["baseline"]["started_at"] == "2026-11-01T08:00:00+00:00"  # run 8: all passed
    assert labels(green.stdout)["breaks"] == ("regression", "new")
    main = cli(capsys, "report", "--no-color", path, "--compare", "main", "--history", url, "--json")
    assert json.loads(main.stdout)["baseline"]["started_at"] == "2026-11-01T03:00:00+00:00"


def test_compare_from_an_empty_history_says_what_is_missing(
    stored: tuple[Path, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, _ = stored
    nowhere = tmp_path / "none.db"
    ran = cli(capsys, "report", "--no-color", path, "--compare", "last", "--history", f"sqlite:///{nowhere}")
    assert ran.code == ExitCode.USAGE
    assert ran.stderr == f"mcptest: --compare last: no history yet ({nowhere} does not exist); run the suite first\n"
    empty = f"sqlite:///{tmp_path / 'empty.db'}"
    open_store(empty).close()
    ran = cli(capsys, "report", "--no-color", path, "--compare", "main", "--history", empty)
    assert ran.stderr == f"mcptest: --compare main: the last stored run on branch main of suite.yml is not in {empty}\n"
