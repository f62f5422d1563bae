"""OpenTelemetry figures (issue 34): OTLP import speed and memory, streaming a 200 MB file, export overhead.

1. Import: 10,000 traces x 20 spans (an invoke_agent span, 4 chat spans, 15 execute_tool spans with arguments and
   results) in OTLP JSON lines, in fresh processes, two ways, each with everything it costs, the cyclic GC's later
   work over what was built included: as `mcptest run` imports it (the suite naming the file loaded as the CLI
   loads it, in `loading()`, which freezes what was loaded: no collection walks it afterwards), and as a library
   call (`load_otlp`, then one full collection, which walks all that was built: what any later full collection of
   the caller pays). Wall seconds and peak RSS. Targets: < 3 s and < 300 MiB.
2. Streaming: a ~200 MB JSON-lines file (the same runs plus HTTP spans of no GenAI convention carrying 2 KB
   bodies, the bulk of the file) read in a fresh process: peak RSS must stay far below the file's size.
3. Export overhead: `mcptest run` of a 200-test tool suite against the mock server, with and without
   `--otlp-file` (the spans built through the SDK, encoded and written), in fresh processes, ROUNDS pairs
   alternated: the export path's own CPU (measured inside its code) as a share of the plain run's CPU, and the
   whole run's CPU (mcptest and its server, user + sys) and wall time as the median of the paired ratios with a
   bootstrap 95% interval. Target: < 5%.

    python benchmarks/otel.py                     # all three (the 200 MB file is written to a temporary directory)
    python benchmarks/otel.py export --rounds 30  # or any of: import stream export; --rounds: export pairs (20)
"""

from __future__ import annotations

import json
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.tool_suite import ROOT, write_suite  # noqa: E402
from tests.otel.otlp_build import child, request, span, tool  # noqa: E402

TRACES = 10_000
ROUNDS = 20
BOOTSTRAP = 10_000


def run_spans(trace: int) -> list[dict[str, object]]:
    """20 spans of one agent run: invoke_agent, 4 chat spans, 15 execute_tool spans."""
    spans = [span(trace, 1, "invoke_agent bot", {"gen_ai.operation.name": "invoke_agent"}, start=0, end=100)]
    chat = {"gen_ai.operation.name": "chat", "gen_ai.request.model": "gpt-4o"}
    for k in range(4):
        usage = {"gen_ai.usage.input_tokens": 1000 + k, "gen_ai.usage.output_tokens": 50}
        spans.append(child(trace, 2 + k, "chat gpt-4o", chat | usage, 1 + k))
    for k in range(15):
        args = json.dumps({"query": f"q{k}", "limit": k})
        spans.append(tool(trace, 10 + k, f"tool_{k % 5}", args, f"result {k} of run {trace}", 10 + k))
    return spans


def line(spans: list[dict[str, object]]) -> str:
    """One ExportTraceServiceRequest line, compact, as the collector's file exporter writes it."""
    return json.dumps(request(spans, "b"), separators=(",", ":")) + "\n"


def write_runs(path: Path, traces: int, padding: int = 0) -> None:
    body = {"http.request.body": "x" * 2048}
    with path.open("w") as f:
        for t in range(1, traces + 1):
            spans = run_spans(t)
            spans += [child(t, 100 + p, "HTTP GET", body, 30 + p) for p in range(padding)]
            f.write(line(spans))


MEASURE = """
import gc, resource, sys, time
sys.path.insert(0, {root!r})
from mcptest.records.otlp import load_otlp
start, cpu = time.perf_counter(), time.process_time()
runs = load_otlp({path!r}).traces
took = time.perf_counter() - start
collect = time.perf_counter()
gc.collect()  # the full collection the load leaves to its caller, walking all it built
collect = time.perf_counter() - collect
cpu = time.process_time() - cpu
used = resource.getrusage(resource.RUSAGE_SELF)
calls = sum(len(t.tool_calls) for t in runs)
print(took, used.ru_maxrss / 1024, len(runs), calls, cpu, collect)
"""

SUITE_LOAD = """
import gc, resource, sys, time
sys.path.insert(0, {root!r})
from mcptest.cli.common import loading
from mcptest.suite.loader import load_suite
start, cpu = time.perf_counter(), time.process_time()
with loading():
    suite = load_suite({suite!r})
gc.collect()  # a full collection after the command's loading: what it froze is no longer walked
took, cpu = time.perf_counter() - start, time.process_time() - cpu
used = resource.getrusage(resource.RUSAGE_SELF)
runs = suite.agents[0].recorded_runs()
print(took, used.ru_maxrss / 1024, len(runs), sum(len(t.tool_calls) for t in runs), cpu)
"""


