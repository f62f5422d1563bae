"""Measure `mcptest tool-bench run`: 500 tools × 2,000 intents × 50 mutations, lexical selector (target: under 5 s).

The tools are the 28 real ones of examples/tool-bench (git, filesystem, time servers) cycled to 500, each given
a unique name and two distinguishing words, so every description is real prose plus what tells it apart. Each
intent takes three words of its gold tool's description, its distinguishing word and one word from elsewhere.
Mutations cycle through the four kinds on spread-out tools. Prints whole-process wall time of the CLI (the
issue's figure), the in-process split, and the example's own figures.

    python benchmarks/tool_bench.py [--tools 500] [--intents 2000] [--mutations 50] [--runs 3]
"""

from __future__ import annotations

import argparse
import json
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


def in_process(spec: Path) -> dict[str, float]:
    """Seconds spent loading the spec (as JSON, then as block YAML) and running the bench, in this process."""
    from ruamel.yaml import YAML

    from mcptest.bench import load_spec, run_bench
    from mcptest.bench.lexical import LexicalSelector

    as_yaml = spec.with_suffix(".block.yml")
    YAML(typ="safe").dump(json.loads(spec.read_text(encoding="utf-8")), as_yaml)
    start = time.perf_counter()
    bench = load_spec(spec)
    loaded = time.perf_counter()
    report = run_bench(bench, LexicalSelector())
    done = time.perf_counter()
    load_spec(as_yaml)
    yaml_done = time.perf_counter()
    print(f"  baseline accuracy {report.baseline.accuracy:.1%}, largest drop {report.max_drop:.1%}")
    return {
        "load spec (JSON)": loaded - start,
        "run bench (first run: imports and BPE load included)": done - loaded,
        "load the same spec written as block YAML": yaml_done - done,
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tools", type=int, default=500)
    parser.add_argument("--intents", type=int, default=2000)
    parser.add_argument("--mutations", type=int, default=50)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        spec = Path(tmp) / "bench.yml"
        spec.write_text(json.dumps(build_spec(args.tools, args.intents, args.mutations)), encoding="utf-8")
        argv = [sys.executable, "-m", "mcptest", "tool-bench", "run", str(spec), "--json"]
        walls = []
        for _ in range(args.runs):
            start = time.perf_counter()
            subprocess.run(argv, cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
            walls.append(time.perf_counter() - start)
        print(f"{args.tools} tools × {args.intents} intents × {args.mutations} mutations, lexical selector:")
        print(f"  CLI wall (whole process, --json): median {statistics.median(walls):.2f} s over {args.runs} runs")
        for step, seconds in in_process(spec).items():
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
