"""The load report: per operation and overall, counts, errors by kind, throughput and latency percentiles with the
encoded HdrHistogram; `schema/load.v1.json` is generated from it."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

LOAD_FORMAT_VERSION = "1"

ERROR_KINDS = ("protocol", "tool_error", "assertion", "unanswered", "unavailable")
"""How an answer failed: a protocol error or timeout; an `isError` result of a test without assertions; an
assertion that does not hold; a server request the suite gives no answer to; no session or an unknown name."""


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Second(_Model):
    """One second of the run for one operation (or all): what was offered in it and the answers received in it."""

    second: int = Field(
        description="Seconds from the start of the load (of each process and shard: they ran together)."
    )
    started: int = Field(
        description="Calls due in this second (open model) or sent in it (closed model): the offered load."
    )
    count: int = Field(description="Answers received in this second (failed ones included).")
    errors: int = Field(0, description="Of those answers, the failed ones.")
    p50_ms: float
    p95_ms: float
    p99_ms: float
    histogram: str = Field(description="This second's answers' latency in µs as an encoded HdrHistogram (base64).")


class Operation(_Model):
    """One scenario (a suite test) under load, or all of them together (`name: all`)."""

    name: str = Field(description="The test's name, or `all`.")
    kind: str = Field(description="`tool`, `resource`, `prompt`, or `all`.")
    weight: int = Field(1, description="How often users pick it, relative to the others.")
    count: int = Field(description="Answers received (failed ones included).")
    errors: dict[str, int] = Field(default_factory=dict, description="Failed answers by kind (see `ERROR_KINDS`).")
    throughput_rps: float = Field(description="Answers per second over the run's elapsed time.")
    p50_ms: float
    p90_ms: float
    p95_ms: float
    p99_ms: float
    max_ms: float
    mean_ms: float
    histogram: str = Field(description="Every answer's latency in µs as an encoded HdrHistogram (base64).")
    series: list[Second] = Field(
        default_factory=list,
        description="Per second of the run, in order (seconds with nothing sent or received left out); each "
        "second's histogram merges exactly across processes and shards.",
    )


class Generator(_Model):
    """The load generator's own use of the machine: it must not be what is measured."""

    processes: int = Field(description="Generator processes (one per core by default).")
    cores: int = Field(description="Cores of the machine.")
    cpu_percent: float = Field(
        description="CPU time of the generator's processes over the elapsed time, as a percent of all cores."
    )
    saturated: bool = Field(
        description="The generator's processes were busy over 90% of the time they could "
        "have run: its figures may measure the client, not the server."
    )


class LimitStep(_Model):
    """One step of `--find-limit`: a load at one rate and whether it stayed within budget."""

    rate: float = Field(description="Arrivals per second offered.")
    within: bool = Field(description="Every budgeted p95 held and under 1% of the answers failed.")
    reason: str = Field("", description="Why not: each p95 over its budget, the error share.")
    count: int = Field(description="Answers received.")
    error_percent: float = Field(description="Failed answers, as a percent of all.")
    p95_ms: dict[str, float] = Field(default_factory=dict, description="Each operation's p95 (ms).")


class Limit(_Model):
    """`--find-limit`: the steps of the search and the highest rate found within budget."""

    p95_budget_ms: dict[str, float] = Field(
        description="Per operation, its p95 budget: the suite's `latency.p95_ms` bound, or `--p95-ms`."
    )
    max_error_percent: float = Field(description="A step fails at this share of failed answers or more.")
    steps: list[LimitStep] = Field(default_factory=list, description="In the order they ran.")
    rate: float | None = Field(description="The highest rate within budget (null: no step was).")
    over: float | None = Field(None, description="The lowest rate that was over budget (null: none was).")


class LoadReport(_Model):
    """What one `mcptest load` measured."""

    format_version: str = Field(default=LOAD_FORMAT_VERSION)
    mcptest_version: str
    suite: str
    started_at: str = Field(description="ISO 8601, UTC.")
    users: int = Field(description="Virtual users (of this shard).")
    duration_s: float = Field(description="The duration asked for.")
    profile: str = Field("constant", description="The offered load's shape: constant, ramp, spike or soak.")
    ramp_s: float = Field(0.0, description="The load rises from 0 to full over this many seconds first.")
    rate: float | None = Field(None, description="Open model: arrivals per second offered (null: closed model).")
    elapsed_s: float = Field(description="Wall time the load ran.")
    interrupted: bool = Field(False, description="Stopped early by Ctrl-C or SIGTERM: the figures so far.")
    capped: bool = Field(False, description="Stopped at `--max-requests`.")
    operations: list[Operation] = Field(default_factory=list)
    overall: Operation
    generator: Generator
    warnings: list[str] = Field(default_factory=list)
    limit: Limit | None = Field(
        None, description="`--find-limit`: the search; the figures above are those of its highest rate within budget."
    )
