"""What `mcptest load` shows while it runs: each second, once every generator process has handed it on, merged over
the processes, per operation and for all (`Progress`); as one plain line (CI, not a terminal) or as a table a
terminal redraws in place (`table`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from mcptest.core import latency as hist


@dataclass
class Tick:
    """One second of the load over all processes: per operation (and `all`) calls received, errors, percentiles."""

    second: int
    ops: dict[str, dict[str, float]]
    """Per name: count, errors, p50_ms, p95_ms, p99_ms; `all` last."""


@dataclass
class Progress:
    """Gathers the seconds the processes hand on; `ready()` gives those every process is past, in order."""

    processes: int
    names: list[str]
    latest: dict[int, int] = field(default_factory=dict)
    parts: dict[int, list[dict[str, dict[str, Any]]]] = field(default_factory=dict)
    shown: int = 0

    def seen(self, process: int, done: dict[int, dict[str, dict[str, Any]]]) -> None:
        for at, ops in done.items():
            self.parts.setdefault(at, []).append(ops)
            self.latest[process] = max(self.latest.get(process, -1), at)

    def ready(self) -> list[Tick]:
        """The seconds every process has handed on and not shown yet."""
        if len(self.latest) < self.processes:
            return []
        upto = min(self.latest.values())
        ticks = []
        while self.shown <= upto:
            ticks.append(self._tick(self.shown, self.parts.pop(self.shown, [])))
            self.shown += 1
        return ticks

    def _tick(self, at: int, parts: list[dict[str, dict[str, Any]]]) -> Tick:
        ops: dict[str, dict[str, float]] = {}
        everything = hist.new_histogram()
        total = {"count": 0, "errors": 0}
        for name in self.names:
            mine = [p[name] for p in parts if name in p]
            histogram = hist.merged([m["histogram"] for m in mine if m["histogram"]])
            everything.add(histogram)
            count, errors = sum(m["count"] for m in mine), sum(m["errors"] for m in mine)
            total["count"] += count
            total["errors"] += errors
            ops[name] = {"count": count, "errors": errors, **hist.quick(histogram)}
        ops["all"] = {**total, **hist.quick(everything)}
        return Tick(at, ops)


def line(tick: Tick) -> str:
    """A second as one plain line (all operations together)."""
    a = tick.ops["all"]
    return (
        f"mcptest load: second {tick.second + 1}: {a['count']:.0f} answers, {a['errors']:.0f} errors, "
        f"p50 {a['p50_ms']:g} p95 {a['p95_ms']:g} p99 {a['p99_ms']:g} ms"
    )


def table(tick: Tick) -> Any:
    """A second as a rich Table: per operation and all, answers/s, errors and p50/p95/p99."""
    from rich.table import Table

    t = Table(title=f"mcptest load: second {tick.second + 1}", title_justify="left")
    t.add_column("operation")
    for head in ("calls/s", "errors", "p50 ms", "p95 ms", "p99 ms"):
        t.add_column(head, justify="right")
    for name, op in tick.ops.items():
        t.add_row(
            name,
            f"{op['count']:.0f}",
            f"{op['errors']:.0f}",
            *(f"{op[key]:g}" for key in ("p50_ms", "p95_ms", "p99_ms")),
            style="bold" if name == "all" else None,
        )
    return t
