"""JSON Schema checks shared by manifests and snapshots: is a schema valid, and a compiled validator."""

from __future__ import annotations

import json
from typing import Any

from mcptest.core.yaml_source import Loc


def schema_problem(schema: Any) -> tuple[Loc, str] | None:
    """Where and why `schema` is not a valid JSON Schema (under its own `$schema`), or None."""
    if not isinstance(schema, dict):
        return (), f"a schema must be a mapping, got {type(schema).__name__}"
    if "$schema" in schema and not isinstance(schema["$schema"], str):  # jsonschema itself raises on one
        return ("$schema",), f"'$schema' must be a string (a metaschema URI), got {type(schema['$schema']).__name__}"
    try:
        text = json.dumps(schema)
    except (TypeError, ValueError, RecursionError):  # not JSON data: check it as it is
        return _problem(schema)
    # catalogs repeat their schemas (one per tool, many alike): checking against the metaschema is ~0.5 ms each
    if text not in _CHECKED:
        if len(_CHECKED) >= 4096:
            _CHECKED.clear()
        _CHECKED[text] = None if surely_valid(schema) else _problem(schema)
    return _CHECKED[text]


_CHECKED: dict[str, tuple[Loc, str] | None] = {}


def _problem(schema: dict[str, Any]) -> tuple[Loc, str] | None:
    from jsonschema import exceptions, validators

    cls = validators.validator_for(schema)
    error = exceptions.best_match(cls(cls.META_SCHEMA).iter_errors(schema))
    if error is None:
        return None
    return tuple(error.absolute_path), error.message


_DRAFTS = frozenset(
    [
        "https://json-schema.org/draft/2020-12/schema",
        "https://json-schema.org/draft/2020-12/schema#",
        "http://json-schema.org/draft-07/schema",
        "http://json-schema.org/draft-07/schema#",
    ]
)
"""The `$schema` values whose metaschema `surely_valid` models (no `$schema` means 2020-12, the default)."""
_SUBSCHEMA = frozenset(
    [
        "additionalProperties",
        "contains",
        "propertyNames",
        "if",
        "then",
        "else",
        "not",
        "additionalItems",
        "unevaluatedItems",
        "unevaluatedProperties",
        "contentSchema",
    ]
)
_SUBSCHEMA_MAPS = frozenset(["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"])
_SUBSCHEMA_LISTS = frozenset(["allOf", "anyOf", "oneOf", "prefixItems"])
_STRINGS = frozenset(
    [
        "$schema",
        "$ref",
        "$dynamicRef",
        "$recursiveRef",
        "$comment",
        "title",
        "description",
        "pattern",
        "format",
        "contentEncoding",
        "contentMediaType",
    ]
)
_BOOLEANS = frozenset(["uniqueItems", "readOnly", "writeOnly", "deprecated"])
_NUMBERS = frozenset(["maximum", "minimum", "exclusiveMaximum", "exclusiveMinimum"])
_COUNTS = frozenset(
    ["maxLength", "minLength", "maxItems", "minItems", "maxProperties", "minProperties", "maxContains", "minContains"]
)
_UNSURE = frozenset(["$id", "$anchor", "$dynamicAnchor", "$recursiveAnchor", "$vocabulary", "items"])
"""Keywords whose metaschema rule differs between drafts or carries a pattern: left to jsonschema."""
_SIMPLE_TYPES = frozenset(["array", "boolean", "integer", "null", "number", "object", "string"])


def surely_valid(schema: Any) -> bool:
    """True only when `schema` is certainly a valid JSON Schema under its metaschema (2020-12, or draft-07): a
    structural check of every keyword the metaschemas constrain, ~100x cheaper than validating against the
    metaschema. False means "not proven", never "invalid": the caller then asks jsonschema, which gives the error.
    Keywords the metaschemas do not know are valid whatever their value, as they are for jsonschema."""
    draft = schema.get("$schema", _DEFAULT_DRAFT) if isinstance(schema, dict) else _DEFAULT_DRAFT
    if not isinstance(draft, str) or draft not in _DRAFTS | {_DEFAULT_DRAFT}:
        return False
    return _sure(schema, 0)


_DEFAULT_DRAFT = "(default)"


def _sure(node: Any, depth: int) -> bool:
    if isinstance(node, bool):
        return True
    if not isinstance(node, dict) or depth > 64:
        return False
    return all(_sure_keyword(key, value, depth) for key, value in node.items())


