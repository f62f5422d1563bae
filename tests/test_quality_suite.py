"""`tool_quality:` in a suite: the live catalog of a real (mock) server scored and gated in `mcptest run`."""

from __future__ import annotations

import json

from mcptest.core.exit_codes import ExitCode
from tests.conftest import ROOT, run_cli

SUITE = ROOT / "examples" / "tool-quality" / "mcptest.yml"


def test_weak_descriptions_fail_the_default_gate_and_fixed_ones_pass() -> None:
    ran = run_cli("run", str(SUITE), "-r", "json")
    assert ran.code == ExitCode.FAILED
    rows = {r["name"]: r for r in json.loads(ran.stdout)["results"]}
    weak = rows["weak descriptions fail the default gate"]
    assert (weak["kind"], weak["status"], weak["line"]) == ("quality", "failed", 11)
    assert [f["target"] for f in weak["failures"]] == ["min_score", "mean_score", "critical_count"]
    assert weak["targets"]["critical_count"] == 4  # free-text `title` and `q`, "Create ticket": warnings
    assert rows["fixed descriptions pass the default gate"]["status"] == "passed"
    explicit = rows["fixed descriptions, explicit floors"]
    assert explicit["status"] == "passed" and explicit["targets"]["schema_criticals"] == 0


def test_skipping_the_weak_block_by_tag_passes() -> None:
    ran = run_cli("run", str(SUITE), "--skip-tag", "weak")
    assert ran.code == ExitCode.OK, ran.stdout
    assert "2 passed, 0 failed" in ran.stdout


def test_an_unknown_quality_target_is_a_load_error(write) -> None:
    suite = write(
        "suite.yml",
        """
servers:
  s: { command: ["mcptest", "mock", "--preset", "weather"] }
tool_quality:
  - name: q
    server: s
    expect:
      - target: mean_scor
        matcher: { ">=": 0.5 }
""",
    )
    ran = run_cli("validate", str(suite))
    assert ran.code == ExitCode.USAGE
    assert (
        ran.stderr
        == f"{suite}:7:17: tool_quality[0].expect[0].target: unknown target 'mean_scor' (did you mean 'mean_score'?)\n"
    )
