"""`mcptest run --workers 8` against `--workers 1` on 200 tool tests of a mock that takes 50 ms per call.

Issue 18's figure: at least 5x faster. Each figure is the median of REPEATS whole-process runs (wall and CPU of
mcptest plus its server), with the quartiles; the sanity figure is that both runs pass all 200 tests in the same
order. Also printed: the per-test overhead with no fault at --workers 8, which must stay under issue 2's 10 ms.
"""

from __future__ import annotations

import json
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _timing import ROOT, load_note, quartiles
from tool_suite import TESTS
from tool_suite import write_suite as plain_suite

REPEATS = 3


def write_suite(directory: Path, fault: str) -> Path:
    """tool_suite's 200-test suite, its mock given `--fault`."""
    path = plain_suite(directory, TESTS)
    text = path.read_text(encoding="utf-8").replace('.yml"]', f'.yml", "--fault", "{fault}"]', 1)
    faulty = directory / f"suite-{fault.replace(':', '-')}.yml"
    faulty.write_text(text, encoding="utf-8")
    return faulty


def timed(suite: Path, workers: int) -> tuple[float, float, list[str]]:
    """Wall seconds, CPU seconds (mcptest and the server), and the result names in report order."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    argv = [sys.executable, "-m", "mcptest", "run", str(suite), "-r", "json", "-q", "--workers", str(workers)]
    proc = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    assert proc.returncode == 0, proc.stderr[-2000:]
    report = json.loads(proc.stdout)
    assert report["summary"]["passed"] == TESTS, report["summary"]
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, [r["name"] for r in report["results"]]


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        slow, fast = write_suite(Path(tmp), "slow:50"), write_suite(Path(tmp), "none")
        runs = {w: [timed(slow, w) for _ in range(REPEATS)] for w in (1, 8)}
        bare = [timed(fast, 8) for _ in range(REPEATS)]
    orders = {tuple(names) for rs in runs.values() for _, _, names in rs}
    wall = {w: [r[0] for r in rs] for w, rs in runs.items()}
    for w, rs in runs.items():
        print(f"--workers {w}, {TESTS} tests, mock --fault slow:50: wall {quartiles(wall[w])}, "
              f"CPU {quartiles([r[1] for r in rs])}")  # fmt: skip
    speedup = statistics.median(wall[1]) / statistics.median(wall[8])
    print(f"speed-up --workers 8 over --workers 1: {speedup:.1f}x (target >= 5x)")
    print(f"sanity: every run passed {TESTS}/{TESTS}, report order identical in all runs: {len(orders) == 1}")
    print(f"--workers 8, {TESTS} tests, no fault: wall {quartiles([r[0] for r in bare])}")
    print(load_note())


if __name__ == "__main__":
    main()
