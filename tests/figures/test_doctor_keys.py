"""Issue 12: doctor asks for provider keys only where a live run would need them."""

from __future__ import annotations

import shutil
from pathlib import Path

from mcptest.core.exit_codes import ExitCode
from tests.conftest import ROOT, run_cli

QUICKSTART = ROOT / "examples" / "quickstart"
NO_KEYS = {"ANTHROPIC_API_KEY": "", "OPENAI_API_KEY": ""}


def test_doctor_on_a_replay_only_suite_does_not_demand_provider_keys(tmp_path: Path) -> None:
    shutil.copytree(QUICKSTART, tmp_path / "q")
    suite = tmp_path / "q" / "mcptest.yml"
    ran = run_cli("doctor", str(suite), env=NO_KEYS, timeout=120)
    assert ran.code == ExitCode.OK, ran.stdout + ran.stderr
    assert "- provider keys        no live agent run needs a key (cassettes replay without one)" in ran.stdout
    shutil.rmtree(tmp_path / "q" / "cassettes")  # now the model test would run live
    ran = run_cli("doctor", str(suite), env=NO_KEYS, timeout=120)
    assert ran.code == ExitCode.FAILED
    assert "✗ provider keys        not set: ANTHROPIC_API_KEY" in ran.stdout
