"""Every primitive and callback against an SDK server of ours (tests/servers/surface_server.py), over stdio and
Streamable HTTP: resources by URI and template, prompts, logs, progress, sampling, elicitation and roots."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from mcptest.core.exit_codes import ExitCode
from tests.conftest import ROOT, free_port, run_cli
from tests.surface.servers import listening

CLIENT = """
    client:
      roots: ["file:///workspace"]
      sampling:
        - when: { contains: weather }
          text: "Not this one."
        - when: { contains: summarize }
          text: "A two-line summary."
      elicitation: { action: accept, content: { name: Ada } }
"""
TESTS = """
tools:
  - name: logs and progress
    server: surface
    tool: chatty
    args: { steps: 2 }
    expect:
      - logs[1]: { exact: { level: info, data: "step 2" } }
      - progress[1]: { exact: { progress: 2, total: 2, message: "step 2 of 2" } }
      - result.content[0].text: { exact: did 2 steps }
  - name: sampling
    server: surface
    tool: summarize
    args: { text: hello }
    expect:
      - result.content[0].text: { exact: "summary: A two-line summary." }
      - sampling_requests[0].messages[0].content.text: { exact: "summarize: hello" }
      - sampling_requests[0].maxTokens: { exact: 50 }
  - name: elicitation
    server: surface
    tool: who
    expect:
      - result.content[0].text: { exact: "accept: Ada" }
      - elicitation_requests[0].message: { exact: "What is your name?" }
  - name: roots
    server: surface
    tool: roots
    expect:
      - result.content[0].text: { exact: "file:///workspace" }
resources:
  - name: the readme is served
    server: surface
    uri: notes://readme
    expect:
      - result.contents[0].text: { contains: Install }
      - result.contents[0].mimeType: { exact: text/markdown }
  - name: a note by template
    server: surface
    template: "notes://{owner}/{id}"
    args: { owner: ada, id: 7 }
    expect:
      - result.contents[0]: { exact: { uri: "notes://ada/7", mimeType: text/plain, text: note 7 of ada } }
prompts:
  - name: the review prompt renders
    server: surface
    prompt: code_review
    args: { language: python }
    expect:
      - result.messages[0].content.text: { exact: Please review this python code. }
"""
NAMES = ["logs and progress", "sampling", "elicitation", "roots", "the readme is served", "a note by template"]


@contextmanager
def stdio() -> Iterator[str]:
    command = f"    command: [{json.dumps(sys.executable)}, -m, tests.servers.surface_server]"
    yield f"{command}\n    cwd: {json.dumps(str(ROOT))}"


@contextmanager
def http() -> Iterator[str]:
    port = free_port()
    with listening([sys.executable, "-m", "tests.servers.surface_server", "http", str(port)], "running on"):
        yield f"    url: http://127.0.0.1:{port}/mcp"


def run_json(write, server: str, client: str = CLIENT, tests: str = TESTS) -> tuple[int, dict]:
    suite = write("suite.yml", f"servers:\n  surface:\n{server}\n{client}\n{tests}")
    ran = run_cli("run", str(suite), "--reporter", "json", timeout=120)
    assert ran.stdout, ran.stderr
    return ran.code, json.loads(ran.stdout)


@pytest.mark.parametrize("transport", [stdio, http], ids=["stdio", "streamable-http"])
def test_every_primitive_and_callback_passes_over(transport, write) -> None:
    with transport() as server:
        code, report = run_json(write, server)
    results = {r["name"]: r for r in report["results"]}
    assert {n: r["status"] for n, r in results.items()} == {n: "passed" for n in [*NAMES, "the review prompt renders"]}
    assert code == ExitCode.OK
    assert results["a note by template"]["kind"] == "resource"
    assert results["a note by template"]["resource"] == "notes://ada/7"
    assert (results["the review prompt renders"]["kind"], results["the review prompt renders"]["prompt"]) == (
        "prompt",
        "code_review",
    )


def test_a_request_the_suite_does_not_answer_fails_its_test_saying_what_was_asked_and_how_to_answer(write) -> None:
    with stdio() as server:
        code, report = run_json(write, server, client="")
    errors = {r["name"]: r["error"] for r in report["results"] if r["status"] == "failed"}
    assert code == ExitCode.FAILED
    assert errors["sampling"] == (
        "server 'surface' asked for sampling (last message: \"summarize: hello\"); the suite gives no answer: "
        'answer it with `servers.surface.client.sampling: [{ text: "..." }]`'
    )
    assert errors["elicitation"] == (
        "server 'surface' asked for elicitation (\"What is your name?\"); the suite gives no answer: "
        "answer it with `servers.surface.client.elicitation: { action: accept, content: {...} }`"
    )
    assert set(errors) == {"sampling", "elicitation", "roots"}  # roots are not advertised without `roots:`


def test_sampling_rules_match_in_order_and_a_declined_form_reaches_the_tool(write) -> None:
    client = """
    client:
      sampling:
        - when: { contains: weather }
          text: "Not this one."
      elicitation: { action: decline }
"""
    tests = """
tools:
  - name: no rule matches
    server: surface
    tool: summarize
    args: { text: hello }
  - name: declined
    server: surface
    tool: who
    expect:
      - result.content[0].text: { exact: "decline: -" }
"""
    with stdio() as server:
        code, report = run_json(write, server, client=client, tests=tests)
    first, second = report["results"]
    assert first["error"].startswith("server 'surface' asked for sampling (last message: \"summarize: hello\"); ")
    assert "no `client.sampling` answer matches it" in first["error"]
    assert second["status"] == "passed"


def test_elicitation_answers_match_the_request_message_in_order_and_one_without_when_catches_the_rest(write) -> None:
    client = """
    client:
      elicitation:
        - when: { contains: email }
          action: decline
        - when: { contains: name }
          action: accept
          content: { name: Grace }
        - action: cancel
"""
    tests = """
tools:
  - name: the second rule answers
    server: surface
    tool: who
    expect:
      - result.content[0].text: { exact: "accept: Grace" }
"""
    with stdio() as server:
        code, report = run_json(write, server, client=client, tests=tests)
        assert (code, report["results"][0]["status"]) == (0, "passed"), report
        only_email = client.replace("        - action: cancel\n", "").replace("{ contains: name }", "{ contains: zip }")
        code, report = run_json(write, server, client=only_email, tests=tests)
    assert "no `client.elicitation` answer's `when:` matches it" in report["results"][0]["error"]
