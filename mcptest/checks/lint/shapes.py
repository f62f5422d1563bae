"""What a property's schema means once `$ref`s are followed and a nullable union is folded (pure functions).

Shared by the rules that look through `anyOf: [X, {type: null}]` (SCH-006, SCH-007, DESC-014) and by the model
view, which prints the folded type the way document 002's `_schema_type` does.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from mcptest.checks.lint.schema_rules import walk
from mcptest.checks.lint.text import types_of

_UNIONS = ("anyOf", "oneOf")
_REF_ROOTS = ("#/$defs/", "#/definitions/")


@dataclass(frozen=True)
class Prop:
    """One property of an object schema, at any depth: its name, schema, and whether its object requires it."""

    name: str
    schema: dict[str, Any]
    required: bool | None
    """Whether the object's `required` list names it; None when the object declares no `required` list."""
    path: tuple[str | int, ...]
    """Path from the inputSchema root: `("properties", "tests", "items", "properties", "owner_id")`."""

    @property
    def top_level(self) -> bool:
        """Whether this is an argument of the tool itself (a property of the inputSchema root)."""
        return len(self.path) == 2


def properties(root: dict[str, Any]) -> list[Prop]:
    """Every object property under `root`: nested objects, array items, union branches and `$defs` included."""
    global _last
    if _last[0] is not root:  # several rules ask for one tool's properties in a row: list them once
        _last = (root, list(_properties(root)))
    return _last[1]


_last: tuple[Any, list[Prop]] = (None, [])


def _properties(root: dict[str, Any]) -> Iterator[Prop]:
    for node in walk(root):
        props = node.schema.get("properties")
        req = node.schema.get("required")
        for name, sub in props.items() if isinstance(props, dict) else ():
            if isinstance(sub, dict):
                yield Prop(name, sub, name in req if isinstance(req, list) else None, (*node.path, "properties", name))


def resolve(schema: dict[str, Any], root: dict[str, Any]) -> dict[str, Any]:
    """`schema` with a local `$ref` (`#/$defs/X`, `#/definitions/X`) or a lone `allOf` member followed."""
    return follow(schema, root, ())[0]


def follow(
    schema: dict[str, Any], root: dict[str, Any], path: tuple[str | int, ...]
) -> tuple[dict[str, Any], tuple[str | int, ...]]:
    """Like `resolve`, also returning the path (from the root) of the schema it lands on."""
    seen: set[str] = set()
    while True:
        ref, all_of = schema.get("$ref"), schema.get("allOf")
        if isinstance(ref, str) and ref not in seen and ref.startswith(_REF_ROOTS):
            seen.add(ref)
            section, _, name = ref[2:].partition("/")
            target = (root.get(section) or {}).get(name)
            if not isinstance(target, dict):
                return schema, path
            schema, path = target, (section, name)
        elif isinstance(all_of, list) and len(all_of) == 1 and isinstance(all_of[0], dict):
            schema, path = all_of[0], (*path, "allOf", 0)
        else:
            return schema, path


def _is_null(schema: Any) -> bool:
    return isinstance(schema, dict) and (
        schema.get("type") == "null" or ("const" in schema and schema["const"] is None) or schema.get("enum") == [None]
    )


def nullable(schema: dict[str, Any]) -> bool:
    """Whether the schema admits null through a type list (`[integer, null]`) or a null union branch."""
    if "null" in types_of(schema) and len(types_of(schema)) > 1:
        return True
    return any(
        isinstance(schema.get(k), list) and any(_is_null(b) for b in schema[k]) and len(schema[k]) > 1 for k in _UNIONS
    )


def branches(schema: dict[str, Any], root: dict[str, Any]) -> list[dict[str, Any]]:
    """The non-null alternatives of a schema, `$ref`s followed: its union branches, or the schema itself."""
    schema = resolve(schema, root)
    for key in _UNIONS:
        if isinstance(schema.get(key), list):
            return [resolve(b, root) for b in schema[key] if isinstance(b, dict) and not _is_null(b)]
    return [schema]


def enum_values(schema: dict[str, Any], root: dict[str, Any]) -> list[Any] | None:
    """The values a schema allows when it enumerates them (`enum`/`const`, in a branch or in array `items`)."""
    found: list[Any] = []
    for branch in branches(schema, root):
        items = branch.get("items")
        if "array" in types_of(branch) and isinstance(items, dict):
            branch = resolve(items, root)
        if isinstance(branch.get("enum"), list):
            found += [v for v in branch["enum"] if v is not None]
        elif "const" in branch and branch["const"] is not None:
            found.append(branch["const"])
    return found or None


def type_label(schema: dict[str, Any], root: dict[str, Any], _open: frozenset[int] = frozenset()) -> str:
    """A readable type: enums spelled out, null branches folded away, arrays with their item type.

    A schema that reaches itself again through `$ref` (a tree whose items are trees) reads `recursive` at the
    point where it comes back, so a cyclic schema never recurses without end."""
    target = resolve(schema, root)
    if id(target) in _open:
        return "recursive"
    labels: list[str] = []
    for branch in branches(schema, root):
        label = _label(branch, root, _open | {id(target)})
        if label not in labels:
            labels.append(label)
    return " | ".join(labels) or "any"


def _label(schema: dict[str, Any], root: dict[str, Any], _open: frozenset[int]) -> str:
    if isinstance(schema.get("enum"), list):
        return " | ".join(json.dumps(v, ensure_ascii=False) for v in schema["enum"] if v is not None)
    if "const" in schema:
        return json.dumps(schema["const"], ensure_ascii=False)
    if any(isinstance(schema.get(k), list) for k in _UNIONS):
        return type_label(schema, root, _open)
    declared = schema.get("type")
    types = [t for t in (declared if isinstance(declared, list) else [declared]) if isinstance(t, str) and t != "null"]
    items = schema.get("items")
    out = [
        f"array of {type_label(items, root, _open)}" if t == "array" and isinstance(items, dict) else t for t in types
    ]
    if not out and isinstance(schema.get("properties"), dict):
        out = ["object"]
    return " | ".join(out) or "any"
