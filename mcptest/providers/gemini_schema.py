"""An MCP inputSchema in Gemini's function-declaration subset of JSON Schema (OpenAPI 3.0 style).

What Gemini cannot express is rewritten to an equivalent where one exists (`$ref` inlined, `oneOf` as `anyOf`,
`const` as a one-value `enum`, `type: [T, "null"]` as `nullable`, `examples` as `example`, a single-schema `allOf`
merged) and otherwise left out with a problem naming the field, so that `doctor --model-view --provider gemini` can
warn: never dropped silently. Pure data in, data out: no SDK import.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

# The keys Gemini's Schema object takes (generativelanguage v1beta `Schema`).
_KEPT = {
    "type", "format", "title", "description", "nullable", "enum", "maxItems", "minItems", "properties", "required",
    "minProperties", "maxProperties", "minLength", "maxLength", "pattern", "example", "anyOf", "propertyOrdering",
    "default", "items", "minimum", "maximum",
}  # fmt: skip
_METADATA = {"$schema", "$id", "$comment", "$defs", "definitions"}
"""Keys that tell a validator, not the model, what the schema is: left out without a word ($defs are inlined)."""
_FORMATS = {"string": {"enum", "date-time"}, "integer": {"int32", "int64"}, "number": {"float", "double"}}
_MAX_DEPTH = 12


@dataclass
class Translated:
    """The schema Gemini is sent and what could not be carried over (`(field path, what was lost)`)."""

    schema: dict[str, Any]
    problems: list[tuple[str, str]] = field(default_factory=list)


def translate(schema: dict[str, Any] | None) -> Translated:
    """`schema` as Gemini's parameters object; an absent schema is an empty object."""
    out = Translated({})
    root: dict[str, Any] = schema if isinstance(schema, dict) else {"type": "object"}
    defs: dict[str, Any] = {}
    for key in ("definitions", "$defs"):
        if isinstance(root.get(key), dict):
            defs.update(root[key])
    out.schema = _node(root, "", defs, out.problems, 0, ())
    out.schema.setdefault("type", "object")
    return out


