"""Keep secrets (API keys, auth headers, secret env values) out of reports, cassettes and logs.

Masking works on values, never on serialised text: JSON escapes a secret holding `"` or `\\` so a text search
misses it, and a text replace can corrupt the document around it. Within a value, a secret is masked as written
and in its quoted forms (`secrets.escaped_forms`), since a string may quote it (JSON text, an error message).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, TypeVar

from pydantic import BaseModel

from mcptest.core.secrets import escaped_forms, maskable

M = TypeVar("M", bound=BaseModel)
MASK = "***"


def redact(model: M, secrets: set[str]) -> M:
    """A copy of `model` with every occurrence of a secret in any string replaced by `***`."""
    ordered = _ordered(secrets)
    if not ordered:
        return model
    return type(model).model_validate(_walk(model.model_dump(mode="json"), ordered))


def redact_data(value: Any, secrets: set[str]) -> Any:
    """Plain JSON-like data with every secret masked in every string (keys included)."""
    ordered = _ordered(secrets)
    return _walk(value, ordered) if ordered else value


def redact_text(text: str, secrets: set[str]) -> str:
    """Plain text (not JSON) with every secret masked."""
    return _mask(text, _ordered(secrets))


def _ordered(secrets: set[str]) -> list[str]:
    return list(_forms(frozenset(secrets))) if secrets else []


@lru_cache(maxsize=64)
def _forms(secrets: frozenset[str]) -> tuple[str, ...]:
    # Each secret as written and as quoted; longest first, so a secret that contains another is masked whole and
    # an escaped form before the raw one inside it. Short values are never secrets.
    forms = {form for s in secrets if maskable(s) for form in (s, *escaped_forms(s))}
    return tuple(sorted(forms, key=len, reverse=True))


def _mask(text: str, ordered: list[str]) -> str:
    for secret in ordered:
        if secret in text:
            text = text.replace(secret, MASK)
    return text


def _walk(value: Any, secrets: list[str]) -> Any:
    if isinstance(value, str):
        return _mask(value, secrets)
    if isinstance(value, list):
        return [_walk(v, secrets) for v in value]
    if isinstance(value, dict):
        return {_walk(k, secrets): _walk(v, secrets) for k, v in value.items()}
    return value
