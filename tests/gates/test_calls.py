"""`calls:` — argument validity against the catalog, validation loops, unknown and redundant calls."""

from __future__ import annotations

from typing import Any

import pytest

from mcptest.records.trace import CatalogTool, ToolCall, Trace
from tests.gates.build import evaluate

PRIORITY = {"anyOf": [{"type": "integer"}, {"type": "null"}]}
CATALOG = [
    CatalogTool(
        server="p",
        tool={
            "name": "create_test_set_bulk",
            "inputSchema": {
                "type": "object",
                "required": ["name", "tests"],
                "properties": {"name": {"type": "string"}, "tests": {"type": "array"}, "priority": PRIORITY},
            },
        },
    ),
    CatalogTool(server="p", tool={"name": "list_behaviors", "inputSchema": {"type": "object", "properties": {}}}),
    CatalogTool(
        server="p",
        tool={
            "name": "create_metric",
            "inputSchema": {
                "type": "object",
                "required": ["name", "score_type"],
                "properties": {"name": {"type": "string"}, "score_type": {"enum": ["numeric", "categorical"]}},
            },
        },
    ),
]


def c(tool: str, error: bool = False, **args: Any) -> ToolCall:
    return ToolCall(server="p", name=tool, args=args, is_error=error)


def trace(*calls: ToolCall) -> Trace:
    return Trace(tool_calls=list(calls), catalog=CATALOG)


def bulk(**args: Any) -> ToolCall:
    return c("create_test_set_bulk", **{"name": "smoke", "tests": [{"behavior": "b"}], **args})


@pytest.mark.parametrize(
    ("calls", "expected"),
    [
        (
            [],
            {
                "calls.valid_args": 100,
                "calls.first_try_valid": 100,
                "calls.validation_loops": 0,
                "calls.longest_loop": 0,
                "calls.unknown_tool": 0,
                "calls.redundant": 0,
            },
        ),
        (
            [bulk(priority=2), c("create_metric", name="m", score_type="numeric")],
            {"calls.valid_args": 100, "calls.first_try_valid": 100, "calls.validation_loops": 0},
        ),
        (
            [bulk(priority="High"), bulk(priority=1)],
            {"calls.valid_args": 50, "calls.first_try_valid": 0, "calls.validation_loops": 0, "calls.longest_loop": 0},
        ),
        (
            [bulk(priority="High"), bulk(priority="Medium"), bulk(priority=None)],
            {"calls.validation_loops": 1, "calls.longest_loop": 2, "calls.valid_args": 33},
        ),
        (
            [
                c("create_metric", name="m", score_type="binary"),
                c("list_behaviors"),
                c("create_metric", name="m", score_type="gte"),
            ],
            {"calls.validation_loops": 1, "calls.longest_loop": 2, "calls.first_try_valid": 50},
        ),
        ([c("create_tests", title="x")], {"calls.unknown_tool": 1, "calls.valid_args": 100}),
        ([c("list_behaviors"), c("list_behaviors"), c("list_behaviors", q="x")], {"calls.redundant": 1}),
        ([bulk(), bulk(error=True)], {"calls.valid_args": 50, "calls.first_try_valid": 100}),
    ],
    ids=[
        "no calls",
        "all valid",
        "one retry is no loop",
        "two failures make a loop",
        "loop across other calls",
        "unknown tool",
        "redundant discovery",
        "server error counts as failed",
    ],
)
def test_calls_targets(calls: list[ToolCall], expected: dict[str, int]) -> None:
    outcome = evaluate("calls", {}, [trace(*calls)], label="t")
    assert {k: outcome.targets[k] for k in expected} == expected


def test_a_loop_reads_like_the_documents_log_with_the_bad_values_tried() -> None:
    calls = [bulk(priority=v) for v in ("High", "Medium", "medium", "")] + [bulk()]
    outcome = evaluate("calls", {}, [trace(*calls)], label="build")
    assert not outcome.passed
    assert outcome.lines[0] == (
        "calls [FAIL] build: 1 of 5 calls valid (20%), first-try valid 0%, 1 validation loop (longest 4), "
        "0 unknown tool calls, 0 redundant calls"
    )
    assert (
        outcome.lines[-6:]
        == [
            "LOOP create_test_set_bulk: 4 failed calls, then recovered",
            "  create_test_set_bulk: FAIL - 'High' is not valid under any of the given schemas",
            "  create_test_set_bulk: FAIL - 'Medium' is not valid under any of the given schemas",
            "  create_test_set_bulk: FAIL - 'medium' is not valid under any of the given schemas",
            "  create_test_set_bulk: FAIL - '' is not valid under any of the given schemas",
            "  bad values tried: priority = 'High', 'Medium', 'medium', ''",
        ][-6:]
        or outcome.lines
    )


def test_constraints_catch_an_empty_array_the_schema_allows() -> None:
    empty = c("create_test_set_bulk", name="shell", tests=[])
    plain = evaluate("calls", {}, [trace(empty)])
    strict = evaluate(
        "calls", {"constraints": {"create_test_set_bulk": {"properties": {"tests": {"minItems": 1}}}}}, [trace(empty)]
    )
    assert plain.targets["calls.valid_args"] == 100
    assert strict.targets["calls.valid_args"] == 0
    assert any("should be non-empty" in line for line in strict.detail["runs"][0]["invalid"])


def test_an_abandoned_loop_is_reported_as_abandoned_and_counts_are_pooled_over_runs() -> None:
    failing = trace(c("create_metric", name="m", score_type="binary"), c("create_metric", name="m", score_type="x"))
    outcome = evaluate("calls", {}, [failing, trace(c("create_metric", name="m", score_type="numeric"))])
    assert outcome.targets["calls.validation_loops"] == 1
    assert outcome.targets["calls.first_try_valid"] == 50
    assert "LOOP run 1: create_metric: 2 failed calls, then abandoned" in outcome.lines


def test_discovery_tools_can_be_named_explicitly() -> None:
    calls = [c("create_metric", name="m", score_type="numeric")] * 2
    assert evaluate("calls", {}, [trace(*calls)]).targets["calls.redundant"] == 0
    named = evaluate("calls", {"discovery_tools": ["create_metric"]}, [trace(*calls)])
    assert named.targets["calls.redundant"] == 1


def test_the_default_gate_passes_a_clean_run_and_expect_replaces_it() -> None:
    assert evaluate("calls", {}, [trace(bulk(), c("list_behaviors"))]).passed
    lenient = evaluate("calls", {"expect": [{"calls.unknown_tool": {"<=": 1}}]}, [trace(c("nope"))])
    assert lenient.passed and lenient.default_gate == []
