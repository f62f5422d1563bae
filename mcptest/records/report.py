"""The Report: the canonical, versioned record of one run that every reporter renders."""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from mcptest.expect.failure import AssertionFailure
from mcptest.records.coverage import Coverage
from mcptest.records.verdict import Judgement

REPORT_FORMAT_VERSION = "2"


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Status(StrEnum):
    """The outcome of one test."""

    PASSED = "passed"
    FAILED = "failed"
    SKIPPED = "skipped"
    INCOMPLETE = "incomplete"
    """A gate judged on fewer runs than the test asked for (a `--max-cost` cap): no verdict, never a pass."""


class LatencyFigures(_Model):
    """A call measured many times: its latency percentiles (HdrHistogram, 3 significant digits) and histogram."""

    samples: int = Field(description="Calls measured (warm-up calls excluded); errors included.")
    concurrency: int = Field(1, description="Calls in flight at once.")
    warmup: int = Field(0, description="Calls made first and left out of the figures.")
    errors: int = Field(
        0,
        description="Measured calls whose answer failed: a protocol error, a timeout, an "
        "`isError` result, or an assertion of the test (other than a latency one) that does not hold on it.",
    )
    p50_ms: float
    p90_ms: float
    p95_ms: float
    p99_ms: float
    max_ms: float
    mean_ms: float
    histogram: str = Field(
        description="Every measured call's latency in µs as an HdrHistogram (compressed, base64: "
        "`HdrHistogram.decode`); histograms of the same call add exactly."
    )

    def line(self) -> str:
        """The figures in one line of plain text."""
        at = f" x{self.concurrency}" if self.concurrency > 1 else ""
        errors = f"{self.errors} error{'s' if self.errors != 1 else ''}"
        figures = " ".join(f"{k} {getattr(self, k + '_ms'):g}" for k in ("p50", "p90", "p95", "p99", "max"))
        return f"latency over {self.samples} calls{at}: {figures} ms; {errors}"


class TestResult(_Model):
    """The outcome of one test (or one run of an agent test)."""

    __test__ = False  # not a pytest test class

    name: str = Field(description="The test name as written in the suite.")
    kind: str = Field(description="`tool`, `resource`, `prompt`, `agent` or `quality`.")
    server: str | None = Field(None, description="The server the test talks to.")
    tool: str | None = Field(None, description="The tool a tool test calls.")
    resource: str | None = Field(
        None, exclude_if=lambda v: v is None, description="The URI a resource test reads (absent for other kinds)."
    )
    prompt: str | None = Field(
        None, exclude_if=lambda v: v is None, description="The prompt a prompt test renders (absent for other kinds)."
    )
    model: str | None = Field(None, description="The model an agent test ran (null for tool tests).")
    run: int | None = Field(None, description="The 1-based run index of an agent test with `runs:` > 1.")
    file: str = Field(description="The suite file that defines the test.")
    line: int = Field(description="The 1-based line of the test's definition in `file`.")
    status: Status
    duration_ms: float = Field(description="Wall time of the test, in milliseconds.")
    tags: list[str] = Field(default_factory=list)
    failures: list[AssertionFailure] = Field(default_factory=list, description="Assertions that failed.")
    targets: dict[str, float | int | None] = Field(
        default_factory=dict, description="Named figures the test measured, e.g. `mean_score` for `tool_quality`."
    )
    error: str | None = Field(None, description="A failure that is not an assertion: a server crash, a timeout, ...")
    latency: LatencyFigures | None = Field(
        None,
        exclude_if=lambda v: v is None,
        description="For a call test with `latency:`: the figures its `latency.*` assertions read (absent otherwise).",
    )
    judgements: list[Judgement] = Field(
        default_factory=list,
        exclude_if=lambda v: not v,
        description="Each `judge`/`jury` assertion's verdict: score, reason, every juror's answer (absent when none).",
    )
    stderr: str | None = Field(None, description="The tail of the server's stderr, when the failure involves it.")
    selection: str | None = Field(
        None,
        description="For a `tool_quality` test: the lint rules its counts are over (`default`, `strict`, ...); "
        "absent for other tests.",
        exclude_if=lambda v: v is None,
    )
    quarantined: str | None = Field(
        None,
        exclude_if=lambda v: v is None,
        description="The reason of the suite's `quarantine:` entry for this test: it ran and is reported, but its "
        "failure does not fail the run (absent when not quarantined).",
    )


class GateReport(_Model):
    """One gate block of one agent test (per model), judged over all of its runs."""

    test: str = Field(description="The agent test's name.")
    model: str | None = Field(None, description="The model, for a matrix; null otherwise.")
    block: str = Field(description="The gate block, e.g. `tool_selection` or `equal_function_sets`.")
    file: str = Field(description="The suite file that defines the test.")
    line: int = Field(description="The 1-based line of the block's test in `file`.")
    status: Status
    runs: int = Field(description="How many runs the figures are over.")
    runs_asked: int | None = Field(
        None, description="How many runs the test asked for; more than `runs` makes the gate `incomplete`."
    )
    targets: dict[str, float | int | None] = Field(
        default_factory=dict, description="Named figures, e.g. `tool_selection.f1`."
    )
    failures: list[AssertionFailure] = Field(default_factory=list, description="Gate assertions that failed.")
    lines: list[str] = Field(default_factory=list, description="The summary lines the gate prints.")
    detail: dict[str, Any] = Field(default_factory=dict, description="Gate-specific detail (per-run rows, ...).")
    quarantined: str | None = Field(
        None,
        exclude_if=lambda v: v is None,
        description="The reason of the `quarantine:` entry for this gate's test: out of the exit code.",
    )


