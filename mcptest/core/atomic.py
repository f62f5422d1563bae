"""Atomic file writes: a report or cassette is either the old file or the whole new one, never half."""

from __future__ import annotations

import os
import re
from pathlib import Path

_TMP_SUFFIX = ".tmp"


def atomic_write_text(path: str | Path, text: str) -> None:
    """Write `text` to a temporary file beside `path`, fsync it, then rename it over `path`.

    The file gets the permissions any new file would (`0666` less the umask), since reports and cassettes are
    artifacts CI uploads and teammates read; `mkstemp` alone would make it `0600`. The temporary file is named
    `.NAME.PID.RANDOM.tmp`: one left behind by a writer that was killed (`kill -9`) is removed by the next write.
    """
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    _remove_stale(target)
    import tempfile  # here: every command imports this module, few write a file

    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.{os.getpid()}.", suffix=_TMP_SUFFIX, dir=target.parent)
    try:
        os.fchmod(fd, 0o666 & ~_umask())
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _umask() -> int:
    """The process umask (reading it means setting it; it is put back at once)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _remove_stale(target: Path) -> None:
    """Remove our temporary files for `target` whose writer process no longer runs."""
    ours = re.compile(rf"^\.{re.escape(target.name)}\.(\d+)\.[A-Za-z0-9_]+{re.escape(_TMP_SUFFIX)}$")
    try:
        names = os.listdir(target.parent)
    except OSError:
        return
    for name in names:
        match = ours.match(name)
        if match and not _running(int(match.group(1))):
            (target.parent / name).unlink(missing_ok=True)


def _running(pid: int) -> bool:
    if pid == os.getpid():
        return True  # a write of ours in progress (another thread)
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # someone else's process
    return True
