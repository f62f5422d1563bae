"""Validate `tools/call` arguments against a tool's input schema; phrase failures the way real servers do.

Each failure is one line: `Input validation error: '<field>': <jsonschema message>`. The field is the path
to the failing value (`tests[0].priority`), or to the missing property for `required`; errors about the
arguments object as a whole carry no field. When a value matches none of an `anyOf`/`oneOf`, the line ends
with what was expected, e.g. `(expected one of: integer, null)` or `(expected one of: 'numeric', 'categorical')`.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

PREFIX = "Input validation error: "


def argument_errors(validator: Any, arguments: dict[str, Any]) -> list[str]:
    """Every way `arguments` fails the schema, one stable line each, sorted by field."""
    lines = {_line(error) for error in validator.iter_errors(arguments)}
    return sorted(lines)


def _line(error: Any) -> str:
    path = list(error.absolute_path)
    if error.validator == "required":
        missing = _missing(error)
        if missing is not None:
            path.append(missing)
    message = error.message + _expected(error)
    return f"{PREFIX}'{field_name(path)}': {message}" if path else PREFIX + message


def field_name(path: Iterable[Any]) -> str:
    """A path into the arguments as a user writes it: `tests[0].priority`."""
    out = ""
    for step in path:
        out += f"[{step}]" if isinstance(step, int) else (f".{step}" if out else str(step))
    return out


def _missing(error: Any) -> str | None:
    """The property jsonschema names in `'x' is a required property` (one error per missing property)."""
    instance = error.instance if isinstance(error.instance, dict) else {}
    absent = [str(name) for name in error.validator_value if name not in instance]
    named = [name for name in absent if error.message.startswith(repr(name))]
    return next(iter(named or absent), None)


def _expected(error: Any) -> str:
    if error.validator not in ("anyOf", "oneOf") or not isinstance(error.validator_value, list):
        return ""
    options = [option for sub in error.validator_value for option in _options(sub)]
    return f" (expected one of: {', '.join(dict.fromkeys(options))})" if options else ""


def _options(schema: Any) -> list[str]:
    if not isinstance(schema, dict):
        return []
    if "enum" in schema:
        return [repr(value) for value in schema["enum"]]
    if "const" in schema:
        return [repr(schema["const"])]
    kind = schema.get("type")
    if isinstance(kind, list):
        return [str(k) for k in kind]
    return [str(kind)] if kind else []
