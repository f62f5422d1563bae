"""A live catalog the SDK's models reject is read from its wire JSON: every command names each bad tool, goes on
with the rest, and behaves on the live server as on its saved copy."""

from __future__ import annotations

import json
import re
import shlex
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT, run_cli
from tests.doctor.helpers import cli
from tests.servers.bad_tools_server import PAGES

BAD = f"{shlex.quote(sys.executable)} {shlex.quote(str(ROOT / 'tests' / 'servers' / 'bad_tools_server.py'))}"
OLD_FILESYSTEM = ROOT / "tests" / "servers" / "npm" / "node_modules" / "server-filesystem-old" / "dist" / "index.js"
SENT = [tool for page in PAGES for tool in page]
PROBLEMS = [
    "tools[1] (stringly).inputSchema: must be an object, found a JSON string",
    "tools[2].name: every tool needs a non-empty string name",
    'tools[3] (untyped).inputSchema: must be an object schema ("type": "object"), found no type',
    "tools[4]: a tool must be an object, found a JSON string",
]


def warnings(stderr: str) -> list[str]:
    """The messages of the `mcptest: warning:` lines, without where they point (a server, or file:line:col)."""
    lines = [line.removeprefix("mcptest: warning: ") for line in stderr.splitlines() if "warning:" in line]
    return [re.sub(r"^(server '\w+'|\S+\.json:\d+:\d+): ", "", line) for line in lines]


def doctor_lines(stdout: str) -> list[tuple[str, str]]:
    """(check, detail) per line of doctor's console output, the detail without its source."""
    out = []
    for line in stdout.splitlines():
        if match := re.match(r"^([✓✗-]) (.{20}) \[[^]]+\] (.*)$", line):
            detail = re.sub(r"^\S+\.json:\d+:\d+: ", "", match.group(3))
            out.append((f"{match.group(1)} {match.group(2).strip()}", re.sub(r" in \d+ ms.*", "", detail)))
    return out


@pytest.fixture(scope="module")
def saved(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The server's catalog saved by `mcptest tools` (in each xdist worker that needs it)."""
    path = tmp_path_factory.mktemp("wire") / "tools.json"
    ran = run_cli("tools", "--command", BAD, "--output", str(path))
    assert ran.code == 0, ran.stderr
    return path


def test_tools_saves_exactly_what_the_server_sent_and_warns_per_tool(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    saved = tmp_path / "tools.json"
    out = cli(capsys, "tools", "--command", BAD, "--output", saved)
    assert out.code == 0
    assert json.loads(saved.read_text()) == {"tools": SENT}
    assert warnings(out.stderr) == PROBLEMS
    assert out.stderr.splitlines()[-1] == f"mcptest: saved 6 tools to {saved}"


def test_doctor_names_each_bad_tool_and_lints_the_good_ones_live_as_on_the_saved_copy(
    capsys: pytest.CaptureFixture[str], saved: Path
) -> None:
    live = cli(capsys, "doctor", "--command", BAD, "--lint-descriptions", "--no-color")
    assert live.code == 1
    checks = doctor_lines(live.stdout)
    assert [detail for check, detail in checks if check == "✗ tool"] == PROBLEMS
    assert ("✗ tools readable", "3 tools left out (unreadable); 3 tools still checked") in checks
    assert "Descriptions command: 3 tools" in live.stdout
    assert all(f"  {name}  score" in live.stdout for name in ("echo", "add", "untyped"))

    on_file = cli(capsys, "doctor", "--catalog", saved, "--lint-descriptions", "--no-color")
    assert on_file.code == 1
    assert [c for c in doctor_lines(on_file.stdout) if c[0] != "✓ catalog readable"] == [
        c for c in checks if c[0] not in ("✓ server starts", "✓ handshake", "✓ tools/list")
    ]
    assert f"{saved}:24:22: {PROBLEMS[0]}" in on_file.stdout  # a saved copy's problem points at its line


def test_diff_compares_the_live_catalog_with_its_saved_copy_like_any_other(
    capsys: pytest.CaptureFixture[str], saved: Path
) -> None:
    out = cli(capsys, "diff", saved, "--command", BAD, "--json")
    assert (out.code, out.json()["changes"]) == (0, [])
    assert warnings(out.stderr) == PROBLEMS * 2  # the saved side, then the live one

    older = json.loads(saved.read_text())
    del older["tools"][3]  # the tool without "type": "object" is compared like any other: here, added
    saved.with_name("older.json").write_text(json.dumps(older))
    out = cli(capsys, "diff", saved.with_name("older.json"), "--command", BAD, "--json")
    assert [(c["code"], c["name"]) for c in out.json()["changes"]] == [("added", "untyped")]


def test_catalog_snapshot_security_and_init_go_on_with_warnings(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    snapshot = tmp_path / "snapshot.json"
    out = cli(capsys, "catalog", "--command", BAD, "--output", snapshot)
    assert (out.code, warnings(out.stderr)) == (0, PROBLEMS)
    assert json.loads(snapshot.read_text())["tools"] == SENT

    out = cli(capsys, "security", "--command", BAD, "--json")
    assert (out.code, warnings(out.stderr)) == (0, PROBLEMS)
    assert (out.json()["sources"], out.json()["summary"]["entries"]) == (["server 'command'"], 3)

    out = cli(capsys, "init", "--command", BAD, "--dir", tmp_path / "init")
    assert (out.code, warnings(out.stderr)) == (0, PROBLEMS)
    written = (tmp_path / "init" / "mcptest.yml").read_text()
    assert all(f"tool: {name}" in written for name in ("echo", "add", "untyped"))
    assert "stringly" not in written


def test_pin_and_the_runs_pin_check_read_a_catalog_the_sdk_rejects(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    suite = tmp_path / "mcptest.yml"
    command = json.dumps(shlex.split(BAD))
    suite.write_text(
        f"servers:\n  bad:\n    command: {command}\n"
        "tools:\n  - name: echo answers\n    server: bad\n    tool: echo\n    args: {text: hi}\n"
        "    expect:\n      - target: result.content[0].text\n        matcher: { exact: hi }\n"
    )
    out = cli(capsys, "pin", suite)
    assert (out.code, warnings(out.stderr)) == (0, PROBLEMS)
    out = cli(capsys, "run", suite, "--reporter", "json", "--no-color")
    assert out.code == 0, out.stderr
    assert [t["status"] for t in out.json()["results"]] == ["passed"]


def test_an_old_server_filesystem_release_is_listed_tool_by_tool(capsys: pytest.CaptureFixture[str]) -> None:
    """server-filesystem 2025.7.1 lists 11 schemas without `"type": "object"`: the SDK refuses all 12 tools."""
    out = cli(capsys, "doctor", "--command", f"node {OLD_FILESYSTEM} {ROOT}", "--no-color")
    assert out.code == 1
    failed = [detail for check, detail in doctor_lines(out.stdout) if check == "✗ tool"]
    assert len(failed) == 11
    assert failed[0] == 'tools[0] (read_file).inputSchema: must be an object schema ("type": "object"), found no type'
    assert ("✓ tools/list", "12 tools") in doctor_lines(out.stdout)
