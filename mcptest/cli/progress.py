"""Live progress on stderr while a suite runs: a bar on a terminal, a plain line per finished test in CI or a log."""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    from mcptest.records.report import TestResult

Mode = Literal["bar", "lines", "quiet"]


def progress_mode(quiet: bool, environ: dict[str, str] | None = None) -> Mode:
    """`quiet` with --quiet; a bar on a terminal; plain lines in CI (`CI` set) or when stderr is not a terminal."""
    from mcptest.expect.snapshots import in_ci

    if quiet:
        return "quiet"
    return "bar" if sys.stderr.isatty() and not in_ci(environ) else "lines"


@dataclass
class Progress:
    """The hooks a run calls: `on_result` per finished test or agent row, `on_agent_runs` as each agent run ends."""

    mode: Mode
    total: int
    passed: int = 0
    failed: int = 0
    started: float = field(default_factory=time.perf_counter)
    _bar: Any = None
    _task: Any = None
    _agents: Any = None
    _last_agents: int = -1

    def on_result(self, result: TestResult) -> None:
        from mcptest.core.printable import printable
        from mcptest.records.report import Status

        self.passed += result.status == Status.PASSED
        self.failed += result.status == Status.FAILED
        run = (f" [{result.model}]" if result.model else "") + (f" #{result.run}" if result.run else "")
        label = printable(result.name + run)
        if self.mode == "lines":
            badge = {"passed": "PASS", "failed": "FAIL", "skipped": "SKIP"}[result.status.value]
            print(f"mcptest: {badge} {label} ({result.duration_ms:.0f} ms)", file=sys.stderr, flush=True)
        elif self.mode == "bar":
            counts = (
                f"[green]{self.passed} passed[/] [red]{self.failed} failed[/]"
                if self.failed
                else (f"[green]{self.passed} passed[/]")
            )
            # agent rows are judged after their runs, which the agent bar already counted
            advance = 0 if result.kind == "agent" else 1
            self._bar.update(self._task, advance=advance, description=f"{counts} · {_escape(label)}")

    def on_agent_runs(self, done: int, total: int, label: str = "") -> None:
        from mcptest.core.printable import printable

        if self.mode == "lines" and done != self._last_agents:
            self._last_agents = done
            print(f"mcptest: agent runs {done}/{total} ({printable(label)})", file=sys.stderr, flush=True)
        elif self.mode == "bar":
            if self._agents is None:
                self._agents = self._bar.add_task("agent runs", total=total)
            description = f"agent runs · {_escape(printable(label))}"
            self._bar.update(self._agents, completed=done, total=total, description=description)


def _escape(text: str) -> str:
    from rich.markup import escape

    return escape(text)


@contextmanager
def live_progress(mode: Mode, total: int) -> Iterator[Progress]:
    """A Progress for `total` tool, resource, prompt and quality tests, drawn (or printed) while the block runs."""
    progress = Progress(mode, total)
    if mode != "bar":
        yield progress
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn
    from rich.progress import Progress as Bar

    bar = Bar(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=Console(stderr=True),
        transient=True,
    )
    progress._bar = bar
    progress._task = bar.add_task("tests", total=total)
    with bar:
        yield progress
