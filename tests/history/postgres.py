"""A real PostgreSQL server for the history tests: Debian's `postgresql` (installed by `make postgres`), a fresh
cluster in a temporary folder, listening on 127.0.0.1 at a free port, stopped after the session."""

from __future__ import annotations

import os
import pwd
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from tests.conftest import free_port

USER = "postgres"
"""`initdb` refuses root: as root, the cluster is made and run as Debian's `postgres` user."""


def pg_bin() -> Path | None:
    """The folder of `initdb` and `pg_ctl`: PATH first, else Debian's newest /usr/lib/postgresql/N/bin."""
    found = shutil.which("initdb")
    if found:
        return Path(found).resolve().parent
    versions = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"), key=lambda p: int(p.parts[-3]))
    return versions[-1].parent if versions else None


def why_not() -> str | None:
    """Why no server can be started here, or None when one can."""
    if pg_bin() is None:
        return "PostgreSQL is not installed (make postgres installs Debian's postgresql)"
    if os.geteuid() == 0:
        try:
            pwd.getpwnam(USER)
        except KeyError:
            return f"running as root and there is no '{USER}' user to run initdb as"
    return None


def _as_owner(argv: list[str]) -> list[str]:
    return ["runuser", "-u", USER, "--", *argv] if os.geteuid() == 0 else argv


@contextmanager
def running_server() -> Iterator[str]:
    """Start a throwaway cluster; yield a URL of its `postgres` database for user `mcptest`; stop it after."""
    bin_dir = pg_bin()
    assert bin_dir is not None
    folder = Path(tempfile.mkdtemp(prefix="mcptest-pg-"))
    data, log = folder / "data", folder / "server.log"
    if os.geteuid() == 0:
        owner = pwd.getpwnam(USER)
        os.chown(folder, owner.pw_uid, owner.pw_gid)
    port = free_port()
    try:
        subprocess.run(
            _as_owner([str(bin_dir / "initdb"), "-D", str(data), "-U", "mcptest", "--auth=trust", "-E", "UTF8",
                       "--no-sync"]),
            check=True, capture_output=True, timeout=120,
        )  # fmt: skip
        options = f"-p {port} -k {folder} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=50"
        subprocess.run(
            _as_owner([str(bin_dir / "pg_ctl"), "-D", str(data), "-l", str(log), "-o", options, "-w", "-t", "60",
                       "start"]),
            check=True, capture_output=True, timeout=90,
        )  # fmt: skip
        try:
            yield f"postgresql://mcptest@127.0.0.1:{port}/postgres"
        finally:
            subprocess.run(
                _as_owner([str(bin_dir / "pg_ctl"), "-D", str(data), "-m", "immediate", "-w", "stop"]),
                capture_output=True, timeout=60,
            )  # fmt: skip
    finally:
        shutil.rmtree(folder, ignore_errors=True)
