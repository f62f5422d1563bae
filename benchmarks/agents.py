"""Agent-run figures (issue 4): replaying a 50-test suite with `runs: 10` from cassettes, and run concurrency.

1. Replay: one test's 10 runs are recorded through the OpenAI SDK against the fake Chat Completions server of
   the tests; its cassette is copied for 49 more tests with the same prompt. `mcptest run` then replays all 500
   runs. The servers' command does not exist, so the run would fail had replay started one. Target: under 3 s wall.
2. Concurrency: the fake provider sleeps 200 ms per model call (two calls per run); 10 runs at `--concurrency 1`
   and at `--concurrency 10`. Target: well under the 10x serial time; the ratio is printed.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.providers.fake_llm import FakeLLM, Turn, call, serve  # noqa: E402
from tests.providers.helpers import environ, run, write_suite  # noqa: E402

TESTS, RUNS = 50, 10
AGENT = """
  - name: weather {i}
    model: gpt-4o-mini
    servers: [weather]
    prompt: What is the weather in Paris?
    runs: {runs}
    tool_selection: {{ expected_tool: get_weather, min_selection_rate: 1.0 }}
    expect:
      - final_response: {{ contains: sunny }}
"""
TURNS = [Turn(calls=[call("get_weather", city="Paris")]), Turn(text="It is sunny in Paris.")]


def replay_seconds(directory: Path) -> tuple[float, int]:
    """Record one test, clone its cassette 49 times, and time `mcptest run` replaying all of them."""
    one = write_suite(directory, "agents:" + AGENT.format(i=0, runs=RUNS))
    with serve(FakeLLM(TURNS)) as url:
        assert run(one, environ(url), record_mode="all", concurrency=10).report.ok
    recorded = json.loads((directory / "cassettes" / "weather-0" / "gpt-4o-mini.json").read_text())
    for i in range(1, TESTS):
        target = directory / "cassettes" / f"weather-{i}" / "gpt-4o-mini.json"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(json.dumps({**recorded, "test": f"weather {i}"}))
    suite = directory / "replay.yml"
    body = "".join(AGENT.format(i=i, runs=RUNS) for i in range(TESTS))
    suite.write_text(f'servers:\n  weather:\n    command: ["/nonexistent/never-started"]\nagents:{body}')
    env = {**os.environ, "PYTHONPATH": str(ROOT), "CI": "true"}
    start = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-m", "mcptest", "run", str(suite), "-r", "json"], env=env, capture_output=True, timeout=120
    )
    seconds = time.perf_counter() - start
    assert proc.returncode == 0, proc.stderr.decode()
    return seconds, json.loads(proc.stdout)["summary"]["passed"]


def concurrency_seconds(directory: Path, concurrency: int) -> float:
    """10 runs recorded live against a provider that takes 200 ms per call."""
    path = write_suite(directory, "agents:" + AGENT.format(i=concurrency, runs=10), name=f"c{concurrency}.yml")
    with serve(FakeLLM(TURNS, delay_s=0.2)) as url:
        start = time.perf_counter()
        assert run(path, environ(url), record_mode="all", concurrency=concurrency).report.ok
        return time.perf_counter() - start


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        seconds, passed = replay_seconds(Path(tmp))
        print(
            f"replay {TESTS} tests x {RUNS} runs from cassettes: {seconds:5.2f} s wall, {passed} runs passed, "
            "no server started (target < 3 s)"
        )
    with tempfile.TemporaryDirectory() as tmp:
        serial = concurrency_seconds(Path(tmp), 1)
        parallel = concurrency_seconds(Path(tmp), 10)
        print(
            f"10 runs, 200 ms per model call: --concurrency 1 {serial:5.2f} s, --concurrency 10 {parallel:5.2f} s, "
            f"ratio {parallel / serial:.2f} of serial (target well under 1)"
        )


if __name__ == "__main__":
    main()
