"""A finding is critical only where the defect would make an agent fail calls (issue 33's severity calibration)."""

from __future__ import annotations

import pytest

from mcptest.checks.lint import get_rule
from mcptest.records.catalog import Tool


def _required(name: str, schema: dict) -> Tool:
    return Tool(
        {
            "name": "tool",
            "description": "Run the job on the server.",
            "inputSchema": {"type": "object", "properties": {name: schema}, "required": [name]},
        }
    )


@pytest.mark.parametrize(
    ("name", "schema", "severity"),
    [
        ("repo_path", {"type": "string"}, "critical"),  # a form to get right: absolute? relative?
        ("sessionId", {"type": "string"}, "critical"),
        ("kind", {"type": "string", "enum": []}, "critical"),  # no legal value at all
        ("payload", {}, "critical"),  # no type: nothing gives the value space
        ("rings", {"type": "array", "items": {"type": "array", "items": {"type": "number"}}}, "critical"),
        ("keyword", {"type": "string"}, "warning"),  # free text: any string is a call that works
        ("url", {"type": "string"}, "warning"),  # a URL's form every agent knows: described or not, the call works
        ("count", {"type": "integer"}, "warning"),
        ("mode", {"type": "string", "enum": ["fast"]}, "warning"),  # (two or more listed values: no finding at all)
        ("entries", {"type": "array", "items": {"type": "object", "properties": {"a": {"type": "string"}}}}, "warning"),
    ],
)
def test_desc_006_is_critical_only_where_the_agent_would_fail_calls(name: str, schema: dict, severity: str) -> None:
    [finding] = get_rule("DESC-006").run(_required(name, schema))
    assert finding.severity.value == severity


@pytest.mark.parametrize(
    ("description", "severity"),
    [
        ("Launches browser", "warning"),
        ("Switches branches", "warning"),
        ("Run it.", "critical"),
        ("Search.", "critical"),
        ("", "critical"),
    ],
)
def test_desc_001_short_but_naming_an_action_and_its_object_is_a_warning(description: str, severity: str) -> None:
    [finding] = get_rule("DESC-001").run(
        Tool({"name": "t", "description": description, "inputSchema": {"type": "object"}})
    )
    assert finding.severity.value == severity


def test_sch_003_is_critical_on_a_required_property_and_a_warning_on_one_the_agent_can_leave_out() -> None:
    tool = Tool(
        {
            "name": "create_flag",
            "description": "Create a feature flag.",
            "inputSchema": {
                "type": "object",
                "properties": {
                    "payload": {"description": "What to send"},
                    "variations": {
                        "type": "array",
                        "items": {
                            "type": "object",
                            "properties": {"value": {}, "name": {"anyOf": [{}, {"type": "null"}]}},
                        },
                    },
                    "filter": {"type": "object", "properties": {"value": {}}, "required": ["value"]},
                },
                "required": ["payload"],
            },
        }
    )
    found = {f.pointer: f.severity.value for f in get_rule("SCH-003").run(tool)}
    assert found == {
        "/inputSchema/properties/payload": "critical",  # the agent must fill it, guessing its kind
        "/inputSchema/properties/variations/items/properties/value": "warning",  # optional: it can be left out
        "/inputSchema/properties/variations/items/properties/name/anyOf/0": "warning",  # a branch of an optional one
        "/inputSchema/properties/filter/properties/value": "critical",  # required by its own object
    }
