"""Run the planned agent cells: replay cassettes, or run the loop live, bounded in concurrency and cost."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import anyio
from pydantic import ValidationError

from mcptest.agent.judges.run import LiveJudges, RecordedJudges, fingerprints, moved, with_verdicts
from mcptest.agent.loop import LoopSettings, RunLog, run_agent
from mcptest.agent.plan import AgentOptions, Cell, Mode, record_command
from mcptest.cassette import store
from mcptest.cassette.fingerprint import changes
from mcptest.cassette.format import Cassette, CassetteRun, Fingerprint, JudgeCall
from mcptest.cassette.normalise import catalog_hash
from mcptest.cassette.replay import ReplayProvider, ReplayTools
from mcptest.core.redact import redact
from mcptest.gates.outcome import plural
from mcptest.providers import build
from mcptest.providers.base import Provider
from mcptest.providers.errors import MissingKey
from mcptest.providers.scripted import ScriptedProvider
from mcptest.records.trace import CatalogTool, Trace
from mcptest.server.session import CallOutcome, ServerUnavailable, SessionPool
from mcptest.server.tracing import AgentRunScope, agent_run


@dataclass
class CellResult:
    """What one cell produced: its runs, or why it could not run at all."""

    cell: Cell
    traces: list[Trace] = field(default_factory=list)
    error: str | None = None
    skipped: int = 0
    scopes: list[AgentRunScope] = field(default_factory=list)
    """Of a live cell, each run's tracing scope (parallel to `traces`): what the exporter traced as it ran."""


@dataclass
class AgentRuns:
    """Every cell's result, plus the cost cap's verdict and notes for stderr (cassettes written or not)."""

    cells: list[CellResult]
    spent: float = 0.0
    capped: bool = False
    notes: list[str] = field(default_factory=list)


class PoolTools:
    """Tool calls on live sessions; a server that cannot be reached answers with an error outcome."""

    def __init__(self, pool: SessionPool) -> None:
        self._pool = pool

    async def call(self, server: str, tool: str, args: dict[str, Any]) -> CallOutcome:
        """Call `tool` on `server`."""
        try:
            session = await self._pool.get(server)
        except ServerUnavailable as exc:
            return CallOutcome(error=exc.message)
        return await session.call_tool(tool, args)


@dataclass
class _Context:
    pool: SessionPool
    suite_file: str
    secrets: set[str]
    options: AgentOptions
    limiter: anyio.CapacityLimiter
    total: int
    done: int = 0
    result: AgentRuns = field(default_factory=lambda: AgentRuns([]))

    def advance(self, cell: Cell, n: int = 1) -> None:
        self.done += n
        if self.options.on_progress:
            label = cell.test.name + (f" [{cell.model}]" if cell.model else "")
            self.options.on_progress(self.done, self.total, label)


async def run_agents(
    cells: Sequence[Cell], pool: SessionPool, suite_file: str, secrets: set[str], options: AgentOptions
) -> AgentRuns:
    """Run every cell concurrently (runs bounded by `options.concurrency`) and collect results in plan order."""
    total = sum(c.test.runs for c in cells if c.mode in (Mode.RECORD, Mode.SCRIPTED))
    ctx = _Context(pool, suite_file, secrets, options, anyio.CapacityLimiter(max(1, options.concurrency)), total)
    ctx.result.cells = [CellResult(c) for c in cells]
    async with anyio.create_task_group() as tg:
        for cell_result in ctx.result.cells:
            tg.start_soon(_run_cell, cell_result, ctx)
    return ctx.result


async def _run_cell(out: CellResult, ctx: _Context) -> None:
    cell = out.cell
    if cell.mode == Mode.MISSING:
        why = " (CI=true: nothing records implicitly)" if ctx.options.ci else ""
        out.error = (
            f"no cassette at {cell.path}{why}; record it with: {record_command(ctx.suite_file, cell.test, cell.model)}"
        )
    elif cell.mode == Mode.REPLAY:
        await _replay(out, ctx)
    else:
        await _live(out, ctx)


def settings_of(cell: Cell, *, timeout: bool = True) -> LoopSettings:
    """The loop settings a cell's test asks for."""
    t = cell.test
    return LoopSettings(
        model=cell.model,
        prompt=t.prompt or "",
        turns=tuple(t.turns or ()),
        system=t.system,
        max_turns=t.max_turns,
        max_tokens=t.max_tokens,
        timeout_s=t.timeout_s if timeout else None,
    )


def fingerprint_of(cell: Cell, catalog: Sequence[CatalogTool], secrets: set[str]) -> Fingerprint:
    """What the cell's recording depends on, with secrets masked as the cassette stores them."""
    t = cell.test
    current = Fingerprint(
        model=cell.model,
        provider=cell.provider,
        system=t.system,
        prompt=t.prompt or "",
        servers=list(t.servers),
        catalog=catalog_hash(catalog, secrets),
        max_turns=t.max_turns,
        max_tokens=t.max_tokens,
        runs=t.runs,
        turns=list(t.turns or ()),
        judges=fingerprints(t),
    )
    return redact(current, secrets)


