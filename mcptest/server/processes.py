"""Server processes: a stdio server runs in a process group of its own, and the whole group ends with it.

The SDK starts each server as the leader of a new session (its pid is the group id) but signals the group only
when the server outlives the closing of its stdin. A server that exits at once leaves whatever it started
(`sleep 1000 &`, a database, a worker pool) running after mcptest is gone. `GroupedStdio` wraps the SDK's
transport: the SDK closes the server gracefully first, then what is left of its group gets SIGTERM and, after
`GROUP_GRACE_S`, SIGKILL. Processes that left the group on purpose (`setsid`, daemons) are out of reach.
"""

from __future__ import annotations

import logging
import os
import signal
import sys
from typing import IO, Any

import anyio

GROUP_GRACE_S = 1.0
"""How long the rest of a server's group has, after SIGTERM, before SIGKILL."""
_POLL_S = 0.02


class GroupedStdio:
    """The SDK's `stdio_client` transport whose exit also ends the server's whole process group."""

    def __init__(self, params: Any, errlog: IO[Any]) -> None:
        from mcp.client.stdio import stdio_client

        self._transport = stdio_client(params, errlog=errlog)  # type: ignore[arg-type]  # a descriptor is all it needs
        self._process: Any = None

    async def __aenter__(self) -> Any:
        streams = await self._transport.__aenter__()
        self._process = _spawned_process(self._transport)
        return streams

    async def __aexit__(self, *exc: Any) -> bool | None:
        try:
            return await self._transport.__aexit__(*exc)
        finally:
            if self._process is not None:
                with anyio.CancelScope(shield=True):  # a cancelled run must still end the group
                    await end_group(self._process)


async def end_group(process: Any) -> None:
    """SIGTERM the process group led by `process`, SIGKILL what still lives after `GROUP_GRACE_S`."""
    if sys.platform == "win32":  # the SDK puts a Windows server in a Job Object and closes it
        return
    pgid = process.pid  # the leader's pid, even once the leader itself is gone
    if not _signal(pgid, signal.SIGTERM):
        return
    with anyio.move_on_after(GROUP_GRACE_S):
        while _has_live_member(pgid):
            await anyio.sleep(_POLL_S)
        return
    _signal(pgid, signal.SIGKILL)


def _signal(pgid: int, signum: int) -> bool:
    """Signal the group; False when it has no member left."""
    try:
        os.killpg(pgid, signum)
    except ProcessLookupError:
        return False
    except PermissionError:  # a member we may not signal (or a zombie, on macOS): the others got it
        pass
    return True


def _has_live_member(pgid: int) -> bool:
    """Whether the group still has a member that is not a zombie.

    Killed orphans stay in the group as zombies until their new parent reaps them, which a container's PID 1
    may do late or never; waiting for the group to vanish would then cost the whole grace period.
    """
    if not _signal(pgid, 0):
        return False
    if not os.path.exists("/proc/self/stat"):  # no procfs: assume alive, the grace period bounds the wait
        return True
    with os.scandir("/proc") as entries:
        for entry in entries:
            if not entry.name.isdigit():
                continue
            try:
                with open(os.path.join(entry.path, "stat"), "rb") as f:
                    state, _ppid, pgrp = f.read().rsplit(b")", 1)[1].split()[:3]
            except (OSError, ValueError):
                continue  # it exited while we looked
            if int(pgrp) == pgid and state not in (b"Z", b"X"):
                return True
    return False


def _spawned_process(transport: Any) -> Any:
    """The server process of an entered `stdio_client` (the SDK keeps it in a local of its generator).

    Read, not patched: the SDK offers no other way to the process. `tests/test_processes.py` pins it.
    """
    frame = getattr(getattr(transport, "gen", None), "ag_frame", None)
    process = frame.f_locals.get("process") if frame is not None else None
    if process is None or not isinstance(getattr(process, "pid", None), int):
        logging.getLogger("mcptest").warning("cannot find the server's process; its process group is left alone")
        return None
    return process
