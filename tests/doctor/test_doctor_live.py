"""doctor and `mcptest tools` against a real third-party server (PyPI `mcp-server-time`, run as a subprocess)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from mcptest.records.catalog import load_catalog
from tests.doctor.helpers import cli

TIME_SERVER = Path(sys.executable).parent / "mcp-server-time"
pytestmark = pytest.mark.skipif(not TIME_SERVER.exists(), reason="mcp-server-time is installed by `make install`")


def test_doctor_lints_the_live_time_server(capsys: pytest.CaptureFixture[str]) -> None:
    out = cli(capsys, "doctor", "--command", str(TIME_SERVER), "--lint-descriptions", "--json", "--timeout", "20")
    report = out.json()
    assert out.code == 0, out.stderr
    checks = {c["check"]: c for c in report["checks"]}
    assert list(checks) == ["server starts", "handshake", "tools/list", "tool-surface tokens"]
    assert all(c["status"] == "pass" and c["source"] == "command" for c in checks.values())
    assert checks["handshake"]["data"]["server_name"] == "mcp-time"
    assert "tools" in checks["handshake"]["data"]["capabilities"]
    assert checks["tools/list"]["data"]["tools"] == 2
    lint = report["lint"][0]
    assert {t["name"]: [f["rule"] for f in t["findings"]] for t in lint["tools"]} == {
        "get_current_time": ["SCH-002"],
        "convert_time": ["SCH-002"],
    }
    assert (lint["summary"]["mean_score"], lint["summary"]["critical_count"]) == (0.977, 0)


def test_doctor_checks_a_suite_server_by_name(capsys: pytest.CaptureFixture[str], write) -> None:
    suite = write("mcptest.yml", f"servers:\n  time:\n    command: [{str(TIME_SERVER)!r}]\n    connect_timeout_s: 20\n")
    out = cli(capsys, "doctor", suite, "--server", "time", "--no-color")
    names = [line[2:22].strip() for line in out.stdout.splitlines()]
    assert out.code == 0, out.stdout + out.stderr
    assert names == [
        "suite readable",
        "server starts",
        "handshake",
        "tools/list",
        "tool-surface tokens",
        "provider keys",
    ]
    assert (
        out.stdout.splitlines()[-1]
        == "- provider keys        no live agent run needs a key (cassettes replay without one)"
    )


def test_tools_saves_the_exact_tools_list(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "catalog.json"
    out = cli(capsys, "tools", "--command", str(TIME_SERVER), "--output", path, "--timeout", "20")
    assert (out.code, out.stdout, out.stderr) == (0, "", f"mcptest: saved 2 tools to {path}\n")
    catalog = load_catalog(path)
    assert [t.name for t in catalog.tools] == ["get_current_time", "convert_time"]
    assert catalog.tools[0].output_schema is not None and catalog.tools[0].annotations == {
        "readOnlyHint": True,
        "destructiveHint": False,
        "idempotentHint": True,
        "openWorldHint": False,
    }


def test_a_server_that_cannot_start_fails_the_check_and_exits_1(capsys: pytest.CaptureFixture[str]) -> None:
    out = cli(capsys, "doctor", "--command", "/nonexistent/mcp-server", "--json", "--timeout", "10")
    assert out.code == 1
    [check] = out.json()["checks"]
    assert (check["check"], check["status"]) == ("server starts", "fail")
    assert "/nonexistent/mcp-server" in check["detail"]


def test_an_unreachable_url_fails_within_the_timeout(capsys: pytest.CaptureFixture[str]) -> None:
    out = cli(
        capsys,
        "doctor",
        "--url",
        "http://127.0.0.1:9/mcp",
        "--header",
        "Authorization: Bearer t",
        "--json",
        "--timeout",
        "5",
    )
    assert out.code == 1
    assert [(c["check"], c["status"]) for c in out.json()["checks"]] == [("server starts", "fail")]


def test_an_unknown_suite_server_exits_2_with_a_suggestion(capsys: pytest.CaptureFixture[str], write) -> None:
    suite = write("mcptest.yml", f"servers:\n  time:\n    command: [{str(TIME_SERVER)!r}]\n")
    out = cli(capsys, "doctor", suite, "--server", "tme")
    assert (out.code, out.stderr) == (2, f"mcptest: --server: {suite} has no server 'tme' (did you mean 'time'?)\n")
