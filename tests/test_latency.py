"""`latency:` on call tests: a call repeated, its percentiles from HdrHistogram gated under `expect:`, measured
against a server whose delays are known (a fixed list of sleeps), and its histogram in the JSON and HTML reports."""

from __future__ import annotations

import json
import math
import random
import sys
from pathlib import Path
from typing import Any

import pytest

from mcptest.core import latency as hist
from mcptest.core.errors import UserError
from mcptest.core.exit_codes import ExitCode
from mcptest.suite.loader import load_suite
from tests.conftest import ROOT, run_cli
from tests.servers.latency_server import DELAYS_MS

SUITE = f"""
servers:
  lat:
    command: [{json.dumps(sys.executable)}, -m, tests.servers.latency_server]
    cwd: {json.dumps(str(ROOT))}
tools:
  - name: overhead
    server: lat
    tool: zero
    latency: {{ samples: 100, warmup: 5 }}
  - name: known delays
    server: lat
    tool: sleepy
    latency: {{ samples: {len(DELAYS_MS)} }}
    expect:
      - result.content[0].text: {{ contains: slept }}
      - latency.p95_ms: {{ "<=": 5000 }}
      - latency.errors: {{ "<=": 0 }}
  - name: overhead overlapped
    server: lat
    tool: zero
    latency: {{ samples: 100, concurrency: 4 }}
  - name: known delays overlapped
    server: lat
    tool: sleepy
    latency: {{ samples: {2 * len(DELAYS_MS)}, concurrency: 4 }}
  - name: every fifth answer is wrong
    server: lat
    tool: every_fifth
    latency: {{ samples: 20, concurrency: 2 }}
    expect:
      - result.content[0].text: {{ exact: fine }}
      - latency.errors: {{ "<=": 3 }}
      - latency.max_ms: {{ "<": 0.001 }}
  - name: every other answer is an error
    server: lat
    tool: every_other_error
    latency: {{ samples: 4 }}
"""


def true_percentile(values: list[float], p: float) -> float:
    """The smallest value with at least p% of the values at or below it (HdrHistogram's definition)."""
    ordered = sorted(values)
    return ordered[max(math.ceil(p / 100 * len(ordered)), 1) - 1]


@pytest.fixture(scope="module")
def ran(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Any]:
    folder = tmp_path_factory.mktemp("latency")
    suite = folder / "mcptest.yml"
    suite.write_text(SUITE, encoding="utf-8")
    out = folder / "report.json"
    result = run_cli("run", str(suite), "--no-history", "--reporter", "json", "-o", str(out), timeout=120)
    assert result.code == ExitCode.FAILED, result.stderr
    return out, {r["name"]: r for r in json.loads(out.read_text())["results"]}


def test_percentiles_of_known_delays_are_the_calls_own_times(ran: Any) -> None:
    """Each percentile is at least the delay the server slept (a sleep is never shorter) and within a bound wide
    enough for a loaded machine's scheduling, yet one that a wrong unit, counting the warmup's first calls or
    summing overlapped calls would break. How close it comes (5% plus the transport's overhead) is a timing figure,
    measured on a quiet machine by benchmarks/latency.py: as a test it failed whenever CI's neighbours were busy."""
    _, rows = ran
    assert rows["overhead"]["latency"]["warmup"] == 5
    for name in ("known delays", "known delays overlapped"):
        overhead = rows[name.replace("known delays", "overhead")]["latency"]  # at the same concurrency
        assert overhead["samples"] == 100 and overhead["errors"] == 0
        row = rows[name]
        assert row["status"] == "passed", row
        figures = row["latency"]
        assert figures["samples"] == len(DELAYS_MS) * (2 if "overlapped" in name else 1)
        for p in (50, 90, 95, 99):
            true = true_percentile(DELAYS_MS, p)
            measured = figures[f"p{p}_ms"]
            assert 0.95 * true <= measured <= 2 * true + overhead["p99_ms"] + 20, (name, p, true, measured, overhead)
        ordered = [figures[f"p{p}_ms"] for p in (50, 90, 95, 99)] + [figures["max_ms"]]
        assert ordered == sorted(ordered) and figures["max_ms"] >= max(DELAYS_MS)


def test_every_answer_is_judged_and_the_wrong_ones_counted(ran: Any) -> None:
    _, rows = ran
    row = rows["every fifth answer is wrong"]
    assert row["status"] == "failed"
    assert row["latency"]["errors"] == 4 and row["latency"]["samples"] == 20 and row["latency"]["concurrency"] == 2
    failed = {(f["target"], f["line"]) for f in row["failures"]}
    written = SUITE.splitlines().index("      - result.content[0].text: { exact: fine }") + 1
    # the row shows a wrong answer, the errors over the budget, and the impossible max; each where it is written
    assert failed == {
        ("result.content[0].text", written),
        ("latency.errors", written + 1),
        ("latency.max_ms", written + 2),
    }


def test_the_report_keeps_a_histogram_of_every_measured_call(ran: Any) -> None:
    _, rows = ran
    figures = rows["known delays"]["latency"]
    histogram = hist.decode(figures["histogram"])
    assert histogram.get_total_count() == len(DELAYS_MS)
    assert hist.figures(histogram)["p50_ms"] == figures["p50_ms"]


def test_the_html_report_draws_a_histogram_per_measured_test(ran: Any, tmp_path: Path) -> None:
    report, _ = ran
    out = tmp_path / "page.html"
    drawn = run_cli("report", str(report), "--format", "html", "--no-history", "-o", str(out))
    assert drawn.code == ExitCode.OK, drawn.stderr
    page = out.read_text()
    assert page.count('aria-label="latency histogram"') == 6
    assert "<h2>Latency</h2>" in page and "unreadable" not in page


