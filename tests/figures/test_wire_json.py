"""Issue 12: result targets read the wire JSON the server sent, with no SDK-added field (`resultType`)."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import ROOT, run_cli

EVERYTHING = ROOT / "tests" / "servers" / "npm" / "node_modules" / ".bin" / "mcp-server-everything"
SUITE = f"""
servers:
  everything:
    command: ["{EVERYTHING}"]
tools:
  - name: echo
    server: everything
    tool: echo
    args: {{ message: hi }}
    expect:
      - result.content[0].text: {{ contains: hi }}
      - result.resultType: {{ exact: complete }}
"""


def test_result_targets_read_the_wire_json_the_server_sent(tmp_path: Path) -> None:
    (tmp_path / "suite.yml").write_text(SUITE)
    ran = run_cli("run", "suite.yml", "-r", "json", cwd=tmp_path, timeout=120)
    (row,) = json.loads(ran.stdout)["results"]
    # the TypeScript server sends only `content`; the Python SDK's default `resultType` is no part of it
    assert [(f["target"], f["message"]) for f in row["failures"]] == [
        ("result.resultType", "target not found: result.resultType is absent (keys: content)")
    ]
