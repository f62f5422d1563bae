"""Tools run as tasks (MCP 2025-11-25): created, followed by polls and status notifications, fetched, cancelled on
timeout; against the mock serving task tools from its manifest and against server-everything's research tool."""

from __future__ import annotations

import sys
from pathlib import Path

import anyio
import pytest

from mcptest.core.exit_codes import ExitCode
from mcptest.run.runner import run_suite
from mcptest.suite.loader import load_suite
from tests.conftest import ROOT, run_cli

EVERYTHING = ROOT / "tests" / "servers" / "npm" / "node_modules" / ".bin" / "mcp-server-everything"

MANIFEST = """
mock_server:
  name: reports
  tools:
    - name: build_report
      description: Build a report on a topic. Returns the report as text.
      input_schema: { type: object, properties: { topic: { type: string } }, required: [topic] }
      annotations: { read_only_hint: true }
      execution: { task_support: required }
      response:
        content: [ { type: text, text: "report on ${args.topic}" } ]
    - name: quick_answer
      description: Answer at once. Returns a short text.
      input_schema: { type: object }
      annotations: { read_only_hint: true }
      execution: { task_support: optional }
    - name: ping
      description: Check the server answers. Returns pong.
      input_schema: { type: object }
      annotations: { read_only_hint: true }
"""

SUITE = """
servers:
  mock:
    command: [{python}, -m, mcptest, mock, --tools-from, manifest.yml, --fault, "slow:200"]
    env: {{ PYTHONPATH: {root} }}
  hung:
    command: [{python}, -m, mcptest, mock, --tools-from, manifest.yml, --fault, hang]
    env: {{ PYTHONPATH: {root} }}
    call_timeout_s: 1
tools:
  - name: required runs as a task
    server: mock
    tool: build_report
    args: {{ topic: tides }}
    expect:
      - result.content[0].text: {{ exact: report on tides }}
      - task.statuses: {{ exact: [working, completed] }}
      - task.status: {{ exact: completed }}
      - task.notifications: {{ exact: 1 }}
      - task.polls: {{ schema: {{ minimum: 1 }} }}
  - name: optional runs plainly
    server: mock
    tool: quick_answer
    expect:
      - result.content[0].text: {{ contains: quick_answer }}
  - name: optional is followed too when the test asks
    server: mock
    tool: quick_answer
    task: true
    expect:
      - task.statuses: {{ exact: [working, completed] }}
  - name: optional asked for its task when it ran plainly
    server: mock
    tool: quick_answer
    expect:
      - task.status: {{ exact: completed }}
  - name: required called plainly
    server: mock
    tool: build_report
    task: false
    args: {{ topic: tides }}
  - name: forbidden asked to run as a task
    server: mock
    tool: ping
    task: true
  - name: a task out of time is cancelled
    server: hung
    tool: build_report
    args: {{ topic: tides }}
    expect:
      - error: {{ contains: "did not finish within 1s" }}
      - task.statuses: {{ exact: [working, cancelled] }}
      - task.cancelled: {{ exact: true }}
"""


@pytest.fixture
def mock_suite(write) -> Path:
    write("manifest.yml", MANIFEST)
    return write("suite.yml", SUITE.format(python=sys.executable, root=ROOT))


def test_the_mock_serves_task_tools_and_the_runner_follows_them_to_their_end(mock_suite: Path) -> None:
    report = anyio.run(lambda: run_suite(load_suite(mock_suite))).report
    outcome = {r.name: (r.status.value, r.error, [f.message for f in r.failures]) for r in report.results}
    assert outcome["required runs as a task"] == ("passed", None, [])
    assert outcome["optional runs plainly"] == ("passed", None, [])
    assert outcome["optional is followed too when the test asks"] == ("passed", None, [])
    assert outcome["optional asked for its task when it ran plainly"][0] == "failed"
    assert (
        "the call did not run as a task (set `task: true`"
        in outcome["optional asked for its task when it ran plainly"][2][0]
    )
    assert outcome["required called plainly"][:2] == (
        "failed",
        "server 'mock': the server answered with error -32601: Tool build_report requires task augmentation "
        "(taskSupport: 'required'); tool 'build_report' is task-required (execution.taskSupport: required): "
        "leave out `task: false`",
    )
    assert outcome["forbidden asked to run as a task"][:2] == (
        "failed",
        "server 'mock': tool 'ping' does not run as a task (execution.taskSupport: forbidden or absent): "
        "remove `task: true`",
    )
    assert outcome["a task out of time is cancelled"] == ("passed", None, [])


