"""Text safe to print: control characters from servers, tool catalogs and reports shown, never obeyed.

A tool name, a test name or a line of a server's stderr can carry terminal escapes (`ESC [2J` clears the screen,
`ESC ]52` writes the clipboard) or bidi overrides that make text read differently than it is. Every
human-readable output passes such text through `printable`, with or without colour; JSON, JUnit and SARIF
escape it by their own rules.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from pydantic import BaseModel

M = TypeVar("M", bound="BaseModel")

# C0 controls but tab and newline, DEL, C1 controls, and the bidi embedding/override/isolate characters.
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def printable(text: str) -> str:
    """`text` with each control character written as a visible escape (`\\x1b`, `\\u202e`)."""
    return _CONTROL.sub(_visible, text) if _CONTROL.search(text) else text


def clipped(name: str, limit: int = 80) -> str:
    """A name as a message quotes it: one longer than `limit` is cut, saying how long it was (a 10 KB tool name must
    not fill the terminal)."""
    return name if len(name) <= limit else f"{name[:limit]}… ({len(name)} characters)"


RUN_LIMIT = 200
"""The longest unbroken run of characters a human-readable output shows whole (a 10 KB tool name is cut)."""
_LONG_RUN = re.compile(rf"(?<!\S)\S{{{RUN_LIMIT + 1},}}")  # the look-behind tries each run once: linear


def clip_runs(text: str) -> str:
    """`text` with each unbroken run longer than `RUN_LIMIT` characters (a server's 10 KB tool name, a base64 blob)
    cut as `clipped` cuts a name, saying how long it was; ordinary prose is left alone."""
    return text if len(text) <= RUN_LIMIT else _LONG_RUN.sub(lambda m: clipped(m.group()), text)


def clip_data(value: Any) -> Any:
    """JSON-like data with `clip_runs` applied to every string (keys included), for display only."""
    if isinstance(value, str):
        return clip_runs(value)
    if isinstance(value, list):
        return [clip_data(v) for v in value]
    if isinstance(value, dict):
        return {clip_runs(k) if isinstance(k, str) else k: clip_data(v) for k, v in value.items()}
    return value


def for_display(model: M) -> M:
    """A pydantic model (a report) as a human-readable format shows it: `clip_data` over its JSON form. What is
    saved (the JSON report) keeps every value whole; this copy is only rendered."""
    data = model.model_dump(mode="json")
    clipped = clip_data(data)
    return model if clipped == data else type(model).model_validate(clipped)


def markup_safe(text: str) -> str:
    """`printable` text with rich markup escaped, for a `console.print` with markup on."""
    from rich.markup import escape

    return escape(printable(text))


def _visible(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"
