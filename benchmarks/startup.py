"""Start-up figures: `mcptest --help` and `mcptest validate` on the quickstart, and what a tool-only run imports.

Prints medians over repeated runs. Targets (issue 2): both under 300 ms; anthropic, openai and scipy never
imported by a suite without agent tests.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
QUICKSTART = ROOT / "examples" / "quickstart" / "mcptest.yml"
REPEATS = 41
HEAVY = ("anthropic", "openai", "scipy", "mcp")
# With PYTHONDONTWRITEBYTECODE set (some sandboxes set it), every edited module is recompiled on each start.
AS_USERS_RUN = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}

PROBE = """
import json, sys
from mcptest.cli import main
try:
    main(sys.argv[1:])
except SystemExit:
    pass
heavy = sorted({m.split('.')[0] for m in sys.modules} & set(json.loads(sys.stdin.readline())))
print(json.dumps(heavy), file=sys.stderr)
"""


def wall_times(commands: dict[str, list[str]]) -> dict[str, list[float]]:
    """Wall time of each whole process, as a user waits for it. The commands take turns, so a slow spell of a
    shared machine falls on all of them alike (bare Python start-up is the control)."""
    times: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(REPEATS):
        for name, argv in commands.items():
            start = time.perf_counter()
            subprocess.run(argv, cwd=ROOT, capture_output=True, check=False, env=AS_USERS_RUN)
            times[name].append((time.perf_counter() - start) * 1000)
    return times


def summary(times: list[float]) -> str:
    low, _, high = statistics.quantiles(times, n=4)
    return f"median {statistics.median(times):6.1f} ms (quartiles {low:5.1f}-{high:5.1f}, min {min(times):5.1f})"


def heavy_imports(args: list[str]) -> list[str]:
    proc = subprocess.run(
        [sys.executable, "-c", PROBE, *args],
        cwd=ROOT,
        input=json.dumps(HEAVY) + "\n",
        capture_output=True,
        text=True,
        check=False,
    )
    return json.loads(proc.stderr.strip().splitlines()[-1])


def main() -> None:
    cli = [sys.executable, "-m", "mcptest"]
    times = wall_times(
        {
            "python start-up alone:      ": [sys.executable, "-c", "pass"],
            "mcptest --help:             ": [*cli, "--help"],
            "mcptest validate quickstart:": [*cli, "validate", str(QUICKSTART)],
        }
    )
    print(f"{REPEATS} runs each, taking turns")
    for name, values in times.items():
        target = "" if name.startswith("python") else "; target < 300"
        print(f"{name}        {summary(values)}{target}")
    print(f"heavy imports, --help:              {heavy_imports(['--help']) or 'none'}")
    print(f"heavy imports, validate:            {heavy_imports(['validate', str(QUICKSTART)]) or 'none'}")
    print(
        f"heavy imports, run (tool tests):    {heavy_imports(['run', str(QUICKSTART)]) or 'none'} "
        "(mcp is expected: it is the client)"
    )


if __name__ == "__main__":
    main()
