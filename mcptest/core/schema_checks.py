"""JSON Schema checks shared by manifests and snapshots: is a schema valid, and a compiled validator."""

from __future__ import annotations

import json
from typing import Any

from mcptest.core.yaml_source import Loc


def schema_problem(schema: Any) -> tuple[Loc, str] | None:
    """Where and why `schema` is not a valid JSON Schema (under its own `$schema`), or None."""
    if not isinstance(schema, dict):
        return (), f"a schema must be a mapping, got {type(schema).__name__}"
    try:
        text = json.dumps(schema)
    except (TypeError, ValueError, RecursionError):  # not JSON data: check it as it is
        return _problem(schema)
    # catalogs repeat their schemas (one per tool, many alike): checking against the metaschema is ~0.5 ms each
    if text not in _CHECKED:
        if len(_CHECKED) >= 4096:
            _CHECKED.clear()
        _CHECKED[text] = _problem(schema)
    return _CHECKED[text]


_CHECKED: dict[str, tuple[Loc, str] | None] = {}


def _problem(schema: dict[str, Any]) -> tuple[Loc, str] | None:
    from jsonschema import exceptions, validators

    cls = validators.validator_for(schema)
    error = exceptions.best_match(cls(cls.META_SCHEMA).iter_errors(schema))
    if error is None:
        return None
    return tuple(error.absolute_path), error.message


def compile_validator(schema: dict[str, Any]) -> Any:
    """A reusable jsonschema validator for an already checked schema."""
    from mcptest.core.json_schema import validator

    return validator(schema)
