"""Invalid arguments get an isError result naming the field and the allowed values, like a real server."""

from __future__ import annotations

from typing import Any

import anyio
import pytest

from tests.mock.conftest import FIXTURES, mock_client

pytestmark = pytest.mark.anyio
TASKS = str(FIXTURES / "tasks.yaml")


async def _error_text(tool: str, args: dict[str, Any], *mock_args: str) -> str:
    with anyio.fail_after(30):
        async with mock_client(*(mock_args or ("--tools-from", TASKS))) as client:
            result = await client.call_tool(tool, args)
    assert result.is_error is True
    assert result.structured_content is None
    return result.content[0].text  # type: ignore[union-attr,no-any-return]


async def test_an_enum_violation_names_the_field_and_lists_the_allowed_values() -> None:
    text = await _error_text("create_task", {"title": "t", "priority": "High"})
    assert text.splitlines() == [
        "Input validation error: 'priority': 'High' is not of type 'integer'",
        "Input validation error: 'priority': 'High' is not one of [1, 2, 3, 4]",
    ]


async def test_a_wrong_type_names_the_field_and_the_expected_type() -> None:
    text = await _error_text("create_task", {"title": 7, "priority": 1})
    assert text == "Input validation error: 'title': 7 is not of type 'string'"


async def test_each_missing_required_argument_is_named() -> None:
    text = await _error_text("create_task", {})
    assert text.splitlines() == [
        "Input validation error: 'priority': 'priority' is a required property",
        "Input validation error: 'title': 'title' is a required property",
    ]


async def test_a_nested_failure_names_its_path_and_an_unexpected_key_is_reported() -> None:
    text = await _error_text("create_task", {"title": "t", "priority": 1, "tags": ["ok", 3], "colour": "red"})
    assert text.splitlines() == [
        "Input validation error: 'tags[1]': 3 is not of type 'string'",
        "Input validation error: Additional properties are not allowed ('colour' was unexpected)",
    ]


async def test_a_value_matching_no_anyof_branch_lists_what_was_expected() -> None:
    text = await _error_text("create_task", {"title": "t", "priority": 1, "due": 5})
    assert text == (
        "Input validation error: 'due': 5 is not valid under any of the given schemas (expected one of: string, null)"
    )


async def test_the_case_study_loops_get_the_texts_the_real_server_sent() -> None:
    bulk = {"name": "s", "tests": [], "priority": "High"}
    priority = await _error_text("create_test_set_bulk", bulk, "--preset", "test-platform")
    metric = await _error_text(
        "create_metric",
        {"name": "m", "evaluation_prompt": "p", "score_type": "binary", "threshold_operator": "gte", "categories": []},
        "--preset",
        "test-platform",
    )
    assert priority.splitlines() == [
        "Input validation error: 'priority': 'High' is not valid under any of the given schemas"
        " (expected one of: integer, null)",
        "Input validation error: 'tests': [] should be non-empty",
    ]
    assert metric.splitlines() == [
        "Input validation error: 'categories': [] is not valid under any of the given schemas"
        " (expected one of: array, null)",
        "Input validation error: 'score_type': 'binary' is not one of ['numeric', 'categorical']",
        "Input validation error: 'threshold_operator': 'gte' is not valid under any of the given schemas"
        " (expected one of: '=', '<', '>', '<=', '>=', '!=', null)",
    ]