class GateCounts(_Model):
    """Counts over the gate blocks."""

    total: int = 0
    passed: int = 0
    failed: int = 0
    incomplete: int = Field(0, description="Gates judged on fewer runs than asked (a `--max-cost` cap).")


class Summary(_Model):
    """Counts over the results and the gates, and the one verdict the exit code follows."""

    total: int = Field(description="Result rows (tests, and runs of agent tests).")
    passed: int
    failed: int
    skipped: int
    gates: GateCounts = Field(default_factory=GateCounts, description="Counts over the gate blocks.")
    capped: bool = Field(False, description="`--max-cost` was spent and runs were left undispatched (exit 5).")
    not_run: int = Field(
        0, description="Selected tests never started because `-x/--fail-fast` stopped the run at the first failure."
    )
    quarantined: int = Field(
        0,
        exclude_if=lambda v: v == 0,
        description="Failed results and failed or incomplete gates of quarantined tests: counted above, but out of "
        "`ok` (absent when none).",
    )
    ok: bool = Field(
        description="True exactly when `mcptest run` exits 0: no failed test, no failed or incomplete gate (except "
        "quarantined ones), no cap, no interruption."
    )


class Report(_Model):
    """Everything one `mcptest run` found. Re-rendered by `mcptest report`."""

    format_version: str = Field(default=REPORT_FORMAT_VERSION, description="Bumped on any incompatible change.")
    mcptest_version: str
    suite: str = Field(description="The suite file that was run.")
    started_at: str = Field(description="When the run started (ISO 8601, UTC).")
    duration_ms: float
    results: list[TestResult] = Field(default_factory=list)
    gates: list[GateReport] = Field(default_factory=list, description="Gate blocks judged across runs.")
    summary: Summary
    coverage: Coverage | None = Field(
        None,
        exclude_if=lambda v: v is None,
        description="What the run reached of each server's catalog: tools, arguments, enum values, resources, "
        "templates, prompts (absent when the run measured none).",
    )
    interrupted: bool = Field(
        False,
        description="The run stopped before every selected test ran (Ctrl-C, SIGTERM, or a bug in mcptest): "
        "`results` holds the tests that finished.",
    )

    @property
    def ok(self) -> bool:
        """The summary's verdict: true exactly when the run exits 0."""
        return self.summary.ok


def finished_report(suite: str, seconds: float, results: list[TestResult], **fields: Any) -> Report:
    """The Report of a command that has just finished after `seconds` (conformance, fuzz): its rows summarized, its
    start `seconds` before now, this mcptest's version."""
    from datetime import UTC, datetime, timedelta

    from mcptest import __version__

    return Report(
        mcptest_version=__version__,
        suite=suite,
        started_at=(datetime.now(UTC) - timedelta(seconds=seconds)).isoformat(),
        duration_ms=round(seconds * 1000, 3),
        results=results,
        summary=summarize(results),
        **fields,
    )


def summarize(
    results: list[TestResult],
    gates: Sequence[GateReport] = (),
    *,
    capped: bool = False,
    interrupted: bool = False,
    not_run: int = 0,
) -> Summary:
    """Count the results and the gates by status, and give the one verdict."""
    count = {s: sum(r.status == s for r in results) for s in Status}
    by_gate = {s: sum(g.status == s for g in gates) for s in Status}
    excused = sum(r.status == Status.FAILED for r in results if r.quarantined is not None)
    excused_gates = sum(g.status in (Status.FAILED, Status.INCOMPLETE) for g in gates if g.quarantined is not None)
    counts = GateCounts(
        total=len(gates),
        passed=by_gate[Status.PASSED],
        failed=by_gate[Status.FAILED],
        incomplete=by_gate[Status.INCOMPLETE],
    )
    return Summary(
        total=len(results),
        passed=count[Status.PASSED],
        failed=count[Status.FAILED],
        skipped=count[Status.SKIPPED],
        gates=counts,
        capped=capped,
        not_run=not_run,
        quarantined=excused + excused_gates,
        ok=count[Status.FAILED] == excused
        and counts.failed + counts.incomplete == excused_gates
        and not capped
        and not interrupted,
    )


def cut_short(report: Report) -> list[str]:
    """Why the report lists fewer tests than were selected, or judges fewer runs than asked (plain text)."""
    s = report.summary
    notes = [f"{s.not_run} not run (stopped at the first failure: -x)"] if s.not_run else []
    notes += ["--max-cost spent: runs left undispatched"] if s.capped else []
    return notes + (["interrupted: the tests that had not finished are not listed"] if report.interrupted else [])
