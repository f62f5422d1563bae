"""The metaschema fast path (core/schema_checks.surely_valid) never calls an invalid schema valid: every schema it
proves valid, jsonschema finds valid too, and it leaves each kind of invalid schema to jsonschema."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mcptest.core.schema_checks import schema_problem, surely_valid

ROOT = Path(__file__).resolve().parents[2]
CATALOGS = sorted((ROOT / "tests" / "lint" / "real").glob("*.json")) + sorted(
    (ROOT / "tests" / "lint" / "fixtures").glob("*.json")
)


def _schemas() -> list[dict]:
    out = []
    for path in CATALOGS:
        data = json.loads(path.read_text(encoding="utf-8"))
        tools = data.get("tools") if isinstance(data, dict) else data
        for tool in tools if isinstance(tools, list) else []:
            out += [tool[k] for k in ("inputSchema", "outputSchema") if isinstance(tool.get(k), dict)]
    return out


def test_every_real_schema_the_fast_path_proves_valid_jsonschema_finds_valid() -> None:
    from jsonschema import validators

    schemas = _schemas()
    proven = [s for s in schemas if surely_valid(s)]
    assert len(proven) >= 0.95 * len(schemas)  # the fast path is what makes reading a large catalog cheap
    distinct = list({json.dumps(s, sort_keys=True): s for s in proven}.values())
    for schema in distinct[::4]:  # a fixed quarter of the distinct ones: jsonschema's check is ~20 ms each
        cls = validators.validator_for(schema)
        assert list(cls(cls.META_SCHEMA).iter_errors(schema)) == [], schema


@pytest.mark.parametrize(
    "schema",
    [
        {"type": "strin"},
        {"type": []},
        {"type": ["string", "string"]},
        {"required": "a"},
        {"required": ["a", "a"]},
        {"minLength": -1},
        {"maxItems": 1.5},
        {"multipleOf": 0},
        {"properties": {"a": 3}},
        {"anyOf": []},
        {"enum": "a"},
        {"items": [{"type": "string"}]},  # an array of schemas is draft-07's, not 2020-12's
        {"properties": {"a": {"properties": {"b": {"type": "nope"}}}}},
        {"dependentRequired": {"a": [1]}},
    ],
)
def test_each_kind_of_invalid_schema_is_left_to_jsonschema_which_reports_it(schema: dict) -> None:
    assert not surely_valid(schema)
    assert schema_problem(schema) is not None


def test_an_unknown_draft_and_keywords_the_metaschema_does_not_know() -> None:
    assert not surely_valid({"$schema": "http://json-schema.org/draft-04/schema#", "type": "string"})
    assert surely_valid({"type": "object", "x-anything": [1, {"type": 3}], "properties": {}})
    assert schema_problem({"type": "object", "x-anything": [1, {"type": 3}]}) is None
