"""The HTML report draws the run history: per test a strip of its last outcomes and its pass rate with the Wilson
interval, per gate its main figure over the runs; the page stays one self-contained file."""

from __future__ import annotations

import re
from datetime import timedelta
from pathlib import Path

import pytest

from mcptest.core.exit_codes import ExitCode
from mcptest.core.stats import wilson_interval
from mcptest.history.context import RunContext
from mcptest.history.store import open_store
from mcptest.history.trends import trend
from mcptest.records.report import Report, Status, TestResult, summarize
from mcptest.report.formats import shown
from mcptest.report.html import render_html
from tests.doctor.helpers import cli
from tests.history.build import START, report

COLOR = {"passed": "#1a7f37", "failed": "#cf222e", "skipped": "#9a6700"}
FLAKY = ["passed", "failed", "passed", "skipped", "passed", "failed"]
FIGURES = [70.0, 75.0, 90.0, 60.0, 85.0, 80.0]
SUITE = """
agents:
  - name: finds it
    prompt: find it
    tool_calls: [{ name: search }]
    expect:
      - target: tool_calls[0].name
        matcher: { exact: search }
"""


def _row(html: str, test: str) -> str:
    table = re.search(r'<table id="history-tests">.*?</table>', html, re.S)
    assert table, "no history table on the page"
    row = re.search(rf"<tr><td>{re.escape(test)}</td>.*?</tr>", table.group(0), re.S)
    assert row, f"no history row for {test}"
    return row.group(0)


def _cells(row: str) -> list[tuple[str, str]]:
    """(colour, title) of each cell of a strip, left to right."""
    return re.findall(r'<span class="cell" style="background:(#[0-9a-f]+)" title="([^"]*)"></span>', row)


def _self_contained(html: str) -> None:
    assert "<script" not in html and "<link" not in html
    assert not re.search(r"""(src|href)=["']?(https?:)?//""", html)


