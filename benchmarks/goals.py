"""Issue 19's table, measured: each figure as a user meets it (whole process), against its goal.

Per figure: wall and CPU seconds as `median [q1–q3]` over `--rounds` runs (after one warm-up run), the peak memory,
the goal, and a sanity figure that shows the command did the real work (tool-bench: the baseline accuracy, far above
chance). The data comes from the other benchmarks' generators (real catalogs and prose): benchmarks/lint.py,
compare.py and tool_bench.py, each run in a process of its own so its memory is not counted in the figures. The CPU
time (user + system, servers included) is what a busy shared machine inflates least; on an idle machine the wall
clock comes close to it.

    python benchmarks/goals.py [--rounds 5] [--only run,lint,tool-bench,compare] [--peers DIR]

`--peers DIR` (a bin folder holding `mcp-quality`; `make bench-peers` installs it into `.venv-peers`) times
`mcp-quality static` on the same 13-tool catalog in turns with mcptest's lint.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _timing import AS_USERS_RUN, ROOT, Runs, load_note, measure, write_in_child  # noqa: E402 (a sibling script)

MCPTEST = [sys.executable, "-m", "mcptest"]
SMALL_CATALOG = ROOT / "tests" / "lint" / "fixtures" / "server-everything.json"
WEATHER = ROOT / "examples" / "quickstart" / "weather.yml"


def show(name: str, runs: Runs, goal: str, sanity: str) -> None:
    print(f"  {name}\n      {runs.line()}   goal {goal}\n      sanity: {sanity}")


PEERS: Path | None = None
"""The bin folder of the peer tools (`--peers`), when given."""


def lint(rounds: int, tmp: Path) -> None:
    paths = {}
    for size in (1000, 10000):
        paths[size] = tmp / f"catalog-{size}.json"
        write_in_child(paths[size], f"json.dumps(lint.build_catalog({size}))")
    base = [*MCPTEST, "doctor", "--lint-descriptions", "--no-color", "--fail-on", "never", "--catalog"]
    commands = {
        "13-tool real catalog": [*base, str(SMALL_CATALOG)],
        "1,000 text": [*base, str(paths[1000])],
        "1,000 JSON": [*base, str(paths[1000]), "--json"],
        "10,000 text": [*base, str(paths[10000])],
    }
    if PEERS is not None:
        commands["mcp-quality"] = [str(PEERS / "mcp-quality"), "static", str(SMALL_CATALOG)]
    runs = measure(commands, rounds)

    def summary(name: str) -> str:
        out = runs[name].stdout
        if name.endswith("JSON"):
            return f"{len(json.loads(out)['lint'][0]['tools']):,} tools scored"
        return next((line.strip() for line in out.splitlines() if "TDQS mean" in line), "no TDQS line: NOT LINTED")

    show("lint of a 13-tool real catalog (server-everything), text", runs["13-tool real catalog"], "< 0.25 s",
         summary("13-tool real catalog"))  # fmt: skip
    if PEERS is not None:
        peer = runs["mcp-quality"].stdout.strip().splitlines()
        show("mcp-quality static, the same catalog (timed in turns with the lint above)", runs["mcp-quality"],
             "mcptest's lint faster", f"{len(peer)} lines of output")  # fmt: skip
    show("doctor --lint-descriptions, 1,000 tools, text", runs["1,000 text"], "< 1 s", summary("1,000 text"))
    show("doctor --lint-descriptions, 1,000 tools, JSON", runs["1,000 JSON"], "< 1 s", summary("1,000 JSON"))
    show("doctor --lint-descriptions, 10,000 tools, text", runs["10,000 text"], "< 6 s", summary("10,000 text"))


def tool_bench(rounds: int, tmp: Path) -> None:
    spec = tmp / "bench-2000.json"
    write_in_child(spec, "json.dumps(tool_bench.build_spec(2000, 8000, 200))")
    runs = measure({"tool-bench": [*MCPTEST, "tool-bench", "run", str(spec), "--json"]}, rounds)["tool-bench"]
    base = json.loads(runs.stdout)["baseline"]
    sanity = f"baseline accuracy {base['accuracy']:.1%} ({base['correct']}/{base['total']}; chance 0.05%)"
    show("tool-bench run, 2,000 tools x 8,000 intents x 200 mutations, lexical", runs, "< 3 s, < 300 MiB", sanity)


def compare(rounds: int, tmp: Path) -> None:
    base, cur = tmp / "base.json", tmp / "cur.json"
    write_in_child(base, "compare.build(50000, 0).model_dump_json()")
    write_in_child(cur, "compare.build(50000, 1).model_dump_json()")
    argv = [*MCPTEST, "report", str(cur), "--compare", str(base), "--json"]
    runs = measure({"compare": argv}, rounds)["compare"]
    delta = json.loads(runs.stdout)
    sanity = f"{len(delta['cases']):,} cases: " + ", ".join(f"{n:,} {v}" for v, n in delta["totals"].items() if n)
    show("report --compare --json, 50,000 results each", runs, "< 2 s", sanity)


BARE_CLIENT = """
import sys, anyio
from mcp import Client, StdioServerParameters
from mcp.client.stdio import stdio_client

async def main():
    params = StdioServerParameters(command="mcptest", args=["mock", "--tools-from", sys.argv[1]])
    async with Client(stdio_client(params)) as client:
        result = await client.call_tool("get_weather", {"city": "Paris"})
    print("Paris" in result.content[0].text)

anyio.run(main)
"""
"""The same call as the one-test suite, by a user's own script on the SDK: the bar `mcptest run` must not be slower
than (issue 24)."""


def run(rounds: int, tmp: Path) -> None:
    suite = tmp / "one.yml"
    suite.write_text(
        f"servers:\n  w:\n    command: {json.dumps(['mcptest', 'mock', '--tools-from', str(WEATHER)])}\n"
        "tools:\n  - { name: weather, server: w, tool: get_weather, args: { city: Paris } }\n"
    )
    env = {**AS_USERS_RUN, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"}
    commands = {
        "run": [*MCPTEST, "run", str(suite), "--no-color"],
        "bare": [sys.executable, "-c", BARE_CLIENT, str(WEATHER)],
    }
    runs = measure(commands, rounds, env=env)
    tail = runs["run"].stdout.strip().splitlines()[-1] if runs["run"].stdout.strip() else "no output"
    show("mcptest run, one tool test against the mock (server included)", runs["run"], "< 0.8 s", tail)
    answered = runs["bare"].stdout.strip() or "no output"
    show("a bare SDK client script, the same call (timed in turns with the run above)", runs["bare"],
         "mcptest run no slower", f"the answer names Paris: {answered}")  # fmt: skip


# compare last: its 37 MB of JSON read back here would count in the peak memory of every command started after it
FIGURES: dict[str, Callable[[int, Path], None]] = {"run": run, "lint": lint, "tool-bench": tool_bench}
FIGURES["compare"] = compare


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--only", default=",".join(FIGURES))
    parser.add_argument("--peers", type=Path, help="a bin folder holding mcp-quality, timed beside the lint")
    args = parser.parse_args()
    global PEERS
    PEERS = args.peers
    print(f"issue 19's figures, whole process, {args.rounds} runs each after a warm-up; {load_note()}")
    with tempfile.TemporaryDirectory() as tmp:
        for name in args.only.split(","):
            FIGURES[name](max(args.rounds, 5), Path(tmp))
    print(f"  (finished at {load_note()})")


if __name__ == "__main__":
    main()
