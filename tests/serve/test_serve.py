"""`mcptest serve` as a subprocess, driven over stdio by the official SDK's client: the validate → run → fix → run
loop an agent goes through, plus what each tool declares and the root it is held to.

One server process serves the whole loop (start-up is dominated by importing the SDK)."""

from __future__ import annotations

import json
import os
import shutil
import sys
import textwrap
from pathlib import Path
from typing import Any

import anyio
import pytest

from tests.conftest import ROOT

BROKEN_SUITE = """\
servers:
  weather:
    command: ["mcptest", "mock", "--tools-from", "weather.yml"]
tools:
  - name: weather names the city
    server: weather
    tool: get_weather
    args: { city: Paris }
    expect:
      - target: result.content[0].text
        matcher: { containz: "Paris" }
"""

MANIFEST = """\
mock_server:
  name: weather
  tools:
    - name: get_weather
      description: Get the current weather for a city, e.g. get_weather(city="Paris").
      input_schema:
        type: object
        required: [city]
        properties:
          city: {{ type: string, description: "City name, e.g. Paris" }}
      response:
        content:
          - {{ type: text, text: "{reply}" }}
"""

TOOLS = {"validate_suite", "run_suite", "list_tests", "lint_server", "security_scan", "diff_catalogs", "explain_rule"}


def write(path: Path, text: str) -> None:
    path.write_text(textwrap.dedent(text), encoding="utf-8")


async def drive(root: Path, outside: Path) -> dict[str, Any]:
    """Run the whole loop against one `mcptest serve` and return what each step saw."""
    from mcp.client.client import Client
    from mcp.client.stdio import StdioServerParameters

    seen: dict[str, Any] = {"progress": [], "root": root}
    env = {**os.environ, "PYTHONPATH": str(ROOT), "NO_COLOR": "1"}
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "mcptest", "serve", "--root", str(root)], env=env, cwd=ROOT
    )

    async def progress(done: float, total: float | None, message: str | None) -> None:
        seen["progress"].append((done, total, message))

    with anyio.fail_after(240):
        async with Client(params) as client:
            seen["tools"] = {t.name: t for t in (await client.list_tools()).tools}
            seen["resources"] = [str(r.uri) for r in (await client.list_resources()).resources]
            seen["schema"] = await client.read_resource("mcptest://schema/suite")

            suite = root / "suite.yml"
            write(suite, BROKEN_SUITE)
            seen["broken"] = await client.call_tool("validate_suite", {"suite": "suite.yml"})
            write(suite, BROKEN_SUITE.replace("containz", "contains"))
            seen["fixed"] = await client.call_tool("validate_suite", {"suite": "suite.yml"})
            seen["listed"] = await client.call_tool("list_tests", {"suite": "suite.yml"})

            seen["failing"] = await client.call_tool("run_suite", {"suite": "suite.yml"}, progress_callback=progress)
            write(root / "weather.yml", MANIFEST.format(reply="Sunny in ${args.city}."))  # the server is fixed
            seen["passing"] = await client.call_tool("run_suite", {"suite": str(suite)}, progress_callback=progress)

            seen["outside"] = await client.call_tool("run_suite", {"suite": str(outside)})
            seen["command"] = await client.call_tool("run_suite", {"suite": "suite.yml", "command": "touch pwned"})
            seen["climbing"] = await client.call_tool("validate_suite", {"suite": "../outside.yml"})
            seen["rule"] = await client.call_tool("explain_rule", {"code": "desc-009"})
            seen["lint"] = await client.call_tool("lint_server", {"catalog": "catalog.json", "fail_on": "never"})
            seen["scan"] = await client.call_tool("security_scan", {"catalogs": ["catalog.json"]})
            seen["diff"] = await client.call_tool("diff_catalogs", {"old": "catalog.json", "new": "catalog.json"})

            pin = [sys.executable, "-m", "mcptest", "pin", "suite.yml"]
            pinned = await anyio.run_process(pin, cwd=root, env=env, check=False)
            seen["pinned"] = pinned.returncode, (root / "mcptest.lock").exists()
            write(root / "weather.yml", MANIFEST.format(reply="Sunny in ${args.city}.").replace("current", "latest"))
            seen["moved"] = await client.call_tool("run_suite", {"suite": "suite.yml"})
    return seen


