"""Text safe to print: control characters from servers, tool catalogs and reports shown, never obeyed.

A tool name, a test name or a line of a server's stderr can carry terminal escapes (`ESC [2J` clears the screen,
`ESC ]52` writes the clipboard) or bidi overrides that make text read differently than it is. Every
human-readable output passes such text through `printable`, with or without colour; JSON, JUnit and SARIF
escape it by their own rules.
"""

from __future__ import annotations

import re

# C0 controls but tab and newline, DEL, C1 controls, and the bidi embedding/override/isolate characters.
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def printable(text: str) -> str:
    """`text` with each control character written as a visible escape (`\\x1b`, `\\u202e`)."""
    return _CONTROL.sub(_visible, text) if _CONTROL.search(text) else text


def clipped(name: str, limit: int = 80) -> str:
    """A name as a message quotes it: one longer than `limit` is cut, saying how long it was (a 10 KB tool name must
    not fill the terminal)."""
    return name if len(name) <= limit else f"{name[:limit]}… ({len(name)} characters)"


def markup_safe(text: str) -> str:
    """`printable` text with rich markup escaped, for a `console.print` with markup on."""
    from rich.markup import escape

    return escape(printable(text))


def _visible(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"
