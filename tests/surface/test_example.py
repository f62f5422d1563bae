"""The offline example for resources, prompts and client answers runs like the quickstart: mock server, no key."""

from __future__ import annotations

from mcptest.core.exit_codes import ExitCode
from tests.conftest import ROOT, run_cli

EXAMPLE = ROOT / "examples" / "resources-and-prompts" / "mcptest.yml"


def test_the_resources_and_prompts_example_passes_offline() -> None:
    ran = run_cli("run", str(EXAMPLE), timeout=90)
    assert ran.code == ExitCode.OK, ran.stdout + ran.stderr
    assert "4 passed, 0 failed" in ran.stdout
    assert "PASS  the readme is served  notes notes://readme" in ran.stdout
