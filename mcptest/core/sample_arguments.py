"""Arguments for a call that a tool's input schema accepts, built from the schema alone: what `mcptest init` writes
into its smoke tests and what `mcptest conformance` calls read-only tools with."""

from __future__ import annotations

import re
from typing import Any

FORMAT_EXAMPLES = {
    "uri": "https://example.com/",
    "url": "https://example.com/",
    "email": "user@example.com",
    "date": "2026-01-01",
    "date-time": "2026-01-01T00:00:00Z",
    "time": "12:00:00",
    "uuid": "00000000-0000-4000-8000-000000000000",
    "hostname": "example.com",
    "ipv4": "127.0.0.1",
}
"""A value for a string whose validity comes from its `format`: an empty string would not be one."""


def arguments(schema: dict[str, Any], folder: str | None = None) -> dict[str, Any] | None:
    """Arguments for a smoke call: the required properties, each from its `examples`, `default`, `const` or first
    `enum` value, else (a string) the first quoted example its description gives or the layout it names
    (`YYYY-MM-DD`, `HH:MM`, `ISO 8601`), else (a string named like a path, given a `folder` the server was
    started on) that folder, else the smallest value its type and bounds allow; None when the result fails the
    schema."""
    value = _value(schema, 0, folder)
    if not isinstance(value, dict) or not valid(value, schema):
        return None
    return value


_PATHLIKE = re.compile(r"(?i)(^|_|-|[a-z])(path|dir|directory|folder|root)$")
"""A property named like a path (`path`, `directory`, `rootDir`): a folder the server was given fits it."""


def _value(schema: Any, depth: int, folder: str | None = None) -> Any:
    if not isinstance(schema, dict) or depth > 12:
        return None
    if isinstance(schema.get("examples"), list) and schema["examples"]:
        return schema["examples"][0]
    for key in ("default", "const"):
        if key in schema:
            return schema[key]
    if schema.get("enum"):
        return schema["enum"][0]
    for key in ("anyOf", "oneOf", "allOf"):
        if isinstance(schema.get(key), list) and schema[key]:
            options = [s for s in schema[key] if not (isinstance(s, dict) and s.get("type") == "null")]
            return _value((options or schema[key])[0], depth + 1, folder)
    kind = schema.get("type")
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), None)
    if kind == "object" or (kind is None and "properties" in schema):
        props = schema.get("properties") or {}
        out = {}
        for name in schema.get("required", []):
            prop = props.get(name, {})
            pathlike = folder and isinstance(prop, dict) and prop.get("type") == "string" and _PATHLIKE.search(name)
            plain = pathlike and not any(k in prop for k in ("examples", "default", "const", "enum"))
            out[name] = folder if plain else _value(prop, depth + 1, folder)
        return out
    if kind == "array":
        return [_value(schema.get("items", {}), depth + 1, folder) for _ in range(int(schema.get("minItems", 0)))]
    if kind in ("integer", "number"):
        low = schema.get("minimum", schema.get("exclusiveMinimum", 0) + (1 if "exclusiveMinimum" in schema else 0))
        high = schema.get("maximum")
        value = max(low, 0) if high is None or high >= max(low, 0) else low
        return int(value) if kind == "integer" else value
    if kind == "boolean":
        return False
    if kind == "string":
        return _string(schema)
    return None


SAID_EXAMPLE = re.compile(
    r"""\b(?:e\.g\.|eg\.|for example|for instance|such as|example)[,:]?\s*\(?\s*[`'"]([^`'"\n]{1,80})[`'"]""",
    re.IGNORECASE,
)
"""An example a description gives in quotes: `IANA timezone name (e.g., 'America/New_York')`."""


DESCRIBED_FORMATS = (
    ("YYYY-MM-DDTHH:MM:SS", "2026-01-01T12:00:00"),
    ("YYYY-MM-DD", "2026-01-01"),
    ("HH:MM:SS", "12:00:00"),
    ("HH:MM", "12:00"),
    ("ISO 8601", "2026-01-01T12:00:00Z"),
    ("ISO-8601", "2026-01-01T12:00:00Z"),
)
"""A value for a string whose description names its layout instead of giving an example."""


def _string(schema: dict[str, Any]) -> str:
    description = str(schema.get("description", ""))
    bare = {k: v for k, v in schema.items() if k != "description"}
    said = SAID_EXAMPLE.search(description)
    candidates = [said.group(1)] if said else []
    candidates += [value for layout, value in DESCRIBED_FORMATS if layout.lower() in description.lower()]
    for candidate in candidates:  # what the server's author says works beats a made-up word it may reject
        if valid(candidate, bare):
            return candidate
    text = FORMAT_EXAMPLES.get(str(schema.get("format", "")), "example")
    low, high = int(schema.get("minLength", 0)), schema.get("maxLength")
    text = text.ljust(low, "x")
    return text[: int(high)] if isinstance(high, int) else text


def valid(value: Any, schema: dict[str, Any]) -> bool:
    import jsonschema

    try:
        validator = jsonschema.validators.validator_for(schema, default=jsonschema.Draft202012Validator)
        return validator(schema, format_checker=validator.FORMAT_CHECKER).is_valid(value)
    except (jsonschema.SchemaError, jsonschema.exceptions.RefResolutionError, RecursionError):
        return False
