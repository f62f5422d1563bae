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
    for secret in sorted(secrets, key=len, reverse=True):
        text = text.replace(secret, MASK)
    return text


def _walk(value: Any, secrets: list[str]) -> Any:
    if isinstance(value, str):
        for secret in secrets:
            value = value.replace(secret, MASK)
        return value
    if isinstance(value, list):
        return [_walk(v, secrets) for v in value]
    if isinstance(value, dict):
        return {_walk(k, secrets): _walk(v, secrets) for k, v in value.items()}
    return value
