"""`--workers N` and `-x/--fail-fast`: tests overlap on one session, stay in suite order, and stop at a failure."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import anyio
import pytest

from mcptest.core.exit_codes import ExitCode
from mcptest.run.workers import run_all
from tests.conftest import ROOT, run_cli

SERVERS = f"""
servers:
  slow:
    command: [{json.dumps(sys.executable)}, -m, tests.servers.workers_server]
    cwd: {json.dumps(str(ROOT))}
  other:
    command: [{json.dumps(sys.executable)}, -m, tests.servers.workers_server]
    cwd: {json.dumps(str(ROOT))}
"""


BROKEN = """
  - name: broken
    server: slow
    tool: fail
    args: { reason: on purpose }
"""


def nap(name: str, ms: int, server: str = "slow") -> str:
    return f"""
  - name: {name}
    server: {server}
    tool: nap
    args: {{ ms: {ms}, tag: "{name}" }}
    expect:
      - result.content[0].text: {{ contains: "{name} overlapped" }}
"""


def report(ran) -> dict:
    return json.loads(ran.stdout)


def answers(rep: dict) -> list[tuple[int, float, float]]:
    """Per nap, from the server's own answer (the failing probe carries it): calls in flight, start, end."""
    found = [
        re.search(r"overlapped (\d+) between ([\d.]+) and ([\d.]+)", r["failures"][0]["actual"]) for r in rep["results"]
    ]
    return [(int(m[1]), float(m[2]), float(m[3])) for m in found if m]


def overlaps(rep: dict) -> list[int]:
    """How many calls each nap saw in flight on its server."""
    return [n for n, _, _ in answers(rep)]


def test_workers_overlap_calls_on_one_session_and_keep_the_suite_order(write) -> None:
    names = [f"nap {i}" for i in range(8)]
    # the first tests nap longest, so they finish last: the report must still list them first
    tests = "".join(nap(n, 400 - 40 * i) for i, n in enumerate(names))
    probe = tests.replace('contains: "', 'exact: "')  # fails on purpose, so each result carries the server's text
    path = write("suite.yml", SERVERS + "tools:\n" + probe)

    parallel = report(run_cli("run", str(path), "-r", "json", "--workers", "4", timeout=120))
    assert [r["name"] for r in parallel["results"]] == names
    assert max(overlaps(parallel)) >= 3, overlaps(parallel)  # four in flight at once, on the one session

    serial = report(run_cli("run", str(path), "-r", "json", timeout=120))
    assert [r["name"] for r in serial["results"]] == names
    assert set(overlaps(serial)) == {1}


def meet(name: str, peer: str, folder: Path, ms: int, server: str) -> str:
    return f"""
  - name: {name}
    server: {server}
    tool: meet
    args: {{ tag: "{name}", peer: "{peer}", folder: {json.dumps(str(folder))}, ms: {ms} }}
    expect:
      - result.content[0].text: {{ exact: "carry the answer" }}
"""


def test_workers_run_tests_of_different_servers_at_once(write, tmp_path: Path) -> None:
    """Each call waits for the other's mark, so the servers' start-up times (the first starts before the SDK is
    imported, the second after) cannot decide the outcome: only whether both calls were in flight at once."""

    def spans(wait_ms: int, *flags: str) -> list[tuple[float, float, str]]:
        folder = tmp_path / f"marks-{wait_ms}"
        folder.mkdir()
        tests = meet("a", "b", folder, wait_ms, "slow") + meet("b", "a", folder, wait_ms, "other")
        path = write(f"suite-{wait_ms}.yml", SERVERS + "tools:\n" + tests)
        rep = report(run_cli("run", str(path), "-r", "json", *flags, timeout=120))
        found = [
            re.search(r"between ([\d.]+) and ([\d.]+) \((\w+)\)", r["failures"][0]["actual"]) for r in rep["results"]
        ]
        return [(float(m[1]), float(m[2]), m[3]) for m in found if m]

    (a0, a1, a_met), (b0, b1, b_met) = spans(30000, "-w", "2")
    assert (a_met, b_met) == ("met", "met")
    assert a0 < b1 and b0 < a1  # the two servers' calls overlapped in time (each server's own clock readings)
    (a0, a1, a_met), (b0, b1, b_met) = spans(600)
    assert a_met == "alone" and a1 <= b0  # one at a time without --workers


