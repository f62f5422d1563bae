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
_WALKED |= {"default", "examples", "const", "$ref", "$defs", "definitions", "$schema", *UPPER_BOUNDS, *LOWER_BOUNDS}
COMPOSITES = ("anyOf", "oneOf", "allOf")
_WALKED |= set(COMPOSITES)
_REF_DEPTH = 32


@dataclass(frozen=True)
class SchemaChange:
    """One change inside a schema: its class, a stable code, where it is and what it means."""

    severity: str
    code: str
    pointer: str
    message: str


def input_changes(old: dict[str, Any], new: dict[str, Any], at: tuple[str | int, ...]) -> Iterator[SchemaChange]:
    """Changes to what a caller may send: narrowing breaks callers, widening does not, reworded text is risky."""
    yield from _node(resolved(old), resolved(new), at, "", output=False)


def output_changes(old: dict[str, Any], new: dict[str, Any], at: tuple[str | int, ...]) -> Iterator[SchemaChange]:
    """Changes to what a caller reads back: a field removed, no longer guaranteed or retyped breaks it."""
    yield from _node(resolved(old), resolved(new), at, "", output=True)


def resolved(schema: Any) -> Any:
    """The schema with its local `$ref`s (`#/$defs/X`, `#/definitions/X`) replaced by what they point at, so a
    definition that changed is compared where it is used; a recursive reference is left as it is."""

    def walk(node: Any, seen: tuple[str, ...]) -> Any:
        if isinstance(node, list):
            return [walk(x, seen) for x in node]
        if not isinstance(node, dict):
            return node
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/") and ref not in seen and len(seen) < _REF_DEPTH:
            target = _pointed(schema, ref)
            if isinstance(target, dict):
                rest = {k: v for k, v in node.items() if k != "$ref"}
                return walk({**target, **rest}, (*seen, ref))
        return {k: walk(v, seen) for k, v in node.items() if k not in ("$defs", "definitions")}

    return walk(schema, ())


def _pointed(root: Any, ref: str) -> Any:
    node = root
    for part in ref[2:].split("/"):
        part = part.replace("~1", "/").replace("~0", "~")
        node = node.get(part) if isinstance(node, dict) else None
    return node


