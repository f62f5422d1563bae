"""Atomic writes: permissions follow the umask, and temporary files of killed writers are cleaned up."""

from __future__ import annotations

import os
import stat
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from mcptest.core.atomic import atomic_write_text
from tests.conftest import PYTHON


@pytest.fixture
def umask() -> Iterator[None]:
    saved = os.umask(0o022)
    os.umask(saved)
    yield
    os.umask(saved)


@pytest.mark.parametrize(("mask", "mode"), [(0o022, 0o644), (0o002, 0o664), (0o077, 0o600)])
def test_a_written_file_has_the_mode_the_umask_gives_new_files(
    tmp_path: Path, umask: None, mask: int, mode: int
) -> None:
    os.umask(mask)
    report = tmp_path / "out" / "report.json"
    atomic_write_text(report, "{}\n")
    atomic_write_text(report, "{}\n")  # a replaced file too
    assert stat.S_IMODE(report.stat().st_mode) == mode
    assert report.read_text() == "{}\n"
    assert sorted(p.name for p in report.parent.iterdir()) == ["report.json"]


def dead_pid() -> int:
    """The pid of a process that was killed with SIGKILL, like a writer killed mid-write."""
    proc = subprocess.Popen([PYTHON, "-c", "import time; time.sleep(60)"])
    proc.kill()
    proc.wait(timeout=10)
    return proc.pid


def test_the_next_write_removes_what_a_killed_writer_left(tmp_path: Path) -> None:
    stale = tmp_path / f".report.json.{dead_pid()}.k3x9_q2a.tmp"
    stale.write_text('{"half": ')
    live = tmp_path / f".report.json.{os.getppid()}.abcd1234.tmp"  # a writer that still runs
    live.write_text("{")
    others = [tmp_path / ".report.json.tmp", tmp_path / f".other.json.{dead_pid()}.abcd1234.tmp"]
    for other in others:  # not ours, or for another file
        other.write_text("keep")
    atomic_write_text(tmp_path / "report.json", "{}\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(["report.json", live.name, *(o.name for o in others)])
