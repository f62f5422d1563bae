"""JSON Schema validation for schemas from suites, manifests and servers: it never fetches and never backtracks.

jsonschema's defaults would download a remote `$ref` (urllib, at run time) and match `pattern` with Python's
backtracking `re`. Every validator mcptest builds comes from `validator()`: an empty registry (a reference must
point inside the schema) and RE2 for `pattern` and `patternProperties` (`mcptest.core.regexes`).
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from typing import Any

from mcptest.core.regexes import RegexError, compile_regex

_REF_KEYS = ("$ref", "$dynamicRef", "$recursiveRef")
_DATA_KEYS = frozenset({"enum", "const", "default", "examples"})  # values, not subschemas


def validator(schema: dict[str, Any]) -> Any:
    """A jsonschema validator for `schema` (its own `$schema` dialect) that resolves references locally only."""
    from referencing import Registry

    return _linear(_dialect(schema))(schema, registry=Registry())


def schema_problems(schema: Any) -> list[str]:
    """What makes a schema unusable by mcptest although it is valid JSON Schema: remote refs, non-RE2 patterns."""
    problems: list[str] = []
    ids = {str(n["$id"]).rstrip("#") for n in _nodes(schema) if isinstance(n.get("$id"), str)}
    for node in _nodes(schema):
        for key in _REF_KEYS:
            ref = node.get(key)
            if isinstance(ref, str) and ref.split("#", 1)[0] not in ("", *ids):
                problems.append(
                    f"{key} {ref!r} points outside the schema; mcptest never fetches schemas: "
                    f"copy it under `$defs` and refer to it as '#/$defs/NAME'"
                )
        patterns = [node["pattern"]] if isinstance(node.get("pattern"), str) else []
        if isinstance(node.get("patternProperties"), dict):
            patterns += list(node["patternProperties"])
        for pattern in patterns:
            try:
                compile_regex(pattern)
            except RegexError as exc:
                problems.append(str(exc))
    return problems


def _nodes(value: Any) -> Iterator[dict[str, Any]]:
    """Every mapping in the schema except literal data (`enum`, `const`, ...), without recursion."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            yield item
            stack.extend(v for k, v in item.items() if k not in _DATA_KEYS)
        elif isinstance(item, list):
            stack.extend(item)


def _dialect(schema: Any) -> Any:
    from jsonschema.validators import validator_for

    return validator_for(schema)


@cache
def _linear(cls: Any) -> Any:
    """`cls` with RE2 behind `pattern` and `patternProperties`."""
    from jsonschema import validators

    return validators.extend(cls, {"pattern": _pattern, "patternProperties": _pattern_properties})


def _pattern(validator: Any, pattern: str, instance: Any, schema: Any) -> Iterator[Any]:
    from jsonschema.exceptions import ValidationError

    if not validator.is_type(instance, "string"):
        return
    try:
        if not compile_regex(pattern).search(instance):
            yield ValidationError(f"{instance!r} does not match {pattern!r}")
    except RegexError as exc:
        yield ValidationError(f"the schema cannot be checked: {exc}")


def _pattern_properties(validator: Any, patterns: dict[str, Any], instance: Any, schema: Any) -> Iterator[Any]:
    if not validator.is_type(instance, "object"):
        return
    from jsonschema.exceptions import ValidationError

    for pattern, subschema in patterns.items():
        try:
            regex = compile_regex(pattern)
        except RegexError as exc:
            yield ValidationError(f"the schema cannot be checked: {exc}")
            continue
        for key, value in instance.items():
            if regex.search(key):
                yield from validator.descend(value, subschema, path=key, schema_path=pattern)
