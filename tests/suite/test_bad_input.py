"""The bad-input corpus: each broken suite exits 2 with the exact `file:line:col` of the problem."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import run_cli

GOOD_SERVER = """
servers:
  weather:
    command: ["mcptest", "mock", "--tools-from", "weather.yml"]
"""

CASES = {
    "yaml syntax error": (
        GOOD_SERVER + "tools:\n  - name: a\n    server: weather\n    tool: [get_weather\n",
        ":9:1: YAML syntax error: while parsing a flow sequence expected ',' or ']', but got '<stream end>' "
        "(it began at line 8, column 11)",
    ),
    "unknown key with suggestion": (
        GOOD_SERVER + "tools:\n  - name: a\n    server: weather\n    tool: t\n    argz: {}\n",
        ":9:5: tools[0]: unknown key 'argz' (did you mean 'args'?)",
    ),
    "unknown top-level key": (
        GOOD_SERVER + "tool:\n  - name: a\n",
        ":5:1: (top level): unknown key 'tool' (did you mean 'tools'?)",
    ),
    "wrong type": (
        GOOD_SERVER + "tools:\n  - name: a\n    server: weather\n    tool: t\n    tags: urgent\n",
        ":9:11: tools[0].tags: input should be a valid list, got str 'urgent'",
    ),
    "missing required field": (
        GOOD_SERVER + "tools:\n  - name: a\n    server: weather\n",
        ":6:5: tools[0]: missing required key 'tool'",
    ),
    "undefined server": (
        GOOD_SERVER + "tools:\n  - name: a\n    server: wether\n    tool: t\n",
        ":7:13: tools[0].server: unknown server 'wether' (did you mean 'weather'?)",
    ),
    "duplicate test names": (
        GOOD_SERVER + "tools:\n  - name: a\n    server: weather\n    tool: t\n"
        "  - name: a\n    server: weather\n    tool: u\n",
        ":9:11: tools[1].name: duplicate test name 'a' (first defined at line 6)",
    ),
    "invalid regex": (
        GOOD_SERVER + "tools:\n  - name: a\n    server: weather\n    tool: t\n    expect:\n"
        '      - target: result.content[0].text\n        matcher: { regex: "([a-z" }\n',
        ":11:27: tools[0].expect[0].matcher.regex: invalid regex '([a-z':",
    ),
    "invalid JSON Schema in a schema matcher": (
        GOOD_SERVER + "tools:\n  - name: a\n    server: weather\n    tool: t\n    expect:\n"
        "      - target: result.structuredContent\n        matcher: { schema: { type: 42 } }\n",
        ":11:28: tools[0].expect[0].matcher.schema: invalid JSON Schema at type:",
    ),
    "a $schema that is no string in a schema matcher": (
        GOOD_SERVER + "tools:\n  - name: a\n    server: weather\n    tool: t\n    expect:\n"
        "      - target: result.structuredContent\n        matcher: { schema: { $schema: { a: 1 } } }\n",
        ":11:28: tools[0].expect[0].matcher.schema: invalid JSON Schema at $schema: '$schema' must be a string",
    ),
    "misspelt matcher kind": (
        GOOD_SERVER + "tools:\n  - name: a\n    server: weather\n    tool: t\n    expect:\n"
        "      - target: result.isError\n        matcher: { exakt: false }\n",
        ":11:20: tools[0].expect[0].matcher: unknown matcher 'exakt' (did you mean 'exact'?)",
    ),
    "unset environment variable": (
        GOOD_SERVER + "tools:\n  - name: a\n    server: weather\n    tool: ${MCPTEST_TEST_UNSET_VAR}\n",
        ":8:11: tools[0].tool: environment variable MCPTEST_TEST_UNSET_VAR is not set",
    ),
    "server with neither command nor url": (
        "servers:\n  weather:\n    cmd: [x]\ntools: []\n",
        ":3:5: servers.weather: unknown key 'cmd' (did you mean 'command'?)",
    ),
    "command written as a string": (
        "servers:\n  weather:\n    command: npx -y server\n",
        ":3:14: servers.weather.command: command must be a list of arguments",
    ),
    "duplicate key": (
        GOOD_SERVER + "tools:\n  - name: a\n    server: weather\n    tool: t\n    tool: u\n",
        ':9:5: YAML syntax error: duplicate key "tool" (first at line 8, column 5)',
    ),
    "an alias inside the node it names": (
        GOOD_SERVER + "tools: &t\n  - name: a\n    server: weather\n    tool: t\n    args: *t\n",
        ":9:5: YAML syntax error: this alias refers to a node that contains it",
    ),
    "an unknown YAML tag": (
        GOOD_SERVER + "tools:\n  - name: a\n    server: weather\n    tool: !secret t\n",
        ":8:11: tag !secret is not supported: mcptest reads plain YAML 1.2 data",
    ),
    "top level is not a mapping": ("- a\n- b\n", ":1:1: the top level of a suite must be a mapping"),
    "empty file": ("", ":1:1: the file is empty"),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_broken_suite_exits_2_naming_the_line_and_column(case: str, tmp_path: Path) -> None:
    text, expected = CASES[case]
    suite = tmp_path / "suite.yml"
    suite.write_text(text, encoding="utf-8")
    for command in ("validate", "run"):
        ran = run_cli(command, str(suite))
        assert ran.code == 2, ran.stderr
        assert f"{suite}{expected}" in ran.stderr, ran.stderr
        assert "Traceback" not in ran.stderr
        assert ran.stdout == ""


def test_every_problem_in_a_file_is_reported_at_once(tmp_path: Path) -> None:
    suite = tmp_path / "suite.yml"
    suite.write_text(
        GOOD_SERVER + "tools:\n  - name: a\n    server: nope\n    tool: t\n    colour: red\n"
        "  - name: b\n    server: weather\n",
        encoding="utf-8",
    )
    ran = run_cli("validate", str(suite))
    assert ran.code == 2
    assert ran.stderr.splitlines() == [
        f"{suite}:7:13: tools[0].server: unknown server 'nope'; servers are weather",
        f"{suite}:9:5: tools[0]: unknown key 'colour'; "
        "allowed keys: name, server, tool, args, task, tags, latency, weight, expect",
        f"{suite}:10:5: tools[1]: missing required key 'tool'",
    ]


def test_a_missing_file_is_one_line_and_exit_2(tmp_path: Path) -> None:
    ran = run_cli("run", str(tmp_path / "nope.yml"))
    assert (ran.code, ran.stderr) == (2, f"{tmp_path / 'nope.yml'}: no such file\n")


def test_a_directory_instead_of_a_file_is_one_line_and_exit_2(tmp_path: Path) -> None:
    ran = run_cli("validate", str(tmp_path))
    assert ran.code == 2
    assert ran.stderr.startswith(f"{tmp_path}: is a directory, not a file")


def test_run_without_a_suite_and_no_default_file_says_what_to_do(tmp_path: Path) -> None:
    ran = run_cli("run", cwd=tmp_path)
    assert ran.code == 2
    assert "no mcptest.yaml or mcptest.yml here" in ran.stderr


def test_a_bad_flag_exits_2_without_a_traceback(tmp_path: Path) -> None:
    ran = run_cli("run", "x.yml", "--reporter", "xml")
    assert ran.code == 2
    assert "--reporter: unknown format 'xml'" in ran.stderr
    ran = run_cli("run", "--no-such-flag")
    assert ran.code == 2
    assert "No such option" in ran.stderr and "Traceback" not in ran.stderr


def test_an_invalid_filter_regex_exits_2(write) -> None:
    suite = write("suite.yml", GOOD_SERVER + "tools:\n  - name: a\n    server: weather\n    tool: t\n")
    ran = run_cli("run", str(suite), "--filter", "re:([")
    assert ran.code == 2
    assert "--filter: invalid regex" in ran.stderr
