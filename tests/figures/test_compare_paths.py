"""Issue 12: compare matches cases on a normalised suite path, and two reports that share no case exit 2."""

from __future__ import annotations

from pathlib import Path

from mcptest.core.exit_codes import ExitCode
from mcptest.report.cases import suite_path
from tests.conftest import run_cli
from tests.providers.helpers import write_suite

SUITE = """
tools:
  - name: forecast
    server: weather
    tool: get_weather
    args: { city: Paris }
    expect:
      - result.isError: { exact: false }
"""


def _save(tmp_path: Path, suite: str, name: str) -> str:
    ran = run_cli("run", suite, "-r", "json", "-o", name, cwd=tmp_path)
    assert ran.code == ExitCode.OK, ran.stderr
    return name


def test_compare_normalises_suite_paths_and_says_so_when_two_reports_share_no_case(tmp_path: Path) -> None:
    write_suite(tmp_path, SUITE)
    dotted = _save(tmp_path, "./suite.yml", "dotted.json")
    bare = _save(tmp_path, "suite.yml", "bare.json")
    absolute = _save(tmp_path, str(tmp_path / "suite.yml"), "absolute.json")
    for baseline in (dotted, absolute):
        ran = run_cli("report", bare, "--compare", baseline, "--json", cwd=tmp_path)
        assert ran.code == ExitCode.OK, ran.stderr
        assert '"verdict": "unchanged"' in ran.stdout and '"verdict": "new"' not in ran.stdout
    write_suite(tmp_path, SUITE.replace("forecast", "other"), name="other.yml")
    other = _save(tmp_path, "other.yml", "other.json")
    ran = run_cli("report", other, "--compare", bare, cwd=tmp_path)
    assert (ran.code, ran.stdout) == (ExitCode.USAGE, "")
    assert ran.stderr == (
        "mcptest: other.json and bare.json share no case (suites other.yml and suite.yml): nothing to compare; "
        "compare two runs of the same suite\n"
    )


def test_suite_paths_fold_to_one_posix_spelling(tmp_path: Path) -> None:
    assert suite_path("./suite.yml") == suite_path("suite.yml") == "suite.yml"
    assert suite_path("suites\\weather.yml") == "suites/weather.yml"
    assert suite_path("a/../suites/./w.yml") == "suites/w.yml"
    assert suite_path(str(tmp_path / "s" / "w.yml"), cwd=tmp_path) == "s/w.yml"
    assert suite_path("/elsewhere/w.yml", cwd=tmp_path) == "/elsewhere/w.yml"
