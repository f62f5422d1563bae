"""The lint reads any catalog the loader accepts without raising: real tools with parts of their schemas replaced by
what a valid JSON Schema may hold where a rule expects an object (a boolean schema, a draft-4 tuple `items`, an
empty `anyOf`, a `$ref` cycle ...). A rule that raises would stop `mcptest lint` and `doctor` on that server."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from mcptest.checks.lint import lint_tools, select_rules
from mcptest.records.catalog import Tool, read_wire

REAL = Path(__file__).parent / "real"
ODD_SCHEMAS: list[Any] = [
    True, False, {},
    {"items": [{"type": "string"}]}, {"type": "array", "items": True}, {"items": False},
    {"prefixItems": [True, {"type": "string"}]},
    {"type": ["string", "null"]}, {"type": []}, {"enum": [None, {"a": 1}, [1], 1.5, True]}, {"enum": ["a"] * 300},
    {"anyOf": [True]}, {"oneOf": [{}, False]}, {"allOf": [False]}, {"not": {}}, {"const": {"x": [1]}},
    {"$ref": "#"}, {"$ref": "#/$defs/A", "$defs": {"A": {"$ref": "#/$defs/A"}}},
    {"type": "object", "properties": {"a": {"$ref": "#"}}}, {"patternProperties": {".*": True}},
    {"dependentRequired": {"a": ["b"]}}, {"if": {"required": ["a"]}, "then": {"required": ["b"]}},
    {"type": "string", "minLength": 10, "maxLength": 1}, {"default": {"a": [1]}}, {"examples": [None, {}]},
    {"type": "string", "description": "Returns 返回 结果 " * 40}, {"type": "string", "description": "x" * 5000},
    {"type": "object", "required": ["a", "a"], "properties": {}}, {"title": "", "description": ""},
]  # fmt: skip
"""Valid JSON Schemas a rule may meet where it expects an object schema with a type."""
ODD_VALUES: list[Any] = [None, [], 0, -1, 1.5, "x", {"$schema": {"a": 1}}, {"$schema": 5}, {"$ref": 5}, {"type": 7}]
"""Values that make a schema invalid: the loader must report them, not raise."""


def _real_tools() -> list[dict[str, Any]]:
    tools = []
    for path in sorted(REAL.glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        listed = data.get("tools", []) if isinstance(data, dict) else data
        tools += [t for t in listed if isinstance(t, dict)]
    return tools


def _nodes(value: Any) -> list[dict[str, Any]]:
    if isinstance(value, dict):
        return [value, *(n for v in value.values() for n in _nodes(v))]
    return [n for v in value for n in _nodes(v)] if isinstance(value, list) else []


@pytest.mark.parametrize("seed", range(4))
def test_no_rule_raises_on_a_valid_catalog_with_odd_schema_parts(seed: int) -> None:
    rng = random.Random(seed)
    real = _real_tools()
    rules = select_rules((), (), strict=True)
    linted = 0
    for _ in range(200):  # the pool of real tools grows with every labelled group, and the draws shift with it
        tool = json.loads(json.dumps(rng.choice(real)))
        for _ in range(rng.randint(1, 3)):
            parents = [n for n in _nodes(tool.get("inputSchema", {})) for k in ("properties", "$defs") if k in n]
            maps = [n[k] for n in parents for k in ("properties", "$defs") if isinstance(n.get(k), dict) and n[k]]
            if not maps:
                continue
            where = rng.choice(maps)
            odd = rng.choice(ODD_VALUES) if rng.random() < 0.1 else rng.choice(ODD_SCHEMAS)
            where[rng.choice(list(where))] = json.loads(json.dumps(odd))
        readable = read_wire({"tools": [tool]}).tools  # an invalid schema is a problem reported, never a raise
        linted += len(readable)
        lint_tools(list(readable), rules)  # raises on the first rule that cannot read the schema
    assert linted >= 120  # the loader let most through: the lint really ran on odd schemas (139 to 164 of 200)


def test_a_draft_4_tuple_or_a_boolean_items_under_a_required_key_is_read() -> None:
    """The two shapes that made DESC-006 raise: `items` as a list (draft 4 tuples) and as `true`."""
    for items in ([{"type": "string"}], True):
        tool = Tool(
            {
                "name": "get_orientation",
                "description": "Get the current screen orientation of the device.",
                "inputSchema": {"type": "object", "properties": {"device": {"items": items}}, "required": ["device"]},
            }
        )
        found = lint_tools([tool], select_rules((), (), strict=True))[0]
        assert "DESC-006" in {f.rule for f in found}  # still asked to describe it, not skipped
