"""Measure the description lint: `mcptest doctor --catalog X --lint-descriptions --json` on a 1,000-tool catalog.

The catalog is built from the real third-party catalogs in tests/lint/fixtures (41 tools, renamed and repeated),
so the figures reflect real descriptions and schemas. Prints whole-process wall time (the issue's target: under
1 s; peers for scale: `tdqs lint` ~1.3 s, `mcp-quality static` ~45 s) and the in-process split.

    python benchmarks/lint.py [--tools 1000] [--runs 5]
"""

from __future__ import annotations

import argparse
import copy
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "lint" / "fixtures"


def build_catalog(size: int) -> dict:
    """`size` tools cycled from the real catalogs, each with a unique name and description."""
    real = [t for p in sorted(FIXTURES.glob("*.json")) for t in json.loads(p.read_text())["tools"]]
    tools = []
    for i in range(size):
        tool = copy.deepcopy(real[i % len(real)])
        tool["name"] = f"{tool['name']}_{i}"
        # unique text, so no cache anywhere (ours or the tokenizer's) can profit from the repetition
        tool["description"] = f"{tool.get('description', '')} (variant {i})"
        tools.append(tool)
    return {"tools": tools}


def wall(argv: list[str], runs: int) -> list[float]:
    """Wall seconds of each run of a whole process."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(argv, check=False, capture_output=True, timeout=120, cwd=ROOT)
        times.append(time.perf_counter() - start)
    return times


def in_process(path: Path) -> dict[str, float]:
    """Seconds spent loading, building the tokenizer, and linting + scoring, in this process."""
    import warnings

    from mcptest.checks.lint import assess
    from mcptest.core.tokens import encoding
    from mcptest.records.catalog import load_catalog

    t0 = time.perf_counter()
    catalog = load_catalog(path)
    t1 = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        encoding()
    t2 = time.perf_counter()
    assess(catalog)
    t3 = time.perf_counter()
    return {"load": t1 - t0, "tokenizer": t2 - t1, "lint+score+tokens": t3 - t2}


def main() -> None:
    """Build the catalog, time the CLI, print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tools", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "catalog.json"
        path.write_text(json.dumps(build_catalog(args.tools)))
        cmd = [sys.executable, "-m", "mcptest", "doctor", "--catalog", str(path), "--lint-descriptions", "--json"]
        doctor = wall([*cmd, "--fail-on", "never"], args.runs)
        bare = wall([sys.executable, "-c", "pass"], args.runs)
        split = in_process(path)
    print(f"catalog: {args.tools} tools from {len(list(FIXTURES.glob('*.json')))} real catalogs; {args.runs} runs")
    print(
        f"mcptest doctor --catalog X --lint-descriptions --json: median {statistics.median(doctor):.3f} s, "
        f"min {min(doctor):.3f} s (target < 1 s; tdqs lint ~1.3 s; mcp-quality static ~45 s)"
    )
    print(f"python interpreter start-up alone: median {statistics.median(bare):.3f} s")
    print("in process: " + ", ".join(f"{k} {v * 1000:.0f} ms" for k, v in split.items()))


if __name__ == "__main__":
    main()
