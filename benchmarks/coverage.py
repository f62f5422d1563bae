"""What coverage adds to a 1,000-test run (issue 28: under 5%).

A 1,000-test tool suite against one mock server (the quickstart's weather manifest: enum arguments, required and
optional ones) runs in this process through `mcptest.run.runner.run_suite` twice over, alternating: as it ships
(every call fed into the coverage tally, the catalog measured, the report's `coverage` section built), and with the
coverage code bypassed (the tests run without a tally, nothing measured). The coverage code is all that differs.
Each side is run REPEATS times; the figure is the median, with the best beside it, in wall time and in this
process's CPU time (the client's work; the server is another process), since a shared machine's wall clock swings.
The counting alone (feeding 1,000 calls and measuring) is also timed on its own.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import anyio

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
MANIFEST = ROOT / "examples" / "quickstart" / "weather.yml"
TESTS = 1000
REPEATS = 5

TEST = """
  - name: test {i}
    server: weather
    tool: {tool}
    args: {args}
    expect:
      - result.isError: {{ exact: {error} }}
"""


def write_suite(directory: Path) -> Path:
    path = directory / "suite.yml"
    header = f'servers:\n  weather:\n    command: ["mcptest", "mock", "--tools-from", "{MANIFEST}"]\ntools:\n'
    tests = []
    for i in range(TESTS):
        if i % 2:
            unit = ("celsius", "fahrenheit", "kelvin")[i % 3]
            args = f"{{ value: {i}, to: {unit} }}"
            tests.append(TEST.format(i=i, tool="convert_temperature", args=args, error=str(unit == "kelvin").lower()))
        else:
            tests.append(TEST.format(i=i, tool="get_weather", args=f'{{ city: "City {i}" }}', error="false"))
    path.write_text(header + "".join(tests), encoding="utf-8")
    return path


@contextmanager
def coverage_bypassed() -> Iterator[None]:
    """Run the suite as before coverage: no tally fed, no catalog measured, no coverage gates."""
    from mcptest.run import kinds, runner

    async def untallied(test: Any, pool: Any, suite: Any, tally: Any = None) -> Any:
        return await kinds.run_test(test, pool, suite)

    async def unmeasured(*args: Any) -> None:
        return None

    saved = runner.run_test, runner.measure_run
    runner.run_test, runner.measure_run = untallied, unmeasured  # type: ignore[assignment]
    try:
        yield
    finally:
        runner.run_test, runner.measure_run = saved


def one_run(suite_path: Path, bypass: bool) -> tuple[float, float, bool]:
    from mcptest.run.runner import run_suite
    from mcptest.suite.loader import load_suite

    suite = load_suite(suite_path)
    wall, cpu = time.perf_counter(), time.process_time()
    if bypass:
        with coverage_bypassed():
            result = anyio.run(run_suite, suite)
    else:
        result = anyio.run(run_suite, suite)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    assert result.report.summary.failed == 0, [r.failures for r in result.report.results if r.failures][:1]
    return wall, cpu, result.report.coverage is not None


def counting_alone() -> float:
    """Seconds to feed 1,000 calls into a tally and measure the catalog (the pure part)."""
    from mcptest.core import yaml_source
    from mcptest.records.coverage import Tally, measure

    manifest = yaml_source.load(MANIFEST).data
    tools = [{"name": t["name"], "inputSchema": t["input_schema"]} for t in manifest["mock_server"]["tools"]]
    start = time.perf_counter()
    tally = Tally()
    for i in range(TESTS):
        tally.tool_call("weather", "convert_temperature", {"value": i, "to": "celsius"}, is_error=i % 7 == 0)
    measure("weather", tally, tools=tools)
    return time.perf_counter() - start


def main() -> None:
    from mcptest.server.session import quiet_sdk_logs

    quiet_sdk_logs()
    with tempfile.TemporaryDirectory() as tmp:
        suite = write_suite(Path(tmp))
        one_run(suite, bypass=False)  # warm: imports, bytecode, the mock's first start
        runs: dict[bool, list[tuple[float, float]]] = {False: [], True: []}
        for _ in range(REPEATS):
            for bypass in (True, False):
                wall, cpu, measured = one_run(suite, bypass)
                assert measured != bypass
                runs[bypass].append((wall, cpu))
    for label, bypass in (("without coverage", True), ("with coverage", False)):
        walls, cpus = [w for w, _ in runs[bypass]], [c for _, c in runs[bypass]]
        print(
            f"{TESTS}-test run {label:17} wall median {statistics.median(walls):6.2f} s (best {min(walls):.2f}), "
            f"client CPU median {statistics.median(cpus):6.2f} s (best {min(cpus):.2f})"
        )
    base_w, with_w = (statistics.median(w for w, _ in runs[b]) for b in (True, False))
    base_c, with_c = (statistics.median(c for _, c in runs[b]) for b in (True, False))
    wall_pct, cpu_pct = 100 * (with_w - base_w) / base_w, 100 * (with_c - base_c) / base_c
    print(f"coverage adds: wall {wall_pct:+.1f}%, client CPU {cpu_pct:+.1f}% (target < 5%)")
    alone = min(counting_alone() for _ in range(REPEATS))
    print(f"counting alone (1,000 calls fed, catalog measured): {alone * 1000:.2f} ms")
    with open("/proc/loadavg") as f:
        print(f"load average: {f.read().split()[0]}")


if __name__ == "__main__":
    main()
