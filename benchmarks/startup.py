"""Start-up figures: `mcptest --help`, `validate` on the quickstart, `doctor --lint-descriptions --catalog` and
`diff` on a real 13-tool catalog, and what each imports.

Prints medians over repeated runs. Targets: `--help` and `validate` under 300 ms (issue 2); none of these four
commands imports `mcp` or a provider SDK (issue 24); anthropic, openai and scipy never imported by a suite without
agent tests.
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
CATALOG = ROOT / "tests" / "lint" / "fixtures" / "server-everything.json"
LINT = ["doctor", "--lint-descriptions", "--no-color", "--fail-on", "never", "--catalog", str(CATALOG)]
DIFF = ["diff", str(CATALOG), str(CATALOG)]
REPEATS = 41
HEAVY = ("anthropic", "openai", "scipy", "mcp", "google", "mistralai", "boto3")
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
            "mcptest lint, 13 tools:     ": [*cli, *LINT],
            "mcptest diff, 13 tools:     ": [*cli, *DIFF],
        }
    )
    print(f"{REPEATS} runs each, taking turns")
    for name, values in times.items():
        target = "; target < 300" if "--help" in name or "validate" in name else ""
        print(f"{name}        {summary(values)}{target}")
    print(f"heavy imports, --help:              {heavy_imports(['--help']) or 'none'}")
    print(f"heavy imports, validate:            {heavy_imports(['validate', str(QUICKSTART)]) or 'none'}")
    print(f"heavy imports, doctor lint:         {heavy_imports(LINT) or 'none'}")
    print(f"heavy imports, diff:                {heavy_imports(DIFF) or 'none'}")
    print(
        f"heavy imports, run (tool tests):    {heavy_imports(['run', str(QUICKSTART)]) or 'none'} "
        "(mcp is expected: it is the client)"
    )


if __name__ == "__main__":
    main()
