"""`diff --intents`: tool-bench's lexical selector on both catalogs, per tool, with the exact McNemar test."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from mcptest.schemas import SCHEMA_DIR
from tests.doctor.helpers import cli

OBJECT = {"type": "object"}  # every MCP tool declares one; catalogs without it are refused
OLD = {
    "tools": [
        {
            "name": "search_issues",
            "description": "Search issues in the bug tracker by keyword, label or assignee.",
            "inputSchema": OBJECT,
        },
        {
            "name": "create_issue",
            "description": "Create a new issue in the bug tracker with a title and a body.",
            "inputSchema": OBJECT,
        },
        {"name": "list_repos", "description": "List the repositories of an organisation.", "inputSchema": OBJECT},
    ]
}
QUERIES = [
    "tickets with the keyword crash",
    "everything with label regression",
    "what is assigned to ana as assignee",
    "keyword timeout",
    "anything labelled security by label",
    "keyword payments",
    "label flaky",
    "assignee bob",
]


def _write(tmp_path: Path, name: str, data: dict) -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_a_description_rewrite_that_drops_selection_is_reported_per_tool_as_significant(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    new = json.loads(json.dumps(OLD))
    new["tools"][0]["description"] = "A general-purpose helper utility."
    intents = [{"query": q, "gold": ["search_issues"]} for q in QUERIES]
    intents.append({"query": "list the repositories of acme", "gold": ["list_repos"]})
    spec = tmp_path / "intents.yml"
    spec.write_text(json.dumps({"intents": intents}), encoding="utf-8")
    out = cli(
        capsys,
        "diff",
        _write(tmp_path, "a.json", OLD),
        _write(tmp_path, "b.json", new),
        "--json",
        "--intents",
        spec,
        "--fail-on",
        "never",
    )
    report = out.json()
    assert out.code == 0, out.stderr
    jsonschema.validate(report, json.loads((SCHEMA_DIR / "diff.v1.json").read_text(encoding="utf-8")))
    shifts = {t["tool"]: t for t in report["selection"]["tools"]}
    assert (shifts["search_issues"]["before"], shifts["search_issues"]["after"]) == (1.0, 0.0)
    assert shifts["search_issues"]["lost"] == 8 and shifts["search_issues"]["significant"] is True
    assert shifts["search_issues"]["p_value"] == pytest.approx(2 * 0.5**8)
    assert (shifts["list_repos"]["before"], shifts["list_repos"]["after"], shifts["list_repos"]["significant"]) == (
        1.0,
        1.0,
        False,
    )
    assert report["selection"]["tools"][0]["tool"] == "search_issues"
    assert report["selection"]["before"] == 1.0 and report["selection"]["after"] == pytest.approx(1 / 9)


def test_a_renamed_tool_keeps_its_intents_under_either_name(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    new = json.loads(json.dumps(OLD))
    new["tools"][0]["name"] = "search_issue"
    spec = tmp_path / "intents.yml"
    spec.write_text("intents:\n  - query: search by keyword login\n    gold: [search_issues]\n", encoding="utf-8")
    out = cli(
        capsys, "diff", _write(tmp_path, "a.json", OLD), _write(tmp_path, "b.json", new), "--json", "--intents", spec
    )
    report = out.json()
    assert out.code == 1  # the rename is breaking
    assert [c["code"] for c in report["changes"]] == ["renamed"]
    [shift] = report["selection"]["tools"]
    assert (shift["tool"], shift["before"], shift["after"]) == ("search_issue", 1.0, 1.0)


def test_an_unknown_gold_tool_is_a_located_problem(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    spec = tmp_path / "intents.yml"
    spec.write_text("intents:\n  - query: find bugs\n    gold: [search_issuez]\n", encoding="utf-8")
    a = _write(tmp_path, "a.json", OLD)
    out = cli(capsys, "diff", a, a, "--intents", spec)
    assert out.code == 2
    assert out.stderr == (
        f"{spec}:3:12: intents[0].gold[0]: no tool 'search_issuez' in either catalog (did you mean 'search_issues'?)\n"
    )
