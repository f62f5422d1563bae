"""Judge an agent test's runs: per-run `expect:` rows, and each gate block over all runs of a model."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from mcptest.agent.judges.run import verdict_of
from mcptest.expect.assertions import check, resolve
from mcptest.gates import blocks_of, evaluate_blocks
from mcptest.records.report import GateReport, Status, TestResult
from mcptest.records.trace import Trace
from mcptest.suite.agents import AgentTest, agent_view

if TYPE_CHECKING:
    from mcptest.agent.runs import AgentRuns


def judge_runs(test: AgentTest, traces: Sequence[Trace], file: str) -> tuple[list[TestResult], list[GateReport]]:
    """One result row per run (numbered within its model) and one gate report per block and model."""
    rows: list[TestResult] = []
    gates: list[GateReport] = []
    groups = _by_model(test, traces)
    for model, runs in groups.items():
        numbered = len(runs) > 1 or test.runs > 1
        rows += [_row(test, trace, i if numbered else None, file) for i, trace in enumerate(runs, start=1)]
        gates += judge_gates(test, model, runs, file, matrix=len(groups) > 1 or len(test.model_list) > 1)
    return rows, gates


def cell_row(test: AgentTest, model: str | None, file: str, error: str, *, skipped: bool = False) -> TestResult:
    """A row for runs that never happened: a missing or refused cassette, an unreachable server, a cost cap."""
    return TestResult(
        name=test.name,
        kind="agent",
        server=",".join(test.servers) or None,
        model=model,
        file=file,
        line=test._line,
        tags=test.tags,
        status=Status.SKIPPED if skipped else Status.FAILED,
        duration_ms=0.0,
        error=error,
    )


def judge_gates(
    test: AgentTest, model: str | None, runs: Sequence[Trace], file: str, *, matrix: bool
) -> list[GateReport]:
    """Every declared gate block over one model's runs."""
    blocks = blocks_of(test)
    if not blocks or not runs:
        return []
    label = f"{test.name} [{model}]" if matrix and model else test.name
    said = "\n".join([test.prompt or runs[0].prompt or "", *(test.turns or [])])  # discovery reads every message
    outcomes = evaluate_blocks(blocks, runs, label=label, prompt=said)
    asked = len(runs) if test.recorded else test.runs
    return [
        GateReport(
            test=test.name,
            model=model,
            block=o.block,
            file=file,
            line=test._line,
            status=_status(o.passed, len(runs), asked),
            runs=len(runs),
            runs_asked=asked,
            targets=dict(o.targets),
            failures=o.failures,
            lines=_lines(o.lines, o.passed, len(runs), asked),
            detail={**o.detail, "breaches": o.breaches, "undefined": o.undefined, "default_gate": o.default_gate},
        )
        for o in outcomes
    ]


def _status(passed: bool, runs: int, asked: int) -> Status:
    # fewer runs than asked (a cost cap) decide nothing: the missing runs could move every figure either way
    if runs < asked:
        return Status.INCOMPLETE
    return Status.PASSED if passed else Status.FAILED


def _lines(lines: list[str], passed: bool, runs: int, asked: int) -> list[str]:
    if runs >= asked or not lines:
        return lines
    verdict = "[PASS]" if passed else "[FAIL]"
    first = lines[0].replace(verdict, "[INCOMPLETE]", 1)
    return [first, f"  judged on {runs} of {asked} runs: the rest were not dispatched", *lines[1:]]


def _row(test: AgentTest, trace: Trace, index: int | None, file: str) -> TestResult:
    view = agent_view(trace)
    failures = check(test.expect or [], lambda path: resolve(view, path), verdict_of(trace))
    failed = bool(failures or trace.error)
    latency = sum(c.latency_ms or 0 for c in trace.tool_calls)
    return TestResult(
        name=test.name,
        kind="agent",
        server=",".join(test.servers) or None,
        model=trace.model or test.model,
        run=index,
        file=file,
        line=test._line,
        tags=test.tags,
        status=Status.FAILED if failed else Status.PASSED,
        duration_ms=round(latency, 3),
        failures=failures,
        targets=_figures(trace),
        error=trace.error,
        judgements=trace.judgements or [],
    )


def _figures(trace: Trace) -> dict[str, float | int | None]:
    figures: dict[str, Any] = {"tool_calls": len(trace.tool_calls)}
    if trace.tokens is not None:
        figures["tokens.total"] = trace.tokens.total
        # the split: input includes cached, output includes reasoning; those two only when the provider gave some
        split = {"input": trace.tokens.input, "output": trace.tokens.output}
        split |= {"cached": trace.tokens.cached or None, "reasoning": trace.tokens.reasoning or None}
        figures |= {f"tokens.{k}": v for k, v in split.items() if v is not None}
    if trace.cost_usd is not None:
        figures["cost_usd"] = trace.cost_usd
    return figures


def _by_model(test: AgentTest, traces: Sequence[Trace]) -> dict[str | None, list[Trace]]:
    groups: dict[str | None, list[Trace]] = {}
    for trace in traces:
        groups.setdefault(trace.model or test.model, []).append(trace)
    return groups


def traces_of(agent: AgentTest, live: AgentRuns) -> list[Trace]:
    """An agent test's runs: recorded in the suite, or made (live or replayed) by its cells."""
    if agent.recorded:
        return agent.recorded_runs()
    return [t for c in live.cells if c.cell.test is agent for t in c.traces]


def judge_agent(agent: AgentTest, live: AgentRuns, file: str) -> tuple[list[TestResult], list[GateReport]]:
    """An agent test's rows and gates: its recorded runs, or its cells' runs plus a row per cell that did not run."""
    if agent.recorded:
        return judge_runs(agent, agent.recorded_runs(), file)
    mine = [c for c in live.cells if c.cell.test is agent]
    rows, gates = judge_runs(agent, traces_of(agent, live), file)
    for c in mine:
        if c.error:
            rows.append(cell_row(agent, c.cell.model, file, c.error))
        if c.skipped:
            why = f"{c.skipped} of {agent.runs} runs not dispatched: the --max-cost budget was spent"
            rows.append(cell_row(agent, c.cell.model, file, why, skipped=True))
    return rows, gates
