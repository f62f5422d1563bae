"""RFC 6570 URI templates (levels 1-3, plus `*` and `:n` on scalars): variables, expansion, matching."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import quote

_EXPRESSION = re.compile(r"\{([^{}]*)\}")
_VARSPEC = re.compile(r"^([A-Za-z0-9_.%]+)(\*|:\d{1,4})?$")
# operator: (first, separator, named, empty-suffix, allow reserved characters)
_OPERATORS: dict[str, tuple[str, str, bool, str, bool]] = {
    "": ("", ",", False, "", False),
    "+": ("", ",", False, "", True),
    "#": ("#", ",", False, "", True),
    ".": (".", ".", False, "", False),
    "/": ("/", "/", False, "", False),
    ";": (";", ";", True, "", False),
    "?": ("?", "&", True, "=", False),
    "&": ("&", "&", True, "=", False),
}
_RESERVED = ":/?#[]@!$&'()*+,;="


class TemplateError(ValueError):
    """A template that is not RFC 6570 syntax."""


def variables(template: str) -> list[str]:
    """The variable names of a template, in order of appearance, each once."""
    names: list[str] = []
    for _, specs in _expressions(template):
        names += [name for name, _ in specs if name not in names]
    return names


def expand(template: str, args: dict[str, Any]) -> str:
    """The URI the template names for `args` (numbers as their decimal text, booleans as true/false)."""
    out, last = [], 0
    for match in _EXPRESSION.finditer(template):
        out.append(template[last : match.start()])
        out.append(_expand_one(match.group(1), args))
        last = match.end()
    return "".join(out) + template[last:]


def matches(template: str, uri: str) -> bool:
    """Whether `uri` is some expansion of `template` (each variable matching any run of characters)."""
    try:
        pattern, last = "", 0
        for match in _EXPRESSION.finditer(template):
            pattern += re.escape(template[last : match.start()])
            ((op, _),) = _expressions(match.group(0))
            pattern += "[^/?#]*" if op == "" else ".*?"
            last = match.end()
    except TemplateError:
        return False
    return re.fullmatch(pattern + re.escape(template[last:]), uri) is not None


def text(value: Any) -> str:
    """A value as template text: numbers in decimal, booleans as `true`/`false`."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _expressions(template: str) -> list[tuple[str, list[tuple[str, str | None]]]]:
    if template.count("{") != template.count("}"):
        raise TemplateError(f"unbalanced braces in URI template {template!r}")
    found = []
    for match in _EXPRESSION.finditer(template):
        body = match.group(1)
        op = body[:1] if body[:1] in _OPERATORS and body[:1] else ""
        specs = []
        for spec in body[len(op) :].split(","):
            parsed = _VARSPEC.match(spec)
            if parsed is None:
                raise TemplateError(f"invalid expression {{{body}}} in URI template {template!r}")
            specs.append((parsed.group(1), parsed.group(2)))
        found.append((op, specs))
    return found


def _expand_one(body: str, args: dict[str, Any]) -> str:
    op = body[:1] if body[:1] in _OPERATORS and body[:1] else ""
    first, sep, named, empty, reserved = _OPERATORS[op]
    parts = []
    for spec in body[len(op) :].split(","):
        parsed = _VARSPEC.match(spec)
        if parsed is None:
            raise TemplateError(f"invalid expression {{{body}}}")
        name, modifier = parsed.groups()
        if args.get(name) is None:
            continue
        value = text(args[name])
        if modifier and modifier.startswith(":"):
            value = value[: int(modifier[1:])]
        value = quote(value, safe=_RESERVED if reserved else "")
        parts.append((f"{name}={value}" if value else f"{name}{empty}") if named else value)
    return first + sep.join(parts) if parts else ""