async def _replay(out: CellResult, ctx: _Context) -> None:
    cell = out.cell
    again = f"re-record it with: {record_command(ctx.suite_file, cell.test, cell.model)}"
    try:
        cassette = store.read(cell.path)
    except store.CassetteUnreadable as exc:
        out.error = f"{exc}; {again}"
        return
    real = [t for t in cassette.catalog if not t.distractor]
    current = fingerprint_of(cell, _with_distractors(cell, real), ctx.secrets)
    changed = changes(cassette.fingerprint, current)
    if changed:
        out.error = f"replay refused: {cell.path} was recorded with other settings: {'; '.join(changed)}; {again}"
        return
    for i, run in enumerate(cassette.runs, 1):
        where = f"{cell.path} run {i}"
        trace, _ = await run_agent(
            settings_of(cell, timeout=False), cassette.catalog, ReplayProvider(run, where), ReplayTools(run, where)
        )
        judges = RecordedJudges(run.judgements, where, moved(cassette.fingerprint.judges, current.judges))
        trace, _ = await with_verdicts(cell.test, trace, judges)
        out.traces.append(trace.model_copy(update={"cost_usd": run.cost_usd}))


def _with_distractors(cell: Cell, real: list[CatalogTool]) -> list[CatalogTool]:
    from mcptest.gates.distractors import generate

    config = cell.test.distractors
    return real + generate(config, real) if config is not None else real


async def _catalog(cell: Cell, pool: SessionPool) -> list[CatalogTool]:
    tools: list[CatalogTool] = []
    for name in cell.test.servers:
        session = await pool.get(name)
        tools += [CatalogTool(server=name, tool=t) for t in await session.list_tools()]
    return _with_distractors(cell, tools)


async def _live(out: CellResult, ctx: _Context) -> None:
    cell, runs = out.cell, out.cell.test.runs
    try:
        catalog = await _catalog(cell, ctx.pool)
        shared = None if cell.mode == Mode.SCRIPTED else build(cell.provider, ctx.options.environ, cell.test.base_url)
    except (ServerUnavailable, MissingKey, ValidationError) as exc:
        out.error = getattr(exc, "message", None) or str(exc).splitlines()[0]
        ctx.advance(cell, runs)
        return
    done: list[tuple[Trace, RunLog, list[JudgeCall], AgentRunScope] | None] = [None] * runs
    judges = LiveJudges(ctx.options.environ)
    try:
        async with anyio.create_task_group() as tg:
            for i in range(runs):
                tg.start_soon(_one_run, i, cell, catalog, (shared, judges), done, ctx)
    finally:
        if shared is not None:
            await shared.aclose()
        await judges.aclose()
    out.traces = [d[0] for d in done if d is not None]
    out.scopes = [d[3] for d in done if d is not None]
    out.skipped = done.count(None)
    if cell.mode == Mode.RECORD:
        _record(out, catalog, [d[:3] for d in done if d is not None], ctx)


async def _one_run(
    i: int,
    cell: Cell,
    catalog: list[CatalogTool],
    models: tuple[Provider | None, LiveJudges],
    done: list[Any],
    ctx: _Context,
) -> None:
    async with ctx.limiter:
        cap = ctx.options.max_cost
        if cap is not None and ctx.result.spent >= cap:
            ctx.result.capped = True
            ctx.advance(cell)
            return
        script = cell.test.script or []
        shared, judges = models
        provider = shared or ScriptedProvider(script[i] if len(script) > 1 else script[0])
        tools = PoolTools(ctx.pool)
        with agent_run(AgentRunScope()) as scope:  # its tool calls' requests are traced as this run's
            trace, log = await run_agent(
                settings_of(cell), catalog, provider, tools, price=cell.price, sleep=ctx.options.sleep
            )
        ctx.result.spent += trace.cost_usd or 0.0
        trace, judged = await with_verdicts(cell.test, trace, judges, cell.judge_prices, ctx.options.sleep)
        ctx.result.spent += judged.spent
        done[i] = (trace, log, judged.calls, scope)
        ctx.advance(cell)


def _record(
    out: CellResult, catalog: list[CatalogTool], done: list[tuple[Trace, RunLog, list[JudgeCall]]], ctx: _Context
) -> None:
    cell = out.cell
    failed = [i for i, (trace, _, _) in enumerate(done, 1) if trace.error]
    if out.skipped or failed:
        why = (
            f"{plural(out.skipped, 'run was', 'runs were')} not dispatched"
            if out.skipped
            else f"run {failed[0]} failed"
        )
        ctx.result.notes.append(f"mcptest: cassette not written for '{cell.test.name}' [{cell.model}]: {why}")
        return
    runs = [
        CassetteRun(replies=log.replies, exchanges=log.exchanges, cost_usd=t.cost_usd, judgements=calls)
        for t, log, calls in done
    ]
    cassette = Cassette(
        test=cell.test.name, fingerprint=fingerprint_of(cell, catalog, ctx.secrets), catalog=catalog, runs=runs
    )
    try:
        store.write(cell.path, cassette, ctx.secrets)
    except OSError as exc:
        out.error = f"cannot write the cassette {cell.path}: {exc.strerror or exc}"
        return
    ctx.result.notes.append(f"mcptest: recorded {len(runs)} run{'s' * (len(runs) != 1)} to {cell.path}")
