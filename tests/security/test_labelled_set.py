"""The scan measured on the labelled set (tests/security/labelled/): real benign catalogs and poisoned variants
written from published attacks. The floors are the figures measured when the set was committed; a rule change
that lowers them fails here."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mcptest.checks.findings import Severity
from mcptest.checks.security.engine import scan
from mcptest.checks.security.evaluation import evaluate
from mcptest.records.entries import load

LABELS = Path(__file__).parent / "labelled" / "labels.json"
GROUPS = json.loads(LABELS.read_text(encoding="utf-8"))["groups"]
REAL = [g for g in GROUPS if g["label"] == "benign" and g["source"].startswith("real")]


def test_detection_precision_and_recall_hold_their_measured_floors() -> None:
    result = evaluate(LABELS)
    assert (result.entries, result.poisoned) == (128, 24)
    assert result.detection.precision == 1.0, result.misses
    assert result.detection.recall >= 23 / 24, result.misses


def test_rule_code_precision_and_recall_hold_their_measured_floors() -> None:
    result = evaluate(LABELS)
    assert result.codes.precision >= 43 / 47, result.code_errors
    assert result.codes.recall >= 43 / 47, result.code_errors


@pytest.mark.parametrize("group", REAL, ids=lambda g: g["files"][0])
def test_real_catalogs_raise_no_alarm_beyond_the_reviewed_warnings(group: dict) -> None:
    report = scan([load(LABELS.parent / f) for f in group["files"]])
    found = {}
    for flagged in report.flagged:
        found.setdefault(flagged.entry.key, []).append(flagged.finding.rule)
    assert found == group["expect"]
    assert report.count(Severity.CRITICAL) == 0


def test_no_benign_entry_is_critical_and_every_poisoned_catalog_fails_the_default_gate() -> None:
    for group in GROUPS:
        report = scan([load(LABELS.parent / f) for f in group["files"]])
        assert report.failed("critical") is (group["label"] == "poisoned"), group["files"]


def test_mcp_server_fetch_is_a_warning_that_names_the_wording() -> None:
    report = scan([load(LABELS.parent / "benign" / "mcp-server-fetch.json")])
    [flagged] = report.flagged
    assert (flagged.finding.rule, flagged.finding.severity) == ("SEC-002", Severity.WARNING)
    assert "originally you did not" in flagged.finding.message
