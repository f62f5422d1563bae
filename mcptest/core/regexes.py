"""Regular expressions from suites, servers and the command line: RE2, whose matching time is linear in the text.

Python's `re` backtracks, so a pattern like `(a+)+$` on a long `aaaa…!` runs for ages and not even Ctrl-C stops
it. RE2 never backtracks: a match costs time proportional to the text, whatever the pattern. In exchange it has
no backreferences, lookaround, atomic groups or possessive quantifiers; a pattern that needs one is a load error
(docs/matchers.md lists the dialect).
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

_UNSUPPORTED = (
    ("(?=", "lookahead `(?=…)`"),
    ("(?!", "negative lookahead `(?!…)`"),
    ("(?<=", "lookbehind `(?<=…)`"),
    ("(?<!", "negative lookbehind `(?<!…)`"),
    ("(?>", "atomic groups `(?>…)`"),
    ("(?P=", "backreferences `(?P=name)`"),
    ("(?x", "verbose mode `(?x)`"),
    ("escape sequence: \\Z", "`\\Z` (write `\\z`)"),
    ("escape sequence: \\", "backreferences `\\1`"),
    ("repetition operator: ++", "possessive quantifiers `++`"),
    ("repetition operator: *+", "possessive quantifiers `*+`"),
    ("repetition operator: ?+", "possessive quantifiers `?+`"),
)


class RegexError(ValueError):
    """A pattern RE2 cannot compile; the message names the construct and the fix."""


@lru_cache(maxsize=512)
def compile_regex(pattern: str) -> Any:
    """The compiled RE2 pattern, or RegexError saying why not (`invalid regex '…': …`)."""
    import re2

    options = re2.Options()
    options.log_errors = False  # RE2 would print its parse errors to stderr itself
    try:
        return re2.compile(pattern, options)
    except re2.error as exc:
        raise RegexError(f"invalid regex {pattern!r}: {_why(pattern, exc)}") from None


def search(pattern: str, text: str) -> bool:
    """Whether `pattern` matches anywhere in `text` (RegexError for a pattern RE2 cannot compile)."""
    return compile_regex(pattern).search(text) is not None


def _why(pattern: str, exc: Exception) -> str:
    detail = exc.args[0].decode("utf-8", "replace") if exc.args and isinstance(exc.args[0], bytes) else str(exc)
    try:
        re.compile(pattern)
    except re.error as python:
        return str(python)  # invalid in any dialect; Python's message gives a position, never a piece of the pattern
    construct = next((name for marker, name in _UNSUPPORTED if marker in detail), None)
    if construct is None:  # RE2 says `(?P` for `(?P=name)`: the pattern tells which
        construct = next((name for marker, name in _UNSUPPORTED if marker.startswith("(?") and marker in pattern), None)
    what = f"RE2 has no {construct}" if construct else f"RE2 does not accept it ({detail})"
    return f"{what}; mcptest matches regexes with RE2, which never backtracks (see docs/matchers.md)"
