"""Run a suite's selected tests against their servers and build the Report."""

from __future__ import annotations

import bisect
import contextlib
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from mcptest.agent.plan import AgentOptions, plan
from mcptest.agent.results import cell_row, judge_runs
from mcptest.agent.runs import AgentRuns, run_agents
from mcptest.core.errors import UserError
from mcptest.expect.assertions import check, show
from mcptest.expect.failure import AssertionFailure
from mcptest.expect.snapshots import SnapshotStore, in_ci, snapshot_store
from mcptest.providers import key_values
from mcptest.records.report import GateReport, Report, Status, TestResult
from mcptest.run.call_tests import CallTest, UnknownName, describe, make_call, unlisted_tool
from mcptest.run.security import run_security_block
from mcptest.run.selection import Selection
from mcptest.run.state import RunState, crash_message
from mcptest.run.targets import lookup, target_root
from mcptest.run.workers import run_all
from mcptest.server.session import CallOutcome, ServerConfig, ServerUnavailable, SessionPool
from mcptest.suite.agents import AgentTest
from mcptest.suite.blocks.security import SecurityBlock
from mcptest.suite.blocks.tool_quality import ToolQualityBlock
from mcptest.suite.models import Suite

Clock = Callable[[], datetime]


@dataclass
class RunResult:
    """The report plus what the exit code needs beyond it."""

    report: Report
    selected: int
    not_ready: bool = False
    """Every failure was a server that did not come up in time."""
    capped: bool = False
    """`--max-cost` was spent and runs were left undispatched (exit 5)."""
    notes: list[str] = field(default_factory=list)
    """Lines for stderr: cassettes written or not."""


Test = CallTest | ToolQualityBlock | SecurityBlock


def selected_count(suite: Suite, selection: Selection) -> int:
    """How many tests (tool, quality and agent) the filters select."""
    return len(select(suite, selection)) + sum(selection.matches(a) for a in suite.agents)


def select(suite: Suite, selection: Selection) -> list[Test]:
    """The suite's tests that the filters select: tool, resource and prompt tests, then `tool_quality:` and
    `security:` blocks, each in file order."""
    tests: list[Test] = [*suite.tools, *suite.resources, *suite.prompts, *suite.tool_quality, *suite.security]
    return [t for t in tests if selection.matches(t)]


