"""Measure `mcptest report --compare` on two reports of 5,000 test results each.

The reports mix what a real suite holds: tool tests, and agent tests with 10 runs each and a tool_selection gate
per test; the current report flips some tests, drops and adds a few, and moves some runs so the rate tests run.
Prints the whole-process wall time of `mcptest report CUR --compare BASE --json` (the issue's target: under 1 s)
and the in-process split (load both, compare, render).

    python benchmarks/compare.py [--results 5000] [--runs 5]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from mcptest.records.report import GateReport, Report, Status, TestResult, summarize  # noqa: E402


def build(size: int, shift: int) -> Report:
    """`size` results: half tool tests, half agent runs (10 per test, one gate each); `shift` perturbs outcomes."""
    results, gates = [], []
    for i in range(size // 2):
        failed = (i + shift) % 97 == 0
        results.append(_row(f"tool test {i + shift // 2}", Status.FAILED if failed else Status.PASSED, None))
    for t in range(size // 20):
        misses = (t * shift) % 4
        for run in range(1, 11):
            results.append(_row(f"agent {t}", Status.FAILED if run <= misses else Status.PASSED, run))
        gates.append(_gate(f"agent {t}", 10 - misses))
    meta = {"mcptest_version": "0.1.0", "suite": "suite.yml", "started_at": "2026-11-02T09:30:00+00:00"}
    return Report(**meta, duration_ms=1.0, results=results, gates=gates, summary=summarize(results))


def _row(name: str, status: Status, run: int | None) -> TestResult:
    kind, model = ("agent", "claude-sonnet-4-5") if run else ("tool", None)
    figures = {"tokens.total": 1500 + (run or 0), "cost_usd": 0.004} if run else {}
    return TestResult(
        name=name, kind=kind, server="s", model=model, run=run, file="suite.yml", line=1, status=status,
        duration_ms=12.0, targets=figures,
    )  # fmt: skip


def _gate(test: str, selected: int) -> GateReport:
    rate = selected * 10
    return GateReport(
        test=test, model="claude-sonnet-4-5", block="tool_selection", file="suite.yml", line=1,
        status=Status.PASSED if selected >= 8 else Status.FAILED, runs=10,
        targets={
            "tool_selection.selection_rate": rate, "tool_selection.pass_k": rate,
            "tool_selection.selected": selected, "tool_selection.runs": 10,
        },
    )  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--results", type=int, default=5000)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        base, cur = Path(tmp) / "base.json", Path(tmp) / "cur.json"
        base.write_text(build(args.results, 0).model_dump_json())
        cur.write_text(build(args.results, 1).model_dump_json())
        walls = []
        for _ in range(args.runs):
            start = time.perf_counter()
            cmd = [sys.executable, "-m", "mcptest", "report", str(cur), "--compare", str(base), "--json"]
            proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
            walls.append(time.perf_counter() - start)
            if proc.returncode not in (0, 1):
                sys.exit(f"mcptest report failed ({proc.returncode}): {proc.stderr}")
        print(
            f"mcptest report --compare --json, {args.results:,} results each: median {statistics.median(walls):.3f} s"
            f" wall (min {min(walls):.3f}, {args.runs} runs); {proc.stderr.strip()}"
        )
        split(base, cur)


def split(base: Path, cur: Path) -> None:
    """Time the in-process steps once each."""
    from mcptest.report.compare import compare
    from mcptest.report.load import load_report

    t0 = time.perf_counter()
    before, after = load_report(base), load_report(cur)
    t1 = time.perf_counter()
    delta = compare(before, after)
    t2 = time.perf_counter()
    delta.model_dump_json(indent=2)
    t3 = time.perf_counter()
    print(
        f"  in process: load both {t1 - t0:.3f} s, compare {t2 - t1:.3f} s ({len(delta.cases):,} cases, "
        f"{sum(len(c.rates) for c in delta.cases)} rate tests), render JSON {t3 - t2:.3f} s"
    )


if __name__ == "__main__":
    main()
