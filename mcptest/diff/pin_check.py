"""The pin checks over `mcptest.lock`: the one `mcptest run` makes before any test, and `mcptest pin`'s update.

Both return data (the servers whose catalog moved, what was pinned) and raise the usual errors: a `UserError` for a
flag or lock the user must fix, `surfaces.Unreachable` for a server that cannot be listed. The CLI renders them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from mcptest.checks.security.engine import Flagged
    from mcptest.diff.model import DiffReport
    from mcptest.records.entries import Surface
    from mcptest.server.sources import Sources
    from mcptest.suite.models import Suite

Moved = tuple[str, "DiffReport", "Surface"]
"""A pinned server whose catalog changed: its name, the diff from the pin, its live catalog."""


def check_before_run(suite: Suite, check_pins: bool | None) -> list[Moved]:
    """`mcptest run`'s pin check: the pinned servers whose catalog moved (empty: go on and run the tests).

    On by default when the suite has a lock, off with `check_pins=False`; `check_pins=True` without a lock is a usage
    error. A pinned server that cannot be listed raises `surfaces.Unreachable`.
    """
    from mcptest.core.errors import usage_error
    from mcptest.diff.pins import lock_path, pinned_changes, read_lock

    if check_pins is False:
        return []
    lock = read_lock(lock_path(suite.file))
    if lock is None:
        if check_pins:
            raise usage_error(f"--check-pins: no {lock_path(suite.file)}; create it with `mcptest pin`")
        return []
    return pinned_changes(suite, lock)


@dataclass
class PinUpdate:
    """What `update_pins` found and did: the lock's path, the servers listed, which moved, which were new."""

    path: Path
    live: list[tuple[str, Surface]]
    moved: list[Moved] = field(default_factory=list)
    fresh: list[str] = field(default_factory=list)
    written: bool = False
    """False when pinned catalogs moved and `update` was not given: the lock was left as it was."""

    @property
    def entries(self) -> int:
        """How many entries the listed catalogs hold together."""
        return sum(len(s.entries) for _, s in self.live)


def update_pins(sources: Sources, update: bool) -> PinUpdate:
    """List the suite's servers and pin them in its lock; a pinned catalog that moved is only re-pinned with `update`.

    A damaged lock is a `UserError`; a server that cannot be listed raises `surfaces.Unreachable`.
    """
    from mcptest.diff.pins import Lock, changes, lock_path, pin, read_lock, write_lock
    from mcptest.server.surfaces import live_surfaces

    assert sources.suite is not None
    path = lock_path(sources.suite.file)
    lock = read_lock(path) or Lock()
    live = live_surfaces(sources)
    moved = [(n, d, s) for n, s in live if n in lock.servers and (d := changes(lock.servers[n], s, n)) is not None]
    result = PinUpdate(path, live, moved)
    if moved and not update:
        return result
    result.fresh = [n for n, _ in live if n not in lock.servers]
    for name, surface in live:
        lock.servers[name] = pin(surface)
    write_lock(lock, path)
    result.written = True
    return result


def changed_entry_findings(report: DiffReport, live: Surface) -> tuple[Flagged, ...]:
    """What the SEC rules find in the entries a pin diff says changed (a rug pull shows up here)."""
    from mcptest.checks.security.engine import scan
    from mcptest.diff.pins import changed_entries

    return scan([changed_entries(report, live)]).flagged