def _node(
    node: Any, path: str, defs: dict[str, Any], problems: list[tuple[str, str]], depth: int, seen: tuple[str, ...]
) -> dict[str, Any]:
    if not isinstance(node, dict):
        if node is not True:
            problems.append((path or "(root)", f"a boolean schema `{node}` has no Gemini equivalent"))
        return {}
    if depth > _MAX_DEPTH:
        problems.append((path, f"nested deeper than {_MAX_DEPTH} levels: the rest is left out"))
        return {}
    node = dict(node)
    ref = node.pop("$ref", None)
    if isinstance(ref, str):
        name = ref.rsplit("/", 1)[-1]
        if ref in seen or name not in defs:
            why = "a recursive $ref" if ref in seen else "a $ref that is not under $defs"
            problems.append((f"{path}.$ref" if path else "$ref", f"{why} ({ref}) cannot be inlined: left out"))
        else:
            node = {**defs[name], **node}  # the referring node's own keys (description...) win
            return _node(node, path, defs, problems, depth + 1, (*seen, ref))
    out: dict[str, Any] = {}
    _type(node, out, path, problems)
    if "const" in node:
        value = node.pop("const")
        if isinstance(value, str):
            out["enum"] = [value]
            out.setdefault("type", "string")
        else:
            problems.append((_at(path, "const"), f"const {value!r} is not a string: Gemini's enum takes strings"))
    if "enum" in node:
        values = node.pop("enum")
        if isinstance(values, list) and all(isinstance(v, str) for v in values):
            out["enum"] = [v for v in values]
        elif isinstance(values, list) and all(isinstance(v, str) or v is None for v in values):
            out["enum"], out["nullable"] = [v for v in values if v is not None], True
        else:
            problems.append((_at(path, "enum"), "an enum of non-string values: Gemini's enum takes strings"))
    if "examples" in node:
        examples = node.pop("examples")
        if isinstance(examples, list) and examples and "example" not in node:
            out["example"] = examples[0]
    for combinator in ("oneOf", "anyOf"):
        if combinator in node:
            options = node.pop(combinator)
            if isinstance(options, list):
                opts = [o for o in options if not (isinstance(o, dict) and o.get("type") == "null")]
                if len(opts) < len(options):
                    out["nullable"] = True
                branches = [
                    _node(o, f"{_at(path, combinator)}[{i}]", defs, problems, depth + 1, seen)
                    for i, o in enumerate(opts)
                ]
                if len(branches) == 1:
                    out = {**branches[0], **out}
                elif branches:
                    out["anyOf"] = out.get("anyOf", []) + branches
    if "allOf" in node:
        parts = node.pop("allOf")
        if isinstance(parts, list) and len(parts) == 1:
            out = {**_node(parts[0], _at(path, "allOf[0]"), defs, problems, depth + 1, seen), **out}
        elif isinstance(parts, list) and all(isinstance(p, dict) for p in parts):
            merged = _merge_objects(parts)
            if merged is None:
                problems.append((_at(path, "allOf"), "an allOf of non-object schemas has no Gemini equivalent"))
            else:
                inner = _node(merged, _at(path, "allOf"), defs, problems, depth + 1, seen)
                out = {**inner, **out}
    if "additionalProperties" in node:
        extra = node.pop("additionalProperties")
        if extra is not False and not node.get("properties") and extra != {}:
            problems.append(
                (_at(path, "additionalProperties"), "a map of free keys (additionalProperties) cannot be declared")
            )
        # `false`: Gemini fills only the declared properties, which is what false asks for
    if "properties" in node and isinstance(node["properties"], dict):
        out["properties"] = {
            k: _node(v, _at(path, f"properties.{k}"), defs, problems, depth + 1, seen)
            for k, v in node.pop("properties").items()
        }
    if "items" in node:
        items = node.pop("items")
        if isinstance(items, dict):
            out["items"] = _node(items, _at(path, "items"), defs, problems, depth + 1, seen)
        else:
            problems.append((_at(path, "items"), "tuple-style items (a list of schemas) cannot be declared"))
    fmt = node.pop("format", None)
    if fmt is not None:
        if fmt in _FORMATS.get(str(out.get("type", "")), set()):
            out["format"] = fmt
        else:
            problems.append((_at(path, "format"), f"format {fmt!r} is not one Gemini knows for {out.get('type')}"))
    for bound, kept in (("exclusiveMinimum", "minimum"), ("exclusiveMaximum", "maximum")):
        if bound in node:
            value = node.pop(bound)
            if isinstance(value, bool):  # draft 4: a flag on minimum/maximum
                if value:
                    problems.append((_at(path, bound), f"an exclusive bound is shown as the inclusive {kept}"))
            elif isinstance(value, (int, float)) and out.get("type") == "integer":
                out[kept] = value + 1 if bound == "exclusiveMinimum" else value - 1  # the same integers
            else:
                problems.append((_at(path, bound), f"{bound} {value} is shown as the inclusive {kept}"))
                out[kept] = value
    for key, value in node.items():
        if key in _KEPT and key not in out:
            out[key] = value
        elif key not in _KEPT and key not in _METADATA and key not in ("$ref",):
            problems.append((_at(path, key), f"`{key}` has no Gemini equivalent: left out"))
    if isinstance(out.get("required"), list) and isinstance(out.get("properties"), dict):
        out["required"] = [r for r in out["required"] if r in out["properties"]]
    return out


def _type(node: dict[str, Any], out: dict[str, Any], path: str, problems: list[tuple[str, str]]) -> None:
    kind = node.pop("type", None)
    if isinstance(kind, list):
        kinds = [k for k in kind if k != "null"]
        if len(kinds) < len(kind):
            out["nullable"] = True
        if len(kinds) == 1:
            out["type"] = kinds[0]
        elif kinds:
            out["anyOf"] = [{"type": k} for k in kinds]
    elif isinstance(kind, str):
        if kind == "null":
            problems.append((_at(path, "type"), "a value that can only be null cannot be declared"))
        else:
            out["type"] = kind


def _merge_objects(parts: list[dict[str, Any]]) -> dict[str, Any] | None:
    """allOf of object schemas as one object: properties and required united."""
    if not all(
        p.get("type", "object") == "object" and set(p) <= {"type", "properties", "required", "description"}
        for p in parts
    ):
        return None
    merged: dict[str, Any] = {"type": "object", "properties": {}, "required": []}
    for p in parts:
        merged["properties"].update(p.get("properties") or {})
        merged["required"] += [r for r in p.get("required") or [] if r not in merged["required"]]
    return merged


def _at(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key
