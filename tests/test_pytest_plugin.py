"""The pytest plugin: suites collected as items, mcptest's failure text, -k, markers, xdist, and Python fixtures."""

from __future__ import annotations

import os
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


def test_k_selects_by_name_and_tags_become_markers(project: Path) -> None:
    by_name = pytest_in(project, "-k", "structured")
    assert by_name.returncode == 0 and "1 passed, 5 deselected" in by_name.stdout, by_name.stdout
    by_tag = pytest_in(project, "-m", "smoke")
    assert by_tag.returncode == 0 and "PASSED mcptest.yml::weather for a city" in by_tag.stdout
    assert " deselected" in by_tag.stdout and "PytestUnknownMarkWarning" not in by_tag.stdout


def test_items_spread_over_xdist_workers_each_with_its_own_sessions(project: Path) -> None:
    (project / "test_python.py").write_text(PYTHON_TEST)
    ran = pytest_in(project, "-n", "2")
    assert ran.returncode == 0, ran.stdout + ran.stderr
    assert "9 passed" in ran.stdout and "2 workers" in ran.stdout


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


def test_a_broken_suite_is_a_collection_error_with_its_located_lines(project: Path) -> None:
    (project / "mcptest-broken.yml").write_text("servers: {}\ntools:\n  - name: x\n    argz: {}\n")
    ran = pytest_in(project, "mcptest-broken.yml")
    assert ran.returncode == 2
    assert "mcptest-broken.yml:4:5: tools[0]: unknown key 'argz'" in ran.stdout
