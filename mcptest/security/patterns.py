"""Matching phrases in a catalog's text: compiled once, reported with the matched words."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator


def compile_all(patterns: Iterable[str]) -> re.Pattern[str]:
    """One case-insensitive regex that matches any of `patterns`."""
    return re.compile("|".join(f"(?:{p})" for p in patterns), re.IGNORECASE | re.DOTALL)


def first_matches(regex: re.Pattern[str], texts: Iterable[tuple[str, str]]) -> Iterator[tuple[str, str]]:
    """For each (pointer, text) the regex matches: (pointer, the matched words, whitespace folded)."""
    for at, text in texts:
        m = regex.search(text)
        if m:
            yield at, " ".join(m.group(0).split())


def quote(words: str, limit: int = 80) -> str:
    """A matched phrase as a message quotes it."""
    return repr(words if len(words) <= limit else words[: limit - 1] + "…")
