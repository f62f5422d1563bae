"""What `mcptest history` prints with `--json`: versioned pydantic models (`schema/history-*.v1.json`)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

HISTORY_FORMAT_VERSION: Literal["1"] = "1"


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class StoredRun(_Model):
    """One stored run of a suite."""

    id: int = Field(description="The run's id in the store.")
    started_at: str = Field(description="When the run started (ISO 8601, UTC).")
    duration_ms: float
    mcptest_version: str
    commit: str | None = Field(description="The git commit of the suite's folder, when in a repository.")
    branch: str | None = Field(description="The git branch (null on a detached HEAD or outside a repository).")
    ci_job: str | None = Field(description="The CI job id (every shard of one CI run shares it).")
    shard: str | None = Field(description="`K/N` when the run was one shard of `mcptest run --shard`.")
    source: Literal["run", "merge", "load"] = Field(
        description="`run`, `merge` for a `report merge` of shards, or `load` for a `mcptest load`."
    )
    ok: bool = Field(description="The run exited 0.")
    interrupted: bool
    capped: bool = Field(description="`--max-cost` was spent and runs were left undispatched.")
    total: int
    passed: int
    failed: int
    skipped: int
    gates_failed: int = Field(description="Gate blocks failed or incomplete.")


class RunList(_Model):
    """`mcptest history [SUITE] --json`: the suite's last runs, newest first."""

    format_version: Literal["1"] = HISTORY_FORMAT_VERSION
    store: str = Field(description="The store's URL (a password masked).")
    suite: str = Field(description="The suite's stored name (its path from the repository root).")
    runs: list[StoredRun]


class Interval(_Model):
    """A Wilson score 95% interval (no continuity correction)."""

    low: float
    high: float


class Point(_Model):
    """One outcome of a test in its timeline."""

    run_id: int
    started_at: str
    commit: str | None
    run: int | None = Field(description="The run index of a multi-run agent test.")
    status: str = Field(description="passed, failed, skipped or incomplete.")
    duration_ms: float
    quarantined: bool = Field(description="The suite's `quarantine:` kept this outcome out of the exit code.")


class Failure(_Model):
    """The most recent failure of a test."""

    run_id: int
    started_at: str
    commit: str | None
    text: str | None = Field(description="The error and failed assertions' messages.")


class Series(_Model):
    """A test's outcomes on one model (or the test itself when it has no model), with its rates."""

    test: str
    model: str | None
    runs: int = Field(description="Passed and failed outcomes in the window (skipped ones are not runs).")
    passed: int
    flips: int = Field(description="Outcomes whose status differs from the one before.")
    pass_rate: float | None = Field(description="passed ÷ runs; null without runs.")
    pass_interval: Interval
    flip_rate: float | None = Field(description="flips ÷ (runs − 1); null under two runs.")
    flip_interval: Interval
    flaky: bool = Field(description="At least `min_runs` runs and a flip rate above the threshold.")
    last_failure: Failure | None = None
    timeline: list[Point] = Field(default_factory=list, description="The window's outcomes, oldest first.")


class TestHistory(_Model):
    """`mcptest history test NAME --json`: a test's timeline and rates over its last runs."""

    __test__ = False

    format_version: Literal["1"] = HISTORY_FORMAT_VERSION
    store: str
    suite: str
    test: str
    window: int = Field(description="How many of the latest outcomes the rates are over.")
    series: list[Series] = Field(description="One per model the test ran on (one with model null otherwise).")


class FlakyList(_Model):
    """`mcptest history flaky --json`: the tests whose flip rate over their last runs is above the threshold."""

    format_version: Literal["1"] = HISTORY_FORMAT_VERSION
    store: str
    suite: str
    window: int = Field(description="N: each test's last N runs are judged.")
    min_runs: int = Field(description="A test with fewer runs in its window is never flaky.")
    threshold: float = Field(description="Flaky when the flip rate is above this.")
    tests: list[Series] = Field(description="The flaky tests, highest flip rate first (timelines omitted).")


class LoadFigures(_Model):
    """One operation of a stored load."""

    calls: int
    calls_per_s: float
    errors: int = Field(description="Failed answers.")
    p50_ms: float
    p95_ms: float
    p99_ms: float


class LoadRun(_Model):
    """One stored `mcptest load`."""

    id: int
    started_at: str
    commit: str | None
    branch: str | None
    ok: bool = Field(description="No answer failed.")
    interrupted: bool
    operations: dict[str, LoadFigures] = Field(description="Per operation (a suite test's name), its figures.")


class LoadHistory(_Model):
    """`mcptest history load --json`: the suite's last loads, newest first, so latency trends per commit show."""

    format_version: Literal["1"] = HISTORY_FORMAT_VERSION
    store: str
    suite: str = Field(description="The suite's stored name of its loads: its name with `#load`.")
    runs: list[LoadRun]