def canonical(schema: Any) -> str:
    """A schema as canonical JSON (sorted keys), for equality and hashing."""
    return json.dumps(schema, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _node(old: Any, new: Any, at: tuple[str | int, ...], name: str, *, output: bool) -> Iterator[SchemaChange]:
    if not isinstance(old, dict) or not isinstance(new, dict) or old == new:
        return
    where = pointer(*at)
    label = f"argument '{name}'" if name and not output else f"output field '{name}'" if name else "the schema"
    if _composite(old) != _composite(new) or _composite(old) is not None:
        yield from _composites(old, new, at, name, label, output)
        if _composite(old) is None or _composite(new) is None:
            return  # the plain side was compared as one branch of the other
    yield from _types(old, new, where, label, output)
    yield from _enum(old, new, where, label, output)
    if not output:
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


def _enum(old: dict[str, Any], new: dict[str, Any], where: str, label: str, output: bool) -> Iterator[SchemaChange]:
    before, after = _allowed(old), _allowed(new)
    if before == after:
        return
    if output:  # a reader meets a new value it may not handle; a value gone only narrows what it reads
        if before is not None and after is not None:
            gone = [v for v in before if v not in after]
            added = [v for v in after if v not in before]
            if added:
                yield SchemaChange(
                    "breaking", "output_enum_value_added", where, f"{label}: enum gained {_values(added)}"
                )
            if gone:
                text = f"{label}: enum lost {_values(gone)}"
                yield SchemaChange("compatible", "output_enum_value_removed", where, text)
        elif after is None:
            yield SchemaChange(
                "breaking", "output_enum_removed", where, f"{label}: no longer limited to {_values(before)}"
            )
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


def _allowed(schema: dict[str, Any]) -> list[Any] | None:
    """The values an `enum` (or a `const`, one value) allows; None when it lists none."""
    if "const" in schema:
        return [schema["const"]]
    value = schema.get("enum")
    return list(value) if isinstance(value, list) else None


def _composite(schema: dict[str, Any]) -> str | None:
    return next((k for k in COMPOSITES if isinstance(schema.get(k), list)), None)


def _composites(
    old: dict[str, Any], new: dict[str, Any], at: tuple[str | int, ...], name: str, label: str, output: bool
) -> Iterator[SchemaChange]:
    """`anyOf`/`oneOf`/`allOf` compared branch by branch: each old branch paired with the new branch most like it,
    the pairs compared like any schema, the branches left over reported added or removed. A plain schema on one side
    counts as the one branch of a composite on the other (a field that became `anyOf: [old shape, new shape]`).

    A branch added to an `anyOf`/`oneOf` widens what it allows: compatible for an argument, breaking for an output
    (the reader meets a shape it does not know); a branch removed is the reverse. An `allOf` branch narrows instead.
    """
    key = _composite(new) or _composite(old)
    assert key is not None
    olds = old[key] if _composite(old) == key else [_plain(old)]
    news = new[key] if _composite(new) == key else [_plain(new)]
    pairs = _pair_branches(olds, news)
    for i, j in pairs:
        inner = (*at, key, j) if _composite(new) == key else at
        yield from _node(olds[i], news[j], inner, f"{name} ({key}[{j}])" if name else f"{key}[{j}]", output=output)
    widening = key != "allOf"
    for j in sorted(set(range(len(news))) - {j for _, j in pairs}):
        breaks = output == widening
        text = f"{label}: {key} branch {j} added ({_sketch(news[j])})"
        yield SchemaChange("breaking" if breaks else "compatible", f"{key}_branch_added", pointer(*at, key, j), text)
    for i in sorted(set(range(len(olds))) - {i for i, _ in pairs}):
        breaks = output != widening
        text = f"{label}: {key} branch {i} removed ({_sketch(olds[i])})"
        yield SchemaChange("breaking" if breaks else "compatible", f"{key}_branch_removed", pointer(*at, key), text)


def _plain(schema: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in schema.items() if k not in COMPOSITES and k not in ("description", "title")}


def _pair_branches(olds: list[Any], news: list[Any]) -> list[tuple[int, int]]:
    """(old index, new index) of the branches that are one branch changed, most alike first."""
    scored = sorted(
        ((_branch_likeness(a, b), i, j) for i, a in enumerate(olds) for j, b in enumerate(news)), reverse=True
    )
    taken_old: set[int] = set()
    taken_new: set[int] = set()
    pairs = []
    for score, i, j in scored:
        if score > 0 and i not in taken_old and j not in taken_new:
            taken_old.add(i)
            taken_new.add(j)
            pairs.append((i, j))
    return sorted(pairs)


def _branch_likeness(a: Any, b: Any) -> float:
    """0 when two branches cannot be one changed (different types, no shared field or value); up to 3 when equal."""
    if not isinstance(a, dict) or not isinstance(b, dict):
        return 0.0
    if a == b:
        return 3.0
    if not (_type_set(a) & _type_set(b)):
        return 0.0
    props_a, props_b = set(a.get("properties") or ()), set(b.get("properties") or ())
    fields = len(props_a & props_b) / len(props_a | props_b) if props_a | props_b else 0.5
    values_a = _allowed(a) or _allowed((a.get("properties") or {}).get("type") or {}) or []
    values_b = _allowed(b) or _allowed((b.get("properties") or {}).get("type") or {}) or []
    shared = {json.dumps(v) for v in values_a} & {json.dumps(v) for v in values_b}
    if (values_a or values_b) and not shared:
        return 0.0 if props_a != props_b else 0.1
    return 1.0 + fields


def _sketch(schema: Any) -> str:
    """A branch in a few words: its type, its tag value, its fields."""
    if not isinstance(schema, dict):
        return "any"
    props = schema.get("properties") or {}
    tag = _allowed(props.get("type") or {}) if isinstance(props, dict) else None
    parts = [_show(_type_set(schema))]
    if tag:
        parts.append(f"type {_values(tag)}")
    if props:
        parts.append("fields " + ", ".join(props))
    return "; ".join(parts)


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
