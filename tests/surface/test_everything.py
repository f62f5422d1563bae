"""The npm server-everything (installed by `make install`): its resources, templates, prompts, sampling,
elicitation, roots, logging and progress tools, over stdio and Streamable HTTP."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from mcptest.core.exit_codes import ExitCode
from tests.conftest import run_cli
from tests.surface.servers import EVERYTHING, everything_http

SUITE = """
servers:
  everything:
{server}
    client:
      roots: ["file:///workspace"]
      sampling:
        - when: {{ contains: haiku }}
          text: "Leaves fall."
        - text: "Something else."
      elicitation: {{ action: accept, content: {{ name: Ada }} }}
tools:
  - name: sampling
    server: everything
    tool: trigger-sampling-request
    args: {{ prompt: write a haiku }}
    expect:
      - result.content[0].text: {{ contains: Leaves fall. }}
      - sampling_requests[0].messages[0].content.text: {{ contains: write a haiku }}
      - sampling_requests[0].systemPrompt: {{ exact: You are a helpful test server. }}
  - name: elicitation
    server: everything
    tool: trigger-elicitation-request
    expect:
      - result.content[1].text: {{ contains: "Name: Ada" }}
      - elicitation_requests[0].requestedSchema.properties.name.type: {{ exact: string }}
  - name: roots
    server: everything
    tool: get-roots-list
    expect:
      - result.content[0].text: {{ contains: "URI: file:///workspace" }}
  - name: progress
    server: everything
    tool: trigger-long-running-operation
    args: {{ duration: 0.2, steps: 2 }}
    expect:
      - progress[0]: {{ schema: {{ required: [progress, total], properties: {{ total: {{ const: 2 }} }} }} }}
      - progress[1].progress: {{ exact: 2 }}
  - name: logging
    server: everything
    tool: toggle-simulated-logging
    expect:
      # its first log is fire-and-forget and may land after the result: logs are pinned on our SDK server
      - result.content[0].text: {{ contains: "Started simulated" }}
resources:
  - name: a static document
    server: everything
    uri: demo://resource/static/document/architecture.md
    expect:
      - result.contents[0].mimeType: {{ exact: text/markdown }}
      - result.contents[0].text: {{ contains: Architecture }}
  - name: a dynamic text resource by template
    server: everything
    template: "demo://resource/dynamic/text/{{resourceId}}"
    args: {{ resourceId: 7 }}
    expect:
      - result.contents[0].uri: {{ exact: demo://resource/dynamic/text/7 }}
      - result.contents[0].text: {{ contains: Resource 7 }}
  - name: a concrete URI a template covers
    server: everything
    uri: demo://resource/dynamic/blob/3
    expect:
      - result.contents[0].blob: {{ regex: "." }}
  - name: a misspelt URI
    server: everything
    uri: demo://resource/static/document/architecture.mdx
prompts:
  - name: the args prompt renders
    server: everything
    prompt: args-prompt
    args: {{ city: Paris }}
    expect:
      - result.messages[0].content.text: {{ exact: "What's weather in Paris?" }}
  - name: a misspelt prompt
    server: everything
    prompt: args-promt
"""


@contextmanager
def stdio() -> Iterator[str]:
    yield f"    command: [{json.dumps(EVERYTHING)}]"


@contextmanager
def http() -> Iterator[str]:
    with everything_http() as url:
        yield f"    url: {url}"


@pytest.mark.parametrize("transport", [stdio, http], ids=["stdio", "streamable-http"])
def test_server_everything_primitives_and_callbacks(transport, write) -> None:
    with transport() as server:
        suite = write("suite.yml", SUITE.format(server=server))
        ran = run_cli("run", str(suite), "--reporter", "json", timeout=120)
    report = json.loads(ran.stdout)
    failed = {r["name"]: r.get("error") for r in report["results"] if r["status"] != "passed"}
    assert failed == {
        "a misspelt URI": "server 'everything': the server lists no resource "
        "'demo://resource/static/document/architecture.mdx' and no template matches it "
        "(did you mean 'demo://resource/static/document/architecture.md'?)",
        "a misspelt prompt": "server 'everything': the server lists no prompt 'args-promt' "
        "(did you mean 'args-prompt'?)",
    }
    assert ran.code == ExitCode.FAILED
    assert report["summary"]["passed"] == 9
