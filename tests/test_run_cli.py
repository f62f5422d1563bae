"""`mcptest run` end to end, as a user runs it: real mock server subprocess, real reports, exit codes."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from mcptest.core.exit_codes import ExitCode
from mcptest.schemas import report_schema
from tests.conftest import ROOT, run_cli

QUICKSTART = ROOT / "examples" / "quickstart" / "mcptest.yml"
MANIFEST = ROOT / "examples" / "quickstart" / "weather.yml"


def suite_with(write, tests: str, extra_servers: str = "") -> Path:
    return write(
        "suite.yml",
        f"""
servers:
  weather:
    command: ["mcptest", "mock", "--tools-from", "{MANIFEST}"]
{extra_servers}
tools:
{tests}
""",
    )


def test_the_quickstart_passes_offline_and_exits_0() -> None:
    ran = run_cli("run", str(QUICKSTART))
    assert ran.code == ExitCode.OK, ran.stdout + ran.stderr
    assert "8 passed, 0 failed" in ran.stdout  # 4 tool tests, 1 scripted agent run, 3 replayed runs
    assert "PASS  weather for a city" in ran.stdout


def test_a_failing_assertion_exits_1_and_shows_expected_and_actual(write) -> None:
    suite = suite_with(
        write,
        """
  - name: wrong city
    server: weather
    tool: get_weather
    args: { city: Paris }
    expect:
      - target: result.structuredContent.city
        matcher: { exact: London }
        message: the city is echoed back
""",
    )
    ran = run_cli("run", str(suite))
    assert ran.code == ExitCode.FAILED
    assert "FAIL  wrong city" in ran.stdout
    assert 'the city is echoed back: expected "London", got "Paris"' in ran.stdout
    assert f"defined at {suite}:7" in ran.stdout


def test_the_json_report_is_valid_against_its_schema_and_carries_the_failure(write) -> None:
    suite = suite_with(
        write,
        """
  - name: passes
    server: weather
    tool: get_weather
    args: { city: Oslo }
  - name: fails
    server: weather
    tool: get_weather
    args: { city: Oslo }
    expect:
      - result.structuredContent.temperature: { "<": 0 }
""",
    )
    ran = run_cli("run", str(suite), "--reporter", "json")
    assert ran.code == ExitCode.FAILED
    report = json.loads(ran.stdout)
    jsonschema.validate(report, report_schema())
    assert report["format_version"] == "2"
    assert report["summary"] == {
        "total": 2,
        "passed": 1,
        "failed": 1,
        "skipped": 0,
        "gates": {"total": 0, "passed": 0, "failed": 0, "incomplete": 0},
        "capped": False,
        "not_run": 0,
        "ok": False,
    }
    failed = report["results"][1]
    assert (failed["name"], failed["kind"], failed["server"], failed["file"], failed["line"]) == (
        "fails",
        "tool",
        "weather",
        str(suite),
        11,
    )
    assert failed["failures"] == [
        {
            "target": "result.structuredContent.temperature",
            "matcher": "<",
            "expected": 0,
            "actual": 22,
            "message": "22 is not < 0",
            "line": 16,
            "col": 9,
        }
    ]


def test_output_writes_the_report_to_a_file_and_leaves_stdout_empty(write, tmp_path: Path) -> None:
    out = tmp_path / "out" / "report.json"
    ran = run_cli("run", str(QUICKSTART), "-r", "json", "--output", str(out))
    assert ran.code == ExitCode.OK
    assert ran.stdout == ""
    assert json.loads(out.read_text())["summary"]["passed"] == 8
    assert [p.name for p in out.parent.iterdir()] == ["report.json"]  # no temp file left behind


@pytest.mark.parametrize(
    ("flags", "names"),
    [
        (["--filter", "structured"], ["weather is structured"]),
        (
            ["--filter", "re:^(weather|a bad)"],
            ["weather for a city", "weather is structured", "a bad unit is rejected"],
        ),
        (["--tag", "smoke", "--tag", "validation"], ["weather for a city", "a bad unit is rejected"]),
        (
            ["--skip-tag", "validation"],
            ["weather for a city", "weather is structured", "conversion names both units"]
            + ["scripted agent converts the weather"]
            + ["claude answers from the tool"] * 3,
        ),
    ],
)
def test_filters_and_tags_select_tests(flags: list[str], names: list[str]) -> None:
    ran = run_cli("run", str(QUICKSTART), "-r", "json", *flags)
    assert ran.code == ExitCode.OK
    assert [r["name"] for r in json.loads(ran.stdout)["results"]] == names


def test_nothing_selected_exits_7() -> None:
    ran = run_cli("run", str(QUICKSTART), "--filter", "no test has this name")
    assert ran.code == ExitCode.NOTHING_SELECTED
    assert "no tests selected" in ran.stderr and ran.stdout == ""


def test_the_default_suite_file_is_found_in_the_working_directory(tmp_path: Path) -> None:
    (tmp_path / "mcptest.yml").write_text(QUICKSTART.read_text().replace("weather.yml", str(MANIFEST)))
    ran = run_cli("run", "--filter", "conversion", cwd=tmp_path)
    assert ran.code == ExitCode.OK, ran.stderr
    assert "1 passed" in ran.stdout


def test_no_color_output_has_no_escape_codes() -> None:
    ran = run_cli("run", str(QUICKSTART), "--no-color")
    assert "\x1b[" not in ran.stdout


def test_an_output_schema_violation_is_a_failure_that_says_so(write) -> None:
    manifest = write(
        "bad.yml",
        """
