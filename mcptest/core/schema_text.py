"""A JSON Schema validation error in JSON words: `null is not of type 'object'`, never Python's `None`."""

from __future__ import annotations

import json
from typing import Any


def error_text(error: Any) -> str:
    """jsonschema's message with its leading Python repr of the value (`None`, `True`, `{'a': 1}`) written as JSON."""
    message = str(error.message)
    python = repr(error.instance)
    if not message.startswith(python):
        return message
    try:
        as_json = json.dumps(error.instance, ensure_ascii=False)
    except (TypeError, ValueError):
        return message
    return as_json + message[len(python) :]
