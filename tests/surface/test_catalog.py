"""`mcptest catalog` snapshots every primitive; the mock serves a snapshot back; doctor counts and prices it."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

import jsonschema

from mcptest.core.exit_codes import ExitCode
from mcptest.schemas import catalog_snapshot_schema
from tests.conftest import run_cli

SERVER = shlex.join([sys.executable, "-m", "tests.servers.surface_server"])


def snapshot_of(command: str, out: Path) -> dict:
    ran = run_cli("catalog", "--command", command, "--output", str(out), timeout=90)
    assert ran.code == ExitCode.OK, ran.stderr
    data = json.loads(out.read_text(encoding="utf-8"))
    jsonschema.validate(data, catalog_snapshot_schema())
    return data


def test_a_snapshot_holds_every_primitive_with_the_servers_identity(tmp_path: Path) -> None:
    data = snapshot_of(SERVER, tmp_path / "snap.json")
    assert data["format_version"] == "1"
    assert (data["server"]["name"], data["server"]["version"]) == ("surface-server", "1.2.3")
    assert {"tools", "resources", "prompts"} <= set(data["capabilities"])
    assert [t["name"] for t in data["tools"]] == ["chatty", "summarize", "who", "roots"]
    assert data["resources"] == [
        {"name": "readme", "uri": "notes://readme", "description": "The project's readme.", "mimeType": "text/markdown"}
    ]
    assert [t["uriTemplate"] for t in data["resourceTemplates"]] == ["notes://{owner}/{id}"]
    assert data["prompts"][0]["name"] == "code_review"
    assert data["prompts"][0]["arguments"] == [{"name": "language", "required": True}]


def test_the_mock_serves_a_snapshot_back_primitive_for_primitive(tmp_path: Path, write) -> None:
    original = snapshot_of(SERVER, tmp_path / "snap.json")
    served = snapshot_of(
        shlex.join([sys.executable, "-m", "mcptest", "mock", "--tools-from", str(tmp_path / "snap.json")]),
        tmp_path / "again.json",
    )
    for key in ("tools", "resources", "resourceTemplates", "prompts"):
        assert served[key] == original[key], key
    suite = write(
        "suite.yml",
        f"""
servers:
  mock:
    command: [mcptest, mock, --tools-from, {json.dumps(str(tmp_path / "snap.json"))}]
resources:
  - name: a listed resource
    server: mock
    uri: notes://readme
    expect:
      - result.contents[0].text: {{ exact: "mcptest mock: notes://readme (contents were not captured)" }}
      - result.contents[0].mimeType: {{ exact: text/markdown }}
  - name: a templated one
    server: mock
    template: "notes://{{owner}}/{{id}}"
    args: {{ owner: ada, id: 7 }}
    expect:
      - result.contents[0].uri: {{ exact: notes://ada/7 }}
prompts:
  - name: the prompt
    server: mock
    prompt: code_review
    args: {{ language: python }}
    expect:
      - result.messages[0].content.text: {{ exact: "mcptest mock: prompt code_review with language=python" }}
""",
    )
    ran = run_cli("run", str(suite), timeout=90)
    assert ran.code == ExitCode.OK, ran.stdout + ran.stderr


def test_doctor_counts_and_prices_each_primitive_of_a_snapshot(tmp_path: Path) -> None:
    snapshot_of(SERVER, tmp_path / "snap.json")
    ran = run_cli("doctor", "--catalog", str(tmp_path / "snap.json"), "--json")
    checks = {c["check"]: c for c in json.loads(ran.stdout)["checks"]}
    assert [name for name in checks] == [
        "catalog readable",
        "tool-surface tokens",
        "resources",
        "resource templates",
        "prompts",
    ]
    assert checks["resources"]["data"]["count"] == 1
    assert checks["resource templates"]["data"]["count"] == 1
    assert checks["prompts"]["data"]["count"] == 1
    assert all(checks[k]["data"]["tokens"] > 10 for k in ("resources", "resource templates", "prompts"))
