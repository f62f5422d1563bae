"""`mcptest load --profile`: the offered load's shape (arrivals due and users' windows, computed, no clock), the
per-second series (recorded, handed on once over, merged exactly), the live view (plain lines, the table) and the
HTML charts drawn from a series. In process: the end-to-end loads are in tests/test_load.py."""

from __future__ import annotations

import math
from typing import Any

import pytest

from mcptest.core import latency as hist
from mcptest.load.live import Progress, line, table
from mcptest.load.profile import SPIKE_BASE, Arrivals, check, segments, windows
from mcptest.load.series import Seconds, combine, drift, merged, second


def per_second(profile: str, rate: float, duration: float, ramp: float = 0.0) -> list[int]:
    arrivals, due = Arrivals(segments(profile, duration, ramp), rate), []
    while (t := arrivals.due(len(due))) < duration:
        due.append(t)
        assert len(due) < 100_000
    assert due == sorted(due)
    return [sum(1 for t in due if s <= t < s + 1) for s in range(math.ceil(duration))]


def test_open_model_arrivals_follow_each_profile() -> None:
    assert per_second("constant", 10, 5) == [10] * 5  # arrival k due at k / rate
    assert per_second("soak", 10, 5) == [10] * 5
    rising = per_second("constant", 10, 6, ramp=2)  # 0 to 10/s over 2 s, then 10/s
    assert sum(rising[:2]) == pytest.approx(10, abs=1) and rising[2:] == [10] * 4
    ramp = per_second("ramp", 20, 10)  # 0 to 20/s over the run: 100 arrivals in all, each second more than before
    assert sum(ramp) == pytest.approx(100, abs=1) and ramp[-1] > ramp[len(ramp) // 2] > ramp[0]
    spike = per_second("spike", 20, 10)  # a fifth of the rate, the full rate from 40% to 60% of the run
    assert spike[4:6] == [20, 20] and set(spike[:4] + spike[6:]) == {round(20 * SPIKE_BASE)}


def test_closed_model_users_call_while_the_level_reaches_them() -> None:
    n = 5
    constant = [windows(segments("constant", 10, 2), i / n) for i in range(n)]
    assert [w[0][0] for w in constant] == pytest.approx([0, 0.4, 0.8, 1.2, 1.6])  # started evenly over the ramp
    assert all(len(w) == 1 and w[0][1] == 10 for w in constant)
    ramp = [windows(segments("ramp", 10, 0), i / n) for i in range(n)]
    assert [w[0][0] for w in ramp] == pytest.approx([0, 2, 4, 6, 8])
    spike = [windows(segments("spike", 10, 0), i / n) for i in range(n)]
    assert spike[0] == spike[1] == [(0, 10)]  # a fifth of the users all along (user 0 always)
    assert spike[2] == spike[3] == spike[4] == [(4.0, 6.0)]  # the rest only in the spike


def test_a_profile_and_its_ramp_are_checked() -> None:
    assert check("constant", 10, 2) is None and check("spike", 10, 4) is None
    assert "one of constant, ramp, spike, soak" in (check("wave", 10, 0) or "")
    assert "leave out --ramp" in (check("ramp", 10, 1) or "")
    assert "before the spike" in (check("spike", 10, 5) or "")


def recorded(samples: list[tuple[str, int, float, bool]]) -> dict[int, dict[str, dict]]:
    seconds = Seconds()
    for name, at, ms, failed in samples:
        seconds.started(name, at)
        seconds.answered(name, at, ms, failed)
    return seconds.over(math.inf)


def test_seconds_are_handed_on_once_over_and_merge_exactly() -> None:
    seconds = Seconds()
    seconds.started("a", 0)
    seconds.answered("a", 0, 5.0, False)
    seconds.started("a", 2)
    assert list(seconds.over(2.5)) == [0, 1] and seconds.over(2.5) == {}  # second 1 was quiet, handed on empty
    seconds.answered("a", 3, 7.0, True)
    rest = seconds.over(math.inf)
    assert sorted(rest) == [2, 3] and rest[2]["a"]["started"] == 1 and rest[3]["a"]["errors"] == 1
    # two processes' same second: counts add, histograms add (the merged p99 is that of every sample)
    one = recorded([("a", 0, float(ms), ms % 10 == 0) for ms in range(1, 51)])
    two = recorded([("a", 0, float(ms), False) for ms in range(51, 101)])
    both = second(0, merged([one[0]["a"], two[0]["a"]]))
    assert (both.started, both.count, both.errors) == (100, 100, 5)
    truth = hist.new_histogram()
    for ms in range(1, 101):
        hist.record_ms(truth, float(ms))
    assert both.p99_ms == hist.figures(truth)["p99_ms"] and both.p50_ms == hist.figures(truth)["p50_ms"]
    series = combine([[second(0, one[0]["a"])], [second(0, two[0]["a"]), second(1, two[0]["a"])]])
    assert [(s.second, s.count) for s in series] == [(0, 100), (1, 50)]
    assert hist.decode(series[0].histogram).get_total_count() == 100


def test_soak_drift_compares_the_first_and_last_fifth() -> None:
    from mcptest.load.model import Operation

    samples = [("a", s, 10.0 if s < 2 else 40.0, False) for s in range(10) for _ in range(20)]
    done = recorded(samples)
    series = [second(s, done[s]["a"]) for s in sorted(done)]
    op = Operation(
        name="a", kind="tool", count=200, throughput_rps=20, histogram="", series=series,
        p50_ms=0, p90_ms=0, p95_ms=0, p99_ms=0, max_ms=0, mean_ms=0,
    )  # fmt: skip
    assert drift(op, 10.0) == pytest.approx((10.0, 40.0), rel=1e-3)  # to HdrHistogram's 3 digits
    assert drift(op.model_copy(update={"series": series[:3]}), 10.0) is None  # no last fifth


def test_progress_waits_for_every_process_then_shows_each_second() -> None:
    progress = Progress(2, ["a", "b"])
    progress.seen(0, recorded([("a", 0, 1.0, False), ("b", 1, 1.5, True)]))  # under 2 ms: exact
    assert progress.ready() == []  # process 1 has not handed on second 0 yet
    progress.seen(1, recorded([("a", 0, 2.0, False)]))
    ticks = progress.ready()
    assert [t.second for t in ticks] == [0]  # process 1 is past second 0 only
    assert ticks[0].ops["a"]["count"] == 2 and ticks[0].ops["b"]["count"] == 0 and ticks[0].ops["all"]["count"] == 2
    assert line(ticks[0]) == "mcptest load: second 1: 2 answers, 0 errors, p50 1 p95 2 p99 2 ms"
    progress.seen(1, {1: {}})
    (tick,) = progress.ready()
    assert tick.ops["all"]["errors"] == 1 and tick.ops["b"]["p99_ms"] == 1.5
    from rich.console import Console

    console = Console(record=True, width=100)
    console.print(table(tick))
    text = console.export_text()
    assert "mcptest load: second 2" in text
    cells = [[c.strip() for c in r.split("│")[1:-1]] for r in text.splitlines() if r.startswith("│")]
    rows = {c[0]: c[1:] for c in cells}
    assert rows["b"] == ["1", "1", "1.5", "1.5", "1.5"] and rows["a"] == ["0", "0", "0", "0", "0"]
    assert rows["all"][:2] == ["1", "1"]


def test_html_draws_latency_over_time_and_a_percentile_plot() -> None:
    from mcptest.load.formats import render
    from mcptest.load.model import Generator, LoadReport, Operation

    done = recorded([("a", s, 1 + s / 4, s == 2) for s in range(4) for _ in range(10)])  # under 2 ms: exact
    series = [second(s, done[s]["a"]) for s in sorted(done)]
    whole = hist.merged([s.histogram for s in series])
    op = Operation(
        name="a", kind="tool", count=40, errors={"assertion": 10}, throughput_rps=10, histogram=hist.encode(whole),
        series=series, **hist.figures(whole),
    )  # fmt: skip
    report = LoadReport(
        mcptest_version="0", suite="s.yml", started_at="2026-11-27T00:00:00+00:00", users=1, duration_s=4,
        profile="spike", elapsed_s=4, operations=[op], overall=op.model_copy(update={"name": "all"}),
        generator=Generator(processes=1, cores=2, cpu_percent=1, saturated=False),
    )  # fmt: skip
    page = render(report, "html")
    assert "<h2>Latency over time</h2>" in page and page.count('aria-label="latency over time"') == 1
    assert page.count('aria-label="latency by percentile"') == 1
    assert "second 2: 10 answers, 10 failed, p50 1.5 p95 1.5 p99 1.5 ms" in page  # each second's bar says its figures
    assert "<title>max: 1.75 ms</title>" in page and "http" not in page.split("<body>")[1]  # nothing fetched


def fake_load(rate: float, p95_ms: float, failed: int = 0, interrupted: bool = False) -> Any:
    from mcptest.load.model import Generator, LoadReport, Operation

    op = Operation(
        name="a", kind="tool", count=100, errors={"protocol": failed} if failed else {}, throughput_rps=rate,
        histogram="", p50_ms=1, p90_ms=1, p95_ms=p95_ms, p99_ms=p95_ms, max_ms=p95_ms, mean_ms=1,
    )  # fmt: skip
    return LoadReport(
        mcptest_version="0", suite="s.yml", started_at="2026-11-27T00:00:00+00:00", users=4, duration_s=1,
        rate=rate, elapsed_s=1, operations=[op], overall=op.model_copy(update={"name": "all"}),
        interrupted=interrupted, generator=Generator(processes=1, cores=2, cpu_percent=1, saturated=False),
    )  # fmt: skip


def test_find_limit_doubles_then_bisects_to_the_highest_rate_within_budget() -> None:
    import threading

    from mcptest.load.limit import budgets, search

    def server(rate: float) -> Any:  # p95 within 100 ms up to 70 calls/s; errors from 90/s
        return fake_load(rate, 20.0 if rate <= 70 else 500.0, failed=5 if rate >= 90 else 0)

    ran: list[float] = []
    report, limit = search(10, 10_000, {"a": 100.0}, lambda r: ran.append(r) or server(r), threading.Event(), print)
    assert ran[:4] == [10, 20, 40, 80] and ran[4] == 60  # doubling, then halfway between 40 (within) and 80 (over)
    assert limit.rate is not None and 70 / 1.25 <= limit.rate <= 70 < limit.over <= 70 * 1.25, limit
    assert report.rate == limit.rate and report.limit == limit  # the figures are the highest step within budget
    assert [s.within for s in limit.steps] == [r <= 70 for r in ran]
    assert "a p95 500 ms > 100 ms" in limit.steps[3].reason
    # errors alone fail a step (1% or more); the first step over budget halves down
    _, low = search(100, 10_000, {"a": 100.0}, lambda r: server(r), threading.Event(), print)
    assert low.steps[0].reason == "a p95 500 ms > 100 ms; errors 5.0% >= 1%" and low.rate is not None
    assert 70 / 1.25 <= low.rate <= 70
    # nothing within budget: no rate, the last step's figures; a cut step ends the search and is left out
    _, none = search(1, 10_000, {"a": 1.0}, lambda r: server(r), threading.Event(), print)
    assert none.rate is None and len(none.steps) == 2  # 1/s, then 0.5/s, the lowest
    cut, stopped = search(
        10, 10_000, {"a": 100.0}, lambda r: fake_load(r, 20, interrupted=r > 10), threading.Event(), print
    )
    assert cut.interrupted and [s.rate for s in stopped.steps] == [10] and stopped.rate == 10
    # budgets: the suite's latency.p95_ms bound, else --p95-ms, else none (errors alone)
    from mcptest.expect.assertions import Assertion

    class T:
        def __init__(self, name: str, assertions: list[Any]) -> None:
            self.name, self.assertions = name, assertions

    own = T("own", [Assertion.model_validate({"latency.p95_ms": {"<=": 150}})])
    other = T("other", [Assertion.model_validate({"latency.p99_ms": {"<=": 900}})])
    assert budgets([own, other], None) == {"own": 150.0}
    assert budgets([own, other], 80.0) == {"own": 150.0, "other": 80.0}
