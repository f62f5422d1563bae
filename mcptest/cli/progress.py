"""A rich progress bar on stderr for live agent runs (only on a terminal, so logs and CI output stay clean)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any


@contextmanager
def live_progress(enabled: bool) -> Iterator[Callable[[int, int], None] | None]:
    """Yield a `(done, total)` hook that drives a bar on stderr, or None when stderr is not a terminal."""
    from rich.console import Console

    console = Console(stderr=True)
    if not enabled or not console.is_terminal:
        yield None
        return
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    bar = Progress(
        TextColumn("agent runs"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
        transient=True,
    )
    task: dict[str, Any] = {}

    def hook(done: int, total: int) -> None:
        if "id" not in task:
            task["id"] = bar.add_task("runs", total=total)
        bar.update(task["id"], completed=done, total=total)

    with bar:
        yield hook
