"""Matchers and target paths, each kind on the values it meets in real results."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from mcptest.expect.assertions import Assertion, Matcher, TargetMissing, check, parse_path, resolve

RESULT = {
    "result": {
        "content": [{"type": "text", "text": "It is 72 F and Sunny in Paris."}],
        "structuredContent": {"temp": 72, "tags": ["warm", "dry"], "ok": True, "none": None},
        "isError": False,
    },
    "error": None,
}


def matcher(spec: dict[str, Any]) -> Matcher:
    return Matcher.model_validate(spec)


@pytest.mark.parametrize(
    ("spec", "actual", "passes"),
    [
        ({"exact": 72}, 72, True),
        ({"exact": 72}, 72.0, True),
        ({"exact": 1}, True, False),
        ({"exact": None}, None, True),
        ({"exact": {"a": [1, 2]}}, {"a": [1, 2]}, True),
        ({"exact": "72"}, 72, False),
        ({"contains": "Sunny"}, "It is Sunny", True),
        ({"contains": "sunny"}, "It is Sunny", False),
        ({"contains": "warm"}, ["warm", "dry"], True),
        ({"contains": {"temp": 72}}, {"temp": 72, "x": 1}, True),
        ({"contains": "temp"}, {"temp": 72}, True),
        ({"icontains": "SUNNY"}, "It is Sunny", True),
        ({"icontains": "rain"}, "It is Sunny", False),
        ({"contains-all": ["72", "Paris"]}, "72 F in Paris", True),
        ({"contains-all": ["72", "London"]}, "72 F in Paris", False),
        ({"regex": r"^\d+ F"}, "72 F", True),
        ({"regex": r"^\d+ C"}, "72 F", False),
        ({"regex": "x"}, 5, False),
        ({"schema": {"minimum": 80}}, 85, True),
        ({"schema": {"minimum": 80}}, 79, False),
        ({"schema": {"type": "object", "required": ["temp"]}}, {"temp": 1}, True),
        ({">=": 50}, 50, True),
        ({">": 50}, 50, False),
        ({"<=": 3}, 2.5, True),
        ({"<": 3}, "2", False),
        ({">=": 1}, True, False),
        # integers past float range compare exactly instead of overflowing on the way to a float
        ({">=": 1}, 10**400, True),
        ({"<": 1e308}, 10**400, False),
        ({">": 10**400}, 10**400 + 1, True),
        ({"<": 3}, float("nan"), False),
    ],
)
def test_each_matcher_kind_judges_values_as_json(spec: dict[str, Any], actual: Any, passes: bool) -> None:
    assert (matcher(spec).test(actual) is None) is passes


def test_a_matcher_must_have_exactly_one_kind() -> None:
    with pytest.raises(ValidationError, match="exactly one kind"):
        matcher({})
    with pytest.raises(ValidationError, match="got 2: contains, regex"):
        matcher({"contains": "a", "regex": "b"})


def test_target_paths_walk_keys_and_indexes() -> None:
    assert parse_path("result.content[0].text") == ["result", "content", 0, "text"]
    assert resolve(RESULT, "result.content[0].text") == "It is 72 F and Sunny in Paris."
    assert resolve(RESULT, "result.structuredContent.tags[-1]") == "dry"
    assert resolve(RESULT, "result.structuredContent.none") is None
    assert parse_path('tool["read_file"].score') == ["tool", "read_file", "score"]
    assert resolve({"tool": {"read file": {"score": 0.5}}}, "tool['read file'].score") == 0.5
    with pytest.raises(ValueError, match="malformed target path"):
        parse_path("result..x")


def test_a_missing_target_says_where_the_path_stops() -> None:
    with pytest.raises(TargetMissing, match=r"result.content has 1 items; no index \[3\]"):
        resolve(RESULT, "result.content[3].text")
    with pytest.raises(TargetMissing, match="result.structuredContent.humidity is absent"):
        resolve(RESULT, "result.structuredContent.humidity")


def test_check_reports_each_failure_with_expected_and_actual() -> None:
    assertions = [
        Assertion.model_validate(
            {"target": "result.structuredContent.temp", "matcher": {"exact": 70}, "message": "temperature drifted"}
        ),
        Assertion.model_validate({"result.isError": {"exact": False}}),
        Assertion.model_validate({"target": "result.nope", "matcher": {"exact": None}}),
    ]
    failures = check(assertions, lambda p: resolve(RESULT, p))
    assert [(f.target, f.matcher, f.expected, f.actual, f.message) for f in failures] == [
        ("result.structuredContent.temp", "exact", 70, 72, "temperature drifted: expected 70, got 72"),
        (
            "result.nope",
            "exact",
            None,
            None,
            "target not found: result.nope is absent (keys: content, structuredContent, isError)",
        ),
    ]
