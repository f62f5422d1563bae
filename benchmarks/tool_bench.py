"""Measure `mcptest tool-bench run`: 2,000 tools × 8,000 intents × 200 mutations, lexical selector (the goal of
issue 19: under 3 s and 300 MiB for the whole process on this 2-core machine).

The tools are the 28 real ones of examples/tool-bench (git, filesystem, time servers) cycled to the size asked, each
given a unique name and two distinguishing words, so every description is real prose plus what tells it apart. Each
intent takes three words of its gold tool's description, its distinguishing word and one word from elsewhere.
Mutations cycle through the four kinds on spread-out tools. Prints, over --runs runs of the CLI (whole process,
--json): wall time, CPU time (user + system) and peak RSS as medians with quartiles; the sanity figure (baseline
accuracy, against chance), the in-process split of one run, and the example's own figures. --yaml also times
loading the spec written as block YAML (ruamel keeps positions: ~20 s at the default size, hence JSON for big specs).

    python benchmarks/tool_bench.py [--tools 2000] [--intents 8000] [--mutations 200] [--runs 5] [--yaml]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "tool-bench"
KINDS = ("blank", "genericize", "truncate", "drop_keyword")


def pseudo_word(i: int) -> str:
    """A pronounceable, unique word for each i (bijective base-10 over consonant-vowel pairs)."""
    syllables = [c + v for c in "bdfgklmnprstvz" for v in "aeiou"]
    out = ""
    while True:
        out += syllables[i % len(syllables)]
        i //= len(syllables)
        if not i:
            return out + "x"


def build_spec(tools: int, intents: int, mutations: int, seed: int = 1) -> dict[str, Any]:
    """The benchmark spec as plain data."""
    rng = random.Random(seed)
    real = json.loads((EXAMPLE / "catalog.json").read_text(encoding="utf-8"))["tools"]
    catalog = []
    for i in range(tools):
        tool = dict(real[i % len(real)])
        tool["name"] = f"{tool['name']}_{pseudo_word(i)}"
        tool["description"] = f"{tool.get('description', '')} Handles {pseudo_word(i)} and {pseudo_word(i + tools)}."
        catalog.append(tool)
    rows = []
    for _ in range(intents):
        gold = rng.randrange(tools)
        words = [w.strip(".,:()'") for w in catalog[gold]["description"].split() if len(w) > 3]
        noise = rng.choice(catalog)["description"].split()[0]
        rows.append({"query": " ".join([*rng.sample(words, 3), words[-1], noise]), "gold": [catalog[gold]["name"]]})
    muts: list[dict[str, Any]] = []
    for j in range(mutations):
        tool = catalog[(j * 37) % tools]
        kind = KINDS[j % len(KINDS)]
        extra = {"chars": 30} if kind == "truncate" else {"word": tool["description"].split()[-1].strip(".")}
        muts.append({"tool": tool["name"], "kind": kind, **(extra if kind in ("truncate", "drop_keyword") else {})})
    return {"catalog": {"tools": catalog}, "intents": rows, "mutations": muts}


def in_process(spec: Path, yaml: bool) -> dict[str, float]:
    """Seconds spent loading the spec (as JSON; with `yaml`, also as block YAML) and running the bench, in this
    process."""
    from mcptest.bench import load_spec, run_bench
    from mcptest.bench.lexical import LexicalSelector

    start = time.perf_counter()
    bench = load_spec(spec)
    loaded = time.perf_counter()
    run_bench(bench, LexicalSelector())
    steps = {
        "load spec (JSON)": loaded - start,
        "run bench (imports and BPE load included)": time.perf_counter() - loaded,
    }
    if yaml:
        from ruamel.yaml import YAML

        as_yaml = spec.with_suffix(".block.yml")
        YAML(typ="safe").dump(json.loads(spec.read_text(encoding="utf-8")), as_yaml)
        start = time.perf_counter()
        load_spec(as_yaml)
        steps["load the same spec written as block YAML"] = time.perf_counter() - start
    return steps


def run_cli(argv: list[str]) -> tuple[float, float, float, str]:
    """One whole-process run: wall seconds, CPU seconds (user + system), peak RSS in MiB, and its stdout."""
    start = time.perf_counter()
    proc = subprocess.Popen(argv, cwd=ROOT, stdout=subprocess.PIPE, text=True)
    out = proc.stdout.read() if proc.stdout else ""
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"{' '.join(argv)} failed with exit {os.waitstatus_to_exitcode(status)}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, out


def spread(values: list[float], unit: str, digits: int = 2) -> str:
    """`median X unit (quartiles A-B)` over the runs."""
    if len(values) < 2:
        return f"{values[0]:.{digits}f} {unit}"
    q1, _, q3 = statistics.quantiles(values, n=4)
    return f"median {statistics.median(values):.{digits}f} {unit} (quartiles {q1:.{digits}f}-{q3:.{digits}f})"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tools", type=int, default=2000)
    parser.add_argument("--intents", type=int, default=8000)
    parser.add_argument("--mutations", type=int, default=200)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--yaml", action="store_true", help="also time loading the spec written as block YAML")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        spec = Path(tmp) / "bench.json"
        spec.write_text(json.dumps(build_spec(args.tools, args.intents, args.mutations)), encoding="utf-8")
        argv = [sys.executable, "-m", "mcptest", "tool-bench", "run", str(spec), "--json"]
        runs = [run_cli(argv) for _ in range(args.runs)]
        report = json.loads(runs[-1][3])
        size = f"{args.tools} tools × {args.intents} intents × {args.mutations} mutations"
        print(f"{size}, lexical selector, {args.runs} runs:")
        print(f"  wall (whole process, --json): {spread([r[0] for r in runs], 's')}")
        print(f"  CPU (user + system):          {spread([r[1] for r in runs], 's')}")
        print(f"  peak RSS:                     {spread([r[2] for r in runs], 'MiB', 0)}")
        base = report["baseline"]
        print(
            f"  sanity: baseline accuracy {base['accuracy']:.1%} ({base['correct']}/{base['total']}; chance "
            f"{1 / args.tools:.2%}), largest drop {report['max_drop']:.1%}"
        )
        for step, seconds in in_process(spec, args.yaml).items():
            print(f"  in process, {step}: {seconds:.2f} s")
    example = [sys.executable, "-m", "mcptest", "tool-bench", "run", str(EXAMPLE / "bench.yml"), "--json"]
    report = json.loads(subprocess.run(example, cwd=ROOT, check=True, capture_output=True, text=True).stdout)
    base = report["baseline"]
    print(
        f"examples/tool-bench: baseline {base['correct']}/{base['total']} ({base['accuracy']:.1%}, 95% Wilson "
        f"{base['wilson_low']:.1%}–{base['wilson_high']:.1%}), largest drop {report['max_drop']:.1%}"
    )


if __name__ == "__main__":
    main()
