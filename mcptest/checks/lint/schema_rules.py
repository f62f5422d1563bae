"""SCH rules: strict input-schema lint, recursing into nested objects, arrays, anyOf/oneOf/allOf and $defs."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from mcptest.checks.findings import Hit, pointer
from mcptest.checks.lint.text import types_of
from mcptest.records.catalog import Tool

_BRANCHES = ("anyOf", "oneOf", "allOf")
_TYPED_BY = ("type", "enum", "const", "$ref", *_BRANCHES)


@dataclass(frozen=True)
class Node:
    """One schema in the tree: where it is, and whether it is (a branch of) an object's property."""

    path: tuple[str | int, ...]
    schema: dict[str, Any]
    is_property: bool

    @property
    def pointer(self) -> str:
        """JSON pointer of this schema inside the tool object."""
        return pointer("inputSchema", *self.path)

    @property
    def where(self) -> str:
        """A short human name: `properties.tags.items.properties.label`, or `inputSchema` for the root."""
        return ".".join(str(p) for p in self.path) or "inputSchema"


def walk(schema: Any) -> list[Node]:
    """Every sub-schema of `schema`, depth first; anyOf/oneOf/allOf branches inherit property-ness."""
    global _last
    if _last[0] is not schema:  # the four SCH rules run back to back on one tool: walk its schema once
        _last = (schema, _walk(schema))
    return _last[1]


_last: tuple[Any, list[Node]] = (None, [])


def _walk(root: Any) -> list[Node]:
    out: list[Node] = []
    stack: list[tuple[Any, tuple[str | int, ...], bool]] = [(root, (), False)]
    while stack:
        schema, path, is_property = stack.pop()
        if not isinstance(schema, dict):
            continue
        out.append(Node(path, schema, is_property))
        children: list[tuple[Any, tuple[str | int, ...], bool]] = []
        props = schema.get("properties")
        children += [(sub, (*path, "properties", n), True) for n, sub in _items(props)]
        children += [(schema.get(k), (*path, k), False) for k in ("items", "additionalProperties")]
        for key in ("prefixItems", *_BRANCHES):
            branch = is_property and key in _BRANCHES
            children += [(sub, (*path, key, i), branch) for i, sub in enumerate(_list(schema.get(key)))]
        for key in ("$defs", "definitions"):
            children += [(sub, (*path, key, n), False) for n, sub in _items(schema.get(key))]
        stack.extend(reversed(children))
    return out


def _items(value: Any) -> list[tuple[str, Any]]:
    return list(value.items()) if isinstance(value, dict) else []


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _is_object(schema: dict[str, Any]) -> bool:
    return "object" in types_of(schema) or isinstance(schema.get("properties"), dict)


def _all_defaulted(props: Any) -> bool:
    return isinstance(props, dict) and all(isinstance(p, dict) and "default" in p for p in props.values())


def sch_001_no_required_list(tool: Tool) -> Iterator[Hit]:
    """An object declares `properties` but no `required` list.

    What it flags: any object schema in the input (the root, a nested object, an array's items, an anyOf
    branch) with non-empty `properties` and no `required` array, unless every property declares a `default`:
    such an object is plainly all-optional, and a `required: []` would add nothing.
    Why it matters: without `required` every argument is optional, so the agent cannot tell what it must send
    and the server has to reject incomplete calls itself.
    Example: `{"type": "object", "properties": {"city": {"type": "string"}}}`
    Fix: `"required": ["city"]` (an empty list `[]` states that all are optional on purpose).
    """
    for node in walk(tool.input_schema):
        props = node.schema.get("properties")
        if props and not isinstance(node.schema.get("required"), list) and not _all_defaulted(props):
            yield Hit(f"{node.where}: properties but no required list", "Add a required list.", node.pointer)


def sch_002_additional_properties_open(tool: Tool) -> Iterator[Hit]:
    """`additionalProperties` is not `false`.

    What it flags: any object schema in the input that declares at least one property and whose
    `additionalProperties` is absent or anything but `false`. An object without properties (a tool that takes
    no arguments, `properties: {}`, or a free-form map) has no argument name to misspell and is left alone.
    Why it matters: an open object accepts misspelled or invented argument names silently; the agent's typo
    (`citty`) is dropped instead of rejected, and the call does something other than intended.
    Example: `{"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}`
    Fix: add `"additionalProperties": false`.
    """
    for node in walk(tool.input_schema):
        if (
            _is_object(node.schema)
            and node.schema.get("properties")
            and node.schema.get("additionalProperties") is not False
        ):
            yield Hit(
                f"{node.where}: additionalProperties is not false", "Add additionalProperties: false.", node.pointer
            )


def sch_003_untyped_property(tool: Tool) -> Iterator[Hit]:
    """A property declares neither `type` nor `enum`.

    What it flags: a property, at any depth, with no `type` and no `enum`. A property that declares `const`,
    a `$ref`, or `anyOf`/`oneOf`/`allOf` branches counts as typed; each branch is then checked in turn.
    Why it matters: an untyped property accepts anything, so the agent has to guess between a string, a
    number and an object; it is the first cause of validation loops (see a string `priority` sent to an
    integer field).
    Example: `"properties": {"priority": {"description": "How urgent"}}`
    Fix: `"priority": {"type": "integer", "minimum": 1, "maximum": 5, "description": "How urgent"}`
    """
    for node in walk(tool.input_schema):
        if node.is_property and not any(key in node.schema for key in _TYPED_BY):
            yield Hit(f"{node.where}: neither type nor enum", "Declare a type (or an enum).", node.pointer)
