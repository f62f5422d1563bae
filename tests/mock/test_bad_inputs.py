"""A bad manifest, snapshot or command line exits 2 with every problem at its exact file:line:col."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

from tests.mock.conftest import run_mock_cli

TOOL = """\
mock_server:
  tools:
    - name: a
      description: d
"""


def _run(tmp_path: Path, name: str, text: str) -> tuple[int, list[str]]:
    (tmp_path / name).write_text(textwrap.dedent(text), encoding="utf-8")
    ran = run_mock_cli("--tools-from", name, cwd=tmp_path)
    assert ran.stdout == ""
    return ran.code, ran.stderr.splitlines()


def test_an_unknown_key_is_located_with_a_suggestion(tmp_path: Path) -> None:
    code, lines = _run(tmp_path, "m.yaml", TOOL + "      input_shema: { type: object }\n")
    assert code == 2
    assert lines == [
        "m.yaml:3:7: mock_server.tools[0]: missing required key 'input_schema'",
        "m.yaml:5:7: mock_server.tools[0]: unknown key 'input_shema' (did you mean 'input_schema'?)",
    ]


def test_a_wrong_type_is_located_at_its_value(tmp_path: Path) -> None:
    text = TOOL + "      input_schema: { type: object }\n      response: { is_error: maybe, content: [] }\n"
    code, lines = _run(tmp_path, "m.yml", text)
    assert code == 2
    assert lines == [
        "m.yml:6:29: mock_server.tools[0].response.is_error: input should be a valid boolean, "
        "unable to interpret input, got str 'maybe'"
    ]


def test_a_misspelt_content_key_is_located_with_a_suggestion(tmp_path: Path) -> None:
    text = TOOL + "      input_schema: { type: object }\n      response:\n        content: [{ type: text, txt: hi }]\n"
    code, lines = _run(tmp_path, "m.yaml", text)
    assert code == 2
    assert lines == [
        "m.yaml:7:19: mock_server.tools[0].response.content[0]: missing required key 'text'",
        "m.yaml:7:33: mock_server.tools[0].response.content[0]: unknown key 'txt' (did you mean 'text'?)",
    ]


def test_an_invalid_input_schema_is_located_at_the_bad_keyword(tmp_path: Path) -> None:
    text = TOOL + "      input_schema:\n        type: object\n        properties:\n          n: { type: integr }\n"
    code, lines = _run(tmp_path, "m.yaml", text)
    assert code == 2
    assert lines == [
        "m.yaml:8:22: mock_server.tools[0].input_schema.properties.n.type: "
        "not a valid JSON Schema: 'integr' is not valid under any of the given schemas"
    ]


def test_an_input_schema_that_is_not_an_object_schema_is_rejected(tmp_path: Path) -> None:
    code, lines = _run(tmp_path, "m.yaml", TOOL + "      input_schema: { type: string }\n")
    assert code == 2
    assert lines == [
        "m.yaml:5:21: mock_server.tools[0].input_schema: an input schema must be an object schema ('type: object')"
    ]


def test_duplicate_tool_names_point_at_the_second_one(tmp_path: Path) -> None:
    text = TOOL + "      input_schema: { type: object }\n" + TOOL.split("\n", 2)[2] + "      input_schema: {}\n"
    code, lines = _run(tmp_path, "m.yaml", text)
    assert code == 2
    assert lines[:1] == ["m.yaml:6:13: mock_server.tools[1].name: duplicate tool name 'a' (first defined on line 3)"]


def test_a_yaml_syntax_error_is_located(tmp_path: Path) -> None:
    code, lines = _run(tmp_path, "m.yaml", "mock_server:\n  tools: [\n    - name: a\n")
    assert code == 2
    assert lines == [
        "m.yaml:3:5: YAML syntax error: while parsing a flow node expected the node content, but found '-'"
    ]


def test_a_file_without_mock_server_says_what_a_manifest_is(tmp_path: Path) -> None:
    code, lines = _run(tmp_path, "m.yaml", "- just a list\n")
    assert (code, lines) == (2, ["m.yaml:1:1: a manifest is a mapping with a 'mock_server:' key"])


def test_a_missing_file_is_named(tmp_path: Path) -> None:
    ran = run_mock_cli("--tools-from", "nope.yaml", cwd=tmp_path)
    assert (ran.code, ran.stderr) == (2, "nope.yaml: no such file\n")


def test_a_broken_snapshot_lists_every_problem(tmp_path: Path) -> None:
    tools = [{"name": "a"}, {"name": "a", "inputSchema": {"type": 5}}, 3]
    code, lines = _run(tmp_path, "s.json", json.dumps({"tools": tools}))
    assert code == 2
    assert lines == [
        "s.json:1:12: tools[0] (a): missing 'inputSchema' (MCP requires one; "
        'write {"type": "object"} for no arguments)',
        "s.json:1:65: tools[1] (a).inputSchema.type: "
        "not a valid JSON Schema: 5 is not valid under any of the given schemas",
        "s.json:1:70: tools[2]: a tool must be an object, found a JSON number",
        "s.json: duplicate tool name 'a'",
    ]


def test_a_snapshot_tool_the_sdk_rejects_is_a_user_error_not_a_crash(tmp_path: Path) -> None:
    tools = [{"name": "a", "inputSchema": {"type": "object"}, "annotations": "read-only"}]
    code, lines = _run(tmp_path, "s.json", json.dumps({"tools": tools}))
    assert (code, lines) == (
        2,
        ["s.json:1:76: tools[0] (a).annotations: must be an object, found a JSON string"],
    )


def test_a_snapshot_json_syntax_error_is_located(tmp_path: Path) -> None:
    code, lines = _run(tmp_path, "s.json", '{"tools": [\n')
    assert (code, lines) == (2, ["s.json:2:1: JSON syntax error: Expecting value"])


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((), "mcptest: mock: give exactly one of --tools-from PATH or --preset NAME"),
        (
            ("--preset", "weather", "--tools-from", "x.yaml"),
            "mcptest: mock: give exactly one of --tools-from PATH or --preset NAME",
        ),
        (
            ("--preset", "wether"),
            "mcptest: unknown preset 'wether' (did you mean 'weather'?); presets are test-platform, weather",
        ),
        (
            ("--tools-from", "tools.txt"),
            "mcptest: --tools-from tools.txt: expected a .yaml/.yml manifest or a .json tools/list snapshot",
        ),
    ],
)
def test_a_bad_command_line_is_a_usage_error(args: tuple[str, ...], message: str) -> None:
    ran = run_mock_cli(*args)
    assert (ran.code, ran.stderr) == (2, message + "\n")
