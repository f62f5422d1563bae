"""Doctor's checks as data, and the flag combinations that need a choice of server."""

from __future__ import annotations

import pytest

from mcptest.server.doctor import Status, provider_key_check
from tests.doctor.helpers import cli

TWO_SERVERS = "servers:\n  a:\n    command: [srv-a]\n  b:\n    command: [srv-b]\n"


def test_provider_keys_are_checked_per_provider_and_never_shown() -> None:
    env = {"ANTHROPIC_API_KEY": "sk-secret", "OPENAI_API_KEY": ""}
    check = provider_key_check(["claude-sonnet-4-5", "gpt-5", "o3-mini", "scripted"], env)
    assert (check.status, check.detail) == (Status.FAIL, "not set: OPENAI_API_KEY")
    assert provider_key_check(["claude-sonnet-4-5"], env).to_json() == {
        "check": "provider keys",
        "status": "pass",
        "detail": "set: ANTHROPIC_API_KEY",
        "source": None,
    }
    assert provider_key_check(["scripted"], env).status is Status.SKIP


def test_tools_needs_one_server_from_a_suite_with_several(capsys: pytest.CaptureFixture[str], write) -> None:
    out = cli(capsys, "tools", write("mcptest.yml", TWO_SERVERS))
    assert (out.code, out.stderr) == (2, "mcptest: the suite has 2 servers; pick one with --server\n")


def test_dump_catalog_needs_one_server(capsys: pytest.CaptureFixture[str], write, tmp_path) -> None:
    out = cli(capsys, "doctor", write("mcptest.yml", TWO_SERVERS), "--dump-catalog", tmp_path / "c.json")
    assert (out.code, out.stderr) == (2, "mcptest: --dump-catalog saves one catalog; pick a server with --server\n")


def test_an_invalid_suite_exits_2_with_located_errors(capsys: pytest.CaptureFixture[str], write) -> None:
    suite = write("mcptest.yml", "servers:\n  a:\n    comand: [srv]\n")
    out = cli(capsys, "doctor", suite)
    assert out.code == 2 and out.stdout == ""
    assert out.stderr.startswith(f"{suite}:3:")
