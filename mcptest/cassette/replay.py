"""Replay: a provider that answers with recorded replies and tools that answer with recorded results."""

from __future__ import annotations

from typing import Any

from mcptest.cassette.format import CassetteRun
from mcptest.providers.errors import RunFailed
from mcptest.records.messages import ModelReply, ModelRequest
from mcptest.server.session import CallOutcome


class ReplayMiss(RunFailed):
    """The loop asked for something the cassette did not record."""


class ReplayProvider:
    """The recorded model: reply i of the run answers the i-th model call."""

    name = "replay"

    def __init__(self, run: CassetteRun, where: str) -> None:
        self._replies = list(run.replies)
        self._where = where
        self._next = 0

    async def reply(self, request: ModelRequest) -> ModelReply:
        """The next recorded reply."""
        if self._next >= len(self._replies):
            raise ReplayMiss(
                f"{self._where}: the loop asked for model turn {self._next + 1}, the cassette has "
                f"{len(self._replies)}; re-record it"
            )
        self._next += 1
        return self._replies[self._next - 1]

    async def aclose(self) -> None:
        """Nothing to release."""


class ReplayTools:
    """The recorded servers: each call must be the next recorded one (same server, tool and arguments)."""

    def __init__(self, run: CassetteRun, where: str) -> None:
        self._exchanges = list(run.exchanges)
        self._where = where
        self._next = 0

    async def call(self, server: str, tool: str, args: dict[str, Any]) -> CallOutcome:
        """The recorded outcome of this call."""
        if self._next >= len(self._exchanges):
            raise ReplayMiss(f"{self._where}: the loop called {server}.{tool} but the cassette recorded no more calls")
        recorded = self._exchanges[self._next]
        if (recorded.server, recorded.tool, recorded.args) != (server, tool, args):
            raise ReplayMiss(
                f"{self._where}: the loop called {server}.{tool}({args}) where the cassette recorded "
                f"{recorded.server}.{recorded.tool}({recorded.args}); re-record it"
            )
        self._next += 1
        return CallOutcome(result=recorded.result, error=recorded.error)
