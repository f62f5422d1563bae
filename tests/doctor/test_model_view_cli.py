"""`mcptest doctor --model-view` and `--server-managed`, from a saved catalog, a command and a suite's server."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from tests.doctor.helpers import FIXTURES, cli

CATALOG = FIXTURES / "model-view" / "projects.json"
GOLDEN = FIXTURES.parent / "golden" / "model-view"
MOCK = f"{Path(sys.executable).parent / 'mcptest'} mock --tools-from {CATALOG}"


def test_the_console_prints_the_checks_then_the_golden_view(capsys: pytest.CaptureFixture[str]) -> None:
    out = cli(capsys, "doctor", "--catalog", CATALOG, "--model-view", "--no-color")
    assert (out.code, out.stderr) == (0, "")
    header = f"\nAs the model sees it {CATALOG}\n\n"
    assert out.stdout.split(header) == [
        f"✓ catalog readable     [{CATALOG}] 3 tools\n✓ tool-surface tokens  [{CATALOG}] 261 tokens (cl100k_base)\n",
        (GOLDEN / "projects.txt").read_text(encoding="utf-8"),
    ]


def test_json_carries_the_same_view_as_data(capsys: pytest.CaptureFixture[str]) -> None:
    out = cli(capsys, "doctor", "--catalog", CATALOG, "--model-view", "--json")
    golden = json.loads((GOLDEN / "projects.json").read_text(encoding="utf-8"))
    assert out.code == 0 and "lint" not in out.json()
    assert out.json()["model_view"] == [{"source": str(CATALOG)} | golden]


def test_server_managed_replaces_the_list_for_the_rule_and_the_view(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["doctor", "--catalog", CATALOG, "--json", "--lint-descriptions", "--select", "SCH-005", "--model-view"]
    report = cli(capsys, *args, "--server-managed", "tags,role", "--server-managed", "name").json()
    pointers = [f.get("pointer") for t in report["lint"][0]["tools"] for f in t["findings"]]
    assert pointers == [
        "/inputSchema/properties/tags",
        "/inputSchema/$defs/Member/properties/role",
        None,
        None,
    ]  # `name` is required, so it is an input: not flagged; the two other tools pass
    view = report["model_view"][0]
    assert view["server_managed"] == ["tags", "role", "name"]
    assert [p["name"] for p in view["tools"][0]["params"] if p["server_managed"]] == ["tags"]


def test_an_empty_server_managed_list_turns_the_marks_off(capsys: pytest.CaptureFixture[str]) -> None:
    report = cli(capsys, "doctor", "--catalog", CATALOG, "--json", "--model-view", "--server-managed", "").json()
    assert (report["model_view"][0]["server_managed"], report["model_view"][0]["server_managed_tokens"]) == ([], 0)


def test_a_live_command_shows_the_same_view_as_its_saved_catalog(capsys: pytest.CaptureFixture[str]) -> None:
    out = cli(capsys, "doctor", "--command", MOCK, "--model-view", "--json", "--timeout", "20")
    golden = json.loads((GOLDEN / "projects.json").read_text(encoding="utf-8"))
    assert out.code == 0, out.stderr
    assert out.json()["model_view"] == [{"source": "command"} | golden]


def test_a_suite_server_shows_its_view(capsys: pytest.CaptureFixture[str], write) -> None:
    command = json.dumps(MOCK.split())
    suite = write("mcptest.yml", f"servers:\n  projects:\n    command: {command}\n    connect_timeout_s: 20\n")
    out = cli(capsys, "doctor", suite, "--server", "projects", "--model-view", "--no-color")
    assert out.code == 0, out.stdout + out.stderr
    view = out.stdout.split("\nAs the model sees it projects\n\n")[1]
    assert view.splitlines()[0] == "### create_project (214 tokens; server-managed fields: 27)"
