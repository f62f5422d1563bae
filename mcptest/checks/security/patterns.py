"""Matching phrases in a catalog's text: compiled once, reported with the matched words."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from mcptest.checks.findings import pointer
from mcptest.checks.security.text import Path


def compile_all(patterns: Iterable[str]) -> re.Pattern[str]:
    """One case-insensitive regex that matches any of `patterns`."""
    return re.compile("|".join(f"(?:{p})" for p in patterns), re.IGNORECASE | re.DOTALL)


def first_matches(regex: re.Pattern[str], texts: Iterable[tuple[Path, str]]) -> Iterator[tuple[str, str]]:
    """For each (path, text) the regex matches: (JSON pointer, the matched words, whitespace folded)."""
    for at, text in texts:
        m = regex.search(text)
        if m:
            yield pointer(*at), " ".join(m.group(0).split())


def quote(words: str, limit: int = 80) -> str:
    """A matched phrase as a message quotes it."""
    return repr(words if len(words) <= limit else words[: limit - 1] + "…")
