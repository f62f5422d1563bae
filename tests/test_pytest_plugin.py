"""The pytest plugin: suites collected as items, mcptest's failure text, -k, markers, xdist, and Python fixtures."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT

QUICKSTART = ROOT / "examples" / "quickstart"

PYTHON_TEST = """
from mcptest.python_api import MatchFailed, assert_that, run_gate


def test_a_server_from_the_suite(mcp_server):
    weather = mcp_server("weather")
    outcome = weather.call_tool("get_weather", {"city": "Oslo"})
    assert_that(outcome, "result.content[0].text", contains="Oslo")
    assert_that(outcome, "result.isError", exact=False)
    assert "get_weather" in [t["name"] for t in weather.list_tools()]
    assert weather is mcp_server("weather")  # one session per server and worker


def test_a_matcher_that_fails_says_why(mcp_server):
    outcome = mcp_server("weather").call_tool("get_weather", {"city": "Oslo"})
    try:
        assert_that(outcome, "result.content[0].text", contains="Lima")
    except MatchFailed as failed:
        assert "Lima" in str(failed)
    else:
        raise AssertionError("the matcher should have failed")


def test_a_server_from_a_command(mcp_server):
    server = mcp_server("w2", command="mcptest mock --tools-from weather.yml")
    assert_that(server.call_tool("get_weather", {"city": "Rome"}), "result.content[0].text", icontains="rome")
    # what this object's calls reached, over the server's live catalog: the one call answered, nothing else
    covered = server.coverage()
    assert (covered.figures["tools"].covered, covered.figures["tools"].total) == (1, 2)
    assert covered.missing()["tools"] == ["convert_temperature"]
    assert covered.tools["get_weather"].arguments["city"].supplied
"""


def pytest_in(directory: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "NO_COLOR": "1", "PATH": f"{Path(sys.executable).parent}:{os.environ['PATH']}"}
    env.pop("PYTEST_ADDOPTS", None)
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-rA", *args],
        cwd=directory, capture_output=True, text=True, timeout=240, env=env,
    )  # fmt: skip


@pytest.fixture
def project(tmp_path: Path) -> Path:
    for item in QUICKSTART.iterdir():
        (shutil.copytree if item.is_dir() else shutil.copy)(item, tmp_path / item.name)
    return tmp_path


def test_every_suite_test_is_an_item_and_passes(project: Path) -> None:
    ran = pytest_in(project)
    assert ran.returncode == 0, ran.stdout + ran.stderr
    for name in ("weather for a city", "a bad unit is rejected", "scripted agent converts the weather"):
        assert f"PASSED mcptest.yml::{name}" in ran.stdout
    assert "6 passed" in ran.stdout


def test_a_failing_test_reports_mcptests_own_failure_text(project: Path) -> None:
    suite = project / "mcptest.yml"
    suite.write_text(suite.read_text().replace('matcher: { contains: "Paris" }', 'matcher: { contains: "Lima" }', 1))
    ran = pytest_in(project)
    assert ran.returncode == 1
    assert "FAILED mcptest.yml::weather for a city" in ran.stdout and "5 passed" in ran.stdout
    assert "✗ result.content[0].text contains" in ran.stdout and "defined at" in ran.stdout
    assert "0 passed, 1 failed" not in ran.stdout  # the item's own text: no run header, no run summary
    assert not re.search(r"^mcptest \S+mcptest\.yml$", ran.stdout, re.MULTILINE)


def test_k_selects_by_name_and_tags_become_markers(project: Path) -> None:
    by_name = pytest_in(project, "-k", "structured")
    assert by_name.returncode == 0 and "1 passed, 5 deselected" in by_name.stdout, by_name.stdout
    # the session's coverage counts only the items that ran, and says how many of the suite did not
    assert "mcptest coverage (only the suite tests that ran count)" in by_name.stdout
    assert (
        "  coverage weather: tools 50% (1/2)," in by_name.stdout and "untested: convert_temperature" in by_name.stdout
    )
    assert "  5 tests of the suite did not run (filtered out, sharded away, -x, skipped): not counted" in by_name.stdout
    by_tag = pytest_in(project, "-m", "smoke")
    assert by_tag.returncode == 0 and "PASSED mcptest.yml::weather for a city" in by_tag.stdout
    assert " deselected" in by_tag.stdout and "PytestUnknownMarkWarning" not in by_tag.stdout


def test_items_spread_over_xdist_workers_each_with_its_own_sessions(project: Path) -> None:
    (project / "test_python.py").write_text(PYTHON_TEST)
    ran = pytest_in(project, "-n", "2")
    assert ran.returncode == 0, ran.stdout + ran.stderr
    assert "9 passed" in ran.stdout and "2 workers" in ran.stdout
    # the items' coverage, sent back from both workers, is united into the line `mcptest run` prints for the suite
    assert (
        "mcptest.yml:\n  coverage weather: tools 100% (2/2), tools succeeding 100% (2/2), tools failing 50% (1/2), "
        "arguments 100% (3/3), required arguments 100% (3/3), enums 50% (1/2); every tool called\n" in ran.stdout
    )


def test_python_tests_use_the_fixture_matchers_and_gates(project: Path) -> None:
    (project / "test_python.py").write_text(
        PYTHON_TEST
        + f"""

