"""The quickstart's committed cassette is exactly what recording it again gives, and it replays offline."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from mcptest.core.exit_codes import ExitCode
from tests.conftest import ROOT, run_cli
from tests.providers.fake_llm import FakeLLM, Turn, call, serve
from tests.providers.helpers import environ

QUICKSTART = ROOT / "examples" / "quickstart"
CASSETTE = Path("cassettes") / "claude-answers-from-the-tool" / "claude-haiku-4-5.json"
TURNS = [
    Turn(calls=[call("get_weather", city="Tokyo")], usage=(642, 38)),
    Turn(text="It is 22 degrees Celsius and sunny in Tokyo right now.", usage=(731, 17)),
]


def record(directory: Path) -> None:
    """Record the quickstart's model test in `directory` through the Anthropic SDK against the fake Messages API."""
    with serve(FakeLLM(TURNS)) as url:
        ran = run_cli("run", str(directory / "mcptest.yml"), "--record", "--filter", "claude answers", env=environ(url))
    assert ran.code == ExitCode.OK, ran.stdout + ran.stderr


def test_re_recording_the_quickstart_cassette_gives_the_committed_file(tmp_path: Path) -> None:
    for name in ("mcptest.yml", "weather.yml"):
        shutil.copy(QUICKSTART / name, tmp_path / name)
    record(tmp_path)
    assert (tmp_path / CASSETTE).read_text() == (QUICKSTART / CASSETTE).read_text()


def test_the_quickstart_replays_with_no_key_and_no_endpoint() -> None:
    ran = run_cli("run", str(QUICKSTART / "mcptest.yml"), "--filter", "claude", env={"CI": "true"})
    assert ran.code == ExitCode.OK, ran.stdout + ran.stderr
    assert "3 passed, 0 failed" in ran.stdout
    assert [re.sub(r" \(\d+ ms\)$", "", line) for line in ran.stderr.splitlines()] == [
        *(f"mcptest: PASS claude answers from the tool [claude-haiku-4-5] #{i}" for i in (1, 2, 3)),  # CI progress
        "tool-selection floor [PASS] claude answers from the tool: selection 3/3 (100%), pass^k 100%, "
        "tokens 1428 median / 1428 max",
    ]
