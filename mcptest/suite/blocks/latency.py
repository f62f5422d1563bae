"""`latency:` of a call test (tool, resource, prompt): repeat the call and gate its percentiles."""

from __future__ import annotations

from typing import Any

from pydantic import Field, model_validator

from mcptest.core.latency import FIGURES
from mcptest.suite.strict import Strict

MAX_SAMPLES = 100_000
MAX_CONCURRENCY = 256


class Latency(Strict):
    """Repeat a call `samples` times, `concurrency` at once, after `warmup` calls left out of the figures; gate
    `latency.p50_ms`, `p90_ms`, `p95_ms`, `p99_ms`, `max_ms` and `errors` under `expect:`."""

    samples: int = Field(1, ge=1, le=MAX_SAMPLES, description="Calls measured (default 1).")
    concurrency: int = Field(
        1, ge=1, le=MAX_CONCURRENCY, description="Calls in flight at once on the test's session (default 1)."
    )
    warmup: int = Field(0, ge=0, le=MAX_SAMPLES, description="Calls made first and left out of the figures.")

    @model_validator(mode="after")
    def _fits(self) -> Latency:
        if self.concurrency > self.samples:
            raise ValueError(
                f"concurrency {self.concurrency} is more than the {self.samples} samples: lower it or add samples"
            )
        return self


LATENCY_DOC = (
    "Measure the call's latency: `{ samples: N, concurrency: C, warmup: K }`; gate `latency.p95_ms` and the other "
    "figures under `expect:`."
)
LATENCY_TARGETS = tuple(f"latency.{name}" for name in FIGURES)


def latency_target_problem(target: str, test: Any) -> str | None:
    """Why a `latency...` target cannot be read in this test (raw YAML mapping), or None when it can."""
    if target not in LATENCY_TARGETS:
        return f"unknown target '{target}'; latency targets are {', '.join(LATENCY_TARGETS)}"
    if not isinstance(test, dict) or "latency" not in test:
        return f"'{target}' needs a `latency:` key on the test, e.g. `latency: {{ samples: 100 }}`"
    return None
