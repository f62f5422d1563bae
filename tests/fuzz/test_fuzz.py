"""`mcptest fuzz`: inputs from schemas, the classes of what answers show, shrinking, and whole runs against a server
with planted defects (every one found on a minimal input) and a correct SDK server (nothing above info)."""

from __future__ import annotations

import contextlib
import io
import json
import shlex
import signal
import time
from pathlib import Path
from typing import Any

import pytest

from mcptest.fuzz.classify import Answer, classify, stack_trace
from mcptest.fuzz.inputs import Schema, cases
from mcptest.fuzz.shrink import shrink
from tests.conftest import PYTHON, ROOT, Ran, run_cli

DEFECTS = f"{PYTHON} {ROOT / 'tests' / 'servers' / 'fuzz_defects_server.py'}"


def mcptest(*args: str) -> Ran:
    """`mcptest ARGS` through the CLI's own entry point in this process: its exit code and both streams, without the
    interpreter start-up and SDK import a subprocess pays each time (one test still runs a replay line as a
    subprocess, the way a user pastes it)."""
    from mcptest.cli import main

    out, err, start = io.StringIO(), io.StringIO(), time.monotonic()
    sigterm = signal.getsignal(signal.SIGTERM)  # main() installs its own, for the run it makes
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), pytest.raises(SystemExit) as done:
            main(list(args))
    finally:
        signal.signal(signal.SIGTERM, sigterm)
    return Ran(int(done.value.code or 0), out.getvalue(), err.getvalue(), time.monotonic() - start)


SCHEMA = {
    "type": "object",
    "properties": {
        "name": {"type": "string", "minLength": 1, "maxLength": 5},
        "count": {"type": "integer", "minimum": 0, "maximum": 9},
        "mode": {"enum": ["a", "b"]},
        "tags": {"type": "array", "items": {"type": "string"}, "maxItems": 2},
    },
    "required": ["name", "count"],
    "additionalProperties": False,
}


def test_inputs_are_what_they_claim_and_the_same_for_a_seed() -> None:
    made = cases(SCHEMA, 60, seed=7, salt="tool")
    schema = Schema(SCHEMA)
    assert len(made) == 60
    assert all(schema.valid(c.args) == c.valid for c in made)
    assert made == cases(SCHEMA, 60, seed=7, salt="tool")
    assert made != cases(SCHEMA, 60, seed=8, salt="tool")
    hows = {c.how.split(" (")[0].split(" '")[0] for c in made if not c.valid}
    assert {"missing required", "wrong type at", "null at", "extra key", "not in enum at"} <= hows, hows
    assert any(c.how.startswith("above maximum") for c in made) and any("maxLength" in c.how for c in made)
    edges = [c.args for c in made if c.how.startswith("valid (edge")]
    assert {"name": "a", "count": 0} in edges  # required keys only, at their lower bounds
    assert any(set(e) == {"name", "count", "mode", "tags"} and e["count"] == 9 for e in edges)


NESTED = {
    "type": "object",
    "properties": {
        "filter": {
            "type": "object",
            "properties": {"status": {"enum": ["open", "closed"]}, "limit": {"type": "integer", "maximum": 9}},
            "required": ["status"],
        },
        "items": {"type": "array", "items": {"type": "object", "properties": {"id": {"type": "integer"}}}},
    },
    "required": ["filter"],
}


def test_invalid_values_are_planted_inside_nested_objects_and_arrays() -> None:
    made = cases(NESTED, 120, seed=1, salt="tool")
    schema = Schema(NESTED)
    assert all(schema.valid(c.args) == c.valid for c in made)
    hows = {c.how for c in made if not c.valid}
    for how in (
        "missing required 'filter.status'",
        "not in enum at 'filter.status'",
        "wrong type at 'filter.limit' (\"5\")",
        "above maximum (9) at 'filter.limit'",
        "null at 'items[0]'",
        "wrong type at 'items[0].id' (\"abc\")",
    ):
        assert how in hows, (how, sorted(hows))
    enum = next(c.args for c in made if c.how == "not in enum at 'filter.status'")
    assert enum["filter"]["status"] not in ("open", "closed")  # broken below, the rest still valid
    assert schema.valid({**enum, "filter": {**enum["filter"], "status": "open"}})