async def run_suite(
    suite: Suite,
    selection: Selection | None = None,
    *,
    clock: Clock = lambda: datetime.now(UTC),
    servers: dict[str, ServerConfig] | None = None,
    on_result: Callable[[TestResult], None] | None = None,
    agents_options: AgentOptions | None = None,
    state: RunState | None = None,
    pool: SessionPool | None = None,
    snapshots: SnapshotStore | None = None,
    workers: int = 1,
    fail_fast: bool = False,
) -> RunResult:
    """Run the selected tool tests, then the agent tests (recorded, replayed or live), one session per server.

    `state` collects the results as they finish, so a caller can still report them when the run is interrupted.
    With `pool` (already entered), its sessions are used and left open: the pytest plugin keeps one per worker.
    `workers` tool, resource and prompt tests run at once (`mcptest.run.workers`); `fail_fast` starts none after the
    first failure, and no agent test.
    """
    selection = selection or Selection()
    options = agents_options or AgentOptions()
    tests = select(suite, selection)
    agents = [a for a in suite.agents if selection.matches(a)]
    cells = plan([a for a in agents if not a.recorded], suite.file, suite.prices, options)
    selected = len(tests) + len(agents)
    state = state if state is not None else RunState()
    state.begin(suite.file, clock(), suite.secrets | key_values(options.environ))
    not_ready: list[bool] = []
    configs: dict[str, ServerConfig] = {**suite.servers, **(servers or {})}
    shared = contextlib.nullcontext(pool) if pool else SessionPool(configs, base_dir=Path(suite.file).parent)
    store = snapshots or SnapshotStore(Path(suite.file).parent, ci=in_ci())
    async with _snapshots_on(shared, store) as pool:
        await pool.start_early(getattr(tests[0], "server", None) if tests else None)

        async def run_one(test: Test) -> tuple[TestResult, bool]:
            try:
                if isinstance(test, SecurityBlock):
                    return await run_security_block(test, pool, suite.file, list(suite.servers))
                if isinstance(test, ToolQualityBlock):
                    return await run_quality_block(test, pool, suite.file)
                return await run_tool_test(test, pool, suite.file)
            except Exception as exc:  # a bug while checking one test must not lose the others' results
                return _failed(_base(test, suite.file), time.perf_counter(), crash_message(exc), ""), False

        finished: list[int] = []  # suite positions of state.results, which stay in suite order as tests finish

        def done(index: int, outcome: tuple[TestResult, bool]) -> None:
            at = bisect.bisect(finished, index)
            finished.insert(at, index)
            state.results.insert(at, outcome[0])
            not_ready.insert(at, outcome[1])
            if on_result:
                on_result(outcome[0])

        ran = await run_all(
            tests, run_one, workers=workers, fail_fast=fail_fast, on_result=done,
            failed=lambda outcome: outcome[0].status == Status.FAILED,
        )  # fmt: skip
        if ran.stopped:  # -x: after a failed test, no agent test starts either
            state.not_run = ran.not_run + len(agents)
            cells, agents = [], []
        live = await run_agents(cells, pool, suite.file, state.secrets, options)
    for agent in agents:
        try:
            rows, judged = judge_agent(agent, live, suite.file)
        except Exception as exc:
            rows, judged = [cell_row(agent, None, suite.file, crash_message(exc))], []
        state.results += rows
        state.gates += judged
        if on_result:
            for row in rows:
                on_result(row)
        not_ready += [False] * len(rows)
    state.capped = live.capped
    report = state.report()
    failed = [nr for nr, r in zip(not_ready, report.results, strict=True) if r.status == Status.FAILED]
    failed += [False for g in report.gates if g.status == Status.FAILED]
    return RunResult(
        report,
        selected,
        bool(failed) and all(failed),
        capped=live.capped,
        notes=live.notes,
    )


@contextlib.asynccontextmanager
async def _snapshots_on(pool: Any, store: SnapshotStore) -> AsyncIterator[SessionPool]:
    """The pool, with `store` as the snapshot folder of every matcher checked meanwhile."""
    with snapshot_store(store):
        async with pool as entered:
            yield entered


def judge_agent(agent: AgentTest, live: AgentRuns, file: str) -> tuple[list[TestResult], list[GateReport]]:
    """An agent test's rows and gates: its recorded runs, or its cells' runs plus a row per cell that did not run."""
    if agent.recorded:
        return judge_runs(agent, agent.recorded_runs(), file)
    mine = [c for c in live.cells if c.cell.test is agent]
    rows, gates = judge_runs(agent, [t for c in mine for t in c.traces], file)
    for c in mine:
        if c.error:
            rows.append(cell_row(agent, c.cell.model, file, c.error))
        if c.skipped:
            why = f"{c.skipped} of {agent.runs} runs not dispatched: the --max-cost budget was spent"
            rows.append(cell_row(agent, c.cell.model, file, why, skipped=True))
    return rows, gates


async def run_tool_test(test: CallTest, pool: SessionPool, file: str) -> tuple[TestResult, bool]:
    """Make the test's one call (tool, resource or prompt) and judge the outcome; the flag: the server never came up."""
    start = time.perf_counter()
    base = _base(test, file)
    try:
        session = await pool.get(test.server)
    except ServerUnavailable as exc:
        return _failed(base, start, exc.message, exc.stderr), "no handshake within" in exc.message
    start = time.perf_counter()  # the server's start-up is the run's cost, not this test's
    try:
        outcome = await make_call(test, session)
    except (UnknownName, ServerUnavailable) as exc:
        return _failed(base, start, str(exc), getattr(exc, "stderr", "")), False
    failures, error = judge(test, outcome)
    failed = bool(failures or error)
    if failed and (unlisted := await unlisted_tool(test, session)):
        error = f"{error}; {unlisted}" if error else unlisted
    return TestResult(
        **base,
        status=Status.FAILED if failed else Status.PASSED,
        duration_ms=_ms(start),
        failures=failures,
        error=error,
        stderr=(session.stderr_tail() or None) if outcome.error and error else None,
    ), False


