"""Judge an agent test's runs: per-run `expect:` rows, and each gate block over all runs of a model."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mcptest.expect import check, resolve
from mcptest.gates import blocks_of, evaluate_blocks
from mcptest.report.model import GateReport, Status, TestResult
from mcptest.suite.agents import AgentTest, agent_view
from mcptest.trace import Trace


def judge_runs(test: AgentTest, traces: Sequence[Trace], file: str) -> tuple[list[TestResult], list[GateReport]]:
    """One result row per run and one gate report per block and model."""
    rows = [_row(test, trace, i, len(traces), file) for i, trace in enumerate(traces, start=1)]
    gates: list[GateReport] = []
    for model, runs in _by_model(test, traces).items():
        gates += judge_gates(test, model, runs, file, matrix=len(test.model_list) > 1)
    return rows, gates


def judge_gates(
    test: AgentTest, model: str | None, runs: Sequence[Trace], file: str, *, matrix: bool
) -> list[GateReport]:
    """Every declared gate block over one model's runs."""
    blocks = blocks_of(test)
    if not blocks or not runs:
        return []
    label = f"{test.name} [{model}]" if matrix and model else test.name
    outcomes = evaluate_blocks(blocks, runs, label=label, prompt=test.prompt or runs[0].prompt)
    return [
        GateReport(
            test=test.name,
            model=model,
            block=o.block,
            file=file,
            line=test._line,
            status=Status.PASSED if o.passed else Status.FAILED,
            runs=len(runs),
            targets=dict(o.targets),
            failures=o.failures,
            lines=o.lines,
            detail={**o.detail, "breaches": o.breaches, "undefined": o.undefined, "default_gate": o.default_gate},
        )
        for o in outcomes
    ]


def _row(test: AgentTest, trace: Trace, index: int, total: int, file: str) -> TestResult:
    view = agent_view(trace)
    failures = check(test.expect or [], lambda path: resolve(view, path))
    latency = sum(c.latency_ms or 0 for c in trace.tool_calls)
    return TestResult(
        name=test.name,
        kind="agent",
        server=",".join(test.servers) or None,
        model=trace.model or test.model,
        run=index if total > 1 else None,
        file=file,
        line=test._line,
        tags=test.tags,
        status=Status.FAILED if failures else Status.PASSED,
        duration_ms=round(latency, 3),
        failures=failures,
        targets=_figures(trace),
    )


def _figures(trace: Trace) -> dict[str, float | int | None]:
    figures: dict[str, Any] = {"tool_calls": len(trace.tool_calls)}
    if trace.tokens is not None:
        figures["tokens.total"] = trace.tokens.total
    if trace.cost_usd is not None:
        figures["cost_usd"] = trace.cost_usd
    return figures


def _by_model(test: AgentTest, traces: Sequence[Trace]) -> dict[str | None, list[Trace]]:
    groups: dict[str | None, list[Trace]] = {}
    for trace in traces:
        groups.setdefault(trace.model or test.model, []).append(trace)
    return groups
