"""The pure pieces behind the server: interpolation, fault parsing, schema-shaped stubs."""

from __future__ import annotations

import pytest

from mcptest.core.errors import UserError
from mcptest.mock.faults import Action, Fault, FaultState, parse_fault
from mcptest.mock.interpolate import render
from mcptest.mock.placeholder import example


def test_render_interpolates_every_string_and_leaves_keys_and_other_values_alone() -> None:
    args = {"city": "Oslo", "days": 3, "opts": {"units": "C"}, "tags": ["a"], "ok": None}
    canned = {
        "content": [{"type": "text", "text": "${args.city} for ${args.days} days in ${args.opts.units} ${args.tags}"}],
        "structuredContent": {"${args.city}": "${args.ok}|${args.missing}|$${args.city}", "n": 1},
    }
    assert render(canned, args) == {
        "content": [{"type": "text", "text": 'Oslo for 3 days in C ["a"]'}],
        "structuredContent": {"${args.city}": "null||${args.city}", "n": 1},
    }


@pytest.mark.parametrize(
    ("text", "fault"),
    [
        ("none", Fault()),
        ("hang", Fault("hang")),
        ("error", Fault("error")),
        ("slow:250", Fault("slow", 250)),
        ("recover-after:2", Fault("recover-after", 2)),
        ("crash-after:0", Fault("crash-after", 0)),
    ],
)
def test_every_fault_kind_parses_and_prints_back_as_written(text: str, fault: Fault) -> None:
    assert parse_fault(text) == fault
    assert str(fault) == text


def test_a_malformed_fault_raises_a_user_error() -> None:
    with pytest.raises(UserError):
        parse_fault("slow:fast")


def test_fault_state_decides_each_call_in_order() -> None:
    recover, crash = FaultState(Fault("recover-after", 1)), FaultState(Fault("crash-after", 2))
    assert [recover.next_call() for _ in range(3)] == [Action(fail=True), Action(), Action()]
    assert [crash.next_call() for _ in range(3)] == [Action(), Action(), Action(crash=True)]
    assert FaultState(Fault("hang")).next_call() == Action(delay=None)
    assert FaultState(Fault("slow", 1500)).next_call() == Action(delay=1.5)


def test_example_builds_the_smallest_value_a_schema_accepts() -> None:
    schema = {
        "type": "object",
        "required": ["id", "kind", "tags", "score", "when"],
        "properties": {
            "id": {"type": "string", "minLength": 2},
            "kind": {"enum": ["a", "b"]},
            "tags": {"type": "array", "items": {"type": "string"}, "minItems": 1},
            "score": {"type": "number", "minimum": 1},
            "when": {"anyOf": [{"type": "null"}, {"type": "string"}]},
            "unused": {"type": "string"},
        },
    }
    assert example(schema) == {"id": "xx", "kind": "a", "tags": [""], "score": 1, "when": None}
