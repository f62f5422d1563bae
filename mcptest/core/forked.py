"""Map a pure, CPU-bound function over a long list on every core: forked children map the later slices.

The lint of a large catalog is pure Python over tools that are already in memory, and its results (findings) are a
small fraction of its inputs. A forked child inherits the inputs for free, maps its slice, and sends back only the
results, pickled through a pipe, while this process maps the first slice. On the 2-core machine the lint benchmark
runs on, whole `doctor --lint-descriptions` runs of 1,000 tools took a tenth less wall time and of 10,000 tools a
fifth less (benchmarks/lint_speed.py); the two cores share caches, so the split gains less than half.

It falls back to a plain map, with identical results, wherever a fork is unsafe or of no use: off Linux (macOS
frameworks are not fork-safe), when another thread is running (a fork copies the locks other threads hold, not the
threads), with one usable core, for a list too short to repay the fork (about 5 ms), or when `MCPTEST_JOBS=1`
(`MCPTEST_JOBS=N` caps the processes at N; any other value is a usage error).

A child never outlives its work or the caller: it leaves through `os._exit` (no atexit handler, no flush of the
parent's buffers), and the caller kills and reaps every child it has not read when anything goes wrong, an
interrupt included. A child that fails, for whatever reason, is not trusted: its slice is mapped again here, so an
exception the function raises surfaces in the caller, as a plain map would raise it.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from typing import TypeVar

from mcptest.core.errors import UserError

T = TypeVar("T")
R = TypeVar("R")

JOBS_ENV = "MCPTEST_JOBS"
"""The environment variable that caps the processes a split map uses (`1`: never fork)."""


def split_map(fn: Callable[[T], R], items: Sequence[T], min_slice: int = 100) -> list[R]:
    """`[fn(x) for x in items]`, the slices after the first mapped by forked children when that is safe and
    worth it: each slice holds at least `min_slice` items. `fn` must be pure (what it changes in a child's memory
    is lost) and its results picklable."""
    jobs = _jobs(len(items), min_slice)
    if jobs < 2:
        return [fn(x) for x in items]
    import pickle

    bounds = [len(items) * k // jobs for k in range(jobs + 1)]
    children: list[tuple[int, int, int]] = []  # (pid, read end, slice index)
    with _collector_still():
        try:
            for k in range(1, jobs):
                children.append(_spawn(fn, items[bounds[k] : bounds[k + 1]], k))
            out = [fn(x) for x in items[: bounds[1]]]
            while children:
                pid, fd, k = children.pop(0)
                data, ok = _collect(pid, fd)
                part = pickle.loads(data) if ok else None
                out += part if part is not None else [fn(x) for x in items[bounds[k] : bounds[k + 1]]]
            return out
        finally:
            for pid, fd, _ in children:  # only when the caller is left by an exception
                _end(pid, fd)


@contextlib.contextmanager
def _collector_still() -> Iterator[None]:
    """Keep the cyclic collector off the objects that exist at the fork while the children run (`gc.freeze`).

    A forked child shares the parent's memory page by page until either writes to a page. A full collection walks
    every tracked object and writes to each (its reference count and GC link): in the child or in the parent, it
    copies nearly the whole heap, and on 10,000 tools (~0.5 GB) that page copying cost as much as the work split
    off. Frozen objects are not walked. Only when nothing is frozen yet: unfreezing would hand back to the
    collector what a caller froze on purpose (the CLI freezes a loaded suite)."""
    import gc

    if gc.get_freeze_count() or not gc.isenabled():
        yield
        return
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


def _jobs(count: int, min_slice: int) -> int:
    cap = _cap()
    if not sys.platform.startswith("linux") or count < 2 * min_slice or cap == 1:
        return 1
    import threading

    if threading.active_count() > 1:
        return 1
    cores = len(os.sched_getaffinity(0))
    return max(1, min(cores, cap or cores, count // min_slice))


def _cap() -> int | None:
    """`MCPTEST_JOBS` as a number, None when unset; a value that is no positive whole number: UserError."""
    text = os.environ.get(JOBS_ENV, "").strip()
    if not text:
        return None
    if not text.isdigit() or int(text) < 1:
        raise UserError(f"{JOBS_ENV}={text!r}: not a positive whole number (e.g. {JOBS_ENV}=1 to use one core)")
    return int(text)


def _spawn(fn: Callable[[T], R], part: Sequence[T], k: int) -> tuple[int, int, int]:
    """Fork a child that maps `part` and writes the pickled results to a pipe; its pid, the pipe's read end, `k`."""
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: whatever happens, it leaves here through os._exit
        status = 1
        try:
            import gc
            import pickle

            gc.disable()  # a short-lived child: a collection would only copy shared pages (see _collector_still)
            os.close(read_end)
            data = pickle.dumps([fn(x) for x in part], protocol=pickle.HIGHEST_PROTOCOL)
            view = memoryview(data)
            while view:
                view = view[os.write(write_end, view) :]
            status = 0
        except BaseException:  # noqa: BLE001 (the parent maps this slice again and raises what it raises)
            pass
        finally:
            os._exit(status)
    os.close(write_end)
    return pid, read_end, k


def _collect(pid: int, fd: int) -> tuple[bytes, bool]:
    """Everything the child wrote, and whether it exited cleanly (a child that failed sent nothing usable)."""
    chunks = []
    try:
        while chunk := os.read(fd, 1 << 20):
            chunks.append(chunk)
    finally:
        os.close(fd)
    _, status = os.waitpid(pid, 0)
    return b"".join(chunks), os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0


def _end(pid: int, fd: int) -> None:
    import signal

    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
    os.close(fd)
