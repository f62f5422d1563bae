"""`mcptest init`: a starter suite from a live server's catalog that validates and passes against its mock."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from mcptest.core.exit_codes import ExitCode
from mcptest.records.catalog import load_catalog
from mcptest.scaffold import _valid, arguments
from tests.conftest import ROOT, run_cli, serving_http

CATALOGS = sorted((ROOT / "tests" / "lint" / "fixtures").glob("*.json"))


@pytest.mark.parametrize("catalog", CATALOGS, ids=lambda p: p.stem)
def test_the_starter_validates_and_passes_against_the_mock_of_the_same_catalog(catalog: Path, tmp_path: Path) -> None:
    command = f"{sys.executable} -m mcptest mock --tools-from {catalog}"
    made = run_cli("init", "--command", command, "--name", "srv", "--dir", str(tmp_path), timeout=120)
    assert made.code == ExitCode.OK, made.stderr
    suite = tmp_path / "mcptest.yml"
    tools = json.loads(catalog.read_text())["tools"]
    text = suite.read_text()
    written = text.count("\n  - name: ") + text.count("\n#  - name: ")  # tools that may write: commented out
    assert written == len(tools) + 1  # a smoke test per tool, one quality block
    assert run_cli("validate", str(suite)).code == ExitCode.OK
    ran = run_cli("run", str(suite), timeout=240)
    assert ran.code == ExitCode.OK, ran.stdout + ran.stderr
    workflow = (tmp_path / ".github" / "workflows" / "mcptest.yml").read_text()
    assert "pip install" in workflow and "mcptest run mcptest.yml" in workflow


@pytest.mark.parametrize("catalog", CATALOGS, ids=lambda p: p.stem)
def test_every_smoke_argument_set_satisfies_its_tools_input_schema(catalog: Path) -> None:
    for tool in load_catalog(catalog).tools:
        args = arguments(tool.input_schema)
        assert args is not None and _valid(args, tool.input_schema), tool.name


def test_arguments_prefer_examples_then_defaults_then_enums_then_the_smallest_valid_value() -> None:
    schema = {
        "type": "object",
        "required": ["a", "b", "c", "d", "e", "f"],
        "properties": {
            "a": {"type": "string", "examples": ["Paris"], "default": "Oslo"},
            "b": {"type": "string", "default": "Oslo", "enum": ["Rome", "Oslo"]},
            "c": {"type": "string", "enum": ["Rome", "Oslo"]},
            "d": {"type": "integer", "minimum": 3, "maximum": 9},
            "e": {"type": "string", "format": "date", "minLength": 4},
            "f": {"type": "array", "minItems": 2, "items": {"type": "string", "minLength": 12}},
        },
    }
    assert arguments(schema) == {
        "a": "Paris", "b": "Oslo", "c": "Rome", "d": 3, "e": "2026-01-01", "f": ["examplexxxxx", "examplexxxxx"],
    }  # fmt: skip


def test_a_string_takes_the_example_or_layout_its_description_gives_when_it_fits_the_schema() -> None:
    def one(prop: dict) -> str:
        return arguments({"type": "object", "required": ["x"], "properties": {"x": prop}})["x"]  # type: ignore[index]

    assert one({"type": "string", "description": "IANA name (e.g., 'Europe/London', 'UTC')"}) == "Europe/London"
    assert one({"type": "string", "description": "Time in 24-hour format (HH:MM)"}) == "12:00"
    assert one({"type": "string", "description": "A day, YYYY-MM-DD"}) == "2026-01-01"
    assert one({"type": "string", "maxLength": 3, "description": "for example `London`"}) == "exa"  # too long: not it


def test_no_arguments_are_offered_when_none_valid_can_be_built() -> None:
    assert (
        arguments({"type": "object", "required": ["x"], "properties": {"x": {"type": "string", "pattern": "^\\d+$"}}})
        is None
    )


def test_a_real_third_party_server_gets_a_suite_that_validates(tmp_path: Path) -> None:
    server = Path(sys.executable).parent / "mcp-server-time"
    made = run_cli("init", "--command", str(server), "--name", "time", "--dir", str(tmp_path), timeout=120)
    assert made.code == ExitCode.OK, made.stderr
    text = (tmp_path / "mcptest.yml").read_text()
    assert "tool: get_current_time" in text and "tool: convert_time" in text
    assert run_cli("validate", str(tmp_path / "mcptest.yml")).code == ExitCode.OK


def test_tools_that_may_change_state_are_written_commented_out() -> None:
    from mcptest.records.catalog import Catalog, Tool
    from mcptest.scaffold import starter

    schema = {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}
    tools = [
        Tool({"name": "read_file", "inputSchema": schema}),
        Tool({"name": "move_file", "inputSchema": schema}),
        Tool({"name": "git_log", "inputSchema": schema, "annotations": {"readOnlyHint": True}}),
        Tool({"name": "list_and_purge", "inputSchema": schema, "annotations": {"destructiveHint": True}}),
        Tool({"name": "get_or_create", "inputSchema": schema, "annotations": {"readOnlyHint": False}}),
    ]
    made = starter(Catalog(tools=tuple(tools)), "srv", {"command": ["srv"]})
    assert made.writers == ("move_file", "list_and_purge", "get_or_create")
    active = [line for line in made.suite.splitlines() if line.startswith("    tool: ")]
    assert active == ["    tool: read_file", "    tool: git_log"]
    assert "#    tool: move_file" in made.suite


def test_a_held_back_test_uncommented_by_deleting_each_hash_validates(tmp_path: Path) -> None:
    from mcptest.records.catalog import Catalog, Tool
    from mcptest.scaffold import starter

    schema = {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}
    tools = (Tool({"name": "read_file", "inputSchema": schema}), Tool({"name": "move_file", "inputSchema": schema}))
    prompts = ({"name": "review", "arguments": [{"name": "code", "required": True}]},)
    catalog = Catalog(tools=tools, prompts=prompts, resources=({"uri": "file:///a.txt"},))
    made = starter(catalog, "srv", {"command": ["srv"]}, refused={"prompt review renders": "error -32602: no"})
    assert made.writers == ("move_file",) and made.held == ("prompt review renders",)
    uncommented = "\n".join(
        line.removeprefix("#") if line.startswith("#  ") else line for line in made.suite.splitlines()
    )
    suite = tmp_path / "mcptest.yml"
    suite.write_text(uncommented)
    checked = run_cli("validate", str(suite))
    assert checked.code == ExitCode.OK, checked.stderr
    assert "    tool: move_file" in uncommented and "    prompt: review" in uncommented


def test_the_server_is_named_from_its_server_info_and_a_client_block_answers_what_its_tools_ask() -> None:
    from mcptest.records.catalog import Catalog, Tool
    from mcptest.scaffold import server_name, starter

    assert server_name("mcp-servers/everything") == "mcp-servers-everything"
    assert server_name("My Server (v2)") == "my-server-v2"
    assert server_name(None) == server_name("!!") == "server"
    hints = {"readOnlyHint": False}
    tools = (
        Tool({"name": "trigger-sampling-request", "inputSchema": {"type": "object"}, "annotations": hints}),
        Tool({"name": "ask", "description": "Elicit the user's name.", "inputSchema": {"type": "object"}}),
        Tool({"name": "wipe-elicitation", "inputSchema": {"type": "object"}, "annotations": {"destructiveHint": True}}),
    )
    made = starter(Catalog(tools=tools), "srv", {"command": ["srv"]})
    assert made.writers == ("wipe-elicitation",)
    assert "    client:" in made.suite and "      elicitation: { action: decline }" in made.suite
    assert '        - text: "A reply from the mcptest client."' in made.suite and "roots:" not in made.suite


def test_the_workflow_installs_this_mcptest_and_waits_for_a_url_server() -> None:
    from mcptest.scaffold import install_spec, workflow

    spec = install_spec()
    assert spec is not None  # this checkout was pip-installed (editable: a path)
    assert f"pip install {json.dumps(spec)}" in workflow(spec)
    unknown = workflow(None)
    assert "could not tell how this one was installed" in unknown and "exit 1" in unknown
    flow = workflow(spec, "http://127.0.0.1:8000/mcp")
    assert 'default: "http://127.0.0.1:8000/mcp"' in flow
    assert "MCP_SERVER_URL: ${{ inputs.server_url || 'http://127.0.0.1:8000/mcp' }}" in flow
    assert flow.index("wait for the MCP server") < flow.index("mcptest run mcptest.yml")
    from ruamel.yaml import YAML

    steps = YAML(typ="safe").load(flow)["jobs"]["mcptest"]["steps"]
    assert [s.get("name") for s in steps if "MCP_SERVER_URL" in str(s.get("run"))] == ["wait for the MCP server"]


# mcp-server-time: a timezone from its description's "e.g., 'America/New_York'", a time from "(HH:MM)"
@pytest.mark.parametrize(
    "server", ["mcp-server-time", "mcp-server-memory", "mcp-server-everything", "mcp-server-filesystem"]
)
def test_a_starter_passes_against_the_real_server_it_was_written_from(server: str, tmp_path: Path) -> None:
    npm = ROOT / "tests" / "servers" / "npm" / "node_modules" / ".bin" / server
    command = str(npm if npm.exists() else Path(sys.executable).parent / server)
    if server == "mcp-server-filesystem":
        (tmp_path / "data").mkdir()
        command += f" {tmp_path / 'data'}"
    made = run_cli("init", "--command", command, "--dir", str(tmp_path), timeout=120)
    assert made.code == ExitCode.OK, made.stderr
    text = (tmp_path / "mcptest.yml").read_text()
    if server == "mcp-server-everything":  # every primitive, client answers, the server named from its info
        assert "  mcp-servers-everything:\n" in text and "    client:" in text
        assert "    tool: trigger-sampling-request" in text and "    tool: trigger-elicitation-request" in text
        assert "    template: " in text and "    uri: " in text and "    prompt: simple-prompt" in text
    ran = run_cli("run", str(tmp_path / "mcptest.yml"), "--workers", "4", timeout=240)
    assert ran.code == ExitCode.OK, ran.stdout[-3000:]
    assert " 0 failed" in ran.stdout


def test_a_starter_for_a_url_server_passes_and_its_url_comes_from_ci(tmp_path: Path) -> None:
    # server-everything's starter is run over stdio above; here an SDK server with tools, resources, prompts and
    # client callbacks keeps the HTTP case to what it adds (a URL, from CI's env) without its 10 s operation.
    with serving_http("tests.servers.surface_server", "the HTTP surface server") as url:
        made = run_cli("init", "--url", url, "--dir", str(tmp_path), timeout=120)
        assert made.code == ExitCode.OK, made.stderr
        text = (tmp_path / "mcptest.yml").read_text()
        assert f'    url: "${{MCP_SERVER_URL:-{url}}}"' in text
        ran = run_cli("run", str(tmp_path / "mcptest.yml"), "--workers", "4", timeout=240)
        assert ran.code == ExitCode.OK, ran.stdout[-3000:]
        assert " 0 failed" in ran.stdout
    workflow = (tmp_path / ".github" / "workflows" / "mcptest.yml").read_text()
    assert "workflow_dispatch:" in workflow and f'default: "{url}"' in workflow


def test_init_refuses_to_overwrite_without_force_and_needs_a_server(tmp_path: Path) -> None:
    (tmp_path / "mcptest.yml").write_text("tools: []\n")
    catalog = CATALOGS[0]
    again = run_cli("init", "--command", f"mcptest mock --tools-from {catalog}", "--dir", str(tmp_path))
    assert again.code == ExitCode.USAGE and "exists; pass --force" in again.stderr
    assert (tmp_path / "mcptest.yml").read_text() == "tools: []\n"
    nothing = run_cli("init", "--dir", str(tmp_path))
    assert nothing.code == ExitCode.USAGE and "--command" in nothing.stderr


def test_a_relative_command_written_into_another_folder_still_starts_and_an_all_held_back_suite_loads(
    tmp_path: Path,
) -> None:
    """The suite starts its servers in its own folder, so init records where a relative command was read from;
    and a server whose every tool may change state leaves `tools:` over comments only, which loads as none."""
    (tmp_path / "srv").mkdir()
    server = (ROOT / "tests" / "servers" / "demo_server.py").read_text()
    (tmp_path / "srv" / "demo_server.py").write_text(server)
    made = run_cli("init", "--command", f"{sys.executable} srv/demo_server.py", "--dir", "out", cwd=tmp_path)
    assert made.code == ExitCode.OK, made.stderr
    text = (tmp_path / "out" / "mcptest.yml").read_text()
    assert '    cwd: ".."\n' in text and "\ntools:\n  # add may change state" in text
    ran = run_cli("run", "mcptest.yml", cwd=tmp_path / "out", timeout=120)
    assert ran.code == ExitCode.OK, ran.stdout[-3000:] + ran.stderr[-3000:]
    assert "1 passed, 0 failed" in ran.stdout
