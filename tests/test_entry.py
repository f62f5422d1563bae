"""The `mcptest` executable (`entry`): exit codes and output survive its quick exit, and its settings stay its own."""

from __future__ import annotations

import json
import sys

from mcptest.core.exit_codes import ExitCode
from tests.conftest import ROOT, run_cli

ENV_SERVER = ROOT / "tests" / "servers" / "env_server.py"


def test_a_long_report_on_stdout_arrives_whole_before_the_process_ends() -> None:
    ran = run_cli("schema")
    assert ran.code == ExitCode.OK
    assert json.loads(ran.stdout) == json.loads((ROOT / "schema" / "v1.json").read_text(encoding="utf-8"))


def test_exit_codes_come_through_the_quick_exit(write) -> None:
    assert run_cli("validate", str(ROOT / "examples" / "quickstart" / "mcptest.yml")).code == ExitCode.OK
    missing = run_cli("validate", "no-such-suite.yml")
    assert missing.code == ExitCode.USAGE and missing.stderr.strip() == "no-such-suite.yml: no such file"
    assert run_cli("--no-such-flag").code == ExitCode.USAGE
    assert run_cli("run", str(ROOT / "examples" / "agent-gates" / "breaching.yml")).code == ExitCode.FAILED


def test_the_pydantic_plugin_setting_is_not_passed_on_to_a_stdio_server(write, monkeypatch) -> None:
    monkeypatch.delenv("PYDANTIC_DISABLE_PLUGINS", raising=False)  # so mcptest sets it for itself
    suite = write(
        "suite.yml",
        f"""
        servers:
          env:
            command: [{json.dumps(sys.executable)}, {json.dumps(str(ENV_SERVER))}]
        tools:
          - name: the server does not see mcptest's pydantic setting
            server: env
            tool: env_var
            args: {{ name: PYDANTIC_DISABLE_PLUGINS }}
            expect:
              - result.content[0].text: {{ exact: "(unset)" }}
        """,
    )
    ran = run_cli("run", str(suite))
    assert ran.code == ExitCode.OK, ran.stdout + ran.stderr


def test_version_prints_the_package_version_and_help_names_it_first() -> None:
    from mcptest import __version__

    for flag in ("--version", "-V"):
        ran = run_cli(flag)
        assert (ran.code, ran.stdout) == (ExitCode.OK, f"mcptest {__version__}\n")
    described = [line for line in run_cli("--help").stdout.splitlines() if line.strip()][1]
    assert f"mcptest {__version__}" in described


def test_colour_follows_the_stdout_of_the_moment_not_the_one_at_import(monkeypatch) -> None:
    """A pytest capture or an embedding program swaps sys.stdout after mcptest is imported."""
    import io

    from mcptest.cli.common import use_color

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setattr("sys.stdout", Terminal())
    assert use_color(False) is True
    assert use_color(True) is False
    monkeypatch.setattr("sys.stdout", io.StringIO())
    assert use_color(False) is False
