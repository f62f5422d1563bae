"""`core.forked.split_map`: the same list as a plain map, on every core when that is safe, and no child left behind.

A pytest worker may run threads of its own (xdist's), so every case that forks runs in a fresh single-threaded
Python, as the CLI does.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import threading
from pathlib import Path

import pytest

from mcptest.core.forked import split_map

ROOT = Path(__file__).resolve().parent.parent
CORES = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else 1
needs_two_cores = pytest.mark.skipif(
    CORES < 2 or not sys.platform.startswith("linux"), reason="split_map forks on Linux with 2+ cores"
)

PRELUDE = """
import json, os, signal, sys, threading
from mcptest.core.forked import split_map
PARENT = os.getpid()
def no_children():
    try:
        os.waitpid(-1, os.WNOHANG)
    except ChildProcessError:
        return True
    return False
"""


def run(body: str, env: dict[str, str] | None = None) -> dict:
    """Run `body` after the prelude in a fresh Python; the JSON it prints last."""
    code = PRELUDE + textwrap.dedent(body)
    proc = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT), **(env or {})},
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.strip().splitlines()[-1])


def test_a_plain_map_in_this_process_while_another_thread_runs() -> None:
    stop = threading.Event()
    worker = threading.Thread(target=stop.wait)
    worker.start()
    try:
        got = split_map(lambda x: (x * x, os.getpid()), list(range(500)), min_slice=10)
    finally:
        stop.set()
        worker.join()
    assert got == [(x * x, os.getpid()) for x in range(500)]


@needs_two_cores
def test_a_long_list_is_split_over_forked_children_with_the_same_results_in_order() -> None:
    out = run("""
        got = split_map(lambda x: (x * 3, os.getpid()), list(range(1000)), min_slice=10)
        print(json.dumps({"values": [v for v, _ in got], "pids": sorted({p for _, p in got} - {PARENT}),
                          "parent_share": sum(p == PARENT for _, p in got), "reaped": no_children()}))
    """)
    assert out["values"] == [x * 3 for x in range(1000)]
    assert len(out["pids"]) == min(CORES, 100) - 1  # each other core mapped a slice in a child
    assert out["parent_share"] == 1000 // min(CORES, 100)
    assert out["reaped"]


def test_short_lists_threads_and_mcptest_jobs_1_map_in_this_process() -> None:
    out = run(
        """
        one = lambda x: os.getpid()
        short = set(split_map(one, list(range(150)), min_slice=100))
        capped = set(split_map(one, list(range(1000)), min_slice=10))
        stop = threading.Event()
        worker = threading.Thread(target=stop.wait)
        worker.start()
        threaded = set(split_map(one, list(range(1000)), min_slice=10))
        stop.set(); worker.join()
        print(json.dumps({"short": list(short), "capped": list(capped), "threaded": list(threaded),
                          "parent": PARENT}))
    """,
        env={"MCPTEST_JOBS": "1"},
    )
    assert out["short"] == out["capped"] == out["threaded"] == [out["parent"]]


@needs_two_cores
def test_an_exception_in_a_childs_slice_is_raised_here_and_no_child_is_left() -> None:
    out = run("""
        def fn(x):
            if x == 900:
                raise ValueError(f"bad item {x}")
            return x
        try:
            split_map(fn, list(range(1000)), min_slice=10)
            raised = None
        except ValueError as exc:
            raised = str(exc)
        print(json.dumps({"raised": raised, "reaped": no_children()}))
    """)
    assert out == {"raised": "bad item 900", "reaped": True}


@needs_two_cores
def test_a_child_that_dies_has_its_slice_mapped_again_here() -> None:
    out = run("""
        def fn(x):
            if os.getpid() != PARENT and x % 97 == 0:
                os.kill(os.getpid(), signal.SIGKILL)  # a child killed mid-slice (the OOM killer, a stray kill)
            return x + 1
        got = split_map(fn, list(range(1000)), min_slice=10)
        print(json.dumps({"ok": got == [x + 1 for x in range(1000)], "reaped": no_children()}))
    """)
    assert out == {"ok": True, "reaped": True}


@needs_two_cores
def test_an_exception_in_this_process_kills_and_reaps_the_children() -> None:
    out = run("""
        import time
        def fn(x):
            if os.getpid() == PARENT and x == 5:
                raise KeyboardInterrupt  # the user's Ctrl-C while the children still work
            if os.getpid() != PARENT:
                time.sleep(0.01)  # children that would take 10 s: killed, not waited for
            return x
        started = time.monotonic()
        try:
            split_map(fn, list(range(2000)), min_slice=10)
        except KeyboardInterrupt:
            pass
        print(json.dumps({"seconds": time.monotonic() - started, "reaped": no_children()}))
    """)
    assert out["reaped"]
    assert out["seconds"] < 5


@needs_two_cores
def test_the_lint_of_a_large_real_catalog_is_the_same_on_every_core_as_on_one(tmp_path: Path) -> None:
    real = sorted((ROOT / "tests" / "lint" / "real").glob("*.json"))
    tools = []
    for path in real:
        data = json.loads(path.read_text())
        if isinstance(data, dict) and isinstance(data.get("tools"), list):
            tools += [dict(t, name=f"{path.stem}__{t['name']}") for t in data["tools"] if isinstance(t, dict)]
    assert len(tools) > 1000  # the labelled real catalogs, renamed to stay unique
    catalog = tmp_path / "catalog.json"
    catalog.write_text(json.dumps({"tools": tools}))
    argv = [sys.executable, "-m", "mcptest", "doctor", "--lint-descriptions", "--json", "--catalog", str(catalog)]
    outputs = {}
    for jobs in ("1", ""):
        env = {**os.environ, "MCPTEST_JOBS": jobs, "PYTHONPATH": str(ROOT)}
        proc = subprocess.run(argv, capture_output=True, text=True, timeout=300, cwd=ROOT, env=env)
        assert proc.returncode in (0, 1), proc.stderr
        outputs[jobs] = json.loads(proc.stdout)
    assert outputs["1"] == outputs[""]
    findings = [f for server in outputs[""]["lint"] for t in server["tools"] for f in t["findings"]]
    assert len(findings) > 1000 and {f["rule"] for f in findings} >= {"DESC-010", "SCH-002", "SCH-004"}


@pytest.mark.parametrize("value", ["0", "two", "-1"])
def test_mcptest_jobs_that_is_no_positive_number_is_a_usage_error(value: str, tmp_path: Path) -> None:
    catalog = tmp_path / "catalog.json"
    catalog.write_text(json.dumps({"tools": [{"name": "t", "description": "Get a thing.", "inputSchema": {}}]}))
    argv = [sys.executable, "-m", "mcptest", "doctor", "--lint-descriptions", "--catalog", str(catalog)]
    env = {**os.environ, "MCPTEST_JOBS": value, "PYTHONPATH": str(ROOT)}
    proc = subprocess.run(argv, capture_output=True, text=True, timeout=60, cwd=ROOT, env=env)
    assert proc.returncode == 2
    assert f"MCPTEST_JOBS='{value}': not a positive whole number" in proc.stderr
    assert "Traceback" not in proc.stderr
