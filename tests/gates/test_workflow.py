"""`workflow:` — order of the successful calls under three match rules, and ids flowing between calls."""

from __future__ import annotations

from typing import Any

import pytest

from mcptest.records.trace import ToolCall, Trace
from tests.gates.build import evaluate

ORDER = ["create_project", "create_test_set_bulk", "create_test_configuration"]


def c(name: str, args: dict[str, Any] | None = None, result: Any = None, error: bool = False) -> ToolCall:
    structured = result if isinstance(result, dict) else None
    content = [{"type": "text", "text": result}] if isinstance(result, str) else []
    return ToolCall(
        server="p", name=name, args=args or {}, structured_content=structured, content=content, is_error=error
    )


def in_order(match: str, *names: str) -> int:
    trace = Trace(tool_calls=[c(n) for n in names])
    return evaluate("workflow", {"order": ORDER, "match": match}, [trace]).targets["workflow.in_order"]


@pytest.mark.parametrize(
    ("match", "names", "expected"),
    [
        ("subsequence", ORDER, 100),
        (
            "subsequence",
            ["list_topics", "create_project", "list_x", "create_test_set_bulk", "create_test_configuration"],
            100,
        ),
        ("subsequence", ["create_test_set_bulk", "create_project", "create_test_configuration"], 0),
        ("subsequence", ["create_project", "create_test_set_bulk"], 0),
        ("strict", ["create_project", "create_project", "create_test_set_bulk", "create_test_configuration"], 100),
        ("strict", ["create_project", "create_test_set_bulk", "create_project", "create_test_configuration"], 0),
        ("subset", ["create_test_configuration", "create_project", "create_test_set_bulk"], 100),
        ("subset", ["create_project"], 0),
    ],
)
def test_order_match_rules(match: str, names: list[str], expected: int) -> None:
    assert in_order(match, *names) == expected


def test_failed_calls_do_not_count_as_steps() -> None:
    calls = [c("create_project"), c("create_test_set_bulk", error=True), c("create_test_configuration")]
    outcome = evaluate("workflow", {"order": ORDER}, [Trace(tool_calls=calls)])
    assert outcome.targets["workflow.in_order"] == 0
    assert outcome.targets["workflow.steps_reached"] == 67


IDS = {"ids": [{"to": "create_test_configuration.test_set_id", "from": "create_test_set_bulk"}]}


@pytest.mark.parametrize(
    ("calls", "held", "why"),
    [
        (
            [c("create_test_set_bulk", result={"id": "ts-1"}), c("create_test_configuration", {"test_set_id": "ts-1"})],
            True,
            "create_test_configuration.test_set_id = 'ts-1' came from create_test_set_bulk",
        ),
        (
            [
                c("create_test_set_bulk", result='{"id": "ts-1", "name": "x"}'),
                c("create_test_configuration", {"test_set_id": "ts-1"}),
            ],
            True,
            None,
        ),
        (
            [
                c("create_test_set_bulk", result={"id": "ts-1"}),
                c("create_test_configuration", {"test_set_id": "test-set-1"}),
            ],
            False,
            "create_test_configuration.test_set_id = 'test-set-1' was not returned by an earlier "
            "create_test_set_bulk call",
        ),
        (
            [c("create_test_configuration", {"test_set_id": "ts-1"}), c("create_test_set_bulk", result={"id": "ts-1"})],
            False,
            None,
        ),
        (
            [c("create_test_set_bulk", result={"id": "ts-1"}), c("create_test_configuration", {})],
            False,
            "create_test_configuration.test_set_id was not passed",
        ),
        (
            [c("create_test_set_bulk", result={"id": "ts-1"})],
            False,
            "create_test_configuration was never called successfully, so "
            "create_test_configuration.test_set_id carried no id",
        ),
    ],
    ids=["structured id", "id in JSON text", "invented id", "id used before it existed", "not passed", "never called"],
)
def test_id_flow(calls: list[ToolCall], held: bool, why: str | None) -> None:
    outcome = evaluate("workflow", IDS, [Trace(tool_calls=calls)], label="t")
    assert outcome.targets["workflow.id_flow"] == (100 if held else 0)
    assert outcome.passed is held
    if why:
        assert outcome.detail["runs"][0]["checks"][0]["why"] == why


def test_the_report_lines_name_the_order_seen_and_each_id_that_did_not_flow() -> None:
    calls = [
        c("create_test_set_bulk", result={"id": "ts-1"}),
        c("create_project"),
        c("create_test_configuration", {"test_set_id": "nope"}),
    ]
    outcome = evaluate("workflow", {"order": ORDER, **IDS}, [Trace(tool_calls=calls)], label="build")
    assert outcome.lines == [
        "workflow [FAIL] build: order followed in 0 of 1 runs (0%), 3 of 3 steps reached (100%), id flow 0 of 1 (0%)",
        "  workflow.in_order: 0 is not >= 100",
        "  workflow.id_flow: 0 is not >= 100",
        "ORDER expected create_project → create_test_set_bulk → create_test_configuration (subsequence); "
        "saw create_test_set_bulk → create_project → create_test_configuration",
        "ID create_test_configuration.test_set_id = 'nope' was not returned by an earlier create_test_set_bulk call",
    ]


def test_an_order_listing_a_tool_twice_is_rejected() -> None:
    with pytest.raises(ValueError, match="each tool appears once"):
        evaluate("workflow", {"order": ["a", "a"]}, [Trace()])