def test_a_test_that_reads_logs_runs_alone_so_it_reads_only_its_own(write) -> None:
    chatty = "".join(
        f"""
  - name: chatty {tag}
    server: slow
    tool: chatty
    args: {{ tag: {tag}, steps: 4 }}
    expect:
      - logs: {{ schema: {{ type: array, minItems: 4, maxItems: 4,
                            items: {{ properties: {{ data: {{ pattern: "^{tag} " }} }} }} }} }}
"""
        for tag in "ABCD"
    )
    path = write("suite.yml", SERVERS + "tools:\n" + nap("n1", 200) + chatty + nap("n2", 200) + nap("n3", 200))
    ran = run_cli("run", str(path), "-r", "json", "-w", "8", timeout=120)
    assert ran.code == ExitCode.OK, ran.stdout[-2000:]
    assert [r["name"] for r in report(ran)["results"]][1:5] == ["chatty A", "chatty B", "chatty C", "chatty D"]


def test_fail_fast_starts_no_test_after_the_first_failure(write) -> None:
    fail = BROKEN + "    expect:\n      - result.isError: { exact: false }\n"  # an assertion fails, not the call
    path = write("suite.yml", SERVERS + "tools:\n" + nap("first", 10) + fail + nap("third", 10) + nap("fourth", 10))
    ran = run_cli("run", str(path), "-r", "json", "-x", timeout=120)
    assert ran.code == ExitCode.FAILED
    rep = report(ran)
    assert [r["name"] for r in rep["results"]] == ["first", "broken"]
    assert rep["summary"]["not_run"] == 2 and rep["summary"]["ok"] is False
    assert "stopped at the first failure; 2 not run" in ran.stderr

    whole = report(run_cli("run", str(path), "-r", "json", timeout=120))
    assert [r["name"] for r in whole["results"]] == ["first", "broken", "third", "fourth"]
    assert whole["summary"]["not_run"] == 0


def test_fail_fast_under_workers_lets_the_tests_in_flight_finish(write) -> None:
    tests = BROKEN + nap("in flight", 300) + "".join(nap(f"later {i}", 10) for i in range(6))
    path = write("suite.yml", SERVERS + "tools:\n" + tests)
    ran = run_cli("run", str(path), "-r", "json", "-x", "-w", "2", timeout=120)
    rep = report(ran)
    names = [r["name"] for r in rep["results"]]
    assert names[:2] == ["broken", "in flight"]  # started beside the failure, so it finishes and is reported
    assert rep["summary"]["not_run"] == 8 - len(names) >= 5


def test_the_quickstart_under_workers_gives_the_serial_report() -> None:
    quickstart = ROOT / "examples" / "quickstart" / "mcptest.yml"
    serial = report(run_cli("run", str(quickstart), "-r", "json"))
    parallel = report(run_cli("run", str(quickstart), "-r", "json", "-w", "8"))

    def strip(rep: dict) -> list[dict]:
        return [{k: v for k, v in r.items() if k != "duration_ms"} for r in rep["results"]]

    assert strip(parallel) == strip(serial)
    assert parallel["summary"] == serial["summary"]


@pytest.mark.parametrize("workers", [1, 3])
def test_run_all_never_exceeds_the_worker_count_and_a_lone_test_never_overlaps(workers: int) -> None:
    class T:
        def __init__(self, i: int, alone: bool) -> None:
            self.server, self.i = "s", i
            self.assertions = [type("A", (), {"target": "logs[0]" if alone else "result"})()]

    tests = [T(i, alone=i in (3, 7)) for i in range(12)]
    flight: list[T] = []
    seen: list[list[int]] = []

    async def one(test: T) -> int:
        flight.append(test)
        seen.append([t.i for t in flight])
        await anyio.sleep(0.005 * (12 - test.i))
        flight.remove(test)
        return test.i

    outcome = anyio.run(lambda: run_all(tests, one, workers=workers))
    assert outcome.results == list(range(12))
    assert max(map(len, seen)) == workers
    assert all(len(now) == 1 for now in seen if 3 in now or 7 in now)


def test_a_report_cut_short_by_fail_fast_says_so_in_markdown_and_html(write, tmp_path) -> None:
    path = write("suite.yml", SERVERS + "tools:\n" + BROKEN + nap("later", 10))
    saved = tmp_path / "run.json"
    run_cli("run", str(path), "-r", "json", "-x", "-o", str(saved), timeout=120)
    for fmt in ("md", "html"):
        shown = run_cli("report", str(saved), "--format", fmt)
        assert "1 not run (stopped at the first failure: -x)" in shown.stdout, fmt
