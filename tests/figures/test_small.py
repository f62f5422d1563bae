"""Issue 12, the small items: counts of one read singular, and top-level `x-` keys hold shared anchors."""

from __future__ import annotations

import json
from pathlib import Path

from mcptest.core.exit_codes import ExitCode
from tests.conftest import run_cli
from tests.providers.helpers import write_suite

ONE = """
servers:
  weather:
    command: ["mcptest", "mock", "--tools-from", "weather.yml"]
tools:
  - name: paris
    server: weather
    tool: get_weather
    args: { city: Paris }
"""


def test_one_server_and_one_tool_are_singular(tmp_path: Path) -> None:
    write_suite(tmp_path, "")  # the mock fixtures
    suite = tmp_path / "one.yml"
    suite.write_text(ONE)
    ran = run_cli("validate", str(suite), cwd=tmp_path)
    assert ran.stderr == f"{suite}: ok (1 server, 1 tool test, 0 agent tests, 0 tool_quality blocks)\n"
    catalog = tmp_path / "one.json"
    tools = json.loads((Path(__file__).parents[1] / "lint" / "fixtures" / "mcp-server-time.json").read_text())
    catalog.write_text(json.dumps({"tools": tools["tools"][:1]}))
    doctor = run_cli("doctor", "--catalog", str(catalog), cwd=tmp_path)
    assert "✓ catalog readable" in doctor.stdout and "1 tool\n" in doctor.stdout and "1 tools" not in doctor.stdout
    lint = run_cli("doctor", "--catalog", str(catalog), "--lint-descriptions", cwd=tmp_path)
    assert f"Descriptions {catalog}: 1 tool, " in lint.stdout
    live = run_cli("doctor", str(suite), cwd=tmp_path, timeout=120)
    assert f"{suite}: 1 server, 1 test" in live.stdout and "1 servers" not in live.stdout


ANCHORED = """
x-weather: &weather
  server: weather
  tool: get_weather
x-notes: [free, form, "${NOT_A_VARIABLE_ANYONE_SETS:-ok}"]
tools:
  - name: paris
    <<: *weather
    args: { city: Paris }
    expect:
      - result.structuredContent.city: { exact: Paris }
"""


def test_top_level_x_keys_are_allowed_and_ignored(tmp_path: Path) -> None:
    suite = write_suite(tmp_path, ANCHORED)
    ran = run_cli("run", str(suite), "-r", "json", cwd=tmp_path)
    assert ran.code == ExitCode.OK, ran.stderr
    assert [r["name"] for r in json.loads(ran.stdout)["results"]] == ["paris"]
    (tmp_path / "suite.yml").write_text(suite.read_text().replace("x-notes", "notes"))
    bad = run_cli("validate", str(suite), cwd=tmp_path)
    assert bad.code == ExitCode.USAGE and "unknown key 'notes'" in bad.stderr