def test_shrinking_reaches_the_minimal_input_of_each_planted_defect() -> None:
    """Each predicate is one of the defects server's planted defects (or the clean server's boundaries); the start is
    a large input showing it, the result the smallest input that shows it (no key, character or unit less would)."""

    def over_100(a: Any) -> bool:
        return isinstance(a.get("id"), int) and not isinstance(a["id"], bool) and a["id"] > 100

    def below_1(a: Any) -> bool:
        return isinstance(a.get("id"), int) and not isinstance(a["id"], bool) and a["id"] < 1

    def nested(a: Any) -> bool:
        inner = a.get("filter")
        return isinstance(inner, dict) and inner.get("status") not in ("open", "closed")

    noise = {"note": "héllo wörld 😀", "tags": ["a", "bb", {"x": 1.5}], "flag": True}
    for start, holds, smallest in (
        ({"id": 987_654_321, **noise}, over_100, {"id": 101}),
        ({"id": -57_123, **noise}, below_1, {"id": 0}),
        ({"id": "héllo wörld", **noise}, lambda a: isinstance(a.get("id"), str), {"id": ""}),
        ({"query": "", "limit": 7, **noise}, lambda a: a.get("query") == "", {"query": ""}),
        ({"filter": {"status": "mcptest-not-a-member", "limit": 7}, **noise}, nested, {"filter": {}}),
        ({"detailed": True, **noise}, lambda a: a.get("detailed") is True, {"detailed": True}),
        ({"words": ["alpha", "beta", "gamma"], **noise}, lambda a: len(a.get("words", [])) >= 2, {"words": ["", ""]}),
    ):
        best, calls = shrink(start, holds, calls=200)
        assert best == smallest, (start, best)
        assert 0 < calls <= 200
    assert shrink({"id": 5}, lambda a: False, calls=10) == ({"id": 5}, 1)  # not reproduced: the input as it was
    asked: list[Any] = []
    best, calls = shrink({"id": 987_654_321}, lambda a: asked.append(a) or over_100(a), calls=200, seen=True)
    assert best == {"id": 101} and {"id": 987_654_321} not in asked and calls == len(asked)  # seen: not asked again
    best, calls = shrink({"id": 987_654_321, **noise}, over_100, calls=3)  # the budget holds
    assert calls == 3 and over_100(best)


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ('Traceback (most recent call last):\n  File "/a.py", line 3, in f', "Python"),
        ("TypeError: x is undefined\n    at handler (/srv/app/index.js:12:7)", "Node"),
        ("java.lang.NullPointerException\n\tat com.acme.Tools.call(Tools.java:42)", "Java"),
        ("panic: runtime error\n\ngoroutine 1 [running]:\nmain.main()\n\t/app/main.go:9 +0x1d", "Go"),
        ("thread 'main' panicked at src/main.rs:4:5:\nindex out of bounds", "Rust"),
    ],
)
def test_stack_traces_of_five_languages_are_recognised(text: str, language: str) -> None:
    assert stack_trace(text) == language
    answer = Answer("result", {"content": [{"type": "text", "text": text}], "isError": True})
    assert "stack_trace" in {f.kind for f in classify({}, Schema({"type": "object"}), answer)}


def test_ordinary_text_is_no_stack_trace_and_an_echoed_environment_value_is_a_leak() -> None:
    assert stack_trace("Sunny at 3:45 in Paris; see file.js for details") is None
    answer = Answer("result", {"content": [{"type": "text", "text": "key=sk-live-abcdef123456"}]})
    env = {"API_KEY": "sk-live-abcdef123456"}
    found = classify({}, Schema({"type": "object"}), answer, env=env)
    assert [(f.kind, f.detail.endswith("API_KEY")) for f in found] == [("env_leak", True)]
    sent = {"q": "sk-live-abcdef123456"}  # echoing what the client itself sent is no leak
    assert classify(sent, Schema({"type": "object"}), answer, env=env) == []


@pytest.fixture(scope="module")
def defects() -> dict[str, Any]:
    ran = mcptest("fuzz", "--command", DEFECTS, "--cases", "16", "--max-call-ms", "300", "--json")
    assert ran.code == 1, ran.stderr
    return json.loads(ran.stdout)  # type: ignore[no-any-return]


def test_every_planted_defect_is_found_on_a_minimal_input(defects: dict[str, Any]) -> None:
    found = {(f["tool"], f["kind"]): f for f in defects["findings"]}
    assert set(found) == {
        ("get_record", "crash"),
        ("get_record", "stack_trace"),
        ("get_record", "invalid_accepted"),
        ("search_notes", "hang"),
        ("get_summary", "output_schema"),
        ("get_status", "env_leak"),
        ("find_orders", "invalid_accepted"),
    }
    assert found["get_record", "crash"]["input"] == {"id": ""}
    assert "cannot parse id" in found["get_record", "crash"]["stderr"]
    assert found["get_record", "stack_trace"]["input"] == {"id": 0}
    assert found["get_record", "invalid_accepted"]["input"] == {"id": 101}
    assert found["search_notes", "hang"]["input"] == {"query": ""}
    assert found["get_summary", "output_schema"]["input"] == {"detailed": True}
    assert found["get_status", "env_leak"]["input"] == {"verbose": True}
    assert found["get_status", "env_leak"]["detail"].endswith("MCPTEST_FUZZ_CANARY")
    nested = found["find_orders", "invalid_accepted"]  # the server checks the top level only
    assert nested["input"] == {"filter": {}} and "'filter." in nested["how"], nested
    assert defects["restarts"] >= 1  # fuzzing went on after the crash
    tools = {t["tool"]: t for t in defects["tools"]}
    assert "allow-writes" in tools["delete_record"]["skipped"]
    assert tools["get_record"]["cases"] == 16 and tools["get_record"]["counts"]["crash"] >= 1
    cov = defects["coverage"]  # the run counts its own calls: every tool but the held-back one, each both ways
    figures = {name: (f["covered"], f["total"]) for name, f in cov["figures"].items()}
    assert (figures["tools"], figures["tools_failing"], figures["required_arguments"]) == ((5, 6), (5, 6), (3, 4))
    assert not cov["tools"]["delete_record"]["succeeded"] and cov["tools"]["search_notes"]["arguments"]["limit"]


