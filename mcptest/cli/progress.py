"""Live progress on stderr while a suite runs: a bar on a terminal, a plain line per finished test in CI or a log."""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    from mcptest.report.model import TestResult

Mode = Literal["bar", "lines", "quiet"]


def progress_mode(quiet: bool, environ: dict[str, str] | None = None) -> Mode:
    """`quiet` with --quiet; a bar on a terminal; plain lines in CI (`CI` set) or when stderr is not a terminal."""
    from mcptest.snapshots import in_ci

    if quiet:
        return "quiet"
    return "bar" if sys.stderr.isatty() and not in_ci(environ) else "lines"


@dataclass
class Progress:
    """The two hooks a run calls: `on_result` per finished test, `on_agent_runs(done, total)` as agent runs end."""

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
        from mcptest.printable import printable
        from mcptest.report.model import Status

        self.passed += result.status == Status.PASSED
        self.failed += result.status == Status.FAILED
        label = printable(result.name)
        if self.mode == "lines":
            badge = {"passed": "PASS", "failed": "FAIL", "skipped": "SKIP"}[result.status.value]
            print(f"mcptest: {badge} {label} ({result.duration_ms:.0f} ms)", file=sys.stderr, flush=True)
        elif self.mode == "bar":
            counts = (
                f"[green]{self.passed} passed[/] [red]{self.failed} failed[/]"
                if self.failed
                else (f"[green]{self.passed} passed[/]")
            )
            self._bar.update(self._task, advance=1, description=f"{counts} · {_escape(label)}")

    def on_agent_runs(self, done: int, total: int) -> None:
        if self.mode == "lines" and done != self._last_agents:
            self._last_agents = done
            print(f"mcptest: agent runs {done}/{total}", file=sys.stderr, flush=True)
        elif self.mode == "bar":
            if self._agents is None:
                self._agents = self._bar.add_task("agent runs", total=total)
            self._bar.update(self._agents, completed=done, total=total)


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
