"""Parse a user's JSON file (a report, a trace, a catalog, a spec): syntax errors and hostile nesting, located."""

from __future__ import annotations

import json
from typing import Any

from mcptest.core.errors import Problem, UserError

MAX_DEPTH = 100


def loads(text: str, path: str, syntax: str = "JSON syntax error") -> Any:
    """The JSON value in `text`; a syntax error or nesting deeper than `MAX_DEPTH` is a UserError at its place."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise UserError([Problem(path, exc.lineno, exc.colno, f"{syntax}: {exc.msg}")]) from None
    except RecursionError:
        raise UserError([too_deep(text, path)]) from None
    if depth_exceeds(data, MAX_DEPTH):
        raise UserError([too_deep(text, path)])
    return data


def depth_exceeds(data: Any, limit: int) -> bool:
    """Whether arrays and objects nest deeper than `limit` (walked without recursion)."""
    stack: list[tuple[Any, int]] = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, dict):
            children: Any = value.values()
        elif isinstance(value, list):
            children = value
        else:
            continue
        if depth > limit:
            return True
        stack.extend((child, depth + 1) for child in children if isinstance(child, dict | list))
    return False


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
