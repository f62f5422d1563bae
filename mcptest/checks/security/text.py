"""The text a model reads from one catalog entry, each piece with its path: what the SEC rules scan.

Ten rules read the same entry, so each extraction is made once per entry object (a small cache keyed by the
object itself) and a path becomes a JSON pointer only when a rule reports on it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from functools import lru_cache
from typing import Any

Path = tuple[str | int, ...]
Texts = list[tuple[Path, str]]

_PROSE_KEYS = ("description", "title")
_VALUE_KEYS = ("default", "examples", "enum", "const")
_CACHE_SIZE = 64


def _memo(extract: Callable[[dict[str, Any]], Iterator[tuple[Path, str]]]) -> Callable[[dict[str, Any]], Texts]:
    cache: dict[int, tuple[dict[str, Any], Texts]] = {}

    def cached(raw: dict[str, Any]) -> Texts:
        hit = cache.get(id(raw))
        if hit is not None and hit[0] is raw:  # the cache holds `raw`, so its id cannot be reused meanwhile
            return hit[1]
        if len(cache) >= _CACHE_SIZE:
            cache.clear()
        found = list(extract(raw))
        cache[id(raw)] = (raw, found)
        return found

    cached.__doc__ = extract.__doc__
    return cached


@_memo
def prose(raw: dict[str, Any]) -> Iterator[tuple[Path, str]]:
    """Every description and title of an entry, its arguments and their nested schemas: (path, text)."""
    for key in _PROSE_KEYS:
        if isinstance(raw.get(key), str):
            yield (key,), raw[key]
    for key in ("inputSchema", "outputSchema"):
        if isinstance(raw.get(key), dict):
            yield from _schema_prose(raw[key], (key,))
    for i, arg in enumerate(raw.get("arguments") or ()):
        if isinstance(arg, dict) and isinstance(arg.get("description"), str):
            yield ("arguments", i, "description"), arg["description"]


@_memo
def names(raw: dict[str, Any]) -> Iterator[tuple[Path, str]]:
    """The entry's name and every argument name: (path, name)."""
    if isinstance(raw.get("name"), str):
        yield ("name",), raw["name"]
    schema = raw.get("inputSchema")
    if isinstance(schema, dict):
        yield from _properties(schema, ("inputSchema",))
    for i, arg in enumerate(raw.get("arguments") or ()):
        if isinstance(arg, dict) and isinstance(arg.get("name"), str):
            yield ("arguments", i, "name"), arg["name"]


@_memo
def values(raw: dict[str, Any]) -> Iterator[tuple[Path, str]]:
    """Every string a schema offers as a value (defaults, examples, enums, consts): (path, text)."""
    for key in ("inputSchema", "outputSchema"):
        if isinstance(raw.get(key), dict):
            yield from _schema_values(raw[key], (key,))


@lru_cache(maxsize=4096)
def words(text: str) -> frozenset[str]:
    """The lowercase words of a text: a cheap test before a rule runs its slower patterns."""
    return frozenset(_WORD.findall(text.lower()))


_WORD = re.compile(r"[a-z0-9_]+")


def everything(raw: dict[str, Any]) -> Texts:
    """Names, prose and values together."""
    return names(raw) + prose(raw) + values(raw)


def _schema_prose(schema: dict[str, Any], at: Path) -> Iterator[tuple[Path, str]]:
    for key in _PROSE_KEYS:
        if isinstance(schema.get(key), str):
            yield (*at, key), schema[key]
    for child, sub in _children(schema, at):
        yield from _schema_prose(sub, child)


def _schema_values(schema: dict[str, Any], at: Path) -> Iterator[tuple[Path, str]]:
    for key in _VALUE_KEYS:
        value = schema.get(key)
        if isinstance(value, str):
            yield (*at, key), value
        elif isinstance(value, list):
            yield from (((*at, key, i), item) for i, item in enumerate(value) if isinstance(item, str))
    for child, sub in _children(schema, at):
        yield from _schema_values(sub, child)


def _properties(schema: dict[str, Any], at: Path) -> Iterator[tuple[Path, str]]:
    props = schema.get("properties")
    if isinstance(props, dict):
        for name in props:
            yield (*at, "properties", name), str(name)
    for child, sub in _children(schema, at):
        yield from _properties(sub, child)


def _children(schema: dict[str, Any], at: Path) -> Iterator[tuple[Path, dict[str, Any]]]:
    props = schema.get("properties")
    if isinstance(props, dict):
        for name, sub in props.items():
            if isinstance(sub, dict):
                yield (*at, "properties", name), sub
    items = schema.get("items")
    if isinstance(items, dict):
        yield (*at, "items"), items
    for key in ("anyOf", "oneOf", "allOf", "$defs", "definitions"):
        found = schema.get(key)
        if isinstance(found, list):
            yield from (((*at, key, i), sub) for i, sub in enumerate(found) if isinstance(sub, dict))
        elif isinstance(found, dict):
            yield from (((*at, key, name), sub) for name, sub in found.items() if isinstance(sub, dict))
