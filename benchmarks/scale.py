"""How mcptest's heavy commands grow: each figure at three sizes, whole process, with a linearity verdict.

For each command it prints the median wall time with its quartiles and the peak memory (max RSS) at three sizes,
the marginal cost per unit between the sizes, and whether it grows linearly (the marginal cost of the upper step
is within 1.5x of the lower step's). The data is built by the other benchmarks' generators from real catalogs and
prose, and each command prints a sanity figure (tool-bench: its baseline accuracy, far above chance).

    python benchmarks/scale.py [--runs 3] [--only lint,compare,tool-bench,run]
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
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

import compare as compare_bench  # noqa: E402
import lint as lint_bench  # noqa: E402
import tool_bench as tool_bench_bench  # noqa: E402

MCPTEST = [sys.executable, "-m", "mcptest"]


def measure(argv: list[str], runs: int, cwd: Path = ROOT) -> tuple[list[float], int, str]:
    """Wall seconds of each run, the largest max RSS in MiB, and the last run's stdout."""
    walls, peak, out = [], 0, ""
    for _ in range(runs):
        start = time.perf_counter()
        proc = subprocess.Popen(argv, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        out = proc.stdout.read() if proc.stdout else ""
        _, status, usage = os.wait4(proc.pid, 0)
        walls.append(time.perf_counter() - start)
        proc.returncode = os.waitstatus_to_exitcode(status)
        if proc.returncode not in (0, 1):
            sys.exit(f"{' '.join(argv)} failed with exit {proc.returncode}")
        peak = max(peak, usage.ru_maxrss // 1024)
    return walls, peak, out


def quartiles(values: list[float]) -> str:
    if len(values) < 2:
        return f"{values[0]:.2f} s"
    q1, q2, q3 = statistics.quantiles(values, n=4)
    return f"median {statistics.median(values):.2f} s (quartiles {q1:.2f}-{q3:.2f})"


def report(name: str, unit: str, sizes: list[int], run_one: Callable[[int], tuple[list[float], int, str]]) -> None:
    print(f"== {name}")
    medians = []
    for size in sizes:
        walls, peak, sanity = run_one(size)
        medians.append(statistics.median(walls))
        print(f"  {size:>7,} {unit}: {quartiles(walls)}, peak {peak} MiB{sanity}")
    steps = [(medians[i + 1] - medians[i]) / (sizes[i + 1] - sizes[i]) for i in range(len(sizes) - 1)]
    per = ", ".join(f"{s * 1e6:.1f} µs/{unit.rstrip('s')}" for s in steps)
    linear = steps[-1] <= 1.5 * max(steps[0], 1e-12)
    print(f"  marginal cost {per}: {'linear' if linear else 'GROWS FASTER THAN LINEAR'}")


def lint(runs: int, tmp: Path) -> None:
    def one(size: int) -> tuple[list[float], int, str]:
        path = tmp / f"lint-{size}.json"
        path.write_text(json.dumps(lint_bench.build_catalog(size)))
        walls, peak, _ = measure([*MCPTEST, "doctor", "--catalog", str(path), "--lint-descriptions"], runs)
        json_walls, _, _ = measure([*MCPTEST, "doctor", "--catalog", str(path), "--lint-descriptions", "--json"], runs)
        return walls, peak, f"; --json {quartiles(json_walls)}"

    report("doctor --lint-descriptions (text output)", "tools", [100, 1000, 10000], one)


def compare(runs: int, tmp: Path) -> None:
    def one(size: int) -> tuple[list[float], int, str]:
        base, cur = tmp / f"base-{size}.json", tmp / f"cur-{size}.json"
        base.write_text(compare_bench.build(size, 0).model_dump_json())
        cur.write_text(compare_bench.build(size, 1).model_dump_json())
        walls, peak, out = measure([*MCPTEST, "report", str(cur), "--compare", str(base), "--json"], runs)
        return walls, peak, f"; {len(json.loads(out)['cases']):,} cases"

    report("report --compare --json", "results", [5000, 20000, 50000], one)


def tool_bench(runs: int, tmp: Path) -> None:
    def one(tools: int) -> tuple[list[float], int, str]:
        spec = tmp / f"bench-{tools}.json"
        spec.write_text(json.dumps(tool_bench_bench.build_spec(tools, tools * 4, tools // 10)))
        walls, peak, out = measure([*MCPTEST, "tool-bench", "run", str(spec), "--json"], runs)
        base = json.loads(out)["baseline"]
        return walls, peak, f"; baseline accuracy {base['accuracy']:.1%} (chance {1 / tools:.2%})"

    report("tool-bench run, lexical (tools x 4 intents x tools/10 mutations)", "tools", [200, 1000, 2000], one)


def run(runs: int, tmp: Path) -> None:
    def one(count: int) -> tuple[list[float], int, str]:
        suite = tmp / f"suite-{count}.yml"
        weather = (ROOT / "examples" / "quickstart" / "weather.yml").resolve()
        tests = "".join(
            f"  - {{ name: t{i}, server: w, tool: get_weather, args: {{ city: Paris }}, expect: "
            f"[{{ target: result.isError, matcher: {{ exact: false }} }}] }}\n"
            for i in range(count)
        )
        suite.write_text(f'servers:\n  w:\n    command: ["mcptest", "mock", "--tools-from", "{weather}"]\n'
                         f"tools:\n{tests}")  # fmt: skip
        env_bin = str(Path(sys.executable).parent)
        argv = ["env", f"PATH={env_bin}:{os.environ.get('PATH', '')}", *MCPTEST, "run", str(suite)]
        walls, peak, _ = measure(argv, runs)
        return walls, peak, ""

    report("mcptest run, tool tests against the mock", "tests", [1, 50, 200], one)


FIGURES = {"lint": lint, "compare": compare, "tool-bench": tool_bench, "run": run}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--only", default=",".join(FIGURES))
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        for name in args.only.split(","):
            FIGURES[name](args.runs, Path(tmp))


if __name__ == "__main__":
    main()
