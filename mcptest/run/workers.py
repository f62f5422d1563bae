"""How a run's tool, resource and prompt tests share the servers: `--workers N` of them in flight at once.

Tests start in suite order. Each holds one of N worker slots while it runs; the tests of one server overlap on
its one session (JSON-RPC requests carry ids, so answers find their callers), and tests of different servers run
side by side. A test that asserts on what the server sends during a call without naming the call (log
messages, sampling and elicitation requests) runs alone on its server, so what it reads is its own. With
`fail_fast`, no test starts after the first failure; the tests already in flight finish and are reported.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

import anyio

from mcptest.run.targets import UNNAMED_TARGETS, target_root

T = TypeVar("T")
R = TypeVar("R")


def server_of(test: Any) -> str | None:
    """The one server a test calls, if any (a `security:` block only lists every server's catalog)."""
    server = getattr(test, "server", None)
    return server if isinstance(server, str) else None


def runs_alone(test: Any) -> bool:
    """Whether the test reads messages that name no request, so no other call may overlap it on its server."""
    roots = {target_root(a.target) for a in getattr(test, "assertions", ())}
    return bool(roots & UNNAMED_TARGETS)


@dataclass
class _Turns:
    """Per server: how many shared calls are in flight, and whether a lone test holds or awaits it."""

    changed: anyio.Condition = field(default_factory=anyio.Condition)
    shared: dict[str, int] = field(default_factory=dict)
    alone: set[str] = field(default_factory=set)
    waiting_alone: dict[str, int] = field(default_factory=dict)

    @contextlib.asynccontextmanager
    async def turn(self, server: str | None, alone: bool) -> AsyncIterator[None]:
        if server is None:
            yield
            return
        async with self.changed:
            if alone:
                self.waiting_alone[server] = self.waiting_alone.get(server, 0) + 1
                while self.shared.get(server) or server in self.alone:
                    await self.changed.wait()
                self.waiting_alone[server] -= 1
                self.alone.add(server)
            else:  # a lone test waiting goes first, so it is not starved by the shared ones behind it
                while server in self.alone or self.waiting_alone.get(server):
                    await self.changed.wait()
                self.shared[server] = self.shared.get(server, 0) + 1
        try:
            yield
        finally:
            with anyio.CancelScope(shield=True):
                async with self.changed:
                    if alone:
                        self.alone.discard(server)
                    else:
                        self.shared[server] -= 1
                    self.changed.notify_all()


@dataclass
class Outcome(Generic[R]):
    """The results in suite order (None: not started), and what `fail_fast` did."""

    results: list[R | None]
    not_run: int = 0
    """Tests left unstarted."""
    stopped: bool = False
    """A test failed under `fail_fast` (even the last one: what follows the tests must not start either)."""


async def run_all(
    tests: Sequence[T],
    run_one: Callable[[T], Awaitable[R]],
    *,
    workers: int = 1,
    fail_fast: bool = False,
    failed: Callable[[R], bool] = lambda r: False,
    on_result: Callable[[int, R], None] | None = None,
) -> Outcome[R]:
    """Run `tests` with at most `workers` in flight, calling `on_result` as each finishes (in finishing order)."""
    outcome: Outcome[R] = Outcome([None] * len(tests))
    slots = anyio.Semaphore(max(1, workers))
    turns = _Turns()
    stop = False

    async def one(index: int, test: T) -> None:
        nonlocal stop
        try:
            async with turns.turn(server_of(test), runs_alone(test)):
                result = await run_one(test)
            outcome.results[index] = result
            if on_result:
                on_result(index, result)
            if fail_fast and failed(result):
                stop = outcome.stopped = True
        finally:
            slots.release()

    async with anyio.create_task_group() as tg:
        for index, test in enumerate(tests):
            await slots.acquire()
            if stop:
                slots.release()
                outcome.not_run = len(tests) - index
                break
            tg.start_soon(one, index, test)
    return outcome
