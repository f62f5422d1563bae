"""`mcptest report` as a user runs it: re-render, compare, exit codes 0, 1 and 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mcptest.records.report import Report
from mcptest.report.formats import REPORTERS
from tests.conftest import ROOT, run_cli
from tests.report.build import F, fixed_report, report, result, selection_gate

FIXTURES = Path(__file__).parent / "fixtures"
GOLDEN = Path(__file__).parent / "golden"
RUN = str(FIXTURES / "run.json")


def save(path: Path, r: Report) -> str:
    path.write_text(REPORTERS["json"](r, False), encoding="utf-8")
    return str(path)


def test_report_rerenders_a_saved_run_in_every_format_as_pinned(tmp_path: Path) -> None:
    for fmt, suffix in {"junit": "xml", "md": "md", "sarif": "sarif.json", "json": "json"}.items():
        out = tmp_path / f"out.{suffix}"
        ran = run_cli("report", RUN, "--format", fmt, "--output", str(out))
        assert (ran.code, ran.stdout, ran.stderr) == (0, "", f"mcptest: wrote the {fmt} report to {out}\n")
        assert out.read_text() == (GOLDEN / f"run.{suffix}").read_text()


def test_compare_with_itself_finds_nothing_and_exits_0() -> None:
    ran = run_cli("report", RUN, "--compare", RUN)
    assert ran.code == 0
    assert ran.stdout.splitlines()[-1] == "compare: 11 unchanged; no regression"


def test_a_regression_exits_1_and_advisory_relaxes_it(tmp_path: Path) -> None:
    base = save(tmp_path / "base.json", report([result("a")], [selection_gate("w", None, 10, 10)]))
    cur = save(tmp_path / "cur.json", report([result("a", F)], [selection_gate("w", None, 10, 10)]))
    strict = run_cli("report", cur, "--compare", base, "--format", "junit")
    advisory = run_cli("report", cur, "--compare", base, "--advisory", "--json")
    assert (strict.code, strict.stderr) == (1, "mcptest compare: 1 unchanged, 1 regression; regression\n")
    assert strict.stdout.startswith('<?xml version="1.0"')
    assert advisory.code == 0
    delta = json.loads(advisory.stdout)
    assert (delta["regressed"], delta["cases"][0]["verdict"]) == (True, "regression")


def test_a_noisy_floor_flip_does_not_fail_the_compare(tmp_path: Path) -> None:
    base = save(tmp_path / "base.json", report([], [selection_gate("w", None, 9, 10)]))
    cur = save(tmp_path / "cur.json", report([], [selection_gate("w", None, 7, 10)]))
    ran = run_cli("report", cur, "--compare", base)
    assert ran.code == 0
    assert "not significant at this N (p = 0.58, 9/10 → 7/10); about 72 runs would be needed" in ran.stdout


def test_an_incompatible_baseline_is_one_line_and_exit_2() -> None:
    baseline = FIXTURES / "baseline.v7.json"
    ran = run_cli("report", RUN, "--compare", str(baseline))
    assert (ran.code, ran.stdout) == (2, "")
    assert ran.stderr == (
        f"{baseline}: report format_version '7' is not supported (this mcptest reads 0, 1, 2); "
        "re-create it with this mcptest\n"
    )


def test_a_missing_baseline_is_exit_2(tmp_path: Path) -> None:
    ran = run_cli("report", RUN, "--compare", str(tmp_path / "none.json"))
    assert (ran.code, ran.stderr) == (
        2,
        f"{tmp_path / 'none.json'}: cannot read the baseline: No such file or directory\n",
    )


def test_a_format_0_baseline_is_migrated_and_compared(tmp_path: Path) -> None:
    cur = save(
        tmp_path / "cur.json",
        report([result("returns the forecast", line=12), result("names the city", F, line=18, duration_ms=30.25)]),
    )
    ran = run_cli("report", cur, "--compare", str(FIXTURES / "baseline.v0.json"), "--json")
    assert ran.code == 0
    assert json.loads(ran.stdout)["totals"]["unchanged"] == 2


def test_md_with_compare_carries_the_delta_table_as_pinned() -> None:
    ran = run_cli("report", RUN, "--compare", RUN, "--format", "md")
    assert ran.code == 0
    assert ran.stdout.endswith("Baseline started 2026-11-02T09:30:00+00:00: no changes.\n\nVerdict: no regression.\n")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ("--format", "xml"),
            "mcptest: --format: unknown format 'xml'; formats are pretty, json, junit, md, sarif, html, agent, "
            "codequality\n",
        ),
        (("--json",), "mcptest: --json prints the comparison and needs --compare; use --format json to re-render\n"),
    ],
)
def test_bad_flags_exit_2(args: tuple[str, ...], message: str) -> None:
    ran = run_cli("report", RUN, *args)
    assert (ran.code, ran.stderr) == (2, message)


def test_run_accepts_every_format_of_the_registry(tmp_path: Path) -> None:
    out = tmp_path / "run.xml"
    ran = run_cli("run", str(ROOT / "examples" / "quickstart" / "mcptest.yml"), "--reporter", "junit", "-o", str(out))
    assert ran.code == 0, ran.stderr
    assert out.read_text().startswith('<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name=')


def test_report_loads_the_fixture_the_goldens_render() -> None:
    from mcptest.report.load import load_report

    assert load_report(RUN) == fixed_report()


def test_doctor_prints_lint_findings_as_sarif() -> None:
    import jsonschema

    catalog = "tests/lint/fixtures/mcp-server-time.json"
    ran = run_cli("doctor", "--catalog", catalog, "--sarif")
    assert ran.code == 0, ran.stderr
    log = json.loads(ran.stdout)
    schema = json.loads((Path(__file__).parent / "schemas" / "sarif-schema-2.1.0.json").read_text(encoding="utf-8"))
    jsonschema.Draft4Validator(schema).validate(log)
    results = log["runs"][0]["results"]
    assert results and all(r["ruleId"].startswith(("DESC-", "SCH-")) for r in results)
    assert {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in results} == {catalog}
