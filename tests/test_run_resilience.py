"""One test's trouble never loses the others' results: schemas that cannot be checked, a bug in a check, and an
`--output` that cannot be written (refused before anything runs)."""

from __future__ import annotations

import json
from pathlib import Path

import anyio
import pytest

from mcptest.core.exit_codes import ExitCode
from mcptest.expect import assertions as expect
from mcptest.run.runner import run_suite
from mcptest.server.session import InProcessServer
from mcptest.suite.loader import load_suite
from tests.conftest import ROOT, run_cli
from tests.servers.demo_server import build

QUICKSTART = ROOT / "examples" / "quickstart" / "mcptest.yml"


def demo_suite(write, expect_lines: str) -> Path:
    return write(
        "suite.yml",
        f"""
        servers:
          demo: {{ command: ["unused"] }}
        tools:
          - name: checked
            server: demo
            tool: weather
            args: {{ city: Paris }}
            expect:
{expect_lines}
          - name: after it
            server: demo
            tool: add
            args: {{ a: 1, b: 2 }}
        """,
    )


def run_in_process(suite: Path) -> dict[str, tuple[str, list[str], str | None]]:
    loaded = load_suite(suite)
    result = anyio.run(lambda: run_suite(loaded, servers={"demo": InProcessServer(build())}))
    return {r.name: (r.status, [f.message for f in r.failures], r.error) for r in result.report.results}


def test_a_remote_ref_is_a_load_error_at_its_line(write) -> None:
    suite = demo_suite(
        write, '              - result.structuredContent: { schema: { $ref: "https://example.com/w.json" } }'
    )
    ran = run_cli("validate", str(suite))
    assert ran.code == ExitCode.USAGE
    assert ran.stderr == (
        f"{suite}:9:9: tools[0].expect[0].schema: $ref 'https://example.com/w.json' points outside the schema; "
        "mcptest never fetches schemas: copy it under `$defs` and refer to it as '#/$defs/NAME'\n"
    )


@pytest.mark.timeout(30)
def test_a_schema_that_refers_to_itself_fails_its_assertion_and_the_run_goes_on(write) -> None:
    suite = demo_suite(write, '              - result.structuredContent: { schema: { $ref: "#" } }')
    assert run_in_process(suite) == {
        "checked": (
            "failed",
            ["the schema cannot be checked: its $ref refers back to itself without descending into the value"],
            None,
        ),
        "after it": ("passed", [], None),
    }


def test_a_local_ref_that_leads_nowhere_fails_its_assertion(write) -> None:
    suite = demo_suite(write, '              - result.structuredContent: { schema: { $ref: "#/$defs/missing" } }')
    status, failures, _ = run_in_process(suite)["checked"]
    assert status == "failed" and failures[0].startswith("the schema cannot be checked: ")
    assert "missing" in failures[0]


def test_a_check_that_raises_fails_that_test_alone(write, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(actual: object, expected: object) -> str | None:
        raise KeyError("a bug in a matcher")

    monkeypatch.setitem(expect._MATCHERS, "contains", broken)  # stands in for any bug in a check
    suite = demo_suite(write, "              - result.structuredContent.city: { contains: Par }")
    assert run_in_process(suite) == {
        "checked": (
            "failed",
            [],
            "mcptest could not check this test (KeyError: 'a bug in a matcher'); the other tests went on. "
            "Please report this bug.",
        ),
        "after it": ("passed", [], None),
    }


@pytest.mark.parametrize(
    ("output", "message"),
    [
        (".", "--output .: is a directory; name a file in it, e.g. report.json"),
        ("suite.yml/report.json", "--output suite.yml/report.json: suite.yml is not a directory"),
        ("suite.yml/deeper/report.json", "--output suite.yml/deeper/report.json: suite.yml is not a directory"),
    ],
)
def test_an_output_that_cannot_be_written_is_refused_before_running(tmp_path: Path, output: str, message: str) -> None:
    (tmp_path / "suite.yml").write_text(
        QUICKSTART.read_text().replace("weather.yml", str(QUICKSTART.parent / "weather.yml"))
    )
    for command in (["run", "suite.yml"], ["tools", "suite.yml"]):
        ran = run_cli(*command, "--output", output, cwd=tmp_path)
        assert (ran.code, ran.stderr, ran.stdout) == (ExitCode.USAGE, f"mcptest: {message}\n", ""), command


def test_report_refuses_a_directory_as_output(tmp_path: Path) -> None:
    report = tmp_path / "run.json"
    ran = run_cli("run", str(QUICKSTART), "--filter", "weather for", "-r", "json", "-o", str(report))
    assert ran.code == ExitCode.OK and json.loads(report.read_text())["interrupted"] is False
    again = run_cli("report", str(report), "--output", str(tmp_path))
    assert again.code == ExitCode.USAGE and "is a directory" in again.stderr
