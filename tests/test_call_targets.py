"""One call's assertion targets are read alike by a suite and by the Python API, against a real SDK server
(tests/servers/surface_server.py over stdio, whose `chatty` tool logs and reports progress on each step)."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from anyio.from_thread import start_blocking_portal

from mcptest.python_api import MatchFailed, Server, assert_that, server_config
from mcptest.run.targets import call_targets
from mcptest.server.session import CallOutcome
from mcptest.suite.loader import TOOL_TARGET_ROOTS, load_suite
from tests.conftest import ROOT, run_cli

CASES: dict[str, tuple[str, dict[str, Any]]] = {
    "a whole log message": ("logs[0]", {"exact": {"level": "info", "data": "step 1"}}),
    "a log message's data": ("logs[1].data", {"contains": "step 2"}),
    "a log message that says otherwise": ("logs[0].data", {"exact": "step 9"}),
    "a log message past the last": ("logs[2]", {"exact": {"level": "info", "data": "step 3"}}),
    "a progress message": ("progress[1].message", {"exact": "step 2 of 2"}),
    "a progress total too low": ("progress[0].total", {">=": 3}),
    "no sampling request": ("sampling_requests", {"exact": []}),
    "an elicitation request never made": ("elicitation_requests[0].message", {"contains": "name"}),
    "the result": ("result.content[0].text", {"exact": "did 2 steps"}),
    "no error": ("error", {"exact": None}),
    "the duration": ("duration_ms", {"<": 60000}),
}
"""Each a one-assertion test of `chatty(steps=2)`, named for what it reads; some pass, some fail."""


@pytest.fixture(scope="module")
def suite(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tests = [
        {"name": name, "server": "surface", "tool": "chatty", "args": {"steps": 2}, "expect": [{target: matcher}]}
        for name, (target, matcher) in CASES.items()
    ]
    server = {"command": [sys.executable, "-m", "tests.servers.surface_server"], "cwd": str(ROOT)}
    path = tmp_path_factory.mktemp("targets") / "mcptest.yml"
    path.write_text(json.dumps({"servers": {"surface": server}, "tools": tests}), encoding="utf-8")  # JSON is YAML
    return path


@pytest.fixture(scope="module")
def suite_results(suite: Path) -> dict[str, dict[str, Any]]:
    """Each test's row in the report of `mcptest run SUITE --reporter json`."""
    ran = run_cli("run", str(suite), "--reporter", "json", timeout=120)
    assert ran.stdout, ran.stderr
    return {r["name"]: r for r in json.loads(ran.stdout)["results"]}


@pytest.fixture(scope="module")
def surface(suite: Path) -> Iterator[Server]:
    """The suite's server, connected as the pytest plugin's `mcp_server("surface", suite=...)` connects it."""
    with ExitStack() as stack:
        portal = stack.enter_context(start_blocking_portal())
        config, base = server_config("surface", suite, None, load_suite)
        yield Server("surface", config, base, portal, stack)


@pytest.mark.parametrize("name", list(CASES))
def test_assert_that_on_a_call_passes_and_fails_where_the_same_suite_assertion_does_with_its_message(
    name: str, suite_results: dict[str, dict[str, Any]], surface: Server
) -> None:
    target, matcher = CASES[name]
    row = suite_results[name]
    assert row["error"] is None, row["error"]
    outcome = surface.call_tool("chatty", {"steps": 2})
    if row["status"] == "passed":
        assert_that(outcome, target, **matcher)
        return
    assert row["status"] == "failed"
    (f,) = row["failures"]
    with pytest.raises(MatchFailed) as failed:
        assert_that(outcome, target, **matcher)
    assert str(failed.value) == f"{f['target']} {f['matcher']} {f['expected']!r}: {f['message']}"


def test_the_cases_include_log_assertions_that_pass_and_that_fail_in_the_suite(
    suite_results: dict[str, dict[str, Any]],
) -> None:
    status = {name: row["status"] for name, row in suite_results.items()}
    assert status["a whole log message"] == status["a log message's data"] == "passed"
    assert status["a log message that says otherwise"] == status["a log message past the last"] == "failed"
    assert suite_results["a log message past the last"]["failures"][0]["message"] == (
        "target not found: logs has 2 items; no index [2]"
    )


def test_a_python_call_outcome_carries_the_logs_and_progress_the_server_sent(surface: Server) -> None:
    outcome = surface.call_tool("chatty", {"steps": 2})
    assert outcome.logs == [{"level": "info", "data": "step 1"}, {"level": "info", "data": "step 2"}]
    assert [p["message"] for p in outcome.progress] == ["step 1 of 2", "step 2 of 2"]
    assert outcome.sampling_requests == outcome.elicitation_requests == []


def test_a_call_offers_exactly_the_roots_a_suite_may_target() -> None:
    assert sorted(call_targets(CallOutcome())) == sorted(TOOL_TARGET_ROOTS)


def test_a_path_into_a_call_that_has_no_result_says_why_as_a_suite_does() -> None:
    with pytest.raises(MatchFailed, match=r"target not found: there is no result: connection lost"):
        assert_that(CallOutcome(error="connection lost"), "result.isError", exact=False)


@pytest.mark.parametrize(
    ("tool", "args", "asked"), [("summarize", {"text": "hello"}, "sampling"), ("who", {}, "elicitation")]
)
def test_assert_that_fails_a_call_whose_server_request_went_unanswered_as_a_suite_does(
    surface: Server, tool: str, args: dict[str, Any], asked: str
) -> None:
    outcome = surface.call_tool(tool, args)
    with pytest.raises(MatchFailed, match=rf"server 'surface' asked for {asked} .*the suite gives no answer"):
        assert_that(outcome, "duration_ms", **{">=": 0})
