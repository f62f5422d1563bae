"""Run one bad-input corpus case as a user would: `mcptest ARGV` in a copy of its folder, under a time and memory cap.

A case is a folder `tests/corpus/cases/<class>-<name>/` with its input files and `case.json`:

    {"argv": ["validate", "suite.yml"], "exit": 2, "stderr_contains": ["suite.yml:3:5:"],
     "stdout_contains": [], "timeout_s": 30, "memory_mb": 1024, "env": {}, "secrets": []}

`secrets` are values (usually passed through `env`) that must appear in no output and no file the run wrote;
`written_contains` maps a file the run must write to fragments it must hold.
"""

from __future__ import annotations

import json
import os
import resource
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CASES = Path(__file__).resolve().parent / "cases"


@dataclass
class Outcome:
    """What one case did, and every way it fell short of being handled well (empty when it was)."""

    name: str
    code: int | None
    stdout: str
    stderr: str
    seconds: float
    shortfalls: list[str] = field(default_factory=list)

    @property
    def handled_well(self) -> bool:
        return not self.shortfalls


def case_names() -> list[str]:
    """Every case folder that holds a case.json, sorted (other helpers add folders; all are picked up)."""
    return sorted(p.parent.name for p in CASES.glob("*/case.json"))


def run_case(name: str, workdir: Path) -> Outcome:
    """Copy the case into `workdir`, run it under its caps and check it; never raises for a misbehaving mcptest."""
    spec = json.loads((CASES / name / "case.json").read_text(encoding="utf-8"))
    folder = workdir / name
    shutil.copytree(CASES / name, folder)
    before = {p: p.stat().st_mtime_ns for p in folder.rglob("*") if p.is_file()}
    env = {**os.environ, "NO_COLOR": "1", "PYTHONPATH": str(ROOT), **spec.get("env", {})}
    memory = int(spec.get("memory_mb", 1024)) * 2**20
    timeout = float(spec.get("timeout_s", 30))

    def cap() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))

    start = time.monotonic()
    proc = subprocess.Popen(
        [sys.executable, "-m", "mcptest", *spec["argv"]],
        cwd=folder,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
        preexec_fn=cap,
        start_new_session=True,  # its own process group, so a timeout ends every process it started
    )
    try:
        out, err = proc.communicate(timeout=timeout)
        code: int | None = proc.returncode
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate(timeout=10)
        code = None
    outcome = Outcome(name, code, _text(out), _text(err), time.monotonic() - start)
    _check(outcome, spec, timeout, folder, before)
    return outcome


def _text(data: bytes) -> str:
    return data.decode("utf-8", errors="replace")


def _check(o: Outcome, spec: dict, timeout: float, folder: Path, before: dict[Path, int]) -> None:
    if o.code is None:
        o.shortfalls.append(f"still running after {timeout:.0f} s (killed)")
        return
    if o.code != spec["exit"]:
        o.shortfalls.append(f"exit {o.code}, expected {spec['exit']}")
    for stream, text in (("stderr", o.stderr), ("stdout", o.stdout)):
        for fragment in spec.get(f"{stream}_contains", []):
            if fragment not in text:
                o.shortfalls.append(f"{stream} lacks {fragment!r}")
        if stream == "stderr" and any(crash in text for crash in ("Traceback", "MemoryError", "RecursionError")):
            o.shortfalls.append("a traceback or crash on stderr")  # stdout may quote a server's own traceback
        if "\x1b" in text or "\x9b" in text:  # NO_COLOR is set, so any escape came from the input
            o.shortfalls.append(f"a raw terminal escape reached {stream}")
    if "Warning" in o.stderr and "site-packages" in o.stderr:
        o.shortfalls.append("a library warning reached the user")
    written = [p for p in folder.rglob("*") if p.is_file() and before.get(p) != p.stat().st_mtime_ns]
    for name, fragments in spec.get("written_contains", {}).items():
        path = folder / name
        text = path.read_text(encoding="utf-8", errors="replace") if path in written else ""
        o.shortfalls += [f"{name} lacks {f!r}" for f in fragments if f not in text]
    for secret in spec.get("secrets", []):
        if secret in o.stdout or secret in o.stderr:
            o.shortfalls.append(f"a secret ({secret[:4]}...) was printed")
        for path in written:
            if secret in path.read_text(encoding="utf-8", errors="replace"):
                o.shortfalls.append(f"a secret ({secret[:4]}...) was written to {path.name}")
