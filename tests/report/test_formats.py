"""Every reporter pinned on the fixed report; JUnit valid against its XSD, SARIF against the SARIF 2.1.0 schema."""

from __future__ import annotations

import json
import os
from pathlib import Path

import jsonschema
import pytest
from lxml import etree

from mcptest.checks.lint import assess
from mcptest.checks.sarif import lint_sarif
from mcptest.records.catalog import load_catalog
from mcptest.records.report import Report
from mcptest.report.compare import compare
from mcptest.report.delta import Comparison
from mcptest.report.formats import REPORTERS, render_compared
from tests.report.build import F, agent_runs, fixed_report, report, result, selection_gate

HERE = Path(__file__).parent
GOLDEN = HERE / "golden"
SCHEMAS = HERE / "schemas"
CATALOG = HERE.parent / "lint" / "fixtures" / "server-everything.json"
SUFFIX = {
    "pretty": "txt",
    "json": "json",
    "junit": "xml",
    "md": "md",
    "sarif": "sarif.json",
    "html": "html",
    "agent": "agent.txt",
    "codequality": "codequality.json",
}


def pinned(name: str, text: str) -> None:
    """Compare with the committed golden file; MCPTEST_UPDATE_GOLDEN=1 rewrites it."""
    path = GOLDEN / name
    if os.environ.get("MCPTEST_UPDATE_GOLDEN"):
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8"), f"{name} differs: MCPTEST_UPDATE_GOLDEN=1 to accept"


def compared() -> tuple[Report, Comparison]:
    """A run against its baseline: a flip, a new and a removed test, one run of ten lost, a floor flip on noise."""
    model = "claude-sonnet-4-5"
    baseline = report(
        [result("names the city"), result("dropped test"), *agent_runs("weather selection", model, "P" * 10)],
        [selection_gate("weather selection", model, 10, 10)],
        started_at="2026-11-01T09:30:00+00:00",
    )
    current = report(
        [result("names the city", F), result("new test"), *agent_runs("weather selection", model, "PPPPPPPPFP")],
        [selection_gate("weather selection", model, 7, 10)],
    )
    return current, compare(baseline, current)


@pytest.mark.parametrize("fmt", sorted(REPORTERS))
def test_each_format_renders_the_fixed_report_as_pinned(fmt: str) -> None:
    pinned(f"run.{SUFFIX[fmt]}", REPORTERS[fmt](fixed_report(), False))


def test_the_json_golden_is_the_fixture_that_report_rerenders() -> None:
    assert (GOLDEN / "run.json").read_text() == (HERE / "fixtures" / "run.json").read_text()


@pytest.mark.parametrize(("fmt", "golden"), [("pretty", "txt"), ("md", "md"), ("json-delta", "json"), ("html", "html")])
def test_a_comparison_renders_as_pinned(fmt: str, golden: str) -> None:
    pinned(f"compare.{golden}", render_compared(*compared(), fmt))


def validate_junit(text: str) -> None:
    schema = etree.XMLSchema(etree.parse(str(SCHEMAS / "junit-10.xsd")))
    schema.assertValid(etree.fromstring(text.encode("utf-8")))


def validate_sarif(text: str) -> None:
    schema = json.loads((SCHEMAS / "sarif-schema-2.1.0.json").read_text(encoding="utf-8"))
    jsonschema.Draft4Validator(schema).validate(json.loads(text))


@pytest.mark.parametrize("build", [fixed_report, lambda: report([]), lambda: compared()[0]])
def test_junit_is_valid_against_the_jenkins_schema(build) -> None:  # type: ignore[no-untyped-def]
    validate_junit(REPORTERS["junit"](build(), False))


def test_junit_places_gates_under_their_server_and_counts_each_kind() -> None:
    root = etree.fromstring(REPORTERS["junit"](fixed_report(), False).encode())
    assert [(s.get("name"), s.get("tests"), s.get("failures"), s.get("errors"), s.get("skipped")) for s in root] == [
        ("weather", "9", "3", "1", "1"),
        ("files", "1", "0", "0", "0"),
    ]
    gate = root.find(".//testcase[@name='weather selection [claude-sonnet-4-5] · tool_selection']")
    assert gate is not None and gate.find("failure").get("type") == "gate"


def test_junit_replaces_characters_xml_cannot_carry() -> None:
    text = REPORTERS["junit"](fixed_report(), False)
    assert "\x1b" not in text and "\ufffd[31mboom" in text


@pytest.mark.parametrize("build", [fixed_report, lambda: report([])])
def test_sarif_is_valid_against_the_sarif_2_1_0_schema(build) -> None:  # type: ignore[no-untyped-def]
    validate_sarif(REPORTERS["sarif"](build(), False))


def test_sarif_locates_each_failure_at_the_line_that_defined_the_test() -> None:
    log = json.loads(REPORTERS["sarif"](fixed_report(), False))
    found = [
        (r["ruleId"], r["locations"][0]["physicalLocation"]["region"]["startLine"]) for r in log["runs"][0]["results"]
    ]
    assert found == [("test-assertion", 18), ("test-error", 25), ("test-assertion", 40), ("gate/tool_selection", 40)]


def test_lint_findings_become_sarif_results_with_rule_ids_and_levels() -> None:
    quality = assess(load_catalog(CATALOG))
    text = lint_sarif([("everything", quality)], uri="catalogs/server-everything.json")
    validate_sarif(text)
    run = json.loads(text)["runs"][0]
    expected = [
        (f.rule, {"critical": "error", "warning": "warning"}[f.severity.value], f.tool)
        for f in quality.findings
        if f.rule != "PASS"
    ]
    got = [(r["ruleId"], r["level"], r["locations"][0]["logicalLocations"][0]["name"]) for r in run["results"]]
    assert got == expected and expected
    rules = run["tool"]["driver"]["rules"]
    assert all(rules[r["ruleIndex"]]["id"] == r["ruleId"] for r in run["results"])
    assert {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in run["results"]} == {
        "catalogs/server-everything.json"
    }
