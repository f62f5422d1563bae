"""A server's stderr, captured in a file it writes to directly and kept to a bounded size on disk.

The server writes to the file's descriptor (a subprocess needs one), so the file grows as fast as the server
writes. `trim` keeps only the tail the report can show: it moves the shared file offset back to the start, which
the server's next write follows (the child inherited the same open file description), so the disk use stays near
a few times the bound however much a server floods.
"""

from __future__ import annotations

import os
import tempfile

_SLACK = 4
"""Trim once the file holds this many times the kept tail (a trim costs a read and a write of the tail)."""


class StderrCapture:
    """The capture file of one server (`fileno()` for the child) with its bounded tail."""

    def __init__(self, keep_bytes: int) -> None:
        self.file = tempfile.TemporaryFile()  # noqa: SIM115 (closed by `close`)
        self.keep = keep_bytes
        self.dropped = 0
        """Bytes dropped by trims before the file's start."""

    def fileno(self) -> int:
        return self.file.fileno()

    def trim(self) -> None:
        """Drop all but the last `keep` bytes once the file is past its slack."""
        try:
            fd = self.file.fileno()
            size = os.fstat(fd).st_size
            if size <= self.keep * _SLACK:
                return
            tail = os.pread(fd, self.keep, size - self.keep)
            os.ftruncate(fd, 0)
            os.pwrite(fd, tail, 0)
            os.lseek(fd, len(tail), os.SEEK_SET)
            self.dropped += size - len(tail)
        except (OSError, ValueError):  # closed under us: nothing left to bound
            return

    def tail(self) -> tuple[bytes, int]:
        """The last `keep` bytes written and how many were written before them (trimmed or not)."""
        try:
            fd = self.file.fileno()
            size = os.fstat(fd).st_size
            data = os.pread(fd, self.keep, max(0, size - self.keep))
        except (OSError, ValueError):
            return b"", 0
        # a write racing a trim can leave a hole of zeros: it is not what the server wrote
        return data.replace(b"\0", b""), self.dropped + max(0, size - self.keep)

    def close(self) -> None:
        self.file.close()