def _fuzz(tmp_path: Path, **options: Any) -> Any:
    """An in-process fuzz run of the defects server (no CLI start-up per run)."""
    from mcptest.run.fuzz import FuzzOptions, fuzz
    from mcptest.server.sources import resolve_sources

    name, config = resolve_sources(command=DEFECTS).one()
    return fuzz(name, config, tmp_path, FuzzOptions(**options))


def test_a_replay_line_reproduces_its_finding_and_exits_1(defects: dict[str, Any], tmp_path: Path) -> None:
    crash = next(f for f in defects["findings"] if f["kind"] == "crash")
    words = shlex.split(crash["replay"])
    assert words[:2] == ["mcptest", "fuzz"]
    ran = run_cli(*words[1:], "--json")
    assert ran.code == 1, ran.stderr
    assert [f["kind"] for f in json.loads(ran.stdout)["findings"]] == ["crash"]
    fine = _fuzz(tmp_path, tools=["get_record"], replay={"id": 5})
    assert fine.ok and fine.findings == [] and fine.tools[0].cases == 1
    warned = _fuzz(tmp_path, tools=["get_record"], replay={"id": 101})
    assert warned.ok and [f.kind for f in warned.findings] == ["invalid_accepted"]
    strict = _fuzz(tmp_path, tools=["get_record"], replay={"id": 101}, fail_on="warning")
    assert not strict.ok


def test_write_tools_need_allow_writes_and_bad_options_are_usage_errors(tmp_path: Path) -> None:
    from mcptest.core.errors import UserError

    held = _fuzz(tmp_path, tools=["delete_record"], replay={"id": 1})
    assert held.tools[0].skipped and held.tools[0].cases == 0
    report = _fuzz(tmp_path, tools=["delete_record"], cases=12, allow_writes=True)
    assert report.tools[0].cases == 12 and report.findings == []
    with pytest.raises(UserError, match="has no tool 'nope'"):
        _fuzz(tmp_path, tools=["nope"])
    bad = mcptest("fuzz", "--command", DEFECTS, "--tool", "get_record", "--replay", "{x")
    assert bad.code == 2 and "--replay:1:2: not JSON" in bad.stderr and "Traceback" not in bad.stderr


def test_a_correct_sdk_server_shows_nothing_above_info(tmp_path: Path) -> None:
    from mcptest.run.fuzz import FuzzOptions, fuzz
    from mcptest.server.session import InProcessServer
    from tests.servers.fuzz_clean_server import build

    report = fuzz("clean", InProcessServer(build()), tmp_path, FuzzOptions(cases=60, seed=3))
    assert [t.cases for t in report.tools] == [60, 60]
    assert [f for f in report.findings if f.severity != "info"] == []
    assert report.ok


