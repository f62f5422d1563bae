"""Issue 12: `doctor --model-view` shows what the model sees, defaults and bounds included (real server-everything)."""

from __future__ import annotations

import json

from mcptest.core.exit_codes import ExitCode
from tests.conftest import ROOT, run_cli

EVERYTHING = ROOT / "tests" / "servers" / "npm" / "node_modules" / ".bin" / "mcp-server-everything"


def test_doctor_model_view_shows_defaults_and_minimum_maximum_bounds() -> None:
    ran = run_cli("doctor", "--command", str(EVERYTHING), "--model-view", timeout=120)
    assert ran.code == ExitCode.OK, ran.stdout + ran.stderr
    assert (
        "- count [number] [default: 3] [minimum: 1] [maximum: 10]: Number of resource links to return (1-10)"
        in ran.stdout.splitlines()
    )
    assert "- includeImage [boolean] [default: false]: Whether to include an example image" in ran.stdout
    data = run_cli("doctor", "--command", str(EVERYTHING), "--model-view", "--json", timeout=120)
    views = json.loads(data.stdout)["model_view"]
    tools = {t["name"]: t for view in views for t in view["tools"]}
    (count,) = tools["get-resource-links"]["params"]
    assert count["limits"] == {"default": 3, "minimum": 1, "maximum": 10}
