"""`mcptest load`: virtual users over Streamable HTTP against a real SDK server, every answer judged, histograms
merged across processes and across shards, Ctrl-C reporting what was measured."""

from __future__ import annotations

import json
import signal
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from mcptest.core import latency as hist
from mcptest.core.exit_codes import ExitCode
from tests.conftest import PYTHON, ROOT, run_cli, serving_http


@pytest.fixture(scope="module")
def url() -> Iterator[str]:
    """The latency server over Streamable HTTP on loopback, shared by this module's loads."""
    with serving_http("tests.servers.latency_server", "the latency server", timeout=60) as url:
        yield url


@pytest.fixture(scope="module")
def suite(url: str, tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("load") / "mcptest.yml"
    path.write_text(
        f"""
servers:
  lat:
    url: {url}
tools:
  - name: zero
    server: lat
    tool: zero
    weight: 3
  - name: fifth
    server: lat
    tool: every_fifth
    expect:
      - result.content[0].text: {{ exact: fine }}
""",
        encoding="utf-8",
    )
    return path


def load(suite: Path, out: Path, *args: str, timeout: float = 120) -> tuple[Any, dict[str, Any]]:
    ran = run_cli("load", "--suite", str(suite), "-o", str(out), *args, timeout=timeout)
    return ran, json.loads(out.read_text())


def ops(report: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {op["name"]: op for op in report["operations"]}


def test_closed_model_judges_every_answer_and_follows_the_weights(suite: Path, tmp_path: Path) -> None:
    # a count cap, not a duration, ends it: how many calls fit in a time depends on the machine's load
    url = f"sqlite:///{tmp_path / 'history.db'}"
    args = ("--users", "3", "--duration", "5m", "--max-requests", "100", "--processes", "1", "--history", url)
    ran, report = load(suite, tmp_path / "closed.json", *args)
    assert ran.code == ExitCode.FAILED, ran.stderr  # every fifth answer breaks its assertion
    jsonschema.validate(report, json.loads((ROOT / "schema" / "load.v1.json").read_text()))
    assert report["capped"] is True and report["overall"]["count"] == 100, report["overall"]
    zero, fifth = ops(report)["zero"], ops(report)["fifth"]
    assert fifth["count"] > 5, report
    assert zero["count"] > 1.5 * fifth["count"]  # weight 3 against 1
    assert fifth["count"] // 5 - 1 <= fifth["errors"]["assertion"] <= fifth["count"] // 5 + 1
    assert "errors" not in zero or not zero["errors"]
    overall = report["overall"]
    assert overall["count"] == zero["count"] + fifth["count"]
    whole = hist.merged([zero["histogram"], fifth["histogram"]])
    assert whole.get_total_count() == overall["count"] and hist.figures(whole)["p99_ms"] == overall["p99_ms"]
    assert "zero" in ran.stdout and "assertion" in ran.stdout
    assert_series_add_up(report)
    # Markdown and HTML through the run reporters: one row per operation, its figures and histogram
    from mcptest.load.formats import render
    from mcptest.load.model import LoadReport

    model = LoadReport.model_validate(report)
    md, page = render(model, "md"), render(model, "html")
    assert f"| zero | {zero['count']} | 0 | {zero['p50_ms']:g} |" in md and "**FAIL**" in md
    assert f"{fifth['errors']['assertion']} of {fifth['count']} answers failed under load (assertion" in md
    assert page.count('aria-label="latency histogram"') == 2 and "<h2>Latency</h2>" in page
    # the run history keeps the load apart from the suite's test runs, each operation's figures per commit
    shown = run_cli("history", "load", "--suite", str(suite), "--history", url, "--json")
    stored = json.loads(shown.stdout)
    jsonschema.validate(stored, json.loads((ROOT / "schema" / "history-load.v1.json").read_text()))
    (run,) = stored["runs"]
    assert run["ok"] is False and stored["suite"].endswith("#load"), stored
    assert run["operations"]["zero"]["p95_ms"] == zero["p95_ms"] and run["operations"]["zero"]["calls"] == zero["count"]
    assert run["operations"]["fifth"]["errors"] == fifth["errors"]["assertion"]
    listing = run_cli("history", "--suite", str(suite), "--history", url).stdout
    assert listing.startswith("no runs of ")  # not a run of the suite's tests: their timelines do not count it
    assert f"#{run['id']}" in listing and f"zero {zero['p95_ms']:g} ({zero['throughput_rps']:g}/s)" in listing
    # the next load's HTML page draws the stored load and itself (stored only after its page) over the loads
    page_file = tmp_path / "load.html"
    again = run_cli("load", "--suite", str(suite), "-r", "html", "-o", str(page_file), "--users", "1", "--duration",
                    "5m", "--max-requests", "10", "--processes", "1", "--history", url)  # fmt: skip
    assert again.code in (ExitCode.OK, ExitCode.FAILED), again.stderr
    drawn = page_file.read_text()
    assert 'id="history-loads"' in drawn and "over the last 2 loads" in drawn
    assert f"{zero['p95_ms']:g} ms, {zero['throughput_rps']:,.1f}/s" in drawn  # the first load, read from the store


def test_open_model_offers_the_profile_s_rate_from_every_process(suite: Path, tmp_path: Path) -> None:
    from mcptest.load.profile import Arrivals, segments

    args = ("--users", "4", "--duration", "2.5s", "--rate", "30", "--processes", "2", "--server", "lat")
    ran, report = load(suite, tmp_path / "open.json", *args, "--profile", "spike")
    assert ran.code in (ExitCode.OK, ExitCode.FAILED), ran.stderr
    assert report["generator"]["processes"] == 2 and report["rate"] == 30 and report["profile"] == "spike"
    # arrivals due before the deadline are all made, however late: each of 2 processes offers 15/s x the level
    arrivals, due = Arrivals(segments("spike", 2.5, 0), 15), 0
    while arrivals.due(due) < 2.5:
        due += 1
    assert report["overall"]["count"] == 2 * due, report["overall"]
    assert not (suite.parent / ".mcptest").exists()  # a load records only into a history that exists
    # the shape: each second's calls are counted by when they were due; the spike (40-60% of 2.5 s: 1 s to 1.5 s)
    # is in second 1, half of it: 2 x (7.5 + 1.5) calls against 2 x 3 in second 0 and 2 x 1.5 in the half second 2
    offered = {s["second"]: s["started"] for s in report["overall"]["series"]}
    assert offered[1] > 2 * max(offered[0], offered[2]) and min(offered[0], offered[2]) > 0, offered
    assert_series_add_up(report)


def assert_series_add_up(report: dict[str, Any]) -> None:
    """Each operation's seconds hold all its calls and answers, and `all`'s seconds are the operations' added."""
    for op in [*report["operations"], report["overall"]]:
        assert sum(s["count"] for s in op["series"]) == op["count"] == sum(s["started"] for s in op["series"])
        assert hist.merged([s["histogram"] for s in op["series"]]).get_total_count() == op["count"]
    for s in report["overall"]["series"]:
        parts = [p for op in report["operations"] for p in op["series"] if p["second"] == s["second"]]
        assert s["count"] == sum(p["count"] for p in parts) and s["errors"] == sum(p["errors"] for p in parts)
        assert s["p99_ms"] == hist.quick(hist.merged([p["histogram"] for p in parts]))["p99_ms"]


def test_shards_merge_into_one_load(suite: Path, tmp_path: Path) -> None:
    shards = []
    for k in (1, 2):
        out = tmp_path / f"shard-{k}.json"
        ran, _ = load(suite, out, "--users", "2", "--duration", "1s", "--processes", "1", "--shard", f"{k}/2")
        assert ran.code in (ExitCode.OK, ExitCode.FAILED), ran.stderr
        shards.append(out)
    parts = [json.loads(s.read_text()) for s in shards]
    assert [p["users"] for p in parts] == [1, 1]
    merged_path = tmp_path / "merged.json"
    ran = run_cli("report", "merge", *map(str, shards), "-o", str(merged_path))
    assert ran.code in (ExitCode.OK, ExitCode.FAILED), ran.stderr
    merged = json.loads(merged_path.read_text())
    assert merged["users"] == 2
    for name in ("zero", "fifth"):
        whole = hist.merged([ops(p)[name]["histogram"] for p in parts])
        assert ops(merged)[name]["count"] == sum(ops(p)[name]["count"] for p in parts)
        assert hist.decode(ops(merged)[name]["histogram"]).get_total_count() == whole.get_total_count()
        assert ops(merged)[name]["p95_ms"] == hist.figures(whole)["p95_ms"]
        # and second by second: the shards' same second adds up, histograms merged exactly
        for s in ops(merged)[name]["series"]:
            same = [x for p in parts for x in ops(p)[name]["series"] if x["second"] == s["second"]]
            assert s["count"] == sum(x["count"] for x in same) and s["started"] == sum(x["started"] for x in same)
            assert s["p95_ms"] == hist.quick(hist.merged([x["histogram"] for x in same]))["p95_ms"]
    assert_series_add_up(merged)


def test_find_limit_brackets_a_serial_server_s_capacity(url: str, tmp_path: Path) -> None:
    # `serial` holds the server 20 ms per call, one at a time: over 50 calls/s its queue grows every second, so at
    # 64/s the 95th percentile call of a 1 s step waits over 260 ms whatever the machine (a slower one: longer)
    path = tmp_path / "limit.yml"
    path.write_text(
        f"""
servers:
  lat:
    url: {url}
tools:
  - name: serial
    server: lat
    tool: serial
    latency: {{ samples: 1 }}
    expect:
      - latency.p95_ms: {{ "<=": 200 }}
""",
        encoding="utf-8",
    )
    args = ("--users", "4", "--duration", "1s", "--rate", "32", "--find-limit", "--processes", "1")
    ran, report = load(path, tmp_path / "limit.json", *args)
    assert ran.code == ExitCode.OK, ran.stderr
    jsonschema.validate(report, json.loads((ROOT / "schema" / "load.v1.json").read_text()))
    limit = report["limit"]
    assert limit["p95_budget_ms"] == {"serial": 200} and limit["max_error_percent"] == 1
    assert limit["rate"] is not None and 2 <= limit["rate"] < 64 and limit["over"] <= 64, limit
    assert report["rate"] == limit["rate"]  # the figures are those of the highest step within budget
    for step in limit["steps"]:
        assert step["within"] == (step["p95_ms"]["serial"] <= 200 and step["error_percent"] < 1), step
        assert f"mcptest load: find-limit: {step['rate']:g}/s: {step['count']} answers" in ran.stderr
    assert f"find-limit: the highest rate within budget: {limit['rate']:g}/s" in ran.stdout


def test_ctrl_c_stops_at_once_and_writes_what_was_measured(suite: Path, tmp_path: Path) -> None:
    out = tmp_path / "cut.json"
    proc = subprocess.Popen(
        [PYTHON, "-m", "mcptest", "load", "--suite", str(suite), "--users", "2", "--duration", "10m",
         "--processes", "1", "-o", str(out)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
    )  # fmt: skip
    # not a fixed sleep: the first plain progress line (stderr is no terminal) says a second of load was measured
    measuring, lines = threading.Event(), []

    def read() -> None:
        assert proc.stderr is not None
        for text in proc.stderr:
            lines.append(text)
            if text.startswith("mcptest load: second 1:"):
                measuring.set()

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        assert measuring.wait(timeout=90), "".join(lines)
    finally:
        proc.send_signal(signal.SIGINT)
    stdout = proc.communicate(timeout=60)[0]
    reader.join(timeout=10)
    stderr = "".join(lines)
    assert proc.returncode == ExitCode.INTERRUPTED, stderr
    report = json.loads(out.read_text())
    assert report["interrupted"] is True and "INTERRUPTED" in stdout
    assert report["overall"]["count"] > 0 and report["overall"]["series"], report["overall"]


def test_bad_options_are_one_line_each(suite: Path) -> None:
    for args, said in (
        (("--users", "0"), "--users: between 1 and 1000"),
        (("--duration", "2h"), "--duration: at most 1h"),
        (("--server", "nope"), "--server: the suite has no server 'nope'"),
        (("-r", "pdf"), "--reporter: unknown format 'pdf'; formats are json, md, html"),
        (("--profile", "wave"), "--profile: one of constant, ramp, spike, soak; got 'wave'"),
        (("--profile", "ramp", "--ramp", "5s"), "--profile ramp rises over the whole run: leave out --ramp"),
        (("--find-limit",), "--find-limit needs a p95 budget: --p95-ms, or `latency.p95_ms"),
        (("--p95-ms", "50"), "--p95-ms: a budget above 0 ms for --find-limit; got 50"),
        (("--find-limit", "--profile", "spike"), "--find-limit: each step is a whole load on this machine"),
    ):
        ran = run_cli("load", "--suite", str(suite), *args)
        assert ran.code == ExitCode.USAGE and said in ran.stderr and "Traceback" not in ran.stderr, (args, ran.stderr)
