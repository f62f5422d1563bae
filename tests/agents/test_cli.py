"""`mcptest run` with live agent tests: the cost cap, concurrency, a killed recording, the shared session pool."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import anyio

from mcptest.core.exit_codes import ExitCode
from mcptest.server.session import SessionPool
from mcptest.suite.models import StdioServer
from tests.conftest import ROOT, demo_command, run_cli
from tests.providers.fake_llm import FakeLLM, Turn, call, serve
from tests.providers.helpers import environ, run, write_suite

AGENT = """
agents:
  - name: weather
    model: gpt-4o-mini
    servers: [weather]
    prompt: Weather in Paris?
    runs: 3
"""
TURNS = [Turn(calls=[call("get_weather", city="Paris")]), Turn(text="Sunny.")]


def test_an_over_budget_run_stops_dispatching_and_exits_5(tmp_path: Path) -> None:
    fake = FakeLLM(TURNS)
    with serve(fake) as url:
        suite = write_suite(tmp_path, AGENT)
        ran = run_cli(
            "run",
            str(suite),
            "--record",
            "--concurrency",
            "1",
            "--max-cost",
            "0.0001",
            "-r",
            "json",
            env=environ(url),
        )
    assert ran.code == ExitCode.POLICY, ran.stderr
    report = json.loads(ran.stdout)
    assert [(r["run"], r["status"]) for r in report["results"]] == [(1, "passed"), (2, "passed"), (None, "skipped")]
    assert report["results"][2]["error"] == "1 of 3 runs not dispatched: the --max-cost budget was spent"
    assert len(fake.requests) == 4
    assert "mcptest: --max-cost 0.0001 USD spent; the remaining runs were not dispatched" in ran.stderr
    assert "cassette not written for 'weather' [gpt-4o-mini]: 1 run was not dispatched" in ran.stderr


def test_max_cost_refuses_a_model_without_a_price(tmp_path: Path) -> None:
    suite = write_suite(tmp_path, AGENT.replace("gpt-4o-mini", "gpt-99"))
    ran = run_cli("run", str(suite), "--record", "--max-cost", "1", env=environ("http://127.0.0.1:9"))
    assert ran.code == ExitCode.USAGE
    assert "--max-cost cannot count the cost of gpt-99: no price is known" in ran.stderr


def test_runs_go_concurrently_up_to_the_bound(tmp_path: Path) -> None:
    fake = FakeLLM(TURNS, delay_s=0.2)
    with serve(fake) as url:
        result = run(
            write_suite(tmp_path, AGENT.replace("runs: 3", "runs: 4")), environ(url), record_mode="all", concurrency=2
        )
    assert result.report.ok and fake.peak == 2


def test_a_killed_recording_leaves_the_previous_cassette_readable(tmp_path: Path) -> None:
    suite = write_suite(tmp_path, AGENT)
    with serve(FakeLLM(TURNS)) as url:
        run(suite, environ(url), record_mode="all")
    cassette = tmp_path / "cassettes" / "weather" / "gpt-4o-mini.json"
    before = cassette.read_text()
    hung = FakeLLM(TURNS, hang_after=4)
    with serve(hung) as url:
        env = {**os.environ, **environ(url), "PYTHONPATH": str(ROOT)}
        cmd = [sys.executable, "-m", "mcptest", "run", str(suite), "--record", "--concurrency", "1"]
        proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            assert hung.hanging.wait(timeout=60), "the recording never reached its third run"
        finally:
            proc.kill()
            proc.wait(timeout=30)
    assert cassette.read_text() == before
    assert [p.name for p in cassette.parent.iterdir()] == ["gpt-4o-mini.json"]
    assert run_cli("run", str(suite)).code == ExitCode.OK


def test_concurrent_gets_of_one_server_start_it_once() -> None:
    async def go() -> list[object]:
        async with SessionPool({"demo": StdioServer(command=demo_command())}, base_dir=ROOT) as pool:
            sessions: list[object] = []

            async def get() -> None:
                sessions.append(await pool.get("demo"))

            async with anyio.create_task_group() as tg:
                for _ in range(5):
                    tg.start_soon(get)
            return sessions

    sessions = anyio.run(go)
    assert len(sessions) == 5 and len({id(s) for s in sessions}) == 1
