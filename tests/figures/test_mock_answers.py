"""Issue 12: the mock's stub answer follows `$ref` in an outputSchema (the real mcp-server-time's convert_time), and
a schema message says JSON `null`, not Python `None`."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from mcptest.core.exit_codes import ExitCode
from tests.conftest import run_cli

TIME = Path(sys.executable).parent / "mcp-server-time"
SUITE = """
servers:
  time:
    command: ["mcptest", "mock", "--tools-from", "time.json"]
tools:
  - name: convert
    server: time
    tool: convert_time
    args: { source_timezone: UTC, time: "12:00", target_timezone: Europe/Paris }
    expect:
      - result.structuredContent.source: { schema: { type: object, required: [timezone, datetime] } }
"""


def test_the_mock_stub_answer_follows_ref_in_an_output_schema(tmp_path: Path) -> None:
    saved = run_cli("tools", "--command", str(TIME), "-o", "time.json", cwd=tmp_path, timeout=120)
    assert saved.code == ExitCode.OK, saved.stderr
    schema = next(t for t in json.loads((tmp_path / "time.json").read_text())["tools"] if t["name"] == "convert_time")
    assert schema["outputSchema"]["properties"]["source"] == {"$ref": "#/$defs/TimeResult"}
    (tmp_path / "suite.yml").write_text(SUITE)
    ran = run_cli("run", "suite.yml", "-r", "json", cwd=tmp_path, timeout=120)
    assert ran.code == ExitCode.OK, ran.stdout + ran.stderr
    (row,) = json.loads(ran.stdout)["results"]
    assert row["status"] == "passed"


def test_schema_messages_print_json_null_not_python_none(tmp_path: Path) -> None:
    suite = SUITE.replace(
        "result.structuredContent.source: { schema: { type: object, required: [timezone, datetime] } }",
        "result.structuredContent.source.missing: { schema: { type: [string, object] } }",
    )
    (tmp_path / "suite.yml").write_text(suite)
    run_cli("tools", "--command", str(TIME), "-o", "time.json", cwd=tmp_path, timeout=120)
    nulled = json.loads((tmp_path / "time.json").read_text())
    for tool in nulled["tools"]:  # a tool whose stub is null where an object is due: the client-side check fails
        if tool["name"] == "convert_time":
            tool["outputSchema"]["$defs"]["TimeResult"] = {"type": ["null", "object"]}
            tool["outputSchema"]["properties"]["target"] = {"type": "object"}
            tool["outputSchema"]["properties"]["target"]["default"] = None
    (tmp_path / "time.json").write_text(json.dumps(nulled))
    ran = run_cli("run", "suite.yml", "-r", "json", cwd=tmp_path, timeout=120)
    (row,) = json.loads(ran.stdout)["results"]
    messages = " ".join(f["message"] for f in row["failures"])
    assert "at target: null is not of type 'object'" in messages
    assert "None" not in messages
