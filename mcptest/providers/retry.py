"""Retries with exponential backoff for model calls: 429 and 5xx, honouring Retry-After within a bound."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TypeVar

import anyio

from mcptest.providers.errors import ProviderError

T = TypeVar("T")
Sleep = Callable[[float], Awaitable[None]]


@dataclass(frozen=True)
class RetryPolicy:
    """How often and how long to wait: `base_s * 2**n` capped at `cap_s`, or the server's Retry-After (also capped)."""

    attempts: int = 4
    base_s: float = 0.5
    cap_s: float = 30.0

    def delay(self, attempt: int, error: ProviderError) -> float:
        """Seconds to wait before retry number `attempt` (1-based)."""
        if error.retry_after is not None:
            return min(error.retry_after, self.cap_s)
        return min(self.base_s * 2 ** (attempt - 1), self.cap_s)


async def with_retries(
    send: Callable[[], Awaitable[T]], policy: RetryPolicy = RetryPolicy(), sleep: Sleep = anyio.sleep
) -> T:
    """`send()`, retried on retryable ProviderErrors; the last error names how many attempts were made."""
    for attempt in range(1, policy.attempts + 1):
        try:
            return await send()
        except ProviderError as exc:
            if not exc.retryable or attempt == policy.attempts:
                if attempt > 1:
                    exc.message += f" (after {attempt} attempts)"
                    exc.args = (exc.message,)
                raise
            await sleep(policy.delay(attempt, exc))
    raise AssertionError("unreachable")  # pragma: no cover
