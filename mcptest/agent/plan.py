"""Plan an agent run: one cell per (test, model), each to replay, record, run live (scripted) or fail as missing."""

from __future__ import annotations

import os
import shlex
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING

import anyio

from mcptest.cassette.store import cassette_path
from mcptest.core.errors import usage_error
from mcptest.providers import provider_of, unknown_model_hint
from mcptest.providers.prices import Price, price_for
from mcptest.providers.retry import Sleep
from mcptest.suite.agents import AgentTest

if TYPE_CHECKING:
    from mcptest.suite.models import Suite


class RecordMode(StrEnum):
    """When cassettes are written (vcrpy's modes): never, only when missing, or always."""

    NONE = "none"
    """Replay; a missing cassette fails its test with the command that records it (the default)."""
    ONCE = "once"
    """Record cells that have no cassette, replay the rest; under CI=true nothing records implicitly."""
    ALL = "all"
    """Run every model cell live and (re)write its cassette: `--record`."""


class Mode(StrEnum):
    """What one cell does."""

    REPLAY = "replay"
    RECORD = "record"
    SCRIPTED = "scripted"
    MISSING = "missing"


@dataclass
class AgentOptions:
    """How agent tests run: record mode, concurrency, cost cap, model override, environment, progress hook."""

    record_mode: RecordMode = RecordMode.NONE
    concurrency: int = 4
    max_cost: float | None = None
    models: Sequence[str] | None = None
    environ: Mapping[str, str] = field(default_factory=lambda: dict(os.environ))
    on_progress: Callable[[int, int, str], None] | None = None
    """Called as each agent run ends: runs done, runs in all, the run's test (and model)."""
    sleep: Sleep = anyio.sleep

    @property
    def ci(self) -> bool:
        """CI=true: nothing records implicitly."""
        return self.environ.get("CI", "").lower() in ("true", "1")


@dataclass
class Cell:
    """One agent test on one model."""

    test: AgentTest
    model: str | None
    provider: str
    mode: Mode
    path: Path
    price: Price | None
    judge_prices: dict[str, Price | None] = field(default_factory=dict)


def plan(
    agents: Sequence[AgentTest], suite_file: str, prices: Mapping[str, Price], options: AgentOptions
) -> list[Cell]:
    """The cells in file order; an unknown `--models` id or an unpriced run under `--max-cost` is a UserError."""
    cells = []
    for test in agents:
        models = test.model_list if test.scripted or not options.models else list(options.models)
        for model in models:
            provider = "scripted" if test.scripted else provider_of(model, test.provider, test.api)
            if provider is None:
                raise usage_error(f"--models: {unknown_model_hint(str(model))} in test '{test.name}'")
            path = cassette_path(suite_file, test.name, model)
            judges = {m: price_for(m, prices) for m in judge_models(test)}
            mode = _mode(test, path, options)
            cells.append(Cell(test, model, provider, mode, path, price_for(model, prices), judges))
    unpriced = sorted(
        {str(c.model) for c in cells if c.mode == Mode.RECORD and c.price is None}
        | {m for c in cells if c.mode == Mode.RECORD for m, p in c.judge_prices.items() if p is None}
    )
    _can_go_live(cells, options.environ)
    if options.max_cost is not None and unpriced:
        raise usage_error(
            f"--max-cost cannot count the cost of {', '.join(unpriced)}: no price is known; "
            "give one under `prices:` in the suite (0 for a free local model)"
        )
    return cells


def _can_go_live(cells: Sequence[Cell], environ: Mapping[str, str]) -> None:
    """Every model a cell will call live (its own, its judges') has its SDK installed and its key set: else a
    UserError naming the pip command or the variable, before any server starts."""
    from mcptest.expect.judge_spec import panel
    from mcptest.providers import missing

    for cell in cells:
        if cell.mode != Mode.RECORD:
            continue
        wanted = [(cell.provider, cell.test.base_url, str(cell.model))]
        for spec in [a.matcher.judge or a.matcher.jury for a in cell.test.expect or []]:
            if spec is not None:
                wanted += [(provider_of(j.model, j.provider) or "anthropic", j.base_url, j.model) for j in panel(spec)]
        for provider, base_url, model in wanted:
            why = missing(provider, environ, base_url)
            if why is not None:
                raise usage_error(f"{why} (test '{cell.test.name}', model {model})")


def judge_models(test: AgentTest) -> list[str]:
    """Every judge and juror model of the test's `judge`/`jury` assertions (their calls count toward --max-cost)."""
    from mcptest.expect.judge_spec import panel

    specs = [a.matcher.judge or a.matcher.jury for a in test.expect or []]
    return [j.model for s in specs if s is not None for j in panel(s)]


def _mode(test: AgentTest, path: Path, options: AgentOptions) -> Mode:
    if test.scripted:
        return Mode.SCRIPTED
    if options.record_mode == RecordMode.ALL:
        return Mode.RECORD
    if path.is_file():
        return Mode.REPLAY
    if options.record_mode == RecordMode.ONCE and not options.ci:
        return Mode.RECORD
    return Mode.MISSING


def record_command(suite_file: str, test: AgentTest, model: str | None) -> str:
    """The command that records one cell's cassette."""
    name = "".join("\\" + ch if ch in r".^$*+?()[]{}|\\" else ch for ch in test.name)
    models = f" --models {model}" if model and len(test.model_list) > 1 else ""
    return f"mcptest run {shlex.quote(suite_file)} --record --filter {shlex.quote(f're:^{name}$')}{models}"


def agent_models(suite: Suite) -> list[str]:
    """The models a live run of the suite would call: agent tests that neither replay recorded runs or a script
    nor find their cassette on disk (a replay needs no key)."""
    models: list[str] = []
    for test in getattr(suite, "agents", None) or []:
        if test.recorded or test.scripted:
            continue
        models += [m for m in test.model_list if m and not cassette_path(suite.file, test.name, m).is_file()]
    return models
