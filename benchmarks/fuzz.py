"""`mcptest fuzz` against the mock (`mcptest mock --preset weather`): cases per second per tool, beside a bare SDK
loop making the same calls to the same server.

Issue 28's figure: at least 200 cases/s per tool, with the client not the bottleneck: the bare loop (the SDK's
`Client.call_tool` over stdio, nothing else) bounds what any client can do against this server, so mcptest's rate
is printed as a share of it. Each figure is the median of REPEATS runs with its quartiles, and the load average.
Beside the rates, CPU time per case on each side, which load barely moves, unlike the rates: the client's (this
process: mcptest's generating, calling and judging; the bare loop's SDK calls alone) and the server's (the mock
process, from its start-up to its exit, less its CPU time up to the first call, which is read from /proc in the bare
loop's run and taken to be the same in mcptest's, since both start and list the same server). Two processes on two
cores: the side with more CPU per case is the one that bounds the rate.

    python benchmarks/fuzz.py [--cases 500]
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import sys
import time
from pathlib import Path

import anyio
from _timing import ROOT, load_note

REPEATS = 3
TOOLS = ("get_weather", "get_forecast")
MOCK = [sys.executable, "-m", "mcptest", "mock", "--preset", "weather"]


def config():  # type: ignore[no-untyped-def]
    from mcptest.suite.models import StdioServer

    return StdioServer(command=MOCK)


CPU: dict[str, list[float]] = {"mcptest": [], "bare": []}
"""Client CPU milliseconds per case, per run."""
SERVER_CPU: dict[str, list[float]] = {"mcptest": [], "bare": []}
"""The mock's CPU milliseconds per case (start-up excluded), per run."""
STARTUP: list[float] = []
"""The mock's CPU seconds up to the first call, per bare run."""


def children_cpu() -> float:
    """CPU seconds of the child processes this process has waited for (the mock, once it exited)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def live_child_cpu() -> float:
    """CPU seconds so far of this process's one live child (the mock), from /proc."""
    me, found = str(os.getpid()), []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as stat:
                    fields = stat.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if fields[1] == me and fields[0] != "Z":
                found.append((int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK"))
    if len(found) != 1:
        raise SystemExit(f"expected one live child process (the mock), found {len(found)}")
    return found[0]


def mcptest_rates(cases: int) -> dict[str, float]:
    """Cases per second of each tool in one `mcptest fuzz` run (its calls, judging and any shrinking)."""
    from mcptest.run.fuzz import FuzzOptions, fuzz

    cpu, server = time.process_time(), children_cpu()
    report = fuzz("mock", config(), ROOT, FuzzOptions(tools=TOOLS, cases=cases))
    made = sum(t.cases for t in report.tools)
    CPU["mcptest"].append((time.process_time() - cpu) * 1000 / made)
    SERVER_CPU["mcptest"].append((children_cpu() - server - statistics.median(STARTUP)) * 1000 / made)
    if report.findings:
        raise SystemExit(f"the mock showed findings, so the rate would include shrinking: {report.findings}")
    return {t.tool: t.cases / t.seconds for t in report.tools}


def bare_rates(cases: int) -> dict[str, float]:
    """Cases per second of each tool through the SDK's client alone, with the inputs the fuzzer sends."""
    from mcp import Client
    from mcp.client.stdio import StdioServerParameters

    from mcptest.fuzz.inputs import cases as make_cases
    from mcptest.records.catalog import read_wire

    async def run() -> dict[str, float]:
        params = StdioServerParameters(command=MOCK[0], args=MOCK[1:], cwd=str(ROOT))
        out: dict[str, float] = {}
        cpu, server = time.process_time(), children_cpu()
        async with Client(params) as client:
            listed = await client.list_tools()
            raw = [t.model_dump(mode="json", by_alias=True, exclude_none=True) for t in listed.tools]
            tools = {t.name: t for t in read_wire(raw, "mock").tools}
            STARTUP.append(live_child_cpu())
            for name in TOOLS:
                inputs = [c.args for c in make_cases(tools[name].input_schema, cases, 0, name)]
                start = time.perf_counter()
                for args in inputs:
                    await client.call_tool(name, args)
                out[name] = len(inputs) / (time.perf_counter() - start)
        CPU["bare"].append((time.process_time() - cpu) * 1000 / (cases * len(TOOLS)))
        SERVER_CPU["bare"].append((children_cpu() - server - STARTUP[-1]) * 1000 / (cases * len(TOOLS)))
        return out

    return anyio.run(run)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=500)
    cases = parser.parse_args().cases
    from mcptest.server.session import quiet_sdk_logs

    quiet_sdk_logs()
    ours: dict[str, list[float]] = {t: [] for t in TOOLS}
    bare: dict[str, list[float]] = {t: [] for t in TOOLS}
    for _ in range(REPEATS):
        for tool, rate in bare_rates(cases).items():  # first: mcptest's server figure uses its start-up CPU
            bare[tool].append(rate)
        for tool, rate in mcptest_rates(cases).items():
            ours[tool].append(rate)
    print(f"mcptest fuzz against the mock, {cases} cases per tool, {REPEATS} runs ({load_note()})")
    for tool in TOOLS:
        share = statistics.median(ours[tool]) / statistics.median(bare[tool])
        print(f"  {tool:<13} mcptest {rates(ours[tool])}   bare SDK loop {rates(bare[tool])}   "
              f"mcptest at {share:.0%} of the bare loop")  # fmt: skip
    ours_cpu, bare_cpu = (statistics.median(CPU[k]) for k in ("mcptest", "bare"))
    print(f"  client CPU per case (start-up, listing and generation included): mcptest {ours_cpu:.2f} ms, "
          f"bare SDK loop {bare_cpu:.2f} ms (median of {REPEATS})")  # fmt: skip
    ours_server, bare_server = (statistics.median(SERVER_CPU[k]) for k in ("mcptest", "bare"))
    print(f"  server (mock) CPU per case, start-up excluded: under mcptest {ours_server:.2f} ms, "
          f"under the bare SDK loop {bare_server:.2f} ms (median of {REPEATS}; start-up "
          f"{statistics.median(STARTUP):.2f} s)")  # fmt: skip
    limit = "the server" if ours_server > ours_cpu else "the client (mcptest)"
    print(f"  in mcptest's run the side with more CPU per case, so the limit on two cores: {limit}")


def rates(values: list[float]) -> str:
    """`median [q1–q3] cases/s`."""
    q1, _, q3 = statistics.quantiles(values, n=4, method="inclusive") if len(values) > 1 else (values[0],) * 3
    return f"{statistics.median(values):.0f} cases/s [{q1:.0f}–{q3:.0f}]"


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    main()
