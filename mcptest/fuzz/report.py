"""The report of one `mcptest fuzz` run (its JSON form is `schema/fuzz-report.schema.json`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict, Field

from mcptest.fuzz.classify import RANK, SEVERITY
from mcptest.records.coverage import ServerCoverage

if TYPE_CHECKING:
    from mcptest.records.report import Report

FAIL_ON = ("error", "warning", "info", "never")


class FuzzFinding(BaseModel):
    """One class of misbehaviour on one tool, with the smallest input that still shows it."""

    model_config = ConfigDict(extra="forbid")

    tool: str
    kind: str = Field(description="The finding class: " + ", ".join(SEVERITY) + ".")
    severity: str = Field(description="error, warning or info.")
    detail: str = Field(description="What was seen, in one line.")
    input: dict[str, Any] = Field(description="The minimal input that shows it (shrunk from the first one found).")
    input_valid: bool = Field(description="Whether the tool's inputSchema accepts the input.")
    how: str = Field(description="How the first input was made: valid, an edge, or the mutation that broke it.")
    first_input_size: int = Field(description="The size (JSON characters) of the input before shrinking.")
    shrink_calls: int = Field(description="Calls spent shrinking it.")
    stderr: str = Field("", description="The server's last stderr lines, for a crash or a hang.")
    replay: str = Field(description="One command line that makes the call again and exits 1 if it reproduces.")


class ToolFuzz(BaseModel):
    """What one tool was sent and how many of its calls showed each finding class."""

    model_config = ConfigDict(extra="forbid")

    tool: str
    cases: int = Field(0, description="Calls made (shrinking not counted).")
    valid_cases: int = 0
    invalid_cases: int = 0
    counts: dict[str, int] = Field(default_factory=dict, description="Calls showing each finding class.")
    skipped: str | None = Field(None, description="Why the tool was not fuzzed.")
    seconds: float = 0.0


class FuzzReport(BaseModel):
    """A fuzz run of one server's tools."""

    model_config = ConfigDict(extra="forbid")

    server: str
    ok: bool = Field(description="No finding at or above `fail_on`.")
    fail_on: str = Field(description="The severity that fails the run: " + ", ".join(FAIL_ON) + ".")
    seed: int
    cases_per_tool: int
    max_call_ms: int
    timeout_scale: float = Field(description="How much the per-call timeout was stretched for the machine's load.")
    restarts: int = Field(description="Times the server was started again after it exited.")
    replay: dict[str, Any] | None = Field(None, description="The input of a `--replay` run.")
    tools: list[ToolFuzz]
    findings: list[FuzzFinding]
    seconds: float
    coverage: ServerCoverage | None = Field(
        None,
        description="What the run's calls (shrinking's included) reached of the server's tools, as `mcptest run`'s "
        "coverage section counts it; absent for a suite's `fuzz:` block, whose calls count in the run's section.",
    )

    def counts(self) -> dict[str, int]:
        """Findings per severity."""
        out = {"error": 0, "warning": 0, "info": 0}
        for finding in self.findings:
            out[finding.severity] += 1
        return out


def failed(findings: list[FuzzFinding], fail_on: str) -> bool:
    """Whether any finding is at or above `fail_on` (`never`: none fails)."""
    if fail_on == "never":
        return False
    return any(RANK[f.severity] >= RANK[fail_on] for f in findings)


def as_run_report(report: FuzzReport, file: str) -> Report:
    """The fuzz run as a test-run Report, for the run reporters (JUnit, Markdown, HTML) to render: one row per tool
    (`fuzz TOOL`, kind `fuzz`), failed when it has a finding at or above `fail_on` (one failure line per such
    finding: class, detail, minimal input, replay line), skipped when held back, its calls and per-class counts as
    targets (a held-back tool's reason is in the fuzz report only: a run row has no field for it). `file` names
    where the server came from (the suite, or `mcptest fuzz`)."""
    from mcptest.expect.failure import AssertionFailure
    from mcptest.records.report import Status, TestResult, finished_report

    rows: list[TestResult] = []
    for tool in report.tools:
        mine = [f for f in report.findings if f.tool == tool.tool and failed([f], report.fail_on)]
        failures = [
            AssertionFailure(
                target=f"classes.{f.kind}",
                matcher="floor",
                expected=0,
                actual=tool.counts.get(f.kind, 0),
                message=f"{f.severity} {f.kind}: {f.detail}; minimal input {_compact(f.input)}; replay: {f.replay}",
            )
            for f in mine
        ]
        status = Status.SKIPPED if tool.skipped else Status.FAILED if failures else Status.PASSED
        targets: dict[str, float | int | None] = {
            "cases": tool.cases,
            "valid_cases": tool.valid_cases,
            "invalid_cases": tool.invalid_cases,
        }
        targets.update({f"classes.{kind}": n for kind, n in tool.counts.items()})
        rows.append(
            TestResult(
                name=f"fuzz {tool.tool}",
                kind="fuzz",
                server=report.server,
                tool=tool.tool,
                file=file,
                line=1,
                status=status,
                duration_ms=round(tool.seconds * 1000, 3),
                failures=failures,
                targets=targets,
            )
        )
    coverage = None
    if report.coverage is not None:
        from mcptest.records.coverage import Coverage

        coverage = Coverage(servers=[report.coverage], counted=sum(not t.skipped for t in report.tools))
    return finished_report(file, report.seconds, rows, coverage=coverage)


def _compact(value: Any) -> str:
    import json

    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))
