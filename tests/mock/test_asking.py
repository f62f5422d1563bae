"""Mock tools that ask the client for sampling or elicitation before answering, on both protocol generations."""

from __future__ import annotations

import json
from pathlib import Path

import anyio
from mcp import Client, types

from mcptest.core.exit_codes import ExitCode
from mcptest.mock.faults import Fault
from mcptest.mock.loading import load_manifest
from mcptest.mock.server import build
from tests.conftest import run_cli

MANIFEST = """
mock_server:
  name: asking
  tools:
    - name: summarize
      description: Summarize a text with the client's model.
      input_schema: { type: object, properties: { text: { type: string } }, required: [text] }
      asks:
        sampling: { message: "Summarize: ${args.text}", max_tokens: 60 }
      response:
        content: [ { type: text, text: "summary: ${sampling.text}" } ]
    - name: signup
      description: Ask the user for their name.
      input_schema: { type: object }
      asks:
        elicitation:
          message: "Your name?"
          schema: { type: object, properties: { name: { type: string } }, required: [name] }
      response:
        content: [ { type: text, text: "${elicitation.action}: ${elicitation.content.name}" } ]
"""


def test_a_suite_answers_the_mocks_questions_offline(write) -> None:
    manifest = write("asking.yml", MANIFEST)
    suite = write(
        "suite.yml",
        f"""
servers:
  asking:
    command: [mcptest, mock, --tools-from, {json.dumps(str(manifest))}]
    client:
      sampling: [ {{ text: "Short." }} ]
      elicitation: {{ action: accept, content: {{ name: Ada }} }}
tools:
  - name: summarize
    server: asking
    tool: summarize
    args: {{ text: long story }}
    expect:
      - result.content[0].text: {{ exact: "summary: Short." }}
      - sampling_requests[0].messages[0].content.text: {{ exact: "Summarize: long story" }}
      - sampling_requests[0].maxTokens: {{ exact: 60 }}
  - name: signup
    server: asking
    tool: signup
    expect:
      - result.content[0].text: {{ exact: "accept: Ada" }}
      - elicitation_requests[0].requestedSchema.required: {{ exact: [name] }}
""",
    )
    ran = run_cli("run", str(suite), timeout=90)
    assert ran.code == ExitCode.OK, ran.stdout + ran.stderr


def test_a_handshake_era_client_is_asked_mid_call(tmp_path: Path) -> None:
    manifest = tmp_path / "asking.yml"
    manifest.write_text(MANIFEST, encoding="utf-8")
    server = build(load_manifest(str(manifest)), Fault("none"))
    asked: list[str] = []

    async def sampling(ctx: object, params: types.CreateMessageRequestParams) -> types.CreateMessageResult:
        asked.append("sampling")
        text = types.TextContent(type="text", text="Brief.")
        return types.CreateMessageResult(role="assistant", content=text, model="m")

    async def elicitation(ctx: object, params: types.ElicitRequestParams) -> types.ElicitResult:
        asked.append("elicitation")
        return types.ElicitResult(action="decline")

    async def main() -> list[str]:
        async with Client(server, mode="legacy", sampling_callback=sampling, elicitation_callback=elicitation) as c:
            assert c.protocol_version < "2026"
            texts = []
            for name, args in (("summarize", {"text": "x"}), ("signup", {})):
                result = await c.call_tool(name, args)
                texts.append(result.content[0].text)  # type: ignore[union-attr]
            return texts

    assert anyio.run(main) == ["summary: Brief.", "decline: "]
    assert asked == ["sampling", "elicitation"]
