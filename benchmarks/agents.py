"""Agent-run figures (issues 4 and 16): replaying 50 tests x `runs: 10` from cassettes, run concurrency, and
replaying 50 three-message conversations x 10 runs with a judge on each.

1. Replay: one test's 10 runs are recorded through the OpenAI SDK against the fake Chat Completions server of
   the tests; its cassette is copied for 49 more tests with the same prompt. `mcptest run` then replays all 500
   runs. The servers' command does not exist, so the run would fail had replay started one. Target: under 3 s wall.
2. Concurrency: the fake provider sleeps 200 ms per model call (two calls per run); 10 runs at `--concurrency 1`
   and at `--concurrency 10`. Target: well under the 10x serial time; the ratio is printed.
3. Conversations with judges: as 1, but each test sends three user messages (`turns:`) and a `judge` grades the
   final answer; the judge model's answers are recorded too. Replay asks no model. Target: under 3 s wall.
4. Replay per provider (issue 31): as 1 for each of the six providers, each recorded through its own SDK against
   the fake of its HTTP API (Anthropic, Chat Completions, Responses, Gemini, Mistral, Bedrock Converse), then 500
   runs replayed with no key and no endpoint. Target: under 3 s wall for each.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from mcptest.cassette.store import cassette_path  # noqa: E402
from mcptest.providers import KEY_VARS  # noqa: E402
from tests.providers.fake_llm import FakeLLM, Turn, call, serve  # noqa: E402
from tests.providers.helpers import KEY, environ, run, write_suite  # noqa: E402

TESTS, RUNS = 50, 10
AGENT = """
  - name: weather {i}
    {model}
    servers: [weather]
    prompt: What is the weather in Paris?
    runs: {runs}
    tool_selection: {{ expected_tool: get_weather, min_selection_rate: 1.0 }}
    expect:
      - final_response: {{ contains: sunny }}
"""
TURNS = [Turn(calls=[call("get_weather", city="Paris")]), Turn(text="It is sunny in Paris.")]
CONVERSATION = """
  - name: conversation {i}
    model: gpt-4o-mini
    servers: [weather]
    prompt: What is the weather in Paris?
    turns: [And in Fahrenheit?, Thanks. Which is warmer, Paris or Oslo?]
    runs: {runs}
    tool_selection: {{ expected_tool: get_weather, min_selection_rate: 1.0 }}
    expect:
      - turns[1].tool_calls[0].name: {{ exact: convert_temperature }}
      - final_response:
          judge: {{ rubric: Compares the two cities and names the warmer one., threshold: 0.7, model: gpt-judge }}
"""
CONVERSATION_TURNS = [
    Turn(calls=[call("get_weather", city="Paris")]),
    Turn(text="It is 22 degrees in Paris."),
    Turn(calls=[call("convert_temperature", value=22, to="fahrenheit")]),
    Turn(text="That is 71.6 Fahrenheit."),
    Turn(calls=[call("get_weather", city="Oslo")]),
    Turn(text="Both are 22 degrees: neither is warmer."),
]
# provider: the suite lines naming its model (all recorded against the one fake, which answers every API)
PROVIDER_MODELS = {
    "anthropic": "model: claude-haiku-4-5",
    "openai": "model: gpt-4o-mini",
    "openai-responses": "model: gpt-5-mini\n    api: responses",
    "gemini": "model: gemini-2.5-flash",
    "mistral": "model: mistral-small-latest",
    "bedrock": "model: amazon.nova-lite-v1:0\n    provider: bedrock",
}
VERDICT = Turn(text='{"pass": true, "score": 0.9, "reason": "Compares both cities."}')


def every_provider(url: str) -> dict[str, str]:
    """Every provider's SDK pointed at the fake, with dummy keys and AWS credentials."""
    aws = {"AWS_ACCESS_KEY_ID": "AKIAFAKEFAKEFAKE", "AWS_SECRET_ACCESS_KEY": KEY, "AWS_REGION": "us-east-1"}
    return environ(
        url, GEMINI_API_KEY=KEY, GEMINI_BASE_URL=url, MISTRAL_API_KEY=KEY, MISTRAL_BASE_URL=url,
        AWS_ENDPOINT_URL_BEDROCK_RUNTIME=url, **aws,
    )  # fmt: skip