@pytest.fixture
def stored(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[str, list[Path]]:
    """A store holding six runs of suite.yml (one test flaky, one always passing, one gate), and each run's JSON."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("MCPTEST_HISTORY", "")
    url = f"sqlite:///{tmp_path / 'history.db'}"
    files = []
    with open_store(url) as store:
        for i, (status, figure) in enumerate(zip(FLAKY, FIGURES, strict=True)):
            run = report({"flaky one": status, "steady one": "passed"}, i, gates={"agent": figure})
            store.record(run, "suite.yml", RunContext(commit=f"{i:x}" * 40))
            files.append(tmp_path / f"run{i}.json")
            files[-1].write_text(run.model_dump_json())
    return url, files


def test_a_saved_report_draws_each_tests_strip_its_interval_and_the_gate_over_the_stored_runs(
    stored: tuple[str, list[Path]], capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    url, files = stored
    out = cli(capsys, "report", files[-1], "--no-color", "--format", "html", "--history", url)
    assert out.code == ExitCode.OK and out.stderr == ""
    html = out.stdout
    _self_contained(html)
    cells = _cells(_row(html, "flaky one"))
    assert [c for c, _ in cells] == [COLOR[s] for s in FLAKY]  # oldest first, newest last
    assert cells[0][1] == "passed: 2026-11-01T00:00:00+00:00 at 000000000000"
    assert cells[-1][1] == "failed: 2026-11-01T05:00:00+00:00 at 555555555555"
    with open_store(url) as store:
        figures = trend(store.outcomes("suite.yml", "flaky one"))
    low, high = figures.pass_interval
    assert (figures.passed, figures.runs) == (3, 5)
    assert f'<td class="interval">{low:.1%}–{high:.1%}</td>' in _row(html, "flaky one")
    assert f"{figures.passed}/{figures.runs} = {figures.pass_rate:.1%}" in _row(html, "flaky one")
    assert [c for c, _ in _cells(_row(html, "steady one"))] == [COLOR["passed"]] * 6
    gate = re.search(r'<svg class="gate-trend".*?</svg>', html, re.S)
    assert gate is not None
    points = re.findall(r'<circle class="point"[^>]*fill="(#[0-9a-f]+)"><title>([^<]*)</title>', gate.group(0))
    assert len(points) == len(FIGURES)  # one per stored run
    assert [t.split(": ")[1].split(" ")[0] for _, t in points] == [f"{v:g}" for v in FIGURES]
    assert [c for c, _ in points] == [COLOR["passed" if v >= 80 else "failed"] for v in FIGURES]

    # an older report is drawn as the history stood then: the later runs are left out
    older = cli(capsys, "report", files[2], "--no-color", "--format", "html", "--history", url).stdout
    assert [c for c, _ in _cells(_row(older, "flaky one"))] == [COLOR[s] for s in FLAKY[:3]]
    assert len(re.findall(r'<circle class="point"', older)) == 3


def test_without_history_the_page_is_exactly_the_plain_one(
    stored: tuple[str, list[Path]], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    url, files = stored
    from mcptest.report.load import load_report

    plain = render_html(shown(load_report(str(files[-1]))))
    assert (
        cli(capsys, "report", files[-1], "--no-color", "--format", "html", "--history", url, "--no-history").stdout
        == plain
    )
    monkeypatch.setenv("MCPTEST_HISTORY", "off")
    assert (
        cli(capsys, "report", files[-1], "--no-color", "--format", "html", "--history", url).stdout != plain
    )  # the flag wins
    assert cli(capsys, "report", files[-1], "--no-color", "--format", "html").stdout == plain
    monkeypatch.setenv("MCPTEST_HISTORY", f"sqlite:///{Path.cwd() / 'nothing-here.db'}")
    assert (
        cli(capsys, "report", files[-1], "--no-color", "--format", "html").stdout == plain
    )  # no store: none is created
    assert not (Path.cwd() / "nothing-here.db").exists()
    assert "history-tests" not in plain


def test_a_real_run_draws_its_history_and_a_broken_store_is_a_warning(
    write, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MCPTEST_HISTORY", "")
    suite = write("project/suite.yml", SUITE)
    page = tmp_path / "page.html"
    first = cli(capsys, "run", "--no-color", suite, "-q", "-r", "html", "-o", page)
    assert first.code == ExitCode.OK
    assert "history-tests" not in page.read_text()  # no store before the first run: the plain page
    assert cli(capsys, "run", "--no-color", suite, "-q", "-r", "html", "-o", page).code == ExitCode.OK
    html = page.read_text()
    _self_contained(html)
    assert [c for c, _ in _cells(_row(html, "finds it"))] == [COLOR["passed"]] * 2
    assert "2/2 = 100.0%" in html
    assert cli(capsys, "run", "--no-color", suite, "-q", "-r", "html", "-o", page, "--no-history").code == 0
    assert "history-tests" not in page.read_text()

    store = suite.parent / ".mcptest" / "history.db"
    store.write_bytes(b"this is not a database" * 100)
    broken = cli(capsys, "run", "--no-color", suite, "-q", "-r", "html", "-o", page)
    assert broken.code == ExitCode.OK  # the verdict stands
    warnings = [line for line in broken.stderr.splitlines() if "warning" in line]
    assert any(line.endswith("the report is drawn without it") for line in warnings), broken.stderr
    assert "history-tests" not in page.read_text()


def test_the_overview_reads_the_same_from_postgres_and_puts_an_unstored_run_last(postgres_url: str) -> None:
    from mcptest.history.overview import read_overview

    with open_store(postgres_url) as store:
        for i, (status, figure) in enumerate(zip(FLAKY, FIGURES, strict=True)):
            store.record(report({"flaky one": status}, i, gates={"agent": figure}), "suite.yml", RunContext())
    current = report({"flaky one": "skipped"}, 9, gates={"agent": 99.0})  # a run not stored yet, as `run` draws it
    history, warning = read_overview(current, postgres_url)
    assert warning is None and history is not None
    assert [c.status for c in history.tests[("flaky one", None)].cells] == [*FLAKY, "skipped"]
    gate = history.gates[("agent", None, "tool_selection")]
    assert gate.figure == "tool_selection.selection_rate"
    assert [p.value for p in gate.points] == [*FIGURES, 99.0]
    rates = history.tests[("flaky one", None)].rates
    assert (rates[-1].rate, (rates[-1].low, rates[-1].high)) == (0.6, wilson_interval(3, 5))


def _load(index: int, figures: dict[str, tuple[float, float, int]], suite: str = "suite.yml") -> Report:
    """A load as `mcptest load` stores it (load/formats.as_run_report): one row per operation, its figures in
    `targets`; `figures` per operation: (p95 ms, calls/s, failed answers), 100 calls each."""
    results = [
        TestResult(name=name, kind="tool", file=suite, line=1, duration_ms=5000.0,
                   status=Status.FAILED if errors else Status.PASSED,
                   targets={"calls": 100, "calls_per_s": rate, "weight": 1, "errors": errors, "p50_ms": p95 / 2,
                            "p95_ms": p95, "p99_ms": p95 * 2})
        for name, (p95, rate, errors) in figures.items()
    ]  # fmt: skip
    return Report(
        mcptest_version="0.1.0", suite=suite, started_at=(START + timedelta(hours=index)).isoformat(),
        duration_ms=5000.0, results=results, summary=summarize(results),
    )  # fmt: skip


LOADS = [
    {"search": (12.5, 400.0, 0), "fetch": (30.0, 100.0, 0)},
    {"search": (25.0, 200.0, 3)},
    {"search": (11.0, 410.0, 0), "fetch": (28.0, 105.0, 0)},
]


def _points(html: str, operation: str, figure: str) -> list[tuple[str, str]]:
    """(colour, tooltip) of each point of an operation's trend of `figure`, left to right."""
    svg = re.search(rf'<svg class="load-trend"[^>]*aria-label="{figure} of {operation} over loads.*?</svg>', html, re.S)
    assert svg, f"no {figure} trend of {operation}"
    return re.findall(r'fill="(#[0-9a-f]+)"><title>([^<]*)</title>', svg.group(0))


def test_the_pages_draw_each_load_operations_p95_and_calls_per_second_over_the_stored_loads(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from mcptest.history.overview import load_overview, overview

    monkeypatch.chdir(tmp_path)
    url = f"sqlite:///{tmp_path / 'history.db'}"
    with open_store(url) as store:
        for i, figures in enumerate(LOADS):
            store.record(_load(i, figures), "suite.yml#load", RunContext(commit=f"{i + 1:x}" * 40), source="load")
        store.record(report({"steady one": "passed"}, 1), "suite.yml", RunContext(commit="a" * 40))
        # a load's own page: the stored loads, then this one (not stored yet: it is stored after its page)
        newest = _load(3, {"search": (10.0, 420.0, 0), "fetch": (26.0, 110.0, 0)})
        page = render_html(shown(newest), history=load_overview(store, newest))
        # the run page of the suite's tests: the loads started up to its run, none after
        run_page = render_html(
            shown(report({"steady one": "passed"}, 1)), history=overview(store, report({"steady one": "passed"}, 1))
        )
    _self_contained(page)
    search = _points(page, "search", "p95_ms")
    assert [t.split(": ")[1].split(" ms")[0] for _, t in search] == ["12.5", "25", "11", "10"]  # oldest first
    assert [c for c, _ in search] == ["#8250df", "#cf222e", "#8250df", "#8250df"]  # the load with failures in red
    assert search[0][1] == "2026-11-01T00:00:00+00:00 at 111111111111: 12.5 ms; 100 calls, 0 failed"
    assert search[1][1].endswith("25 ms; 100 calls, 3 failed")
    fetch = _points(page, "fetch", "calls_per_s")
    assert [t.split(": ")[1].split(" /s")[0] for _, t in fetch] == ["100", "105", "110"]  # absent from one load
    assert "12.5 → 10 ms (-20%)" in page and "100 → 110 /s (+10%)" in page
    runs = re.search(r'<table id="history-loads-runs">.*?</table>', page, re.S)
    assert runs and "over the last 4 loads" in page
    started = re.findall(r"<tr><td>(2026[^<]*)</td><td><code>([^<]*)</code>", runs.group(0))
    assert started == [
        (f"2026-11-01T0{i}:00:00+00:00", c) for i, c in ((3, "-"), (2, "3" * 12), (1, "2" * 12), (0, "1" * 12))
    ]
    assert '<td class="num">25 ms, 200.0/s, 3 failed</td><td class="num">-</td>' in runs.group(0)
    # the run page started at hour 1: the loads of hours 0 and 1 only, beside its own tests' history
    assert [t.split(": ")[1].split(" ms")[0] for _, t in _points(run_page, "search", "p95_ms")] == ["12.5", "25"]
    assert 'id="history-tests"' in run_page and "over the last 2 loads" in run_page


def test_a_suite_without_loads_has_no_load_section(
    stored: tuple[str, list[Path]], capsys: pytest.CaptureFixture[str]
) -> None:
    url, files = stored
    html = cli(capsys, "report", files[-1], "--no-color", "--format", "html", "--history", url).stdout
    assert 'id="history-tests"' in html and "history-loads" not in html and "load-trend" not in html
