"""The server side of `mcptest fuzz`: one server's session, each call's answer as a `fuzz.classify.Answer`, and a
fresh server started after one exits (a crash), so fuzzing goes on."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mcptest.fuzz.classify import Answer
from mcptest.server.session import ServerConfig, ServerSession, ServerUnavailable

if TYPE_CHECKING:
    from mcptest.records.catalog import Catalog

MAX_RESTARTS = 20
"""A server that crashes more often than this in one run is not started again: the rest of its calls fail."""


class FuzzTarget:
    """One server being fuzzed, over a session the target renews after the server exits."""

    def __init__(self, name: str, config: ServerConfig, base_dir: Path, task_group: Any) -> None:
        self.name = name
        self.config = config
        self.base_dir = base_dir
        self.restarts = 0
        self._tg = task_group
        self._session: ServerSession | None = None

    async def start(self) -> None:
        """Start (or start again) the server; ServerUnavailable when it cannot."""
        self.stop()
        session = ServerSession(self.name, self.config, self.base_dir)
        session._tg = self._tg  # a timed-out connection is renewed in this task group
        try:
            await self._tg.start(session.run)
        except ServerUnavailable:
            session.release()
            raise
        self._session = session

    def stop(self) -> None:
        """Shut the current server down."""
        if self._session is not None:
            self._session.close()
            self._session.release()
            self._session = None

    async def catalog(self) -> Catalog:
        """The server's tools as it lists them."""
        assert self._session is not None
        return await self._session.catalog()

    async def call(self, tool: str, args: dict[str, Any]) -> Answer:
        """Call the tool once; after a crash the server is started again (up to `MAX_RESTARTS` times)."""
        if self._session is None:
            return Answer("closed", message=f"server '{self.name}' is not running (it crashed too often)")
        outcome = await self._session.call_tool(tool, args)
        if outcome.error is None and outcome.result is not None:
            return Answer("result", outcome.result, ms=outcome.duration_ms)
        kind = outcome.error_kind or "unavailable"
        stderr = self._session.stderr_tail()
        answer = Answer(
            kind, message=outcome.error or "", code=outcome.error_code, stderr=stderr, ms=outcome.duration_ms
        )
        if kind == "closed":
            await self._restart()
        return answer

    async def _restart(self) -> None:
        self.stop()
        if self.restarts >= MAX_RESTARTS:
            return
        self.restarts += 1
        try:
            await self.start()
        except ServerUnavailable:
            self._session = None

    def env_values(self) -> dict[str, str]:
        """Values of the server's environment an answer must not echo: what its config sets (a stdio server
        inherits only the SDK's short list of variables, HOME and PATH among them, which are no secret)."""
        env = getattr(self.config, "env", {}) or {}
        return {k: v for k, v in env.items() if isinstance(v, str) and len(v) >= 8}


@asynccontextmanager
async def fuzz_target(name: str, config: ServerConfig, base_dir: Path) -> AsyncIterator[FuzzTarget]:
    """A started FuzzTarget, shut down on leaving; ServerUnavailable when the server cannot start."""
    import anyio

    try:
        async with anyio.create_task_group() as tg:
            target = FuzzTarget(name, config, base_dir, tg)
            try:
                await target.start()
                yield target
            finally:
                target.stop()
    except BaseExceptionGroup as group:  # what the body raised, alone, is re-raised as itself for callers to catch
        if len(group.exceptions) == 1 and not isinstance(group.exceptions[0], BaseExceptionGroup):
            raise group.exceptions[0] from None
        raise
