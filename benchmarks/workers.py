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

ROOT = Path(__file__).resolve().parent.parent
MANIFEST = ROOT / "examples" / "quickstart" / "weather.yml"
TESTS = 200
REPEATS = 3

TEST = """
  - name: weather {i}
    server: weather
    tool: get_weather
    args: {{ city: "City {i}" }}
    expect:
      - result.content[0].text: {{ contains: "City {i}" }}
"""


def write_suite(directory: Path, fault: str) -> Path:
    path = directory / f"suite-{fault.replace(':', '-')}.yml"
    command = ["mcptest", "mock", "--tools-from", str(MANIFEST), "--fault", fault]
    header = f"servers:\n  weather:\n    command: {json.dumps(command)}\ntools:\n"
    path.write_text(header + "".join(TEST.format(i=i) for i in range(TESTS)), encoding="utf-8")
    return path


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


def quartiles(values: list[float]) -> str:
    q1, median, q3 = statistics.quantiles(values, n=4, method="inclusive")
    return f"{median:6.2f} s [{q1:.2f}–{q3:.2f}]"


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


if __name__ == "__main__":
    main()
