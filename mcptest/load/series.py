"""The load's time series: per operation and second of the run, the calls offered, the answers received, the failed
ones and an HdrHistogram of their latencies. A process records them (`Seconds`), hands each second on once it is
over, and the seconds of every process and shard merge exactly (`merged`: counts add, histograms add)."""

from __future__ import annotations

import math
from typing import Any

from mcptest.core import latency as hist
from mcptest.load.model import Operation, Second


class Seconds:
    """One process's seconds in the making: a second is handed on (`over`) once the clock has left it."""

    def __init__(self) -> None:
        self.open: dict[int, dict[str, dict[str, Any]]] = {}
        self.next = 0
        """The first second not handed on yet."""

    def _slot(self, second: int, name: str) -> dict[str, Any]:
        ops = self.open.setdefault(second, {})
        slot = ops.get(name)
        if slot is None:
            slot = ops[name] = {"started": 0, "count": 0, "errors": 0, "histogram": None}
        return slot

    def started(self, name: str, second: int) -> None:
        self._slot(second, name)["started"] += 1

    def answered(self, name: str, second: int, ms: float, failed: bool) -> None:
        slot = self._slot(second, name)
        if slot["histogram"] is None:
            slot["histogram"] = hist.new_histogram()
        hist.record_ms(slot["histogram"], ms)
        slot["count"] += 1
        slot["errors"] += failed

    def over(self, before: float) -> dict[int, dict[str, dict[str, Any]]]:
        """The seconds that ended before `before` (seconds from the start; infinity: all of them) as plain data, a
        quiet second as an empty one (so a watcher knows it is over), and forget them."""
        end = math.floor(before) if before != math.inf else max(self.open, default=self.next - 1) + 1
        done = {s: self.open.pop(s, {}) for s in range(self.next, end)}
        done.update({s: self.open.pop(s) for s in sorted(self.open) if s < end})  # a late answer's earlier second
        self.next = max(self.next, end)
        for ops in done.values():
            for slot in ops.values():
                h = slot.pop("histogram")
                slot["histogram"] = hist.encode(h) if h is not None else ""
        return done


def merged(parts: list[dict[str, Any]]) -> dict[str, Any]:
    """Plain seconds of one operation (from several processes or operations) as one: counts and histograms add."""
    texts = [p["histogram"] for p in parts if p["histogram"]]
    return {
        "started": sum(p["started"] for p in parts),
        "count": sum(p["count"] for p in parts),
        "errors": sum(p["errors"] for p in parts),
        "histogram": hist.encode(hist.merged(texts)) if len(texts) != 1 else texts[0],
    }


def second(at: int, part: dict[str, Any]) -> Second:
    """A plain second as the report's, with its percentiles."""
    text = part["histogram"]
    values = hist.quick(hist.decode(text)) if text else {}
    return Second(
        second=at,
        started=part["started"],
        count=part["count"],
        errors=part["errors"],
        p50_ms=values.get("p50_ms", 0.0),
        p95_ms=values.get("p95_ms", 0.0),
        p99_ms=values.get("p99_ms", 0.0),
        histogram=text or _empty(),
    )


def _empty(cache: dict[str, str] = {}) -> str:  # noqa: B006 - one encoding of the empty histogram, made once
    if "" not in cache:
        cache[""] = hist.encode(hist.new_histogram())
    return cache[""]


def combine(series: list[list[Second]]) -> list[Second]:
    """Several series (of processes, shards or operations) as one, second by second."""
    by: dict[int, list[dict[str, Any]]] = {}
    for one in series:
        for s in one:
            by.setdefault(s.second, []).append(
                {"started": s.started, "count": s.count, "errors": s.errors, "histogram": s.histogram}
            )
    return [second(at, parts[0] if len(parts) == 1 else merged(parts)) for at, parts in sorted(by.items())]


def drift(op: Operation, duration: float) -> tuple[float, float] | None:
    """A soak's p95 over the first fifth of its duration and over the last (ms, from its seconds: at least one
    second each); None when either had under 10 answers."""
    fifth = max(1.0, duration / 5)
    first = [s for s in op.series if s.second < fifth]
    last = [s for s in op.series if duration - fifth <= s.second < duration]
    ends = []
    for part in (first, last):
        whole = hist.merged([s.histogram for s in part if s.count])
        if whole.get_total_count() < 10:
            return None
        ends.append(hist.quick(whole)["p95_ms"])
    return ends[0], ends[1]
