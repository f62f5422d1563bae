"""Provider failures in one shape, whatever the SDK: an HTTP status, a Retry-After, a message."""

from __future__ import annotations

from email.utils import parsedate_to_datetime
from typing import Any


class RunFailed(Exception):
    """A run cannot go on: the loop records `message` as the run's error and stops."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class ProviderError(RunFailed):
    """A model call failed; `retryable` when a 429, a 5xx or a dropped connection may succeed on retry."""

    def __init__(self, message: str, *, status: int | None = None, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.retry_after = retry_after

    @property
    def retryable(self) -> bool:
        """429, 5xx (529 included) and connection failures are worth another try; other 4xx are not."""
        return self.status is None or self.status == 429 or self.status >= 500


class MissingKey(Exception):
    """The provider's API key is not in the environment."""


class MissingExtra(MissingKey):
    """The provider's SDK is not installed: the message names the pip command."""


def duration_seconds(text: Any) -> float | None:
    """A protobuf Duration as JSON (`"2s"`, `"0.5s"`): Google's RetryInfo `retryDelay`."""
    if isinstance(text, str) and text.endswith("s"):
        try:
            return max(float(text[:-1]), 0.0)
        except ValueError:
            return None
    return None


def retry_after_seconds(headers: Any) -> float | None:
    """`retry-after-ms`, or `Retry-After` as seconds or an HTTP date; None when absent or unreadable."""
    if headers is None:
        return None
    ms = headers.get("retry-after-ms")
    if ms is not None:
        try:
            return max(float(ms) / 1000, 0.0)
        except ValueError:
            pass
    value = headers.get("retry-after")
    if value is None:
        return None
    try:
        return max(float(value), 0.0)
    except ValueError:
        pass
    try:
        from datetime import UTC, datetime

        return max((parsedate_to_datetime(value) - datetime.now(UTC)).total_seconds(), 0.0)
    except (TypeError, ValueError):
        return None


def from_sdk(exc: Exception, provider: str) -> ProviderError:
    """Turn an anthropic/openai SDK exception into a ProviderError (duck-typed: no SDK import needed here)."""
    response = getattr(exc, "response", None)
    status = getattr(exc, "status_code", None) or getattr(response, "status_code", None)
    headers = getattr(response, "headers", None)
    detail = _body_message(getattr(exc, "body", None)) or str(getattr(exc, "message", "") or exc) or type(exc).__name__
    detail = detail.splitlines()[0][:300]
    what = f"HTTP {status}" if status else "connection failed"
    return ProviderError(f"{provider}: {what}: {detail}", status=status, retry_after=retry_after_seconds(headers))


def _body_message(body: Any) -> str | None:
    """The `error.message` (or `message`) of an API error body, when it has one."""
    if isinstance(body, dict):
        inner = body.get("error")
        found = inner.get("message") if isinstance(inner, dict) else body.get("message")
        return found if isinstance(found, str) and found else None
    return None
