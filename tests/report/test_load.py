"""Loading a saved report: migrate an older format, refuse the rest with one located line."""

from __future__ import annotations

from pathlib import Path

import pytest

from mcptest.core.errors import UserError
from mcptest.records.report import REPORT_FORMAT_VERSION
from mcptest.report.load import MIGRATIONS, load_report
from tests.report.build import F, report, result

FIXTURES = Path(__file__).parent / "fixtures"


def problems(path: Path | str, role: str = "baseline") -> list[str]:
    with pytest.raises(UserError) as caught:
        load_report(path, role)
    return [str(p) for p in caught.value.problems]


def test_a_current_report_loads_as_saved() -> None:
    loaded = load_report(FIXTURES / "run.json")
    assert loaded.format_version == REPORT_FORMAT_VERSION
    assert (loaded.summary.total, len(loaded.gates)) == (9, 1)


def test_a_format_0_report_is_migrated_to_the_current_model() -> None:
    migrated = load_report(FIXTURES / "baseline.v0.json")
    expected = report(
        [result("returns the forecast", line=12), result("names the city", F, line=18, duration_ms=30.25)]
    )
    assert migrated.model_dump() == expected.model_copy(update={"mcptest_version": "0.0.9"}).model_dump()


def test_every_migration_leads_to_the_current_version() -> None:
    for version in MIGRATIONS:
        while version in MIGRATIONS:
            version = MIGRATIONS[version][0]
        assert version == REPORT_FORMAT_VERSION


def test_an_unknown_format_version_is_one_line_naming_both_versions() -> None:
    path = FIXTURES / "baseline.v7.json"
    assert problems(path) == [
        f"{path}: report format_version '7' is not supported (this mcptest reads 0, 1, 2); "
        "re-create it with this mcptest"
    ]


def test_a_missing_baseline_says_so(tmp_path: Path) -> None:
    path = tmp_path / "nope.json"
    assert problems(path) == [f"{path}: cannot read the baseline: No such file or directory"]


def test_a_directory_is_unreadable(tmp_path: Path) -> None:
    assert problems(tmp_path) == [f"{tmp_path}: cannot read the baseline: Is a directory"]


def test_broken_json_points_at_the_line_and_column(tmp_path: Path) -> None:
    path = tmp_path / "broken.json"
    path.write_text('{\n  "format_version": "1",\n  oops\n}\n')
    assert problems(path) == [
        f"{path}:3:3: the baseline is not valid JSON: Expecting property name enclosed in double quotes"
    ]


def test_json_that_is_not_a_report_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "list.json"
    path.write_text("[1, 2]\n")
    assert problems(path, "report") == [
        f"{path}: the report is not an mcptest JSON report (no format_version): save one with --reporter json"
    ]


def test_a_report_with_bad_fields_lists_each_problem(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text('{"format_version": "1", "suite": 3, "results": [{"name": "a"}]}')
    found = problems(path)
    assert f"{path}: not a valid baseline: suite: Input should be a valid string" in found
    assert f"{path}: not a valid baseline: mcptest_version: Field required" in found
    assert len(found) == 10  # capped: the first ten are enough to see what is wrong
