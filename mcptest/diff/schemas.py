"""How a JSON Schema changed, judged from the caller's side: what a caller sends (input) or reads (output)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from mcptest.checks.findings import pointer

ALL_TYPES = frozenset({"string", "number", "integer", "boolean", "object", "array", "null"})
UPPER_BOUNDS = ("maxLength", "maximum", "exclusiveMaximum", "maxItems", "maxProperties")
LOWER_BOUNDS = ("minLength", "minimum", "exclusiveMinimum", "minItems", "minProperties")
_WALKED = {"type", "enum", "properties", "required", "items", "additionalProperties", "description", "title"}
_WALKED |= {"default", "examples", *UPPER_BOUNDS, *LOWER_BOUNDS}


@dataclass(frozen=True)
class SchemaChange:
    """One change inside a schema: its class, a stable code, where it is and what it means."""

    severity: str
    code: str
    pointer: str
    message: str


def input_changes(old: dict[str, Any], new: dict[str, Any], at: tuple[str | int, ...]) -> Iterator[SchemaChange]:
    """Changes to what a caller may send: narrowing breaks callers, widening does not, reworded text is risky."""
    yield from _node(old, new, at, "", output=False)


def output_changes(old: dict[str, Any], new: dict[str, Any], at: tuple[str | int, ...]) -> Iterator[SchemaChange]:
    """Changes to what a caller reads back: a field removed, no longer guaranteed or retyped breaks it."""
    yield from _node(old, new, at, "", output=True)


def canonical(schema: Any) -> str:
    """A schema as canonical JSON (sorted keys), for equality and hashing."""
    return json.dumps(schema, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _node(old: Any, new: Any, at: tuple[str | int, ...], name: str, *, output: bool) -> Iterator[SchemaChange]:
    if not isinstance(old, dict) or not isinstance(new, dict) or old == new:
        return
    where = pointer(*at)
    label = f"argument '{name}'" if name and not output else f"output field '{name}'" if name else "the schema"
    yield from _types(old, new, where, label, output)
    if not output:
        yield from _enum(old, new, where, label)
        yield from _bounds(old, new, where, label)
        for key in ("description", "default"):
            if key in old and old.get(key) != new.get(key) and name:
                yield SchemaChange("risky", f"argument_{key}_changed", pointer(*at, key), f"{label}: {key} changed")
    yield from _properties(old, new, at, name, output)
    if isinstance(old.get("items"), dict) and isinstance(new.get("items"), dict):
        yield from _node(old["items"], new["items"], (*at, "items"), f"{name}[]" if name else "[]", output=output)
    rest_old = {k: v for k, v in old.items() if k not in _WALKED}
    rest_new = {k: v for k, v in new.items() if k not in _WALKED}
    if rest_old != rest_new:
        keys = sorted(k for k in set(rest_old) | set(rest_new) if rest_old.get(k) != rest_new.get(k))
        yield SchemaChange("risky", "constraint_changed", where, f"{label}: {', '.join(keys)} changed")


def _types(old: dict[str, Any], new: dict[str, Any], where: str, label: str, output: bool) -> Iterator[SchemaChange]:
    before, after = _type_set(old), _type_set(new)
    if before == after:
        return
    text = f"{label}: type {_show(before)} → {_show(after)}"
    if output:
        yield SchemaChange("breaking", "output_type_changed", where, text)
    elif after < before:
        yield SchemaChange("breaking", "type_narrowed", where, text)
    elif after > before:
        yield SchemaChange("compatible", "type_widened", where, text)
    else:
        yield SchemaChange("breaking", "type_changed", where, text)


def _enum(old: dict[str, Any], new: dict[str, Any], where: str, label: str) -> Iterator[SchemaChange]:
    before, after = old.get("enum"), new.get("enum")
    if before == after:
        return
    if before is None:
        yield SchemaChange("breaking", "enum_added", where, f"{label}: now limited to {_values(after)}")
    elif after is None:
        yield SchemaChange("compatible", "enum_removed", where, f"{label}: no longer limited to a list of values")
    else:
        gone = [v for v in before if v not in after]
        added = [v for v in after if v not in before]
        if gone:
            yield SchemaChange("breaking", "enum_value_removed", where, f"{label}: enum lost {_values(gone)}")
        if added:
            yield SchemaChange("compatible", "enum_value_added", where, f"{label}: enum gained {_values(added)}")


def _bounds(old: dict[str, Any], new: dict[str, Any], where: str, label: str) -> Iterator[SchemaChange]:
    for keys, tighter in ((UPPER_BOUNDS, lambda a, b: b < a), (LOWER_BOUNDS, lambda a, b: b > a)):
        for key in keys:
            a, b = old.get(key), new.get(key)
            if a == b or not all(isinstance(v, int | float) or v is None for v in (a, b)):
                continue
            text = f"{label}: {key} {_num(a)} → {_num(b)}"
            if a is None or (b is not None and tighter(a, b)):
                yield SchemaChange("breaking", f"{key}_tightened", where, text)
            else:
                yield SchemaChange("compatible", f"{key}_loosened", where, text)


def _properties(
    old: dict[str, Any], new: dict[str, Any], at: tuple[str | int, ...], name: str, output: bool
) -> Iterator[SchemaChange]:
    props_old, props_new = old.get("properties") or {}, new.get("properties") or {}
    req_old, req_new = set(old.get("required") or ()), set(new.get("required") or ())
    if not isinstance(props_old, dict) or not isinstance(props_new, dict):
        return
    noun = "output field" if output else "argument"
    for prop in props_old:
        child = f"{name}.{prop}" if name else prop
        where = pointer(*at, "properties", prop)
        if prop not in props_new:
            yield SchemaChange("breaking", f"{noun.replace(' ', '_')}_removed", where, f"{noun} '{child}' removed")
            continue
        if output and prop in req_old and prop not in req_new:
            yield SchemaChange("breaking", "output_field_optional", where, f"output field '{child}' no longer required")
        elif not output and prop not in req_old and prop in req_new:
            yield SchemaChange("breaking", "argument_now_required", where, f"argument '{child}' optional → required")
        elif not output and prop in req_old and prop not in req_new:
            yield SchemaChange("compatible", "argument_now_optional", where, f"argument '{child}' required → optional")
        yield from _node(props_old[prop], props_new[prop], (*at, "properties", prop), child, output=output)
    for prop in props_new:
        if prop in props_old:
            continue
        child, where = f"{name}.{prop}" if name else prop, pointer(*at, "properties", prop)
        if output:
            yield SchemaChange("compatible", "output_field_added", where, f"output field '{child}' added")
        elif prop in req_new:
            yield SchemaChange("breaking", "required_argument_added", where, f"required argument '{child}' added")
        else:
            yield SchemaChange("compatible", "optional_argument_added", where, f"optional argument '{child}' added")
    if not output and old.get("additionalProperties") is not False and new.get("additionalProperties") is False:
        yield SchemaChange("breaking", "extra_arguments_refused", pointer(*at), f"{_of(name)}: extra keys now refused")
    elif not output and old.get("additionalProperties") is False and new.get("additionalProperties") is not False:
        yield SchemaChange("compatible", "extra_arguments_allowed", pointer(*at), f"{_of(name)}: extra keys allowed")


def _type_set(schema: dict[str, Any]) -> frozenset[str]:
    value = schema.get("type")
    if value is None:
        return ALL_TYPES
    types = {value} if isinstance(value, str) else {t for t in value if isinstance(t, str)}
    return frozenset(types | ({"integer"} if "number" in types else set()))


def _show(types: frozenset[str]) -> str:
    if types == ALL_TYPES:
        return "any"
    shown = sorted(types - {"integer"} if "number" in types else types)
    return "|".join(shown)


def _values(values: Any) -> str:
    return ", ".join(json.dumps(v, ensure_ascii=False) for v in values or ())


def _num(value: Any) -> str:
    return "none" if value is None else f"{value:g}"


def _of(name: str) -> str:
    return f"'{name}'" if name else "the arguments"