def _sure_keyword(key: str, value: Any, depth: int) -> bool:  # noqa: PLR0911 (one branch per kind of keyword)
    if key in _UNSURE:
        return key == "items" and isinstance(value, dict | bool) and _sure(value, depth + 1)
    if key in _SUBSCHEMA:
        return _sure(value, depth + 1)
    if key in _SUBSCHEMA_MAPS:
        return isinstance(value, dict) and all(_sure(v, depth + 1) for v in value.values())
    if key in _SUBSCHEMA_LISTS:
        return isinstance(value, list) and bool(value) and all(_sure(v, depth + 1) for v in value)
    if key in _STRINGS:
        return isinstance(value, str)
    if key in _BOOLEANS:
        return isinstance(value, bool)
    if key in _NUMBERS:
        return _is_number(value)
    if key in _COUNTS:
        return _is_integer(value) and value >= 0
    if key == "multipleOf":
        return _is_number(value) and value > 0
    if key in ("enum", "examples"):
        return isinstance(value, list)
    if key == "required":
        return _unique_strings(value)
    if key == "type":
        if isinstance(value, str):
            return value in _SIMPLE_TYPES
        return isinstance(value, list) and bool(value) and _unique_strings(value) and set(value) <= _SIMPLE_TYPES
    if key == "dependentRequired":
        return isinstance(value, dict) and all(_unique_strings(v) for v in value.values())
    if key == "dependencies":
        return isinstance(value, dict) and all(
            _unique_strings(v) if isinstance(v, list) else _sure(v, depth + 1) for v in value.values()
        )
    return True  # const, default and any keyword no metaschema constrains


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _is_integer(value: Any) -> bool:
    return (isinstance(value, int) and not isinstance(value, bool)) or (isinstance(value, float) and value.is_integer())


def _unique_strings(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(v, str) for v in value) and len(set(value)) == len(value)


def compile_validator(schema: dict[str, Any]) -> Any:
    """A reusable jsonschema validator for an already checked schema."""
    from mcptest.core.json_schema import validator

    return validator(schema)


def ref_problems(schema: Any, limit: int = 10_000) -> list[tuple[Loc, str]]:
    """Every local `$ref` (`#/...`) that points nowhere, or that only leads to other `$ref`s back to itself (a
    cycle no validator can resolve); a recursive schema whose cycle passes through real keywords is fine."""
    if not _has_local_ref(schema, limit):  # most schemas have no `$ref`: tell so without building every place
        return []
    out: list[tuple[Loc, str]] = []
    cycles: set[frozenset[str]] = set()  # each cycle once, where it is first met
    stack: list[tuple[Any, Loc]] = [(schema, ())]
    seen = 0
    while stack and seen < limit:  # a huge schema is walked only so far: the check must not cost more than reading it
        node, loc = stack.pop()
        seen += 1
        if isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str) and ref.startswith("#"):
                found = _ref_problem(schema, ref)
                if found and found[1] not in cycles:
                    out.append(((*loc, "$ref"), found[0]))
                    cycles.add(found[1])
            stack += [(v, (*loc, k)) for k, v in reversed(list(node.items())) if k not in ("enum", "const", "examples")]
        elif isinstance(node, list):
            stack += [(v, (*loc, i)) for i, v in reversed(list(enumerate(node)))]
    return out


def _has_local_ref(schema: Any, limit: int) -> bool:
    """Whether a local `$ref` sits among the first `limit` nodes that `ref_problems` walks."""
    try:
        if '"$ref"' not in json.dumps(schema):  # the C encoder tells most schemas apart in a third of a walk's time
            return False
    except (TypeError, ValueError, RecursionError):
        pass  # not JSON data: walk it
    stack, seen = [schema], 0
    while stack and seen < limit:
        node = stack.pop()
        seen += 1
        if isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str) and ref.startswith("#"):
                return True
            stack += [v for k, v in reversed(list(node.items())) if k not in ("enum", "const", "examples")]
        elif isinstance(node, list):
            stack += reversed(node)  # the same order as `ref_problems`, so the same nodes fall within `limit`
    return False


def _ref_problem(schema: Any, ref: str) -> tuple[str, frozenset[str]] | None:
    """Why following `ref` never reaches a schema, and the refs at fault (one missing, or a cycle's members)."""
    chain = [ref]
    while True:
        target = _resolve(schema, chain[-1])
        if target is _MISSING:
            return f"$ref {json.dumps(chain[-1])} points nowhere in the schema", frozenset(chain[-1:])
        nxt = target.get("$ref") if isinstance(target, dict) else None
        if not isinstance(nxt, str) or not nxt.startswith("#"):
            return None
        if nxt in chain:
            cycle = chain[chain.index(nxt) :]
            return f"$ref cycle that never reaches a schema: {' → '.join([*cycle, nxt])}", frozenset(cycle)
        chain.append(nxt)


_MISSING = object()


def _resolve(schema: Any, ref: str) -> Any:
    """The node a local JSON pointer (`#/$defs/a`, with `~0`/`~1` escapes) names, else _MISSING."""
    from urllib.parse import unquote

    node = schema
    for part in unquote(ref[1:]).split("/")[1:]:
        part = part.replace("~1", "/").replace("~0", "~")
        if isinstance(node, dict) and part in node:
            node = node[part]
        elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
            node = node[int(part)]
        else:
            return _MISSING
    return node