@pytest.fixture(scope="module")
def loop(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    base = tmp_path_factory.mktemp("serve")
    root = base / "root"
    root.mkdir()
    write(root / "weather.yml", MANIFEST.format(reply="Sunny today."))  # the server's bug: no city in the answer
    shutil.copy(ROOT / "tests" / "lint" / "fixtures" / "server-everything.json", root / "catalog.json")
    outside = base / "outside.yml"
    write(outside, BROKEN_SUITE)
    return anyio.run(drive, root, outside)


def test_validate_gives_each_problem_at_its_place_then_ok_once_fixed(loop: dict[str, Any]) -> None:
    broken = loop["broken"].structured_content
    assert broken["ok"] is False and broken["suite"] == "suite.yml"
    line = BROKEN_SUITE.splitlines().index('        matcher: { containz: "Paris" }') + 1
    (problem,) = broken["problems"]
    assert (problem["file"], problem["line"]) == ("suite.yml", line)
    assert "containz" in problem["message"] and problem["text"].startswith(f"suite.yml:{line}:{problem['col']}: ")
    fixed = loop["fixed"].structured_content
    assert fixed["ok"] is True and fixed["problems"] == []
    assert fixed["counts"]["servers"] == 1 and fixed["counts"]["tool_tests"] == 1
    listed = loop["listed"].structured_content
    assert listed["count"] == 1 and listed["tests"][0] == {
        "kind": "tool",
        "name": "weather names the city",
        "location": "suite.yml:5",
    }


def test_run_fails_with_the_agent_report_then_passes_after_the_fix(loop: dict[str, Any]) -> None:
    failing = loop["failing"]
    assert failing.is_error is False
    out = failing.structured_content
    assert (out["verdict"], out["exit_code"], out["failed"], out["passed"]) == ("FAIL", 1, 1, 0)
    report = out["agent_report"].splitlines()
    assert report[0] == "VERDICT FAIL failed=1 passed=0 total=1"
    line = BROKEN_SUITE.splitlines().index("      - target: result.content[0].text") + 1
    assert any(row.strip().startswith(f"at: suite.yml:{line}:") for row in report), report
    assert any("rerun: mcptest run suite.yml --filter" in row for row in report), report
    (result,) = out["report"]["results"]
    assert result["status"] == "failed" and result["name"] == "weather names the city"
    # the structured content is also the text content, as JSON
    assert json.loads(failing.content[0].text) == out

    passing = loop["passing"].structured_content
    assert (passing["verdict"], passing["exit_code"], passing["passed"], passing["failed"]) == ("PASS", 0, 1, 0)
    assert passing["agent_report"].startswith("VERDICT PASS failed=0 passed=1 total=1")
    assert passing["report"]["summary"]["ok"] is True


def test_a_pinned_catalog_that_changed_stops_the_run_as_mcptest_run_does(loop: dict[str, Any]) -> None:
    assert loop["pinned"] == (0, True)
    moved = loop["moved"].structured_content
    assert moved["pins_changed"] == ["weather"] and moved["total"] == 0 and moved["verdict"] == "FAIL"
    assert moved["agent_report"].startswith("VERDICT FAIL pinned catalogs changed; no test ran")
    assert "server 'weather': " in moved["agent_report"] and moved["report"] == {}


def test_a_running_suite_sends_progress(loop: dict[str, Any]) -> None:
    assert loop["progress"] == [
        (1.0, 1.0, "weather names the city: failed"),
        (1.0, 1.0, "weather names the city: passed"),
    ]


def test_paths_outside_the_root_and_commands_in_the_call_are_refused(loop: dict[str, Any]) -> None:
    for key in ("outside", "climbing"):
        result = loop[key]
        assert result.is_error is True, key
        assert "outside the root" in result.content[0].text
    refused = loop["command"]
    assert refused.is_error is True and "command" in refused.content[0].text
    assert not (loop["root"] / "pwned").exists()


def test_every_tool_declares_an_output_schema_and_read_only_where_true(loop: dict[str, Any]) -> None:
    tools = loop["tools"]
    assert set(tools) == TOOLS
    for name, tool in tools.items():
        assert tool.output_schema and tool.output_schema["type"] == "object", name
        assert tool.annotations is not None and tool.description, name
        assert tool.input_schema["additionalProperties"] is False, name
    read_only = {name for name, tool in tools.items() if tool.annotations.read_only_hint}
    assert read_only == TOOLS - {"run_suite"}
    assert tools["run_suite"].annotations.open_world_hint is True


def test_rules_lint_scan_and_diff_answer_through_the_same_code_as_the_commands(loop: dict[str, Any]) -> None:
    rule = loop["rule"].structured_content
    assert rule["code"] == "DESC-009" and "example" in rule["docs"].lower()
    lint = loop["lint"].structured_content
    assert lint["ok"] is True and lint["findings"], "the server-everything catalog has known DESC findings"
    assert {f["source"] for f in lint["findings"]} == {"catalog.json"}
    scan = loop["scan"].structured_content
    assert scan["critical"] == sum(f["severity"] == "critical" for f in scan["findings"])
    diff = loop["diff"].structured_content
    assert diff["ok"] is True and diff["worst"] is None and diff["report"]["changes"] == []


def test_resources_are_the_suite_schema_and_the_docs(loop: dict[str, Any]) -> None:
    assert "mcptest://schema/suite" in loop["resources"]
    assert "mcptest://docs/serve" in loop["resources"]
    schema = json.loads(loop["schema"].contents[0].text)
    assert "servers" in schema["properties"]


def test_serve_passes_its_own_conformance_checks_musts_and_shoulds(tmp_path: Path) -> None:
    from mcptest.run.conformance import run_conformance
    from mcptest.suite.models import StdioServer

    argv = [sys.executable, "-m", "mcptest", "serve", "--root", str(tmp_path)]
    config = StdioServer.model_validate({"command": argv, "env": {"PYTHONPATH": str(ROOT)}})
    report = run_conformance("serve", config, tmp_path, timeout=120)
    failed = [(o.id, o.level, o.message) for o in report.outcomes if o.status not in ("pass", "skip")]
    assert failed == [] and not report.failed("should")
    passed = {o.id for o in report.outcomes if o.status == "pass"}
    assert {"tools-output-schema", "resources-read", "resources-not-found-code", "stdio-stdout-clean"} <= passed


def test_serve_passes_its_own_lint_and_security_scan_with_nothing_above_info(tmp_path: Path) -> None:
    """The strict DESC/SCH rules and every SEC rule over the served catalog, listed in-process through the SDK."""
    from mcp.client.client import Client

    from mcptest.checks.lint import assess, select_rules
    from mcptest.checks.security.engine import scan
    from mcptest.records.catalog import read_wire
    from mcptest.records.entries import from_catalog
    from mcptest.serve.server import build

    async def listed() -> list[dict[str, Any]]:
        async with Client(build(tmp_path)) as client:
            tools = (await client.list_tools()).tools
        return [t.model_dump(by_alias=True, exclude_none=True, mode="json") for t in tools]

    catalog = read_wire({"tools": anyio.run(listed)}, "serve")
    assert catalog.problems == () and len(catalog.tools) == len(TOOLS)
    report = assess(catalog, select_rules(strict=True))
    assert [f for f in report.findings if f.severity.value not in ("pass", "info")] == []
    scanned = scan([from_catalog(catalog, "serve", "serve")])
    assert [f.to_json() for f in scanned.flagged] == []
