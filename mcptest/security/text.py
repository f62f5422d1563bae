"""The text a model reads from one catalog entry, each piece with its JSON pointer: what the SEC rules scan."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from mcptest.lint.findings import pointer

_PROSE_KEYS = ("description", "title")
_VALUE_KEYS = ("default", "examples", "enum", "const")


def prose(raw: dict[str, Any]) -> Iterator[tuple[str, str]]:
    """Every description and title of an entry, its arguments and their nested schemas: (pointer, text)."""
    for key in _PROSE_KEYS:
        if isinstance(raw.get(key), str):
            yield pointer(key), raw[key]
    for key in ("inputSchema", "outputSchema"):
        if isinstance(raw.get(key), dict):
            yield from _schema_prose(raw[key], (key,))
    for i, arg in enumerate(raw.get("arguments") or ()):
        if isinstance(arg, dict) and isinstance(arg.get("description"), str):
            yield pointer("arguments", i, "description"), arg["description"]


def names(raw: dict[str, Any]) -> Iterator[tuple[str, str]]:
    """The entry's name and every argument name: (pointer, name)."""
    if isinstance(raw.get("name"), str):
        yield pointer("name"), raw["name"]
    schema = raw.get("inputSchema")
    if isinstance(schema, dict):
        for at, prop in _properties(schema, ("inputSchema",)):
            yield pointer(*at), prop
    for i, arg in enumerate(raw.get("arguments") or ()):
        if isinstance(arg, dict) and isinstance(arg.get("name"), str):
            yield pointer("arguments", i, "name"), arg["name"]


def values(raw: dict[str, Any]) -> Iterator[tuple[str, str]]:
    """Every string a schema offers as a value (defaults, examples, enums, consts): (pointer, text)."""
    for key in ("inputSchema", "outputSchema"):
        if isinstance(raw.get(key), dict):
            yield from _schema_values(raw[key], (key,))


def everything(raw: dict[str, Any]) -> Iterator[tuple[str, str]]:
    """Names, prose and values together."""
    yield from names(raw)
    yield from prose(raw)
    yield from values(raw)


def _schema_prose(schema: dict[str, Any], at: tuple[str | int, ...]) -> Iterator[tuple[str, str]]:
    for key in _PROSE_KEYS:
        if isinstance(schema.get(key), str):
            yield pointer(*at, key), schema[key]
    for child, sub in _children(schema, at):
        yield from _schema_prose(sub, child)


def _schema_values(schema: dict[str, Any], at: tuple[str | int, ...]) -> Iterator[tuple[str, str]]:
    for key in _VALUE_KEYS:
        value = schema.get(key)
        items = value if isinstance(value, list) else [value]
        for i, item in enumerate(items):
            if isinstance(item, str):
                yield pointer(*at, key, *((i,) if isinstance(value, list) else ())), item
    for child, sub in _children(schema, at):
        yield from _schema_values(sub, child)


def _properties(schema: dict[str, Any], at: tuple[str | int, ...]) -> Iterator[tuple[tuple[str | int, ...], str]]:
    props = schema.get("properties")
    if isinstance(props, dict):
        for name in props:
            yield (*at, "properties", name), str(name)
    for child, sub in _children(schema, at):
        yield from _properties(sub, child)


def _children(
    schema: dict[str, Any], at: tuple[str | int, ...]
) -> Iterator[tuple[tuple[str | int, ...], dict[str, Any]]]:
    props = schema.get("properties")
    if isinstance(props, dict):
        for name, sub in props.items():
            if isinstance(sub, dict):
                yield (*at, "properties", name), sub
    if isinstance(schema.get("items"), dict):
        yield (*at, "items"), schema["items"]
    for key in ("anyOf", "oneOf", "allOf"):
        for i, sub in enumerate(schema.get(key) or ()):
            if isinstance(sub, dict):
                yield (*at, key, i), sub
    defs = schema.get("$defs") or schema.get("definitions")
    if isinstance(defs, dict):
        for name, sub in defs.items():
            if isinstance(sub, dict):
                yield (*at, "$defs" if "$defs" in schema else "definitions", name), sub
