"""How the lexical selector reads text: words, stop words and a light suffix-stripping stemmer."""

from __future__ import annotations

import re
from functools import cache

from mcptest.checks.lint.text import normalized

STOP_WORDS = frozenset(
    """
    a about above after again all also am an and any are as at be been before being below between both but by
    can could did do does doing down during each few for from further had has have having he her here hers him
    his how i if in into is it its itself just me more most my no nor not now of off on once only or other our
    out over own please same she should so some such than that the their them then there these they this those
    through to too under until up very was we were what when where which while who whom why will with would you
    your
    """.split()  # noqa: SIM905 (a word list reads better as prose than as 116 quoted strings)
)
"""Function words: they carry no selection signal, and counting them would reward long descriptions for length."""

_WORD = re.compile(r"[A-Za-z]+")
_KEEP_DOUBLE = ("ll", "ss", "zz")


@cache
def stem(word: str) -> str:
    """The matching key of one lowercase word: a light suffix-stripper, applied in this order.

    1. plural: `-ies` → `-y`, `-sses` → `-ss`, else a final `-s` (not after `s`, `u` or `i`: status, analysis);
    2. `-ing`, else `-ed`;  3. a final `-e`;  4. a doubled final consonant (except ll, ss, zz) loses one letter.
    A step applies only when at least three letters remain. So files/file, created/creating/create and
    commits/committed/commit share a key. Why not Porter: the key only has to be the same for the inflections
    of one word on both sides (request and description), and this is 15 lines anyone can check by hand.
    """
    w = word
    if w.endswith("ies") and len(w) > 4:
        w = w[:-3] + "y"
    elif w.endswith("sses"):
        w = w[:-2]
    elif w.endswith("s") and w[-2:-1] not in ("s", "u", "i") and len(w) > 3:
        w = w[:-1]
    for suffix in ("ing", "ed"):
        if w.endswith(suffix) and len(w) - len(suffix) >= 3:
            w = w[: -len(suffix)]
            break
    if w.endswith("e") and len(w) > 3:
        w = w[:-1]
    if len(w) > 3 and w[-1] == w[-2] and w[-1] not in "aeiou" and w[-2:] not in _KEEP_DOUBLE:
        w = w[:-1]
    return w


def terms(text: str) -> list[str]:
    """The matching keys of `text`, in order: camelCase and snake_case split, lowercased, stop words dropped, stemmed.

    `getCurrentTime`, `get_current_time` and "Get the current time" all give `get`, `current`, `tim`.
    Digits and punctuation separate words and are not kept.
    """
    return [stem(w) for w in normalized(text).split() if w not in STOP_WORDS]


def term_set(text: str) -> frozenset[str]:
    """The distinct matching keys of `text`."""
    return frozenset(terms(text))


def word_key(word: str) -> str | None:
    """The key of a single word, or None when it is a stop word (or not a word at all)."""
    found = _WORD.findall(word)
    if len(found) != 1 or found[0].lower() in STOP_WORDS:
        return None
    return stem(found[0].lower())