async def run_quality_block(block: ToolQualityBlock, pool: SessionPool, file: str) -> tuple[TestResult, bool]:
    """Score the server's live catalog and check the block's gate (its default gate when `expect` is empty)."""
    from mcptest.records.catalog import from_wire
    from mcptest.run.tool_quality import evaluate, selection

    start = time.perf_counter()
    base = _base(block, file)
    try:
        session = await pool.get(block.server)
        catalog = from_wire(await session.list_tools(), f"server '{block.server}'")
    except ServerUnavailable as exc:
        timed_out = "no handshake within" in exc.message
        return _failed(base, start, exc.message, exc.stderr), timed_out
    except UserError as exc:
        return _failed(base, start, f"the server's tools/list is malformed: {exc}", ""), False
    targets, failures = evaluate(catalog, block)
    figures: dict[str, float | int | None] = {
        k: v for k, v in targets.items() if isinstance(v, int | float) and not isinstance(v, bool)
    }
    status = Status.FAILED if failures else Status.PASSED
    result = TestResult(
        **base, status=status, duration_ms=_ms(start), failures=failures, targets=figures, selection=selection(block)
    )
    return result, False


def _base(test: Test, file: str) -> dict[str, Any]:
    if isinstance(test, SecurityBlock):
        return dict(name=test.name, kind="security", file=file, line=test._line, tags=test.tags)
    what = {"kind": "quality"} if isinstance(test, ToolQualityBlock) else describe(test)
    return dict(name=test.name, server=test.server, file=file, line=test._line, tags=test.tags, **what)


def _failed(base: dict[str, Any], start: float, error: str, stderr: str) -> TestResult:
    return TestResult(**base, status=Status.FAILED, duration_ms=_ms(start), error=error, stderr=stderr or None)


def judge(test: CallTest, outcome: CallOutcome) -> tuple[list[AssertionFailure], str | None]:
    """The failed assertions and the non-assertion error of one call.

    A server request the suite gives no answer to fails the test, saying how to answer it. A protocol error fails
    the test unless an assertion targets `error`. An `isError` result fails a test that has no assertions; a test
    with assertions is judged by them alone.
    """
    assertions = test.assertions
    if outcome.capture.unanswered:
        return [], "; ".join(outcome.capture.unanswered)
    if outcome.error and not any(target_root(a.target) == "error" for a in assertions):
        return [], outcome.error
    if not assertions and outcome.result and outcome.result.get("isError"):
        return [], f"the tool returned an error result: {show(_text(outcome.result))}"
    failures = [
        AssertionFailure(
            target="result.structuredContent",
            matcher="outputSchema",
            expected=None,
            actual=(outcome.result or {}).get("structuredContent"),
            message=finding,
        )
        for finding in outcome.findings
    ]
    failures += check(assertions, lookup(outcome))
    budget = test.max_duration_ms
    if budget is not None and outcome.duration_ms > budget:
        failures.append(
            AssertionFailure(
                target="duration_ms",
                matcher="max_duration_ms",
                expected=budget,
                actual=outcome.duration_ms,
                message=f"took {outcome.duration_ms:.0f} ms, over the {budget:g} ms budget",
            )
        )
    return failures, None


def _text(result: dict[str, Any]) -> str:
    texts = [c.get("text", "") for c in result.get("content", []) if isinstance(c, dict) and c.get("type") == "text"]
    return " ".join(texts) or "(no text content)"


def _ms(start: float) -> float:
    return round((time.perf_counter() - start) * 1000, 3)