mock_server:
  tools:
    - name: get_temp
      description: Returns the temperature.
      input_schema: { type: object, properties: {} }
      output_schema:
        type: object
        required: [temperature]
        properties: { temperature: { type: number } }
      response:
        content: [{ type: text, text: "warm" }]
        structured_content: { temperature: "warm" }
""",
    )
    suite = write(
        "suite.yml",
        f"""
servers:
  bad:
    command: ["mcptest", "mock", "--tools-from", "{manifest}"]
tools:
  - name: temp
    server: bad
    tool: get_temp
    expect:
      - target: result.content[0].text
        matcher: {{ exact: warm }}
""",
    )
    ran = run_cli("run", str(suite), "-r", "json")
    assert ran.code == ExitCode.FAILED
    [failure] = json.loads(ran.stdout)["results"][0]["failures"]
    assert failure["matcher"] == "outputSchema"
    assert failure["message"] == (
        "structuredContent does not match the outputSchema of 'get_temp' at temperature: "
        "\"warm\" is not of type 'number'"
    )


def test_a_test_without_assertions_fails_on_an_error_result(write) -> None:
    suite = suite_with(
        write,
        """
  - name: invalid arguments
    server: weather
    tool: convert_temperature
    args: { value: 1, to: kelvin }
""",
    )
    ran = run_cli("run", str(suite), "-r", "json")
    assert ran.code == ExitCode.FAILED
    error = json.loads(ran.stdout)["results"][0]["error"]
    assert error.startswith("the tool returned an error result:") and "kelvin" in error


def test_secrets_from_the_environment_never_reach_the_report(write, http_server: str) -> None:
    suite = write(
        "suite.yml",
        f"""
servers:
  web:
    url: {http_server}
    headers: {{ Authorization: {{ env: MCPTEST_TEST_TOKEN }} }}
tools:
  - name: echo a secret
    server: web
    tool: echo
    args: {{ text: "token is ${{MCPTEST_TEST_API_KEY}}" }}
    expect:
      - result.content[0].text: {{ exact: nothing }}
""",
    )
    secret_env = {"MCPTEST_TEST_TOKEN": "Bearer sk-live-abcdef123456", "MCPTEST_TEST_API_KEY": "sk-test-987654321"}
    ran = run_cli("run", str(suite), "-r", "json", env=secret_env)
    assert ran.code == ExitCode.FAILED
    assert "sk-test-987654321" not in ran.stdout + ran.stderr
    assert "sk-live-abcdef123456" not in ran.stdout + ran.stderr
    assert "token is ***" in ran.stdout


def test_a_failed_test_of_a_tool_the_server_does_not_list_names_the_likely_one(write) -> None:
    path = suite_with(
        write,
        """
  - name: misspelt
    server: weather
    tool: get_wether
    args: { city: Paris }
  - name: listed but failing
    server: weather
    tool: get_weather
    args: { city: Paris }
    expect:
      - result.content[0].text: { contains: Oslo }
""",
    )
    ran = run_cli("run", str(path), "-r", "json")
    misspelt, listed = json.loads(ran.stdout)["results"]
    assert "lists no tool 'get_wether' in tools/list (did you mean 'get_weather'?)" in misspelt["error"]
    assert listed["error"] is None  # a listed tool's failure gets no such hint