def measure(path: Path) -> tuple[float, float, int, int, float, float]:
    """`load_otlp` in a fresh process: its wall seconds, peak RSS, runs, tool calls, CPU seconds of the load and the
    full collection after it, and the wall seconds of that collection."""
    out = subprocess.run(
        [sys.executable, "-c", MEASURE.format(root=str(ROOT), path=str(path))],
        capture_output=True, text=True, check=True,
    ).stdout.split()  # fmt: skip
    return float(out[0]), float(out[1]), int(out[2]), int(out[3]), float(out[4]), float(out[5])


def measure_suite(path: Path) -> tuple[float, float, int, int, float]:
    """A suite naming the file loaded as `mcptest run` loads it, in a fresh process, then a full collection: wall
    seconds of both, peak RSS, runs, tool calls, CPU seconds of both."""
    suite = path.parent / "otel-import.yaml"
    gate = "tool_selection: {expected_tool: tool_0, min_selection_rate: 0.1}"
    suite.write_text(f"agents:\n  - name: imported\n    traces: [{path.name}]\n    {gate}\n")
    out = subprocess.run(
        [sys.executable, "-c", SUITE_LOAD.format(root=str(ROOT), suite=str(suite))],
        capture_output=True, text=True, check=True,
    ).stdout.split()  # fmt: skip
    return float(out[0]), float(out[1]), int(out[2]), int(out[3]), float(out[4])


RUN = """
import contextlib, functools, json, resource, sys, threading, time
sys.path.insert(0, {root!r})
from mcptest.run import telemetry
spent = [0.0]  # CPU seconds of the thread that ran them, in the export path's own code (any thread)
adding = threading.Lock()


def timed(fn):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        start = time.thread_time()
        try:
            return fn(*args, **kwargs)
        finally:
            took = time.thread_time() - start
            with adding:
                spent[0] += took
    return wrapper


def timed_context(fn):  # a test's context: its entry and exit only, not the test it wraps
    @functools.wraps(fn)
    @contextlib.contextmanager
    def wrapper(*args, **kwargs):
        start = time.thread_time()
        context = fn(*args, **kwargs)
        context.__enter__()
        took = time.thread_time() - start
        with adding:
            spent[0] += took
        try:
            yield
        finally:
            start = time.thread_time()
            context.__exit__(None, None, None)
            took = time.thread_time() - start
            with adding:
                spent[0] += took
    return wrapper


Live = telemetry.LiveTelemetry
Live.__init__, Live.begin, Live.end = timed(Live.__init__), timed(Live.begin), timed(Live.end)
Live._prepare = timed(Live._prepare)  # the SDK imported on a thread of its own: its CPU counts all the same
Live.test = timed_context(Live.test)
telemetry.export_run = timed(telemetry.export_run)
from mcptest.cli import main
start = time.perf_counter()
try:
    main({args!r})
except SystemExit as exc:
    assert not exc.code, exc.code
wall = time.perf_counter() - start
own = resource.getrusage(resource.RUSAGE_SELF)
print(json.dumps([wall, own.ru_utime + own.ru_stime, spent[0]]), file=sys.stderr)
"""


