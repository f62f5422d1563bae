"""Whether a removed entry and an added one are the same entry renamed: by name, description and schema similarity.

A rename rarely comes alone: a release that moves `getTinyImage` to `get-tiny-image` also rewords descriptions and
drops `additionalProperties: false`. So names are compared by their words (camelCase, kebab-case and snake_case
split alike; `sample` matches `sampling`), descriptions by their words, and schemas by the arguments they take,
never by identity.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mcptest.records.entries import Entry

NAME_ALONE = 0.8
"""Names at least this alike are a rename whatever else changed (`get_file` → `getFile`)."""
WITH_SCHEMA = 0.3
"""With argument lists at least half shared, a name or a description this alike is enough."""
WITHOUT_SCHEMA = 0.5
"""With no arguments on either side to compare, names at least this alike (generic verbs left out) are a rename..."""
WITHOUT_DESCRIPTION = 0.6
"""... and so are descriptions at least this alike."""

_WORDS = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+")
_STOP = frozenset(
    [
        "a",
        "an",
        "and",
        "are",
        "as",
        "at",
        "be",
        "by",
        "can",
        "for",
        "from",
        "in",
        "into",
        "is",
        "it",
        "its",
        "of",
        "on",
        "or",
        "that",
        "the",
        "this",
        "to",
        "with",
    ]
)
_SAME_STEM = 4
GENERIC = frozenset(
    [
        "get",
        "set",
        "list",
        "fetch",
        "read",
        "create",
        "update",
        "delete",
        "start",
        "stop",
        "trigger",
        "toggle",
        "run",
        "do",
        "make",
    ]
)
"""Verbs too common in tool names to tell two tools apart: `getTinyImage` and `get-env` share only `get`."""


def words(text: str) -> list[str]:
    """The words of a name or a text, lower-cased: `getTinyImage`, `get-tiny-image` and `get_tiny_image` alike."""
    return [w.lower() for w in _WORDS.findall(text) if w.lower() not in _STOP]


def alike(a: list[str], b: list[str]) -> float:
    """Dice similarity of two word lists, a word matching an equal one or one sharing its first four letters."""
    if not a or not b:
        return 0.0
    left = list(b)
    matched = 0
    for word in a:
        hit = next((w for w in left if _same_word(word, w)), None)
        if hit is not None:
            left.remove(hit)
            matched += 1
    return 2 * matched / (len(a) + len(b))


def _same_word(x: str, y: str) -> bool:
    if x == y:
        return True
    return min(len(x), len(y)) >= _SAME_STEM and x[:_SAME_STEM] == y[:_SAME_STEM]


def rename_score(old: Entry, new: Entry) -> float | None:
    """How alike two entries are when `new` is `old` renamed (higher is closer); None when they are not one entry.

    Name and description similarity are `alike` over their words (a name's generic verbs left out); schema
    similarity is the Jaccard index of the argument names (a prompt's arguments, a tool's input properties),
    unknown when neither side has any. A rename is: names at least `NAME_ALONE` alike; or arguments at least half
    shared and a name or description at least `WITH_SCHEMA` alike; or, with no arguments to compare, names at
    least `WITHOUT_SCHEMA` or descriptions at least `WITHOUT_DESCRIPTION` alike. Resources must also keep their
    MIME type.
    """
    if old.kind != new.kind or (old.kind != "tool" and old.raw.get("mimeType") != new.raw.get("mimeType")):
        return None
    name = alike(_telling(old.key), _telling(new.key))
    text = alike(words(old.description), words(new.description))
    schema = _argument_overlap(old, new)
    if name >= NAME_ALONE:
        return 2.0 + name
    if schema is not None:
        return schema + max(name, text) if schema >= 0.5 and max(name, text) >= WITH_SCHEMA else None
    return max(name, text) if name >= WITHOUT_SCHEMA or text >= WITHOUT_DESCRIPTION else None


def _telling(name: str) -> list[str]:
    """A name's words without the generic verbs (all of them when nothing else is left)."""
    found = words(name)
    return [w for w in found if w not in GENERIC] or found


def _argument_overlap(old: Entry, new: Entry) -> float | None:
    a, b = _arguments(old), _arguments(new)
    if not a and not b:
        return None
    return len(a & b) / len(a | b)


def _arguments(entry: Entry) -> set[str]:
    if entry.kind == "prompt":
        return {str(x.get("name")) for x in entry.raw.get("arguments") or () if isinstance(x, dict)}
    schema: Any = entry.raw.get("inputSchema") or {}
    props = schema.get("properties") if isinstance(schema, dict) else None
    return set(props) if isinstance(props, dict) else set()
