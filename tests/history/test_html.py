"""The HTML report draws the run history: per test a strip of its last outcomes and its pass rate with the Wilson
interval, per gate its main figure over the runs; the page stays one self-contained file."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from mcptest.core.exit_codes import ExitCode
from mcptest.core.stats import wilson_interval
from mcptest.history.context import RunContext
from mcptest.history.store import open_store
from mcptest.history.trends import trend
from mcptest.report.formats import shown
from mcptest.report.html import render_html
from tests.doctor.helpers import cli
from tests.history.build import report

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