def test_a_gate_from_python():
    outcome = run_gate("tool_selection", {str(ROOT / "examples/agent-gates/traces/weather-good.json")!r},
                       {{"expected_tool": "get_weather", "min_selection_rate": 0.8}})
    assert outcome.targets["tool_selection.selected"] == 9 and outcome.targets["tool_selection.runs"] == 10
"""
    )
    ran = pytest_in(project, "test_python.py")
    assert ran.returncode == 0, ran.stdout + ran.stderr
    assert "4 passed" in ran.stdout


PARITY_TEST = f"""
import os

from mcptest.python_api import assert_that

NOTES = {str(ROOT / "examples" / "resources-and-prompts" / "notes.yml")!r}


def test_resources_and_prompts_as_a_suite_reads_them(mcp_server):
    notes = mcp_server("notes", command=f"mcptest mock --tools-from {{NOTES}}")
    assert [r["uri"] for r in notes.list_resources()] == ["notes://readme"]
    assert notes.list_resource_templates() == []
    assert "review_note" in [p["name"] for p in notes.list_prompts()]
    read = notes.read_resource("notes://readme")
    assert_that(read, "result.contents[0].text", contains="Install")
    assert_that(read, "result.contents[0].mimeType", exact="text/markdown")
    rendered = notes.get_prompt("review_note", {{"tone": "friendly"}})
    assert_that(rendered, "result.messages[0].content.text", exact="Review the note in a friendly tone.")
    assert_that(notes.get_prompt("no_such_prompt"), "error", contains="no_such_prompt")


def test_a_server_by_url_with_headers(mcp_server):
    every = mcp_server("every", url=os.environ["EVERYTHING_URL"], headers={{"X-Trace": "1"}})
    assert_that(every.get_prompt("args-prompt", {{"city": "Oslo"}}), "result.messages[0].content.text", contains="Oslo")
    read = every.read_resource("demo://resource/dynamic/text/3")
    assert_that(read, "result.contents[0].uri", exact="demo://resource/dynamic/text/3")
    assert_that(every.call_tool("echo", {{"message": "hi"}}), "duration_ms", **{{">=": 0}})
    missing = every.get_prompt("no-such-prompt")
    assert_that(missing, "error", contains="error -32602: ")
    assert "MCP error -32602" not in missing.error  # the code is said once
"""


def test_the_fixture_reads_resources_and_prompts_and_reaches_a_url(project: Path) -> None:
    from tests.surface.servers import everything_http

    (project / "test_parity.py").write_text(PARITY_TEST)
    with everything_http() as url:
        os.environ["EVERYTHING_URL"] = url
        try:
            ran = pytest_in(project, "test_parity.py")
        finally:
            del os.environ["EVERYTHING_URL"]
    assert ran.returncode == 0, ran.stdout + ran.stderr
    assert "2 passed" in ran.stdout


def test_a_broken_suite_is_a_collection_error_with_its_located_lines(project: Path) -> None:
    (project / "mcptest-broken.yml").write_text("servers: {}\ntools:\n  - name: x\n    argz: {}\n")
    ran = pytest_in(project, "mcptest-broken.yml")
    assert ran.returncode == 2
    assert "mcptest-broken.yml:4:5: tools[0]: unknown key 'argz'" in ran.stdout
