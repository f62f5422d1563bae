"""`${args.NAME}` in canned responses: every string is rendered with the call's arguments.

A string argument renders as itself, any other value as its JSON; a missing argument renders empty.
`${args.a.b}` reaches into an object argument, and `$${` writes a literal `${`.
"""

from __future__ import annotations

import json
import re
from typing import Any

_PLACEHOLDER = re.compile(r"\$\$\{|\$\{(args|sampling|elicitation)\.([A-Za-z0-9_\-.]+)\}")


def render(value: Any, args: dict[str, Any], asked: dict[str, Any] | None = None) -> Any:
    """`value` with every string in it rendered (dict keys are left alone); `asked`: the client's answers."""
    if isinstance(value, str):
        return render_text(value, args, asked)
    if isinstance(value, dict):
        return {k: render(v, args, asked) for k, v in value.items()}
    if isinstance(value, list):
        return [render(v, args, asked) for v in value]
    return value


def render_text(text: str, args: dict[str, Any], asked: dict[str, Any] | None = None) -> str:
    """One string with its placeholders replaced (`${sampling.X}`, `${elicitation.X}` from the client's answers)."""
    if "${" not in text:
        return text
    roots = {"args": args, **(asked or {})}
    return _PLACEHOLDER.sub(lambda match: _replacement(match, roots), text)


def _replacement(match: re.Match[str], roots: dict[str, Any]) -> str:
    if match.group(1) is None:
        return "${"
    value: Any = roots.get(match.group(1), {})
    for step in match.group(2).split("."):
        if not isinstance(value, dict) or step not in value:
            return ""
        value = value[step]
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