def test_the_markdown_report_has_a_row_of_figures_per_measured_test(ran: Any) -> None:
    from mcptest.report.formats import REPORTERS
    from mcptest.report.load import load_report

    report, rows = ran
    text = REPORTERS["md"](load_report(report), False)
    assert "### Latency" in text
    f = rows["known delays"]["latency"]
    assert f"| known delays | {f['samples']} | 0 | {f['p50_ms']:g} | {f['p90_ms']:g} |" in text
    assert text.count("| every fifth answer is wrong | 20 | 4 |") == 1


def test_merged_shard_reports_keep_each_tests_figures_and_histogram(ran: Any, tmp_path: Path) -> None:
    report, rows = ran
    whole = json.loads(report.read_text())
    halves = []
    for k, names in enumerate(
        (
            ["overhead", "known delays"],
            ["overhead overlapped", "known delays overlapped", "every fifth answer is wrong"],
            ["every other answer is an error"],
        )
    ):
        shard = {**whole, "results": [r for r in whole["results"] if r["name"] in names]}
        halves.append(tmp_path / f"shard-{k}.json")
        halves[-1].write_text(json.dumps(shard), encoding="utf-8")
    merged = run_cli("report", "merge", *map(str, halves), "--no-history", "-o", str(tmp_path / "merged.json"))
    assert merged.code == ExitCode.FAILED, merged.stderr
    again = {r["name"]: r for r in json.loads((tmp_path / "merged.json").read_text())["results"]}
    assert {n: r["latency"] for n, r in again.items()} == {n: r["latency"] for n, r in rows.items()}


def test_histograms_of_two_halves_add_up_to_the_whole_exactly() -> None:
    rng = random.Random(30)
    samples = [rng.lognormvariate(2.5, 0.8) for _ in range(5000)]
    whole, first, second = hist.new_histogram(), hist.new_histogram(), hist.new_histogram()
    for i, ms in enumerate(samples):
        hist.record_ms(whole, ms)
        hist.record_ms(first if i % 3 else second, ms)
    merged = hist.merged([hist.encode(first), hist.encode(second)])
    buckets = [(b.value_iterated_to, b.count_added_in_this_iter_step) for b in whole.get_recorded_iterator()]
    assert [(b.value_iterated_to, b.count_added_in_this_iter_step) for b in merged.get_recorded_iterator()] == buckets
    assert hist.figures(merged) == hist.figures(whole)
    for p in (50, 90, 99):  # 3 significant digits: within 0.1% of the exact percentile
        assert hist.figures(whole)[f"p{p}_ms"] == pytest.approx(true_percentile(samples, p), rel=1e-3)


def test_a_text_that_is_no_histogram_is_refused() -> None:
    with pytest.raises(ValueError, match="not an encoded HdrHistogram"):
        hist.decode("HISTFAAAA-not-base64")


BAD = [
    (
        "latency: { samples: 10 }\n    expect:\n      - latency.p42_ms: { '<=': 1 }",
        10,
        9,
        "unknown target 'latency.p42_ms'",
    ),
    ("expect:\n      - latency.p95_ms: { '<=': 1 }", 9, 9, "needs a `latency:` key on the test"),
    ("latency: { samples: 2, concurrency: 4 }", 8, 14, "concurrency 4 is more than the 2 samples"),
    ("latency: { samples: 0 }", 8, 25, "greater than or equal to 1"),
    ("latency: { sample: 5 }", 8, 16, "sample"),
]


@pytest.mark.parametrize(("text", "line", "col", "message"), BAD, ids=[b[3][:30] for b in BAD])
def test_a_bad_latency_key_is_one_line_at_its_place(
    tmp_path: Path, text: str, line: int, col: int, message: str
) -> None:
    suite = tmp_path / "s.yml"
    head = "servers:\n  s:\n    command: [x]\ntools:\n  - name: t\n    server: s\n    tool: echo\n"
    suite.write_text(head + "    " + text + "\n", encoding="utf-8")
    with pytest.raises(UserError) as caught:
        load_suite(suite)
    problems = [(p.line, p.col, p.message) for p in caught.value.problems]
    assert len(problems) == 1 and problems[0][:2] == (line, col) and message in problems[0][2], problems


def test_every_call_of_a_latency_test_counts_toward_coverage(ran: Any) -> None:
    """Not only the answer the row shows: the tool is seen both failing and succeeding over its repeated calls."""
    out, rows = ran
    assert rows["every other answer is an error"]["latency"]["errors"] == 2
    (lat,) = json.loads(out.read_text())["coverage"]["servers"]
    seen = lat["tools"]["every_other_error"]
    assert (seen["succeeded"], seen["failed"]) == (True, True)


def test_the_latency_server_delivers_its_delays_and_says_what_it_served() -> None:
    """`sleepy` takes at least each delay of its list, in order, and `served_ms` reports the times the server itself
    measured (what benchmarks/load.py prints beside the client's figures); `zero` takes the same path with no delay.
    Only lower bounds: how close to the delay it finishes is a timing figure, left to the benchmark."""
    import anyio
    from mcp.client import Client

    from tests.servers.latency_server import build

    async def go() -> dict[str, list[float]]:
        async with Client(build()) as client:
            for _ in range(3):
                await client.call_tool("sleepy", {})
            await client.call_tool("zero", {})
            result = await client.call_tool("served_ms", {})
        return dict(json.loads(result.content[0].text))  # type: ignore[union-attr]

    served = anyio.run(go)
    assert len(served["sleepy"]) == 3 and len(served["zero"]) == 1
    assert all(ms >= delay for ms, delay in zip(served["sleepy"], DELAYS_MS[:3], strict=True)), served
    assert served["zero"][0] >= 0
