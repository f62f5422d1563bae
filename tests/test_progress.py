"""Live progress on stderr: a line per finished test in CI or a log (as it finishes), a bar on a terminal, --quiet."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT, run_cli

QUICKSTART = ROOT / "examples" / "quickstart" / "mcptest.yml"
WEATHER = ROOT / "examples" / "quickstart" / "weather.yml"


def test_a_log_gets_one_line_per_finished_test_in_suite_order() -> None:
    ran = run_cli("run", str(QUICKSTART), env={"CI": "true"})
    lines = [line for line in ran.stderr.splitlines() if line.startswith("mcptest: PASS")]
    assert [line.split(" (")[0] for line in lines] == [
        "mcptest: PASS weather for a city",
        "mcptest: PASS weather is structured",
        "mcptest: PASS conversion names both units",
        "mcptest: PASS a bad unit is rejected",
        "mcptest: PASS scripted agent converts the weather",  # agent rows, once their runs are judged
        "mcptest: PASS claude answers from the tool [claude-haiku-4-5] #1",
        "mcptest: PASS claude answers from the tool [claude-haiku-4-5] #2",
        "mcptest: PASS claude answers from the tool [claude-haiku-4-5] #3",
    ]
    assert "mcptest: agent runs 1/1 (scripted agent converts the weather)" in ran.stderr


def test_quiet_prints_no_progress() -> None:
    ran = run_cli("run", str(QUICKSTART), "--quiet", env={"CI": "true"})
    assert ran.code == 0 and "mcptest: PASS" not in ran.stderr and "agent runs" not in ran.stderr


@pytest.mark.timeout(60)
def test_a_line_reaches_the_log_while_a_later_test_hangs(tmp_path: Path) -> None:
    shutil.copy(WEATHER, tmp_path / "weather.yml")
    (tmp_path / "suite.yml").write_text(
        "servers:\n"
        '  ok: { command: ["mcptest", "mock", "--tools-from", "weather.yml"] }\n'
        '  stuck: { command: ["mcptest", "mock", "--tools-from", "weather.yml", "--fault", "hang"] }\n'
        "tools:\n"
        "  - { name: first, server: ok, tool: get_weather, args: { city: Paris } }\n"
        "  - { name: second, server: stuck, tool: get_weather, args: { city: Paris } }\n"
    )
    path = f"{Path(sys.executable).parent}:{os.environ['PATH']}"
    env = {**os.environ, "CI": "true", "PYTHONPATH": str(ROOT), "PATH": path}
    proc = subprocess.Popen(
        [sys.executable, "-m", "mcptest", "run", "suite.yml"], cwd=tmp_path, env=env,
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, start_new_session=True,
    )  # fmt: skip
    try:
        assert proc.stderr is not None
        line = proc.stderr.readline()
        assert line.startswith("mcptest: PASS first ("), line
        assert proc.poll() is None  # the second test's server hangs: the line came before the run's end
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=30)
        if proc.stderr:
            proc.stderr.close()


@pytest.mark.skipif(shutil.which("script") is None, reason="util-linux `script` gives the run a terminal")
def test_a_terminal_gets_a_bar_with_counts_and_the_current_test(tmp_path: Path) -> None:
    argv = f"{sys.executable} -m mcptest run {QUICKSTART} --reporter json -o {tmp_path / 'r.json'}"
    env = {**os.environ, "CI": "", "PYTHONPATH": str(ROOT), "TERM": "xterm"}
    ran = subprocess.run(["script", "-qec", argv, "/dev/null"], capture_output=True, text=True, timeout=120, env=env)
    assert ran.returncode == 0, ran.stdout
    assert "4 passed" in ran.stdout and "4/4" in ran.stdout and "mcptest: PASS" not in ran.stdout
