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
REPEATS = 21
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


def median_ms(argv: list[str]) -> str:
    """Median (and fastest) wall time of the whole process, as a user waits for it."""
    times = []
    for _ in range(REPEATS):
        start = time.perf_counter()
        subprocess.run(argv, cwd=ROOT, capture_output=True, check=False, env=AS_USERS_RUN)
        times.append((time.perf_counter() - start) * 1000)
    return f"{statistics.median(times):7.1f} ms (min {min(times):5.1f}, median of {REPEATS})"


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
    print(f"python start-up alone:              {median_ms([sys.executable, '-c', 'pass'])}")
    print(f"mcptest --help:                     {median_ms([*cli, '--help'])}; target < 300")
    print(f"mcptest validate quickstart:        {median_ms([*cli, 'validate', str(QUICKSTART)])}; target < 300")
    print(f"heavy imports, --help:              {heavy_imports(['--help']) or 'none'}")
    print(f"heavy imports, validate:            {heavy_imports(['validate', str(QUICKSTART)]) or 'none'}")
    print(
        f"heavy imports, run (tool tests):    {heavy_imports(['run', str(QUICKSTART)]) or 'none'} "
        "(mcp is expected: it is the client)"
    )


if __name__ == "__main__":
    main()