def test_a_task_required_tool_on_a_server_without_task_support_fails_saying_why(write) -> None:
    server = f"[{sys.executable}, {ROOT / 'tests' / 'servers' / 'untasked_server.py'}]"
    suite = write(
        "suite.yml", f"servers:\n  s:\n    command: {server}\ntools:\n  - {{ name: r, server: s, tool: research }}\n"
    )
    [result] = anyio.run(lambda: run_suite(load_suite(suite))).report.results
    assert result.error == (
        "server 's': tool 'research' is task-required (execution.taskSupport: required), but the server declares no "
        "tasks.requests.tools.call capability (protocol 2025-11-25), so mcptest cannot call it as a task"
    )


def test_server_everythings_research_task_asks_for_input_and_completes(write) -> None:
    suite = write(
        "suite.yml",
        f"""
servers:
  everything:
    command: [{EVERYTHING}]
    client:
      elicitation: {{ action: accept, content: {{ interpretation: snake }} }}
tools:
  - name: an ambiguous research query
    server: everything
    tool: simulate-research-query
    args: {{ topic: python, ambiguous: true }}
    expect:
      - result.content[0].text: {{ contains: "Research Report: python (snake)" }}
      - task.statuses: {{ exact: [working, input_required, working, completed] }}
      - task.notifications: {{ schema: {{ minimum: 3 }} }}
      - elicitation_requests[0].message: {{ contains: multiple interpretations }}
      - task.history[0].statusMessage: {{ exact: Gathering sources... }}
  - name: the research tool called plainly
    server: everything
    tool: simulate-research-query
    task: false
    args: {{ topic: python }}
""",
    )
    report = anyio.run(lambda: run_suite(load_suite(suite))).report
    first, plain = report.results
    assert (first.status.value, first.error, first.failures) == ("passed", None, [])
    assert plain.error == (
        "tool 'simulate-research-query' is task-required (execution.taskSupport: required): leave out `task: false`"
    )


def test_init_writes_a_passing_test_for_a_task_required_tool(write, tmp_path: Path) -> None:
    manifest = write("manifest.yml", MANIFEST)
    command = f"env PYTHONPATH={ROOT} {sys.executable} -m mcptest mock --tools-from {manifest}"
    made = run_cli("init", "--command", command, "--name", "srv", "--dir", str(tmp_path / "out"), timeout=120)
    assert made.code == ExitCode.OK, made.stderr
    suite = (tmp_path / "out" / "mcptest.yml").read_text(encoding="utf-8")
    assert "    tool: build_report\n" in suite and "      - target: task.status\n" in suite
    ran = run_cli("run", str(tmp_path / "out" / "mcptest.yml"), "--reporter", "json", timeout=120)
    assert ran.code == ExitCode.OK, ran.stdout[-2000:] + ran.stderr[-2000:]


def test_doctor_names_task_tools_and_fails_a_task_required_tool_nobody_can_call() -> None:
    ran = run_cli("doctor", "--command", f"{sys.executable} {ROOT / 'tests' / 'servers' / 'untasked_server.py'}")
    assert ran.code == 1
    [line] = [line for line in ran.stdout.splitlines() if " tasks " in line]
    assert line.endswith("task-required: research; but no tasks.requests.tools.call capability")


def test_a_mock_task_tool_that_asks_the_client_is_refused_at_its_line(write) -> None:
    asks = "      asks: { sampling: { message: hi } }\n"
    manifest = write(
        "manifest.yml",
        MANIFEST.replace(
            "      execution: { task_support: required }\n", f"      execution: {{ task_support: required }}\n{asks}", 1
        ),
    )
    ran = run_cli("mock", "--tools-from", str(manifest))
    assert (ran.code, ran.stderr.strip()) == (
        2,
        f"{manifest}:9:7: mock_server.tools[0].asks: a tool served as a task cannot ask the client (the mock runs "
        "tasks without a way back to it); drop `asks:` or `execution:`",
    )
