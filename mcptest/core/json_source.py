"""Parse a user's JSON file (a report, a trace, a catalog, a spec): syntax errors and hostile values, located.

Besides syntax and nesting, two legal-looking values are refused at their line and column: an integer longer than
`MAX_INT_DIGITS` digits (Python reads only 4,300 by default; mcptest raises that to `MAX_INT_DIGITS`, the bound
it also reads from a server), and a lone UTF-16 surrogate escape such as `"\\ud800"`, which is no character: no
server could be sent it and no report could be written with it.
"""

from __future__ import annotations

import json
import re
import sys
from typing import Any

from mcptest.core.errors import Problem, UserError

MAX_DEPTH = 100
MAX_INT_DIGITS = 20_000
"""The longest integer mcptest reads from any JSON input, and prints back."""
_SURROGATE = re.compile("[\ud800-\udfff]")
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")
# A JSON string literal, or a run of digits outside one (strings come first, so digits inside them are skipped).
_ESCAPE = re.compile(r"\\(?:u([0-9a-fA-F]{4})|.)")
_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|-?\d+')


class _LongInteger(ValueError):
    def __init__(self, digits: int) -> None:
        super().__init__(digits)
        self.digits = digits


def loads(text: str, path: str, syntax: str = "JSON syntax error") -> Any:
    """The JSON value in `text`; a syntax error, nesting deeper than `MAX_DEPTH`, an integer longer than
    `MAX_INT_DIGITS` digits or a lone surrogate is a UserError at its place."""
    try:
        try:
            data = json.loads(text)
        except json.JSONDecodeError:
            raise
        except ValueError:  # an integer past Python's digit limit: read it again, allowing up to MAX_INT_DIGITS
            data = json.loads(text, parse_int=read_int)
    except json.JSONDecodeError as exc:
        raise UserError([Problem(path, exc.lineno, exc.colno, f"{syntax}: {exc.msg}")]) from None
    except RecursionError:
        raise UserError([too_deep(text, path)]) from None
    except _LongInteger as exc:
        raise UserError([_long_integer(text, path, exc.digits)]) from None
    if depth_exceeds(data, MAX_DEPTH):
        raise UserError([too_deep(text, path)])
    if _SURROGATE_ESCAPE.search(text) and has_lone_surrogate(data):
        raise UserError([_lone_surrogate(text, path)])
    return data


def read_int(text: str) -> int:
    """`int(text)` for a JSON integer of up to `MAX_INT_DIGITS` digits (raising Python's limit when it must)."""
    digits = len(text) - text.startswith("-")
    if digits > MAX_INT_DIGITS:
        raise _LongInteger(digits)
    if digits > sys.get_int_max_str_digits() > 0:
        sys.set_int_max_str_digits(MAX_INT_DIGITS)  # so the value can be printed back, too
    return int(text)


def _long_integer(text: str, path: str, digits: int) -> Problem:
    line, col = _place(text, _first_token(text, lambda t: t[0] != '"' and len(t.lstrip("-")) == digits))
    what = f"an integer of {digits:,} digits, longer than the {MAX_INT_DIGITS:,} mcptest reads (quote it)"
    return Problem(path, line, col, what)


def has_lone_surrogate(data: Any) -> bool:
    """Whether any string (or key) in decoded JSON holds a lone surrogate (walked without recursion)."""
    stack = [data]
    while stack:
        value = stack.pop()
        if isinstance(value, str):
            if not value.isascii() and _SURROGATE.search(value):
                return True
        elif isinstance(value, dict):
            stack.extend(value.keys())
            stack.extend(value.values())
        elif isinstance(value, list):
            stack.extend(value)
    return False


def _lone_surrogate(text: str, path: str) -> Problem:
    def lone(token: str) -> bool:
        return token[0] == '"' and bool(_SURROGATE_ESCAPE.search(token)) and has_lone_surrogate(json.loads(token))

    start = _first_token(text, lone)
    at = start + _lone_escape(_TOKEN.match(text, start).group(0))  # type: ignore[union-attr]
    line, col = _place(text, at)
    what = f"`{text[at : at + 6]}` is half of a UTF-16 surrogate pair, not a character: write the character itself"
    return Problem(path, line, col, what + " (or both halves of its pair)")


def _lone_escape(literal: str) -> int:
    """Where in a JSON string literal its first unpaired surrogate escape starts."""
    pending = -1  # the offset of a high surrogate escape waiting for its low half
    for escape in _ESCAPE.finditer(literal):
        code = int(escape.group(1), 16) if escape.group(1) else -1
        if pending >= 0 and not (0xDC00 <= code <= 0xDFFF and escape.start() == pending + 6):
            return pending
        if 0xD800 <= code <= 0xDBFF:
            pending = escape.start()
        elif 0xDC00 <= code <= 0xDFFF and pending < 0:
            return escape.start()
        else:
            pending = -1
    return max(pending, 0)


def _first_token(text: str, wanted: Any) -> int:
    for token in _TOKEN.finditer(text):
        if wanted(token.group(0)):
            return token.start()
    return 0


def _place(text: str, at: int) -> tuple[int, int]:
    return text.count("\n", 0, at) + 1, at - (text.rfind("\n", 0, at) + 1) + 1


def depth_exceeds(data: Any, limit: int) -> bool:
    """Whether arrays and objects nest deeper than `limit` (walked level by level, without recursion)."""
    level = [data] if isinstance(data, dict | list) else []
    for _ in range(limit):
        if not level:
            return False
        below = [c for v in level if isinstance(v, dict) for c in v.values() if isinstance(c, dict | list)]
        below += [c for v in level if isinstance(v, list) for c in v if isinstance(c, dict | list)]
        level = below
    return bool(level)


def too_deep(text: str, path: str) -> Problem:
    """The problem at the bracket that opens level `MAX_DEPTH + 1` (only called on the error path)."""
    depth, in_string, escaped = 0, False, False
    line, col = 1, 0
    for ch in text:
        col += 1
        if ch == "\n":
            line, col = line + 1, 0
        elif escaped:
            escaped = False
        elif in_string:
            escaped = ch == "\\"
            in_string = ch != '"'
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                break
        elif ch in "]}":
            depth -= 1
    return Problem(path, line, col, f"nested deeper than {MAX_DEPTH} levels: flatten it")
