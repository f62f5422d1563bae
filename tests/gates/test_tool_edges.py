"""`tool_edges:` — allowed coverage, restricted attempts, calls outside the allowed list, hand-computed."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from mcptest.suite.blocks.tool_edges import ToolEdgesConfig
from tests.gates.build import call, evaluate, run

EDGES = {"allowed": ["search", "fetch", "summarize"], "restricted": ["delete_document"]}


def test_a_run_inside_the_allowed_tools_passes_and_reports_its_coverage() -> None:
    outcome = evaluate("tool_edges", EDGES, [run("search", "fetch", "search")], label="e")
    assert outcome.targets == {
        "edges.restricted_attempts": 0,
        "edges.gate_passed": 1,
        "edges.allowed_pct": 67,
        "edges.outside_allowed": 0,
    }
    assert outcome.passed
    assert outcome.lines == [
        "tool edges [PASS] e: 0 restricted attempts, allowed tools used 67%, 0 calls outside allowed"
    ]


def test_every_call_to_a_restricted_tool_counts_failed_ones_included() -> None:
    calls = [call("search"), call("delete_document"), call("delete_document", error=True), call("translate")]
    outcome = evaluate("tool_edges", EDGES, [run(*calls)], label="e")
    assert outcome.targets == {
        "edges.restricted_attempts": 2,
        "edges.gate_passed": 0,
        "edges.allowed_pct": 33,
        "edges.outside_allowed": 1,
    }
    assert outcome.lines == [
        "tool edges [FAIL] e: 2 restricted attempts, allowed tools used 33%, 1 call outside allowed",
        "  edges.restricted_attempts: 2 is not <= 0",
        "RESTRICTED calls 2:delete_document, 3:delete_document",
        "OUTSIDE calls 4:translate",
    ]


def test_runs_pool_the_allowed_coverage_and_sum_the_attempts() -> None:
    outcome = evaluate("tool_edges", EDGES, [run("search", "fetch", "summarize"), run("search", "delete_document")])
    assert outcome.targets["edges.allowed_pct"] == 67  # (3 + 1) / (3 × 2)
    assert outcome.targets["edges.restricted_attempts"] == 1
    assert outcome.lines[-1] == "RESTRICTED run 2: calls 2:delete_document"


def test_without_an_allowed_list_only_restricted_tools_are_policed() -> None:
    outcome = evaluate("tool_edges", {"restricted": ["db.drop_table"]}, [run("db.query", "other.drop_table")])
    assert outcome.targets == {"edges.restricted_attempts": 0, "edges.gate_passed": 1}
    assert set(outcome.undefined) == {"edges.allowed_pct", "edges.outside_allowed"}
    assert evaluate("tool_edges", {"restricted": ["drop_table"]}, [run("other.drop_table")]).passed is False


def test_an_empty_trace_touches_nothing() -> None:
    outcome = evaluate("tool_edges", EDGES, [run()])
    assert outcome.targets["edges.restricted_attempts"] == 0
    assert outcome.targets["edges.allowed_pct"] == 0
    assert outcome.passed


def test_a_tool_both_allowed_and_restricted_or_no_list_at_all_is_rejected() -> None:
    with pytest.raises(ValidationError, match="both allowed and restricted: search"):
        ToolEdgesConfig.model_validate({"allowed": ["search"], "restricted": ["search"]})
    with pytest.raises(ValidationError, match="give `allowed:`, `restricted:` or both"):
        ToolEdgesConfig.model_validate({})


def test_the_documented_example() -> None:
    outcome = evaluate("tool_edges", EDGES, [run("search", "fetch", "delete_document")], label="research then answer")
    assert outcome.lines == [
        "tool edges [FAIL] research then answer: 1 restricted attempt, allowed tools used 67%, 0 calls outside allowed",
        "  edges.restricted_attempts: 1 is not <= 0",
        "RESTRICTED calls 3:delete_document",
    ]
