"""The mock's stdio wire: the SDK's `stdio_server()`, with stdout written on the event loop instead of a thread.

The SDK writes each answer through anyio's file wrapper, two worker-thread hand-offs per message (the write and the
flush); with the line read (a third), that was the largest part of the mock's CPU time per call. When stdout is a pipe
or a socket (how every MCP client starts a stdio server), `wire()` gives the SDK transport a writer on an asyncio
pipe transport instead: the SDK still serialises every message, so the bytes on the wire are the same. As the SDK
does, it writes the wire through a private duplicate of fd 1 and points fd 1 at stderr meanwhile. Stdin stays the
SDK's (read in a worker thread): its timing at end of input is what lets a request that arrives just before EOF
still be answered. On anything else (a terminal, a file, a loop that is not asyncio) it is the SDK's transport.
"""

from __future__ import annotations

import asyncio
import os
import stat
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any


@asynccontextmanager
async def wire() -> AsyncIterator[tuple[Any, Any]]:
    """The (read, write) stream pair `Server.run` takes, served over this process's stdin and stdout."""
    from mcp.server.stdio import stdio_server

    if not (_pipe(1) and _asyncio()):
        async with stdio_server() as streams:
            yield streams
        return
    import fcntl

    private = fcntl.fcntl(1, fcntl.F_DUPFD_CLOEXEC, 3)  # the wire, where nothing else in the process writes
    stderr = os.dup(2)
    os.dup2(stderr, 1)  # fd 1 now stderr: a stray print from a library cannot corrupt the JSON-RPC stream
    os.close(stderr)
    writer = _Writer()
    transport, _ = await asyncio.get_running_loop().connect_write_pipe(
        lambda: writer, os.fdopen(os.dup(private), "wb", buffering=0)
    )  # the transport owns (and closes) a duplicate of its own
    try:
        async with stdio_server(stdout=writer) as streams:  # type: ignore[arg-type]
            yield streams
    finally:
        transport.close()
        os.dup2(private, 1)
        os.close(private)


def _pipe(fd: int) -> bool:
    try:
        mode = os.fstat(fd).st_mode
    except OSError:
        return False
    return stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode)


def _asyncio() -> bool:
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


class _Writer(asyncio.Protocol):
    """The SDK's `await stdout.write(line)` then `await stdout.flush()`, on a pipe transport with back-pressure."""

    def __init__(self) -> None:
        self.transport: asyncio.WriteTransport | None = None
        self.resumed: asyncio.Event | None = None  # set while the pipe takes more; cleared while it is full
        self.lost: Exception | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.WriteTransport)
        self.transport = transport

    def connection_lost(self, exc: Exception | None) -> None:
        self.lost = exc or BrokenPipeError("stdout closed")
        if self.resumed is not None:
            self.resumed.set()

    def pause_writing(self) -> None:
        self.resumed = asyncio.Event()

    def resume_writing(self) -> None:
        if self.resumed is not None:
            self.resumed.set()
            self.resumed = None

    async def write(self, text: str) -> None:
        if self.lost is not None:
            raise self.lost
        assert self.transport is not None
        self.transport.write(text.encode("utf-8"))

    async def flush(self) -> None:
        while self.resumed is not None and self.lost is None:
            await self.resumed.wait()
        if self.lost is not None:
            raise self.lost
