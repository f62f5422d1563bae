"""Measure `mcptest diff` of two 1,000-tool catalogs and `mcptest security` on 1,000 tools (whole process), and
print the SEC rules' precision and recall on the labelled set in tests/security/labelled/.

The catalogs are built from the real third-party catalogs in tests/lint/fixtures (renamed and repeated). The new
catalog changes every tenth tool in one of the ways the diff classifies (a description rewrite, a required
argument, a removal, a rename, an added tool), so the diff does real work. Targets (issue 17): both under 1 s.

    python benchmarks/catalog_control.py [--tools 1000] [--runs 5]
"""

from __future__ import annotations

import argparse
import copy
import json
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from lint import build_catalog  # noqa: E402  the same real-catalog generator the lint benchmark uses

FIXTURES = ROOT / "tests" / "lint" / "fixtures"
LABELS = ROOT / "tests" / "security" / "labelled" / "labels.json"


def changed(catalog: dict) -> dict:
    """The catalog with one change in every ten tools, cycling through five kinds of change."""
    new = copy.deepcopy(catalog)
    tools = new["tools"]
    for i in range(0, len(tools), 10):
        kind = (i // 10) % 5
        if kind == 0:
            tools[i]["description"] += " Now rewritten."
        elif kind == 1:
            schema = tools[i].setdefault("inputSchema", {"type": "object"})
            schema.setdefault("properties", {})["added_arg"] = {"type": "string"}
            schema["required"] = [*schema.get("required", []), "added_arg"]
        elif kind == 2:
            tools[i]["name"] += "_renamed"
        elif kind == 3:
            tools[i]["name"] = f"removed_{i}"
            tools[i]["inputSchema"] = {"type": "object", "properties": {"x": {"type": "integer"}}}
        else:
            tools.append({"name": f"brand_new_{i}", "description": "A new tool.", "inputSchema": {"type": "object"}})
    return new


def wall(argv: list[str], runs: int) -> list[tuple[float, float]]:
    """(wall seconds, CPU seconds: user + system) of each run of a whole process.

    Both, because the machine may be shared: on a busy one the wall time waits for a core while the CPU time
    stays what the command costs; on an idle one they agree.
    """
    times = []
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run(argv, check=False, capture_output=True, timeout=120, cwd=ROOT)
        elapsed = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        times.append((elapsed, after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime))
    return times


def show(label: str, times: list[tuple[float, float]]) -> None:
    """One line: median and min of the wall times, median of the CPU times."""
    walls, cpus = [w for w, _ in times], [c for _, c in times]
    print(
        f"{label:<44} wall median {statistics.median(walls):.3f} s (min {min(walls):.3f}), "
        f"CPU median {statistics.median(cpus):.3f} s"
    )


def main() -> None:
    """Build the catalogs, time the two commands, print the figures and the labelled-set scores."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tools", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        old, new = Path(tmp) / "old.json", Path(tmp) / "new.json"
        catalog = build_catalog(args.tools)
        old.write_text(json.dumps(catalog))
        new.write_text(json.dumps(changed(catalog)))
        mcptest = [sys.executable, "-m", "mcptest"]
        diff = wall([*mcptest, "diff", str(old), str(new), "--json", "--fail-on", "never"], args.runs)
        security = wall([*mcptest, "security", "--catalog", str(new), "--json", "--fail-on", "never"], args.runs)
        bare = wall([sys.executable, "-c", "pass"], args.runs)
        out = subprocess.run([*mcptest, "diff", str(old), str(new), "--json"], capture_output=True, text=True, cwd=ROOT)
        counts = json.loads(out.stdout)["counts"]
    print(f"catalogs: {args.tools} tools each, {args.runs} runs per command, whole process (python -m mcptest)")
    show(f"mcptest diff ({counts['breaking']} breaking, {counts['risky']} risky)", diff)
    show("mcptest security (10 SEC rules)", security)
    show("python -c pass (interpreter start)", bare)

    from mcptest.checks.security.evaluation import evaluate

    result = evaluate(LABELS)
    d, c = result.detection, result.codes
    print(f"\nlabelled set: {result.entries} entries, {result.poisoned} poisoned ({LABELS.relative_to(ROOT)})")
    print(
        f"detection (critical finding on a poisoned entry): precision {d.precision:.3f}, recall {d.recall:.3f}"
        f"  (TP {d.tp}, FP {d.fp}, FN {d.fn})"
    )
    print(
        f"rule codes (entry, code) pairs:                   precision {c.precision:.3f}, recall {c.recall:.3f}"
        f"  (TP {c.tp}, FP {c.fp}, FN {c.fn})"
    )
    for line in result.misses + result.code_errors:
        print(f"  {line}")


if __name__ == "__main__":
    main()
