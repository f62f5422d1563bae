"""Whole-process measurements shared by the benchmark scripts (a helper module: `make bench` does not run it).

Each run of a command gives its wall seconds, its CPU seconds (user + system, of the process and of the children
it waited for, such as a stdio server) and its peak memory. A figure is reported as `median [q1–q3]`: on a shared
machine the wall clock swings with the neighbours' load, the CPU time far less, so both are printed.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# With PYTHONDONTWRITEBYTECODE set (some sandboxes set it), every module is recompiled on each start.
AS_USERS_RUN = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


@dataclass
class Runs:
    """The runs of one command."""

    walls: list[float] = field(default_factory=list)
    cpus: list[float] = field(default_factory=list)
    peak_mib: int = 0
    stdout: str = ""

    def add(
        self, argv: list[str], cwd: Path = ROOT, env: dict[str, str] | None = None, ok: tuple[int, ...] = (0, 1)
    ) -> None:
        """Run `argv` once, whole process, and record it; exit if it fails (a figure of a failure is no figure)."""
        with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
            start = time.perf_counter()
            proc = subprocess.Popen(argv, cwd=cwd, env=env or AS_USERS_RUN, stdout=out, stderr=err, text=True)
            _, status, usage = os.wait4(proc.pid, 0)  # wait4: the rusage of this process and what it waited for
            self.walls.append(time.perf_counter() - start)
            proc.returncode = code = os.waitstatus_to_exitcode(status)
            out.seek(0)
            err.seek(0)
            if code not in ok:
                raise SystemExit(f"{' '.join(map(str, argv))} failed with exit {code}: {err.read()[-2000:]}")
            self.stdout = out.read()
        self.cpus.append(usage.ru_utime + usage.ru_stime)
        self.peak_mib = max(self.peak_mib, usage.ru_maxrss // 1024)

    def line(self) -> str:
        """`wall 1.23 s [1.20–1.30]  cpu 1.10 s [1.08–1.12]  peak 123 MiB`."""
        return f"wall {quartiles(self.walls)}  cpu {quartiles(self.cpus)}  peak {self.peak_mib} MiB"


def write_in_child(path: Path, expression: str) -> None:
    """Write the text `expression` gives (evaluated with `json` and the sibling benchmark scripts importable) to
    `path`, in a process of its own. A child's peak memory (max RSS) counts the memory of the process that started
    it, as it was when it started: a benchmark holding 50,000 generated results would add it to every figure."""
    modules = [name for name in ("lint", "compare", "tool_bench") if f"{name}." in expression]
    code = (
        f"import json, sys; sys.path.insert(0, {str(Path(__file__).resolve().parent)!r}); "
        + "".join(f"import {m}; " for m in modules)
        + f"open({str(path)!r}, 'w', encoding='utf-8').write({expression})"
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)


def quartiles(values: list[float]) -> str:
    """`median [q1–q3]` in seconds (a single value alone)."""
    if not values:
        return "n/a"
    if len(values) == 1:
        return f"{values[0]:.3f} s"
    q1, _, q3 = statistics.quantiles(values, n=4, method="inclusive")
    return f"{statistics.median(values):.3f} s [{q1:.3f}–{q3:.3f}]"


def measure(
    commands: dict[str, list[str]], rounds: int, cwd: Path = ROOT, env: dict[str, str] | None = None
) -> dict[str, Runs]:
    """Run the commands in turns, `rounds` times each, after one unrecorded warm-up run each (bytecode caches are
    written then, as after an install), so a slow spell of a shared machine falls on all of them alike."""
    runs = {name: Runs() for name in commands}
    for argv in commands.values():
        Runs().add(argv, cwd, env)
    for _ in range(rounds):
        for name, argv in commands.items():
            runs[name].add(argv, cwd, env)
    return runs


def load_note() -> str:
    """The 1-minute load average against the cores: above the core count, wall times are the neighbours' too."""
    return f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores"