def replay_seconds(
    directory: Path, agent: str = AGENT, fake: FakeLLM | None = None, model: str = PROVIDER_MODELS["openai"]
) -> tuple[float, float, int]:
    """Record one test, clone its cassette 49 times, and time `mcptest run` replaying all of them."""
    agent = agent.replace("{model}", model)
    one = write_suite(directory, "agents:" + agent.format(i=0, runs=RUNS))
    name = agent.split("name: ")[1].split(" {i}")[0]
    model_id = model.split("\n")[0].removeprefix("model: ")
    with serve(fake or FakeLLM(TURNS)) as url:
        assert run(one, every_provider(url), record_mode="all", concurrency=10).report.ok
    recorded = json.loads(cassette_path(one, f"{name} 0", model_id).read_text())
    for i in range(1, TESTS):
        target = cassette_path(one, f"{name} {i}", model_id)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(json.dumps({**recorded, "test": f"{name} {i}"}))
    suite = directory / "replay.yml"
    body = "".join(agent.format(i=i, runs=RUNS) for i in range(TESTS))
    suite.write_text(f'servers:\n  weather:\n    command: ["/nonexistent/never-started"]\nagents:{body}')
    secrets = {v for vs in KEY_VARS.values() for v in vs} | {"AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY"}
    # no key and no endpoint: replay must need neither
    env = {k: v for k, v in os.environ.items() if k not in secrets and not k.endswith("_BASE_URL")}
    env |= {"PYTHONPATH": str(ROOT), "CI": "true"}
    before = _child_cpu()
    start = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-m", "mcptest", "run", str(suite), "-r", "json"], env=env, capture_output=True, timeout=120
    )
    seconds = time.perf_counter() - start
    assert proc.returncode == 0, proc.stderr.decode()
    return seconds, _child_cpu() - before, json.loads(proc.stdout)["summary"]["passed"]


def _child_cpu() -> float:
    """CPU seconds (user + system) of finished child processes: what a run costs, whatever else the machine does."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def concurrency_seconds(directory: Path, concurrency: int) -> float:
    """10 runs recorded live against a provider that takes 200 ms per call."""
    agent = AGENT.replace("{model}", PROVIDER_MODELS["openai"]).format(i=concurrency, runs=10)
    path = write_suite(directory, "agents:" + agent, name=f"c{concurrency}.yml")
    with serve(FakeLLM(TURNS, delay_s=0.2)) as url:
        start = time.perf_counter()
        assert run(path, environ(url), record_mode="all", concurrency=concurrency).report.ok
        return time.perf_counter() - start


def main() -> None:
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores (wall time grows with it; CPU time less)")
    with tempfile.TemporaryDirectory() as tmp:
        seconds, cpu, passed = replay_seconds(Path(tmp))
        print(
            f"replay {TESTS} tests x {RUNS} runs from cassettes: {seconds:5.2f} s wall ({cpu:.2f} s CPU), "
            f"{passed} runs passed, no server started (target < 3 s)"
        )
    with tempfile.TemporaryDirectory() as tmp:
        fake = FakeLLM(CONVERSATION_TURNS, by_model={"gpt-judge": [VERDICT]})
        seconds, cpu, passed = replay_seconds(Path(tmp), CONVERSATION, fake)
        print(
            f"replay {TESTS} three-message conversations x {RUNS} runs, a judge on each: {seconds:5.2f} s wall "
            f"({cpu:.2f} s CPU), {passed} runs passed, no model asked (target < 3 s)"
        )
    for provider, model in PROVIDER_MODELS.items():
        with tempfile.TemporaryDirectory() as tmp:
            seconds, cpu, passed = replay_seconds(Path(tmp), model=model)
            print(
                f"replay {TESTS} tests x {RUNS} runs, {provider:<16}: {seconds:5.2f} s wall ({cpu:.2f} s CPU), "
                f"{passed} runs passed, no key, no endpoint (target < 3 s)"
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
