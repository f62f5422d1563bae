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
from mcptest.agent.results import cell_row, judge_agent, traces_of
from mcptest.agent.runs import run_agents
from mcptest.expect.snapshots import SnapshotStore, in_ci, snapshot_store
from mcptest.providers import key_values
from mcptest.records.coverage import judge_coverage
from mcptest.records.report import Report, Status, TestResult
from mcptest.run.call_tests import CallTest
from mcptest.run.coverage import measure_run
from mcptest.run.kinds import Test, report_fields, run_test
from mcptest.run.quarantine import quarantine_in_force
from mcptest.run.rows import failed_row
from mcptest.run.selection import Selection
from mcptest.run.state import RunState, crash_message
from mcptest.run.telemetry import AgentRunSet, LiveTelemetry
from mcptest.run.workers import run_all
from mcptest.server.session import ServerConfig, SessionPool
from mcptest.suite.blocks.fuzz import FuzzBlock
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
    agent_runs: list[AgentRunSet] = field(default_factory=list)
    """Every agent test's runs as judged (for the telemetry sink), secrets not yet masked."""


def selected_count(suite: Suite, selection: Selection) -> int:
    """How many tests (tool, quality and agent) the filters select."""
    return len(select(suite, selection)) + sum(selection.matches(a) for a in suite.agents)


def select(suite: Suite, selection: Selection) -> list[Test]:
    """The suite's tests that the filters select: tool, resource and prompt tests, then `tool_quality:` and
    `security:`, `fuzz:` and `conformance:` blocks, each in file order."""
    tests: list[Test] = [
        *suite.tools, *suite.resources, *suite.prompts, *suite.tool_quality, *suite.security, *suite.fuzz,
        *suite.conformance,
    ]  # fmt: skip
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
    telemetry: LiveTelemetry | None = None,
) -> RunResult:
    """Run the selected tool tests, then the agent tests (recorded, replayed or live), one session per server.

    `state` collects the results as they finish, so a caller can still report them when the run is interrupted.
    With `pool` (already entered), its sessions are used and left open: the pytest plugin keeps one per worker.
    `workers` tool, resource and prompt tests run at once (`mcptest.run.workers`); `fail_fast` starts none after the
    first failure, and no agent test. `telemetry` traces each request of the tests while they run (export).
    """
    selection = selection or Selection()
    options = agents_options or AgentOptions()
    tests = select(suite, selection)
    agents = [a for a in suite.agents if selection.matches(a)]
    cells = plan([a for a in agents if not a.recorded], suite.file, suite.prices, options)
    selected = len(tests) + len(agents)
    state = state if state is not None else RunState()
    started = clock()
    state.begin(suite.file, started, suite.secrets | key_values(options.environ))
    state.quarantine, expired = quarantine_in_force(suite, started.date())
    not_ready: list[bool] = []
    configs: dict[str, ServerConfig] = {**suite.servers, **(servers or {})}
    if telemetry is not None:
        telemetry.secrets = state.secrets
    shared = contextlib.nullcontext(pool) if pool else SessionPool(configs, Path(suite.file).parent, telemetry)
    store = snapshots or SnapshotStore(Path(suite.file).parent, ci=in_ci())
    async with _snapshots_on(shared, store) as pool:
        await pool.start_early(getattr(tests[0], "server", None) if tests else None)

        async def run_one(test: Test) -> tuple[TestResult, bool]:
            try:
                if telemetry is not None:
                    with telemetry.test(report_fields(test, suite.file)["name"]):
                        return await run_test(test, pool, suite, state.tally)
                return await run_test(test, pool, suite, state.tally)
            except Exception as exc:  # a bug while checking one test must not lose the others' results
                return failed_row(report_fields(test, suite.file), time.perf_counter(), crash_message(exc), ""), False

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
            for trace in traces_of(agent, live):
                state.tally.trace(trace)
        reaching = (CallTest, FuzzBlock)  # the tests whose calls coverage counts, besides the agents
        calls_ran = sum(isinstance(t, reaching) for t, r in zip(tests, ran.results, strict=True) if r is not None)
        in_suite = len(suite.tools) + len(suite.resources) + len(suite.prompts) + len(suite.agents) + len(suite.fuzz)
        state.coverage = await measure_run(pool, state.tally, suite, calls_ran + len(agents), in_suite)
    agent_runs = [AgentRunSet(a.name, a.model, "recorded", a.recorded_runs()) for a in agents if a.recorded]
    agent_runs += [
        AgentRunSet(c.cell.test.name, c.cell.model, c.cell.mode.value, c.traces, c.scopes) for c in live.cells
    ]
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
    if state.coverage is not None:
        state.gates += judge_coverage(state.coverage, sharded=selection.shard is not None)
    state.capped = live.capped
    report = state.report()
    failed = [nr for nr, r in zip(not_ready, report.results, strict=True) if r.status == Status.FAILED]
    failed += [False for g in report.gates if g.status == Status.FAILED]
    return RunResult(
        report,
        selected,
        bool(failed) and all(failed),
        capped=live.capped,
        notes=expired + live.notes,
        agent_runs=agent_runs,
    )


@contextlib.asynccontextmanager
async def _snapshots_on(pool: Any, store: SnapshotStore) -> AsyncIterator[SessionPool]:
    """The pool, with `store` as the snapshot folder of every matcher checked meanwhile."""
    with snapshot_store(store):
        async with pool as entered:
            yield entered
