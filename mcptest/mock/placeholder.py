"""A small value that satisfies a JSON Schema, for echo answers of tools that declare an output schema."""

from __future__ import annotations

from typing import Any

_EMPTY: dict[str, Any] = {"string": "", "integer": 0, "number": 0, "boolean": False, "null": None}


def example(schema: Any, depth: int = 0, root: Any = None) -> Any:
    """A value shaped by `schema`: const, first enum value, minimal required object, or an empty scalar; a local
    `$ref` (`#/$defs/TimeResult`) is followed within `root` (the whole schema, by default `schema` itself)."""
    root = schema if root is None else root
    if not isinstance(schema, dict) or depth > 8:
        return None
    if isinstance(schema.get("$ref"), str):
        return example(_pointer(root, schema["$ref"]), depth + 1, root)
    if "const" in schema:
        return schema["const"]
    if schema.get("enum"):
        return schema["enum"][0]
    if "default" in schema:
        return schema["default"]
    for key in ("anyOf", "oneOf", "allOf"):
        if schema.get(key):
            return example(schema[key][0], depth + 1, root)
    kind = schema.get("type")
    if isinstance(kind, list):
        kind = kind[0] if kind else None
    if kind == "object" or (kind is None and "properties" in schema):
        props = schema.get("properties", {})
        return {name: example(props.get(name, {}), depth + 1, root) for name in schema.get("required", [])}
    if kind == "array":
        return [example(schema.get("items", {}), depth + 1, root) for _ in range(schema.get("minItems", 0))]
    if kind in ("integer", "number"):
        return schema.get("minimum", 0)
    if kind == "string":
        return "x" * schema.get("minLength", 0)
    return _EMPTY.get(kind) if isinstance(kind, str) else None


def _pointer(root: Any, ref: str) -> Any:
    """The schema a local JSON pointer names (`#/$defs/A`, `~1` and `~0` unescaped); None when it names nothing."""
    if not ref.startswith("#"):
        return None
    node = root
    for part in [p.replace("~1", "/").replace("~0", "~") for p in ref[1:].split("/") if p]:
        node = node.get(part) if isinstance(node, dict) else None
    return node
