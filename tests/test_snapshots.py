"""The `snapshot` matcher: written locally, compared after, refused or failed in CI, volatile values normalised."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from mcptest.core.exit_codes import ExitCode
from mcptest.expect.snapshots import SnapshotSpec, normalize
from tests.conftest import ROOT, run_cli

WEATHER = ROOT / "examples" / "quickstart" / "weather.yml"
SUITE = """servers:
  weather:
    command: ["mcptest", "mock", "--tools-from", "weather.yml"]
tools:
  - name: paris snapshot
    server: weather
    tool: get_weather
    args: { city: Paris }
    expect:
      - result.structuredContent: { snapshot: weather-paris }
"""


@pytest.fixture
def suite(tmp_path: Path) -> Path:
    shutil.copy(WEATHER, tmp_path / "weather.yml")
    (tmp_path / "mcptest.yml").write_text(SUITE)
    return tmp_path / "mcptest.yml"


def test_a_missing_snapshot_is_written_locally_then_compared(suite: Path) -> None:
    first = run_cli("run", str(suite), env={"CI": ""})
    assert first.code == ExitCode.OK, first.stdout + first.stderr
    stored = suite.parent / "__snapshots__" / "weather-paris.json"
    assert "wrote snapshot" in first.stderr and json.loads(stored.read_text())["city"] == "Paris"
    again = run_cli("run", str(suite), env={"CI": ""})
    assert again.code == ExitCode.OK and "wrote snapshot" not in again.stderr


def test_a_changed_value_fails_and_names_the_first_difference(suite: Path) -> None:
    assert run_cli("run", str(suite), env={"CI": ""}).code == ExitCode.OK
    stored = suite.parent / "__snapshots__" / "weather-paris.json"
    data = json.loads(stored.read_text())
    data["city"] = "Lyon"
    stored.write_text(json.dumps(data))
    ran = run_cli("run", str(suite), env={"CI": ""})
    assert ran.code == ExitCode.FAILED
    assert 'at city: stored "Lyon", got "Paris"' in ran.stdout and "--update-snapshots" in ran.stdout
    assert run_cli("run", str(suite), "--update-snapshots", env={"CI": ""}).code == ExitCode.OK
    assert json.loads(stored.read_text())["city"] == "Paris"


def test_in_ci_a_missing_snapshot_fails_and_updating_is_refused(suite: Path) -> None:
    ran = run_cli("run", str(suite), env={"CI": "true"})
    assert ran.code == ExitCode.FAILED and "no snapshot" in ran.stdout
    assert not (suite.parent / "__snapshots__").exists()
    refused = run_cli("run", str(suite), "--update-snapshots", env={"CI": "true"})
    assert refused.code == ExitCode.POLICY and "--allow-update-in-ci" in refused.stderr
    allowed = run_cli("run", str(suite), "--update-snapshots", "--allow-update-in-ci", env={"CI": "true"})
    assert allowed.code == ExitCode.OK and (suite.parent / "__snapshots__" / "weather-paris.json").exists()


def test_timestamps_uuids_and_durations_are_normalised_and_more_rules_can_be_added() -> None:
    value = {"at": "2026-11-23T14:51:02.123Z", "id": "0c1e6a52-3b7d-4f0e-9c1a-2d3e4f5a6b7c", "took": "took 12 ms"}
    assert normalize(value, SnapshotSpec(name="x")) == {"at": "<timestamp>", "id": "<uuid>", "took": "took <duration>"}
    spec = SnapshotSpec.model_validate({"name": "x", "normalize": [{"pattern": "req-\\d+", "replace": "req-N"}]})
    assert normalize(["req-42"], spec) == ["req-N"]
    assert normalize(value, SnapshotSpec(name="x", volatile=False)) == value


def test_a_bad_snapshot_name_is_a_load_error_at_its_line(suite: Path) -> None:
    suite.write_text(SUITE.replace("weather-paris", "../escape"))
    ran = run_cli("validate", str(suite))
    assert ran.code == ExitCode.USAGE and "mcptest.yml:10:" in ran.stderr and "names a file" in ran.stderr
