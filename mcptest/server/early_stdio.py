"""A stdio server started before the SDK is imported, so the two start-ups overlap instead of adding up.

`import mcp` costs the client about half a second, and a Python server (the mock included) spends as long
starting. The SDK's `stdio_client` can only start the server once the SDK is imported, so one came after the
other. `spawn` starts the process exactly as `stdio_client` would (the SDK's default environment plus the
suite's `env:`, a session of its own, stderr to the capture file) using anyio alone; `adopted_stdio` is then the
transport the SDK's `Client` talks through: `stdio_client`'s bridge and shutdown sequence over that process
(its pieces reused, not copied), and, as for `GroupedStdio`, the end of the server's whole process group.
"""

from __future__ import annotations

import os
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import IO, Any

import anyio
from anyio.abc import Process

from mcptest.server.processes import end_group
from mcptest.server.wire import LineSplitter, parse_line

SDK_INHERITED_ENV = ("HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER")
"""`mcp.client.stdio.DEFAULT_INHERITED_ENV_VARS` on POSIX, which cannot be read without importing the SDK
(tests/test_early_stdio.py checks that both give the same environment)."""


def early_start_possible() -> bool:
    """Windows servers go through the SDK's Job Object launcher, which only the SDK's own transport uses."""
    return sys.platform != "win32"


def default_environment() -> dict[str, str]:
    """What the SDK's `get_default_environment()` gives a server: a few safe variables of ours, no functions."""
    return {k: v for k in SDK_INHERITED_ENV if (v := os.environ.get(k)) is not None and not v.startswith("()")}


async def spawn(command: str, args: list[str], env: dict[str, str], cwd: Path, errlog: IO[Any]) -> Process:
    """Start a stdio server as the SDK's `stdio_client` does; OSError when it cannot be started."""
    return await anyio.open_process(
        [command, *args], env=default_environment() | env, stderr=errlog, cwd=cwd, start_new_session=True
    )


REAP_S = 5.0
"""How long `discard` waits for the event loop to see an ended server exit (it was signalled; this is slack)."""


async def discard(process: Process) -> None:
    """End a started server no session adopted (the run stopped first, or mcptest talks to it itself): stdin
    closed, its group ended, then the process reaped and its pipes closed.

    `end_group` returns once the group has no live member, which may be before the event loop has seen the
    exit; a run that ended then would leave the transport unclosed, warning when collected (in a later test).
    """
    with anyio.CancelScope(shield=True):
        if process.stdin is not None:
            await process.stdin.aclose()
        await end_group(process)
        with anyio.move_on_after(REAP_S):
            await process.aclose()


@asynccontextmanager
async def adopted_stdio(
    process: Process, limit: int, items: int, encoding: str = "utf-8", errors: str = "replace"
) -> AsyncIterator[Any]:
    """The SDK's stdio transport over an already started process (the body of `mcp.client.stdio.stdio_client`),
    reading stdout through `mcptest.server.wire`: lines split in linear time, at most `limit` characters each, and
    a result's items cut to `items`."""
    import anyio.lowlevel
    from anyio.streams.text import TextReceiveStream
    from mcp.client import stdio as sdk
    from mcp.shared.message import SessionMessage

    read_stream_writer, read_stream = anyio.create_memory_object_stream[SessionMessage | Exception](0)
    write_stream, write_stream_reader = anyio.create_memory_object_stream[SessionMessage](0)
    shutting_down = False
    writer_done = anyio.Event()

    async def stdout_reader() -> None:
        assert process.stdout is not None
        stdout = TextReceiveStream(process.stdout, encoding=encoding, errors=errors)
        try:
            async with read_stream_writer:
                try:
                    lines = LineSplitter(limit)
                    async for chunk in stdout:
                        for line in lines.feed(chunk):
                            try:
                                await read_stream_writer.send(parse_line(line, items))
                            except (anyio.ClosedResourceError, anyio.BrokenResourceError):
                                return
                finally:
                    await sdk._drain_stdout(process)
        except anyio.ClosedResourceError:
            pass  # our own shutdown closed stdout under the read
        except (anyio.BrokenResourceError, ConnectionError):
            if not shutting_down:  # the session sees the read stream close either way
                sdk.logger.exception("Reading from the MCP server's stdout failed mid-session")

    async def stdin_writer() -> None:
        assert process.stdin is not None
        try:
            async with write_stream_reader:
                async for session_message in write_stream_reader:
                    json = session_message.message.model_dump_json(by_alias=True, exclude_unset=True)
                    await process.stdin.send((json + "\n").encode(encoding=encoding, errors=errors))
        except (anyio.ClosedResourceError, anyio.BrokenResourceError, OSError):
            await read_stream_writer.aclose()  # the session sees the connection end instead of hanging
        finally:
            writer_done.set()

    async def shutdown() -> None:
        read_stream.close()
        write_stream.close()
        with anyio.move_on_after(sdk._WRITER_FLUSH_TIMEOUT):
            await writer_done.wait()
        await sdk._stop_server_process(process)
        for stream in (read_stream, write_stream, read_stream_writer, write_stream_reader):
            await stream.aclose()
        await anyio.lowlevel.checkpoint()

    try:
        async with anyio.create_task_group() as tg:
            tg.start_soon(stdout_reader)
            tg.start_soon(stdin_writer)
            try:
                yield read_stream, write_stream
            finally:
                shutting_down = True
                with anyio.CancelScope(shield=True):
                    await shutdown()
                tg.cancel_scope.cancel()
        await anyio.lowlevel.cancel_shielded_checkpoint()
    finally:
        with anyio.CancelScope(shield=True):  # a cancelled run must still end the group
            await end_group(process)
