"""A server's stderr, read through a pipe as it arrives and kept as a bounded tail in memory.

A subprocess needs a descriptor for its stderr. A file would grow as fast as the server writes (a server flooding
stderr could fill the disk), so the server gets a pipe's write end instead and a thread drains the read end into
the last `keep` bytes. `tail` drains what is still in the pipe first, so a line written just before a crash is
there when the failure is reported.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import select
import threading

_PIPE_BYTES = 1 << 20
"""Ask for a 1 MiB pipe (Linux) so a burst never blocks the server while the drain thread waits for the GIL."""
_POLL_S = 0.5
"""How often the drain thread looks at whether the capture was closed (a bound on its life after `close`)."""


class StderrCapture:
    """The stderr of one server's processes: `writer` goes to the child, `tail()` gives what the report shows."""

    def __init__(self, keep_bytes: int) -> None:
        read, write = os.pipe()
        os.set_blocking(read, False)
        # not Linux, or over /proc/sys/fs/pipe-max-size: the default size works, only slower
        with contextlib.suppress(OSError):
            fcntl.fcntl(write, getattr(fcntl, "F_SETPIPE_SZ", 1031), _PIPE_BYTES)
        self._read: int | None = read
        self.writer = os.fdopen(write, "wb", buffering=0)
        """The write end, for the child's stderr (mcptest itself never writes to it)."""
        self._keep = keep_bytes
        self._tail = bytearray()
        self._total = 0
        self._lock = threading.RLock()  # `_pump` drains once more under it when it ends
        self._closed = threading.Event()
        threading.Thread(target=self._pump, name="mcptest-stderr", daemon=True).start()

    def _pump(self) -> None:
        while not self._closed.is_set():
            read = self._read
            if read is None:
                return
            try:
                ready, _, _ = select.select([read], [], [], _POLL_S)
            except (OSError, ValueError):
                return
            if ready and not self._drain():
                break
        with self._lock:
            self._drain()
            if self._read is not None:
                os.close(self._read)
                self._read = None

    def _drain(self) -> bool:
        """Read what the pipe holds into the tail; False at end of file (every writer closed)."""
        with self._lock:
            while self._read is not None:
                try:
                    chunk = os.read(self._read, 1 << 16)
                except BlockingIOError:
                    return True
                except OSError:
                    return False
                if not chunk:
                    return False
                self._total += len(chunk)
                self._tail += chunk
                if len(self._tail) > self._keep:
                    del self._tail[: len(self._tail) - self._keep]
            return False

    def tail(self) -> tuple[bytes, int]:
        """The last `keep` bytes written and how many bytes were written in all."""
        self._drain()
        with self._lock:
            return bytes(self._tail), self._total

    def close(self) -> None:
        """Close the write end; the thread drains what is left and ends within `_POLL_S`."""
        self.writer.close()
        self._closed.set()
