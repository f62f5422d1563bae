"""`--reporter agent` as a coding agent reads it: the verdict first, each failure's place, and a rerun command that
a shell runs as printed and that selects that one test, whatever quotes and brackets its name holds."""

from __future__ import annotations

import json
import os
import subprocess

import pytest

from mcptest.core.exit_codes import ExitCode
from mcptest.core.regexes import search
from mcptest.report.agent import anchored, rerun_command
from tests.conftest import PYTHON, ROOT, run_cli

MANIFEST = ROOT / "examples" / "quickstart" / "weather.yml"
HOSTILE = """it's "Paris" [v2] (a|b) $HOME `x` *.+?{1}^\\ end"""


@pytest.mark.parametrize(
    "name", [HOSTILE, "plain", "tab\there", "new\nline", "ünïcödé ✓", "a.b", "[x]", "\\", "$(rm -rf ~)"]
)
def test_the_anchored_filter_matches_the_whole_name_and_nothing_around_it(name: str) -> None:
    pattern = anchored(name)
    assert search(pattern, name)
    assert not search(pattern, name + " ")
    assert not search(pattern, "x" + name)
    assert not search(pattern, name[:-1])


def test_the_rerun_command_is_one_shell_word_per_argument() -> None:
    import shlex

    words = shlex.split(rerun_command("my suites/it's.yml", HOSTILE))
    assert words == ["mcptest", "run", "my suites/it's.yml", "--filter", "re:" + anchored(HOSTILE), "--reporter",
                     "agent"]  # fmt: skip


def test_a_failing_run_prints_the_verdict_first_and_a_rerun_that_runs_that_test_alone(write) -> None:
    suite = write(
        "suite.yml",
        f"""
        servers:
          weather:
            command: ["mcptest", "mock", "--tools-from", "{MANIFEST}"]
        tools:
          - name: {json.dumps(HOSTILE)}
            server: weather
            tool: get_weather
            args: {{ city: Paris }}
            expect:
              - result.structuredContent.city: {{ exact: London }}
          - name: {json.dumps(HOSTILE + " and more")}
            server: weather
            tool: get_weather
            args: {{ city: Paris }}
            expect:
              - result.structuredContent.city: {{ exact: Oslo }}
          - name: passes
            server: weather
            tool: get_weather
            args: {{ city: Paris }}
        """,
    )
    ran = run_cli("run", str(suite), "--reporter", "agent", env={"FORCE_COLOR": "1", "CI": ""})
    assert ran.code == ExitCode.FAILED, ran.stdout + ran.stderr
    assert ran.stderr == ""  # no progress, no floor lines: only the report
    assert "\x1b" not in ran.stdout
    lines = ran.stdout.splitlines()
    assert lines[0] == "VERDICT FAIL failed=2 passed=1 total=3"
    block = lines[lines.index(f"FAIL {HOSTILE}") :][:5]
    source = suite.read_text().splitlines()
    line = next(i for i, text in enumerate(source, 1) if "London" in text)
    assert block == [
        f"FAIL {HOSTILE}",
        f"at: {suite}:{line}:{source[line - 1].index('result') + 1}",
        'expected: result.structuredContent.city exact "London"',
        'received: "Paris" (expected "London", got "Paris")',
        f"rerun: {rerun_command(str(suite), HOSTILE)}",
    ]
    rerun = block[-1].removeprefix("rerun: ").replace("mcptest", f"{PYTHON} -m mcptest", 1)
    again = subprocess.run(
        ["sh", "-c", rerun], cwd=ROOT, capture_output=True, text=True, timeout=60,
        env={**os.environ, "PYTHONPATH": str(ROOT), "NO_COLOR": "1"},
    )  # fmt: skip
    assert again.returncode == ExitCode.FAILED, again.stdout + again.stderr
    assert again.stdout.splitlines()[0] == "VERDICT FAIL failed=1 passed=0 total=1"
    assert f"FAIL {HOSTILE}" in again.stdout.splitlines()
