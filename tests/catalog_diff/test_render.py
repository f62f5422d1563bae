"""The diff as a terminal reads it and as Markdown for a pull request: whole outputs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.doctor.helpers import cli

OLD = {
    "tools": [
        {"name": "search", "description": "Search issues.", "inputSchema": {"type": "object"}},
        {"name": "ping", "description": "Check the server.", "inputSchema": {"type": "object"}},
    ]
}
NEW = {
    "tools": [
        {"name": "search", "description": "Search issues | tickets.", "inputSchema": {"type": "object"}},
        {"name": "status", "description": "Server status.", "inputSchema": {"type": "object", "required": ["x"]}},
    ]
}


@pytest.fixture
def files(tmp_path: Path) -> tuple[Path, Path]:
    old, new = tmp_path / "old.json", tmp_path / "new.json"
    old.write_text(json.dumps(OLD), encoding="utf-8")
    new.write_text(json.dumps(NEW), encoding="utf-8")
    return old, new


def test_pretty_output_groups_changes_by_impact(capsys: pytest.CaptureFixture[str], files: tuple[Path, Path]) -> None:
    old, new = files
    out = cli(capsys, "diff", old, new, "--no-color")
    assert out.code == 1
    assert out.stdout == (
        f"{old} → {new}: 1 breaking, 1 risky, 1 compatible\n"
        "\nbreaking (1)\n"
        "  removed                  tool 'ping' removed\n"
        "\nrisky (1)\n"
        "  description_rewritten    tool 'search': description rewritten\n"
        "      - Search issues.\n"
        "      + Search issues | tickets.\n"
        "\ncompatible (1)\n"
        "  added                    tool 'status' added\n"
    )


def test_markdown_is_a_section_with_a_table_per_impact(
    capsys: pytest.CaptureFixture[str], files: tuple[Path, Path]
) -> None:
    old, new = files
    out = cli(capsys, "diff", old, new, "--format", "md", "--fail-on", "never")
    assert out.code == 0
    assert out.stdout == (
        "## Catalog changes: 1 breaking, 1 risky, 1 compatible\n\n"
        f"`{old}` → `{new}`\n\n"
        "### Breaking (1)\n\n| change | what |\n|---|---|\n| `removed` | tool 'ping' removed |\n\n"
        "### Risky (1)\n\n| change | what |\n|---|---|\n"
        "| `description_rewritten` | tool 'search': description rewritten |\n\n"
        "### Compatible (1)\n\n| change | what |\n|---|---|\n| `added` | tool 'status' added |\n"
    )


def test_risky_fails_only_with_fail_on_risky_and_identical_catalogs_say_so(
    capsys: pytest.CaptureFixture[str], files: tuple[Path, Path], tmp_path: Path
) -> None:
    old, _ = files
    reworded = tmp_path / "reworded.json"
    reworded.write_text(json.dumps({"tools": [{**OLD["tools"][0], "description": "Find issues."}, OLD["tools"][1]]}))
    assert cli(capsys, "diff", old, reworded, "--no-color").code == 0
    assert cli(capsys, "diff", old, reworded, "--fail-on", "risky", "--no-color").code == 1
    same = cli(capsys, "diff", old, old, "--no-color")
    assert (same.code, same.stdout) == (0, f"{old} → {old}: no changes\n")
