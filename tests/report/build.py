"""Reports built the way the runner builds them: the fixed report of the goldens and small compare cases."""

from __future__ import annotations

from typing import Any

from mcptest.core.stats import rate as rate_of
from mcptest.expect.failure import AssertionFailure
from mcptest.records.report import GateReport, Report, Status, TestResult, summarize

SUITE = "suites/weather.yml"
P, F, S = Status.PASSED, Status.FAILED, Status.SKIPPED


def result(name: str, status: Status = P, **fields: Any) -> TestResult:
    """A result row with plausible defaults."""
    base: dict[str, Any] = {"kind": "tool", "server": "weather", "tool": "get_weather", "file": SUITE, "line": 10}
    return TestResult(name=name, status=status, duration_ms=fields.pop("duration_ms", 12.5), **(base | fields))


MISSED = AssertionFailure(
    target="tool_calls[0].name", matcher="equals", expected="get_weather", actual="search",
    message="'search' is not 'get_weather'",
)  # fmt: skip


def agent_runs(name: str, model: str, outcomes: str, line: int = 40) -> list[TestResult]:
    """One row per run from a string such as "PPFP" (P passed, F failed)."""
    return [
        result(
            name,
            P if o == "P" else F,
            kind="agent",
            tool=None,
            model=model,
            run=i,
            line=line,
            duration_ms=800.0,
            failures=[] if o == "P" else [MISSED],
            targets={
                "tool_calls": 1,
                "tokens.total": 1500,
                "tokens.input": 1200,
                "tokens.output": 300,
                "tokens.cached": 400,
                "tokens.reasoning": 120,
                "cost_usd": 0.0042,
            },
        )  # fmt: skip
        for i, o in enumerate(outcomes, 1)
    ]


def selection_gate(
    name: str, model: str | None, selected: int, runs: int, floor: float = 0.8, line: int = 40
) -> GateReport:
    """A tool_selection gate block over `runs` runs, `selected` of which picked the tool (all within budget)."""
    rate = rate_of(selected, runs)
    status = P if selected / runs >= floor else F
    breaches = [] if status == P else [f"FLOOR {name}: selection rate {rate}% is below the {round(floor * 100)}% floor"]
    failures = [
        AssertionFailure(
            target="tool_selection.selection_rate",
            matcher=">=",
            expected=round(floor * 100),
            actual=rate,
            message=b,
            line=line + 6,
            col=7,
        )
        for b in breaches
    ]
    return GateReport(
        test=name, model=model, block="tool_selection", file=SUITE, line=line, status=status, runs=runs,
        targets={
            "tool_selection.selection_rate": rate, "tool_selection.pass_k": rate, "tool_selection.selected": selected,
            "tool_selection.runs": runs, "tool_selection.tokens_median": 1520, "tool_selection.tokens_max": 1840,
        },
        lines=[f"tool-selection floor [{'PASS' if status == P else 'FAIL'}] {name}: selection {selected}/{runs}"],
        failures=failures,
        runs_asked=runs,
        detail={"breaches": breaches},
    )  # fmt: skip


def report(results: list[TestResult], gates: list[GateReport] = (), **fields: Any) -> Report:  # type: ignore[assignment]
    """A report over these rows and gates, at a fixed start time."""
    base: dict[str, Any] = {"mcptest_version": "0.1.0", "suite": SUITE, "started_at": "2026-11-02T09:30:00+00:00"}
    return Report(
        duration_ms=4321.0,
        results=results,
        gates=list(gates),
        summary=summarize(results, list(gates)),
        **(base | fields),
    )


def fixed_report() -> Report:
    """The report every golden output renders: every status, an error, stderr, two servers, runs and gates."""
    failure = AssertionFailure(
        target="result.content[0].text", matcher="contains", expected="Sacramento", actual="Fresno, 31°C",
        message="'Fresno, 31°C' does not contain 'Sacramento'",
    )  # fmt: skip
    results = [
        result("returns the forecast", line=12, targets={}),
        result("names the city", F, line=18, failures=[failure], duration_ms=30.25),
        result(
            "survives a bad unit",
            F,
            line=25,
            error="server exited with code 1",
            stderr="Traceback\n\x1b[31mboom\x1b[0m",
        ),
        result("slow path", S, line=31, tags=["slow"]),
        result("catalog quality", kind="quality", tool=None, server="files", line=50, targets={"mean_score": 0.82}),
        *agent_runs("weather selection", "claude-sonnet-4-5", "PPFP"),
    ]
    gates = [selection_gate("weather selection", "claude-sonnet-4-5", 3, 4)]
    return report(results, gates)
