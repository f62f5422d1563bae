"""`mcptest badge`: a shields.io endpoint document whose message and colour follow the run's verdict."""

from __future__ import annotations

import json
from pathlib import Path

from mcptest.report.badge import render_badge
from tests.doctor.helpers import cli
from tests.report.build import F, S, report, result, selection_gate

FIXTURE = Path(__file__).parent / "fixtures" / "run.json"


def badge_of(*rows, gates=()):  # type: ignore[no-untyped-def]
    return json.loads(render_badge(report(list(rows), list(gates))))


def test_a_green_run_is_a_bright_green_100_percent_with_skips_left_out() -> None:
    assert badge_of(result("a"), result("b"), result("c", S)) == {
        "schemaVersion": 1, "label": "mcptest", "message": "100% passed (2/2)", "color": "brightgreen",
    }  # fmt: skip


def test_the_colour_falls_with_the_pass_rate_and_a_failed_gate_is_never_green() -> None:
    ok = [result(f"t{i}") for i in range(9)]
    assert badge_of(*ok, result("x", F))["color"] == "yellow"  # 90%
    assert badge_of(*ok[:3], result("x", F))["color"] == "orange"  # 75%
    assert badge_of(*ok[:2], result("x", F))["color"] == "red"
    gated = badge_of(*ok, gates=[selection_gate("sel", None, 3, 10)])
    assert gated == {"schemaVersion": 1, "label": "mcptest", "message": "100% passed (9/9), 1 gate failed",
                     "color": "yellow"}  # fmt: skip
    many = badge_of(*[result(f"t{i}") for i in range(2000)], result("x", F))
    assert many["message"] == "99.9% passed (2000/2001)"


def test_the_command_writes_the_badge_of_a_saved_report(capsys, tmp_path: Path) -> None:
    out = cli(capsys, "badge", FIXTURE, "--label", "tests", "--output", tmp_path / "badge.json")
    assert out.code == 0
    assert json.loads((tmp_path / "badge.json").read_text())["message"] == "62.5% passed (5/8), 1 gate failed"
    assert json.loads((tmp_path / "badge.json").read_text())["label"] == "tests"
    missing = cli(capsys, "badge", tmp_path / "none.json")
    assert missing.code == 2
    assert "none.json: cannot read the report" in missing.stderr
