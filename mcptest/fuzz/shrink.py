"""Simpler variants of an input, smallest change first: a key dropped, a value made empty, zero or shorter, a list
cut. The run keeps the first variant on which the same finding appears again and starts over from it (greedy
shrinking, bounded by a number of calls), so a finding is reported on a minimal input."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any


def size(value: Any) -> int:
    """How big an input is: the length of its JSON text."""
    return len(json.dumps(value, ensure_ascii=False, sort_keys=True))


def simpler(value: Any) -> Iterator[Any]:
    """Variants of `value`, each strictly smaller (by `size`) or simpler in kind, in the order worth trying."""
    for candidate in _variants(value):
        if candidate != value and (size(candidate), _rank(candidate)) < (size(value), _rank(value)):
            yield candidate


def _variants(value: Any) -> Iterator[Any]:
    if isinstance(value, dict):
        for key in value:
            yield {k: v for k, v in value.items() if k != key}
        for key, item in value.items():
            for smaller in _variants(item):
                yield {**value, key: smaller}
    elif isinstance(value, list):
        if value:
            yield []
            yield value[: len(value) // 2]
            yield value[1:]
            yield value[:-1]
        for i, item in enumerate(value):
            for smaller in _variants(item):
                yield [*value[:i], smaller, *value[i + 1 :]]
    elif isinstance(value, str):
        if value:
            yield ""
            yield value[: len(value) // 2]
            yield value[1:]
            if not value.isascii():
                yield "".join(c if c.isascii() else "a" for c in value)
    elif isinstance(value, bool):
        if value:
            yield False
    elif isinstance(value, int | float) and value != 0:
        yield 0
        if abs(value) > 1:
            yield value / 2 if isinstance(value, float) else int(value / 2)
        if isinstance(value, float) and not value.is_integer():
            yield float(int(value))


def _rank(value: Any) -> int:
    """A tie-break for variants of equal size: fewer non-ASCII characters and smaller numbers are simpler."""
    if isinstance(value, dict):
        return sum(_rank(v) for v in value.values())
    if isinstance(value, list):
        return sum(_rank(v) for v in value)
    if isinstance(value, str):
        return sum(1 for c in value if not c.isascii())
    if isinstance(value, int | float) and not isinstance(value, bool):
        return 1 if value else 0
    return 0