def test_a_suite_fuzz_block_gates_on_findings_reports_through_junit_and_counts_toward_coverage(tmp_path: Path) -> None:
    suite = tmp_path / "suite.yml"
    server = ROOT / "tests" / "servers" / "fuzz_defects_server.py"
    suite.write_text(
        f"""servers:
  defects:
    command: [{json.dumps(PYTHON)}, {json.dumps(str(server))}]
fuzz:
  - name: summary fuzzed
    server: defects
    tools: [get_summary]
    cases: 6
  - name: summary never crashes
    server: defects
    tools: [get_summary, find_orders]
    cases: 6
    expect:
      - classes.crash: {{ "<=": 0 }}
coverage:
  - server: defects
    expect:
      - coverage.tools: {{ ">=": 34 }}
""",
        encoding="utf-8",
    )
    saved = tmp_path / "run.json"
    ran = mcptest("run", str(suite), "-r", "json", "-o", str(saved))
    assert ran.code == 1, ran.stderr
    run = json.loads(saved.read_text(encoding="utf-8"))
    (cov,) = run["coverage"]["servers"]  # the fuzz calls reached 2 of the server's 6 tools: 33%
    assert (cov["server"], cov["figures"]["tools"]["covered"], cov["figures"]["tools"]["total"]) == ("defects", 2, 6)
    orders = cov["tools"]["find_orders"]
    assert orders["failed"] and orders["succeeded"]  # fuzzing saw it reject and accept
    assert orders["arguments"]["filter"]["supplied"]
    assert run["coverage"]["not_counted"] == 0
    (gate,) = run["gates"]
    assert gate["status"] == "failed" and "get_record" in json.dumps(gate["failures"])  # named as not reached
    junit = mcptest("report", str(saved), "-f", "junit").stdout
    assert 'tests="3" failures="2"' in junit  # two fuzz rows (one fails) and the coverage gate (fails)
    assert "error output_schema on get_summary" in junit and "--replay" in junit
    bad = suite.read_text(encoding="utf-8").replace(
        "server: defects\n    tools: [get_summary]\n    cases: 6\n  -", "server: nope\n    cases: 6\n  -"
    )
    suite.write_text(bad, encoding="utf-8")
    refused = mcptest("validate", str(suite))
    assert refused.code == 2 and "unknown server 'nope'" in refused.stderr


def test_findings_as_sarif_name_the_class_the_tool_and_the_replay(defects: dict[str, Any]) -> None:
    from mcptest.fuzz.report import FuzzReport
    from mcptest.fuzz.sarif import fuzz_sarif

    log = json.loads(fuzz_sarif(FuzzReport.model_validate(defects)))
    results = log["runs"][0]["results"]
    assert len(results) == len(defects["findings"])
    crash = next(r for r in results if r["ruleId"] == "fuzz/crash")
    assert crash["level"] == "error"
    assert crash["locations"][0]["logicalLocations"][0]["name"] == "get_record"
    assert crash["properties"]["input"] == {"id": ""} and "--replay" in crash["properties"]["replay"]
    rules = log["runs"][0]["tool"]["driver"]["rules"]
    assert {r["id"] for r in rules} == {r["ruleId"] for r in results}
    assert next(r for r in results if r["ruleId"] == "fuzz/invalid_accepted")["level"] == "warning"


def test_a_fuzz_run_renders_through_the_run_reporters_as_one_row_per_tool(
    defects: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from mcptest.cli.fuzz import print_report, render
    from mcptest.fuzz.report import FuzzReport, as_run_report
    from tests.report.test_formats import validate_junit

    fuzzed = FuzzReport.model_validate(defects)
    run = as_run_report(fuzzed, "mcptest fuzz")
    rows = {r.tool: r for r in run.results}
    assert rows["delete_record"].status == "skipped" and rows["get_summary"].status == "failed"
    assert rows["find_orders"].status == "passed"  # its invalid_accepted is a warning, below --fail-on error
    assert rows["get_record"].targets["cases"] == 16 and rows["get_record"].targets["classes.crash"] >= 1
    crash = next(f for f in rows["get_record"].failures if f.target == "classes.crash")
    assert 'minimal input {"id":""}' in crash.message and "--replay" in crash.message
    assert run.summary.ok is fuzzed.ok is False
    junit = render(fuzzed, "junit", None)
    validate_junit(junit)
    assert 'tests="6" failures="4"' in junit and "<skipped" in junit  # crash/trace, hang, output, env; one skipped
    md = render(fuzzed, "md", None)
    assert "**fuzz get_record**" in md and "error crash" in md
    assert "| command | 83% (5/6) | 86% (6/7) |" in md and "| command | tool | `delete_record` |" in md  # coverage
    html = render(fuzzed, "html", None)
    assert "fuzz get_summary" in html and "output_schema" in html and "delete_record" in html
    print_report(fuzzed, no_color=True)
    shown = capsys.readouterr().out
    assert "coverage: tools 83% (5/6), tools succeeding 83% (5/6)" in shown and "not called: delete_record" in shown
    strict = as_run_report(fuzzed.model_copy(update={"fail_on": "warning"}), "mcptest fuzz")
    assert next(r for r in strict.results if r.tool == "find_orders").status == "failed"
    # The CLI writes any of them to a file (atomically), exit code unchanged.
    crash_line = shlex.split(next(f for f in defects["findings"] if f["kind"] == "crash")["replay"])
    out = tmp_path / "fuzz.xml"
    ran = mcptest(*crash_line[1:], "-r", "junit", "-o", str(out))
    assert ran.code == 1, ran.stderr
    validate_junit(out.read_text(encoding="utf-8"))
    assert "wrote the junit report" in ran.stderr
    bad = mcptest("fuzz", "--command", DEFECTS, "-r", "xml")
    assert bad.code == 2 and "unknown format 'xml'" in bad.stderr
