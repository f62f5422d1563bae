"""How mcptest's heavy commands grow: each figure at three sizes, whole process, with a linearity verdict.

For each command it prints, at three sizes, the wall and CPU seconds as `median [q1–q3]` and the peak memory (max
RSS), the marginal cost per unit between the sizes, and whether it grows linearly: the marginal CPU cost of the
upper step is within 1.5x of the lower step's (CPU, servers included, because a shared machine's load moves the wall
clock far more). The data is built by the other benchmarks' generators from real catalogs and prose (in a process of
their own, whose memory would otherwise count in the peaks), and each command prints a sanity figure (tool-bench:
its baseline accuracy, far above chance).

    python benchmarks/scale.py [--runs 3] [--only lint,compare,tool-bench,run]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

from _timing import AS_USERS_RUN, Runs, write_in_child  # noqa: E402

MCPTEST = [sys.executable, "-m", "mcptest"]


def measure(argv: list[str], runs: int, cwd: Path = ROOT, env: dict[str, str] | None = None) -> Runs:
    """`runs` whole-process runs of `argv` after one warm-up run."""
    Runs().add(argv, cwd, env)
    out = Runs()
    for _ in range(runs):
        out.add(argv, cwd, env)
    return out


def report(name: str, unit: str, sizes: list[int], run_one: Callable[[int], tuple[Runs, str]]) -> None:
    """Each size's figures, the marginal cost per unit between sizes, and the verdict. The verdict rests on the
    CPU medians (servers included), which a shared machine's load disturbs far less than the wall clock."""
    print(f"== {name}")
    walls, cpus = [], []
    for size in sizes:
        runs, sanity = run_one(size)
        walls.append(statistics.median(runs.walls))
        cpus.append(statistics.median(runs.cpus))
        print(f"  {size:>7,} {unit}: {runs.line()}{sanity}")
    per = unit.rstrip("s")
    for label, medians in (("wall", walls), ("cpu", cpus)):
        steps = [(medians[i + 1] - medians[i]) / (sizes[i + 1] - sizes[i]) for i in range(len(sizes) - 1)]
        shown = ", ".join(f"{s * 1e6:.1f} µs/{per}" for s in steps)
        if label == "cpu":
            linear = steps[-1] <= 1.5 * max(steps[0], 1e-12)
            print(f"  marginal {label} cost {shown}: {'linear' if linear else 'GROWS FASTER THAN LINEAR'}")
        else:
            print(f"  marginal {label} cost {shown}")


def lint(runs: int, tmp: Path) -> None:
    def one(size: int) -> tuple[Runs, str]:
        path = tmp / f"lint-{size}.json"
        write_in_child(path, f"json.dumps(lint.build_catalog({size}))")
        lint = [*MCPTEST, "doctor", "--catalog", str(path), "--lint-descriptions", "--no-color", "--fail-on", "never"]
        text, as_json = measure(lint, runs), measure([*lint, "--json"], runs)
        scored = len(json.loads(as_json.stdout)["lint"][0]["tools"])
        return text, f"\n           --json: {as_json.line()}; {scored:,} tools scored"

    report("doctor --lint-descriptions (text output)", "tools", [100, 1000, 10000], one)


def compare(runs: int, tmp: Path) -> None:
    def one(size: int) -> tuple[Runs, str]:
        base, cur = tmp / f"base-{size}.json", tmp / f"cur-{size}.json"
        write_in_child(base, f"compare.build({size}, 0).model_dump_json()")
        write_in_child(cur, f"compare.build({size}, 1).model_dump_json()")
        done = measure([*MCPTEST, "report", str(cur), "--compare", str(base), "--json"], runs)
        return done, f"; {len(json.loads(done.stdout)['cases']):,} cases"

    report("report --compare --json", "results", [5000, 20000, 50000], one)


def tool_bench(runs: int, tmp: Path) -> None:
    def one(tools: int) -> tuple[Runs, str]:
        spec = tmp / f"bench-{tools}.json"
        write_in_child(spec, f"json.dumps(tool_bench.build_spec({tools}, {tools * 4}, {tools // 10}))")
        done = measure([*MCPTEST, "tool-bench", "run", str(spec), "--json"], runs)
        base = json.loads(done.stdout)["baseline"]
        return done, f"; baseline accuracy {base['accuracy']:.1%} (chance {1 / tools:.2%})"

    report("tool-bench run, lexical (tools x 4 intents x tools/10 mutations)", "tools", [200, 1000, 2000], one)


def run(runs: int, tmp: Path) -> None:
    def one(count: int) -> tuple[Runs, str]:
        suite = tmp / f"suite-{count}.yml"
        weather = (ROOT / "examples" / "quickstart" / "weather.yml").resolve()
        tests = "".join(
            f"  - {{ name: t{i}, server: w, tool: get_weather, args: {{ city: Paris }}, expect: "
            f"[{{ target: result.isError, matcher: {{ exact: false }} }}] }}\n"
            for i in range(count)
        )
        suite.write_text(f'servers:\n  w:\n    command: ["mcptest", "mock", "--tools-from", "{weather}"]\n'
                         f"tools:\n{tests}")  # fmt: skip
        env = {**AS_USERS_RUN, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"}
        done = measure([*MCPTEST, "run", str(suite), "--no-color"], runs, env=env)
        return done, f"; {done.stdout.strip().splitlines()[-1]}"

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