def cli_run(suite: Path, *extra: str) -> Run:
    """One `mcptest run` in a fresh process, with what it cost."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    args = ["run", str(suite), "-r", "json", "-q", *extra]
    start = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-c", RUN.format(root=str(ROOT), args=args)], cwd=ROOT, capture_output=True, text=True,
        check=False,
    )  # fmt: skip
    process_wall = time.perf_counter() - start
    assert proc.returncode == 0, proc.stderr
    wall, own, spent = json.loads(proc.stderr.strip().splitlines()[-1])
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    total = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    return Run(wall, own, spent, total - own, total, process_wall)


@dataclass
class Run:
    """What one `mcptest run` cost."""

    wall: float
    """Wall seconds of the run itself (start-up excluded)."""
    own: float
    """CPU seconds of the mcptest process (every thread; start-up included)."""
    spent: float
    """CPU seconds in the export path's own code: LiveTelemetry's construction and its SDK import (on a thread of its
    own), test contexts and request hooks, and `export_run` (the spans built, encoded and written)."""
    server: float
    """CPU seconds of its server (the waited-for grandchildren)."""
    total: float
    """CPU seconds (user + sys) of the whole run: the mcptest process and its server, start-up included."""
    process_wall: float
    """Wall seconds of the whole process, from its start to its exit."""


def paired(plain: list[float], exported: list[float]) -> tuple[float, float, float]:
    """The median of the paired ratios exported/plain - 1, with a bootstrap 95% interval (pairs resampled)."""
    ratios = [x / p - 1 for p, x in zip(plain, exported, strict=True)]
    draw = random.Random(34)
    medians = sorted(statistics.median(draw.choices(ratios, k=len(ratios))) for _ in range(BOOTSTRAP))
    return statistics.median(ratios), medians[int(0.025 * BOOTSTRAP)], medians[int(0.975 * BOOTSTRAP) - 1]


def main(parts: list[str], rounds: int) -> None:
    print(f"load average: {Path('/proc/loadavg').read_text().split()[:3]}")
    with tempfile.TemporaryDirectory() as tmp:
        if "import" in parts:
            import_figures(Path(tmp))
        if "stream" in parts:
            stream_figures(Path(tmp))
        if "export" in parts:
            export_figures(Path(tmp), rounds)
    print(f"load average: {Path('/proc/loadavg').read_text().split()[:3]}")


def import_figures(tmp: Path) -> None:
    small = Path(tmp) / "runs.jsonl"
    write_runs(small, TRACES)
    size = small.stat().st_size / 2**20
    took, rss, runs, calls, cpu = measure_suite(small)
    print(f"import {runs} traces x 20 spans ({size:.0f} MiB, {calls} tool calls; targets < 3 s, < 300 MiB):")
    print(f"  as `mcptest run` loads a suite naming the file (then a full collection): {took:.2f} s wall, {cpu:.2f} s "
          f"CPU, peak RSS {rss:.0f} MiB")  # fmt: skip
    took, rss, runs, calls, cpu, collect = measure(small)
    print(f"  as a library, load_otlp then the full collection it leaves: {took + collect:.2f} s wall ({took:.2f} + "
          f"{collect:.2f}), {cpu:.2f} s CPU, peak RSS {rss:.0f} MiB")  # fmt: skip
    small.unlink()


def stream_figures(tmp: Path) -> None:
    big = Path(tmp) / "big.jsonl"
    write_runs(big, 3_000, padding=30)
    size = big.stat().st_size / 2**20
    took, rss, runs, calls, cpu, _ = measure(big)
    print(f"stream a {size:.0f} MiB file ({runs} runs kept, the HTTP spans skipped): {took:.2f} s wall, "
          f"{cpu:.2f} s CPU (with a full collection), peak RSS {rss:.0f} MiB")  # fmt: skip
    big.unlink()


def export_figures(tmp: Path, rounds: int) -> None:
    """Plain and exporting runs in fresh processes, `rounds` pairs, the order within a pair alternating (plain first,
    then exporting first), so a drift of the machine's load hits both sides alike. Figures:
    1. the export path's own CPU (time.thread_time inside its code, in the exporting runs) as a share of the plain
       runs' mcptest CPU: the cost isolated from the rest of the run, the least disturbed by a busy machine;
    2. the whole run, exporting against plain, pair by pair: CPU seconds (user + sys of the mcptest process and its
       server, start-up included) and wall seconds of the whole process; the median of the paired ratios with a
       bootstrap 95% interval (a pair's two runs close in time see about the same machine);
    3. the medians of each side, with their spread."""
    suite = write_suite(tmp, 200)
    spans = tmp / "spans.jsonl"
    plain: list[Run] = []
    exported: list[Run] = []
    for i in range(rounds):
        if i % 2:
            exported.append(cli_run(suite, "--otlp-file", str(spans)))
            plain.append(cli_run(suite))
        else:
            plain.append(cli_run(suite))
            exported.append(cli_run(suite, "--otlp-file", str(spans)))
    count = sum(len(ss["spans"]) for rs in json.loads(spans.read_text())["resourceSpans"] for ss in rs["scopeSpans"])
    own, base = [r.spent for r in exported], statistics.median(r.own for r in plain)
    print(f"200-test run, {count} spans exported to --otlp-file, {rounds} pairs (plain, exporting) alternated "
          "(target: < 5% overhead):")  # fmt: skip
    print(f"  export path's own CPU: median {statistics.median(own):.3f} s ({min(own):.3f}-{max(own):.3f}) = "
          f"{100 * statistics.median(own) / base:.1f}% of the plain runs' mcptest CPU ({base:.2f} s)")  # fmt: skip
    for label, of in (("whole-run CPU (mcptest + server, user+sys)", "total"), ("whole-process wall", "process_wall")):
        a, b = [getattr(r, of) for r in plain], [getattr(r, of) for r in exported]
        mid, low, high = paired(a, b)
        print(f"  {label}: paired median {100 * mid:+.1f}% (95% CI {100 * low:+.1f}% to {100 * high:+.1f}%); plain "
              f"{statistics.median(a):.2f} s ({min(a):.2f}-{max(a):.2f}), exporting {statistics.median(b):.2f} s "
              f"({min(b):.2f}-{max(b):.2f})")  # fmt: skip
    print(f"  server CPU median {statistics.median(r.server for r in plain):.2f} s; mcptest process CPU plain "
          f"{base:.2f} s, exporting {statistics.median(r.own for r in exported):.2f} s")  # fmt: skip


if __name__ == "__main__":
    os.environ.setdefault("NO_COLOR", "1")
    args = sys.argv[1:]
    rounds = ROUNDS
    if "--rounds" in args:
        at = args.index("--rounds")
        rounds = int(args[at + 1])
        del args[at : at + 2]
    main(args or ["import", "stream", "export"], rounds)
