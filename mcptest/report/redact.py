"""Keep secrets (API keys, auth headers, env values) out of reports."""

from __future__ import annotations

from typing import Any, TypeVar

from pydantic import BaseModel

M = TypeVar("M", bound=BaseModel)
MASK = "***"


def redact(model: M, secrets: set[str]) -> M:
    """A copy of `model` with every occurrence of a secret in any string replaced by `***`."""
    if not secrets:
        return model
    ordered = sorted(secrets, key=len, reverse=True)
    return type(model).model_validate(_walk(model.model_dump(mode="json"), ordered))


def redact_text(text: str, secrets: set[str]) -> str:
    """`text` with every secret masked."""
    return _mask(text, sorted(secrets, key=len, reverse=True))


def _mask(text: str, ordered: list[str]) -> str:
    # Longest first, so a secret that contains another is masked whole.
    for secret in ordered:
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
