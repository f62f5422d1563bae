"""`mcptest security` on saved catalogs: JSON, SARIF, --select/--ignore, --fail-on and catalogs scanned together."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.doctor.helpers import cli

LABELLED = Path(__file__).parent / "labelled"
POISONED = LABELLED / "poisoned" / "invariant-tool-poisoning.json"
MATH, MAIL = (
    LABELLED / "poisoned" / "invariant-shadowing-math.json",
    LABELLED / "poisoned" / "invariant-shadowing-mail.json",
)


def test_json_lists_each_finding_with_where_it_is(capsys: pytest.CaptureFixture[str]) -> None:
    out = cli(capsys, "security", "--catalog", POISONED, "--json")
    report = out.json()
    assert out.code == 1 and report["ok"] is False and report["fail_on"] == "critical"
    assert [(f["kind"], f["name"], f["rule"], f["severity"], f["pointer"]) for f in report["findings"]] == [
        ("tool", "add", "SEC-001", "critical", "/description"),
        ("tool", "add", "SEC-004", "critical", "/description"),
    ]
    assert report["summary"]["rules"]["SEC-001"] == 1 and report["summary"]["critical_count"] == 2


def test_sarif_names_each_rule_with_its_level_and_the_entry_as_a_logical_location(
    capsys: pytest.CaptureFixture[str],
) -> None:
    out = cli(capsys, "security", "--catalog", POISONED, "--sarif")
    run = out.json()["runs"][0]
    rules = run["tool"]["driver"]["rules"]
    assert out.code == 1 and len(rules) == 10
    [first, second] = run["results"]
    assert (first["ruleId"], first["level"], rules[first["ruleIndex"]]["id"]) == ("SEC-001", "error", "SEC-001")
    assert first["locations"][0]["physicalLocation"]["artifactLocation"]["uri"].endswith(
        "invariant-tool-poisoning.json"
    )
    assert first["locations"][0]["logicalLocations"][0]["name"] == "add"
    assert second["properties"]["pointer"] == "/description"


def test_select_ignore_and_fail_on_choose_what_runs_and_what_fails(capsys: pytest.CaptureFixture[str]) -> None:
    only = cli(capsys, "security", "--catalog", POISONED, "--json", "--select", "SEC-004").json()
    assert only["rules_run"] == ["SEC-004"] and [f["rule"] for f in only["findings"]] == ["SEC-004"]
    rest = cli(capsys, "security", "--catalog", POISONED, "--ignore", "SEC-001,SEC-004", "--no-color")
    assert rest.code == 0 and "0 critical" in rest.stdout
    never = cli(capsys, "security", "--catalog", POISONED, "--fail-on", "never", "--no-color")
    assert never.code == 0 and "critical SEC-001" in never.stdout


def test_catalogs_given_together_are_one_scan(capsys: pytest.CaptureFixture[str]) -> None:
    together = cli(capsys, "security", "--catalog", MATH, "--catalog", MAIL, "--json").json()
    assert sorted({f["source"] for f in together["findings"]}) == [str(MATH)]
    assert together["sources"] == [str(MATH), str(MAIL)] and together["summary"]["entries"] == 2
