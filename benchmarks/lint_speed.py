"""Speed of the description lint as a user runs it: whole `mcptest doctor --lint-descriptions` processes.

Three figures (issue 19's goals on an idle 2-core machine): the text output for 1,000 tools (< 1 s) and 10,000
tools (< 6 s), JSON alike, and the lint of a 13-tool real catalog (server-everything, < 0.25 s). The big
catalogs are built from the real third-party catalogs (benchmarks/lint.py's `build_catalog`: real descriptions
and schemas, each tool renamed and its text made unique). The commands take turns round after round, so a slow
spell of a shared machine hits all alike. Printed per command: wall-clock median with quartiles, and the CPU
seconds (user + system) the process used, which a busy machine inflates far less than the wall clock.

    python benchmarks/lint_speed.py [--rounds 7]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from lint import build_catalog  # noqa: E402 (a sibling benchmark script, not a package)

ROOT = Path(__file__).resolve().parent.parent
MCPTEST = str(Path(sys.executable).with_name("mcptest"))
SMALL = ROOT / "tests" / "lint" / "fixtures" / "server-everything.json"
# With PYTHONDONTWRITEBYTECODE set (some sandboxes set it), every module is recompiled on each start.
AS_USERS_RUN = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def run_once(argv: list[str]) -> tuple[float, float]:
    """Wall and CPU (user + system) seconds of one whole process, its output discarded."""
    before = os.times()
    start = time.perf_counter()
    subprocess.run(
        argv, check=False, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=300, cwd=ROOT, env=AS_USERS_RUN
    )
    wall = time.perf_counter() - start
    after = os.times()
    return wall, (after.children_user - before.children_user) + (after.children_system - before.children_system)


def quartiles(values: list[float]) -> str:
    """`median (q1–q3)` in seconds."""
    q1, q2, q3 = statistics.quantiles(values, n=4) if len(values) > 1 else (values[0],) * 3
    return f"{q2:.3f} s ({q1:.3f}–{q3:.3f})"


def main() -> None:
    """Build the catalogs, run the commands in turns, print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    load_before = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as tmp:
        paths = {}
        for size in (1000, 10000):
            paths[size] = Path(tmp) / f"catalog-{size}.json"
            paths[size].write_text(json.dumps(build_catalog(size)))
        lint = [MCPTEST, "doctor", "--lint-descriptions", "--no-color", "--fail-on", "never", "--catalog"]
        commands = {
            "13-tool real catalog (server-everything), text": ([*lint, str(SMALL)], 0.25),
            "1,000 tools, text": ([*lint, str(paths[1000])], 1.0),
            "1,000 tools, JSON": ([*lint, str(paths[1000]), "--json"], 1.0),
            "10,000 tools, text": ([*lint, str(paths[10000])], 6.0),
            "10,000 tools, JSON": ([*lint, str(paths[10000]), "--json"], 6.0),
        }
        for argv, _goal in commands.values():  # a first run writes the bytecode caches, as after an install
            run_once(argv)
        walls: dict[str, list[float]] = {k: [] for k in commands}
        cpus: dict[str, list[float]] = {k: [] for k in commands}
        for _ in range(args.rounds):
            for name, (argv, _goal) in commands.items():
                wall, cpu = run_once(argv)
                walls[name].append(wall)
                cpus[name].append(cpu)
    print(
        f"mcptest doctor --lint-descriptions, whole process, {args.rounds} rounds in turns; "
        f"load average {load_before:.1f} at the start, {os.getloadavg()[0]:.1f} at the end (wall clock means little "
        "above ~1 on this 2-core machine; CPU seconds inflate less)"
    )
    for name, (_argv, goal) in commands.items():
        print(f"  {name:<48} wall {quartiles(walls[name])}  cpu {quartiles(cpus[name])}  goal < {goal} s")


if __name__ == "__main__":
    main()
