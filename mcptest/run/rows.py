"""A test's row in the report: its elapsed time, and the failed row of a test that could not be judged."""

from __future__ import annotations

import time
from typing import Any

from mcptest.records.report import Status, TestResult


def elapsed_ms(start: float) -> float:
    """Milliseconds since `start` (a `time.perf_counter()` reading), to the microsecond."""
    return round((time.perf_counter() - start) * 1000, 3)


def failed_row(fields: dict[str, Any], start: float, error: str, stderr: str) -> TestResult:
    """A failed row with no assertion failures: the server never came up, a name it does not list, a crash."""
    return TestResult(**fields, status=Status.FAILED, duration_ms=elapsed_ms(start), error=error, stderr=stderr or None)
