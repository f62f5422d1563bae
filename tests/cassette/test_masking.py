"""Masking hides secrets, not values: ordinary env values survive record -> replay byte for byte."""

from __future__ import annotations

import json
from pathlib import Path

from mcptest.records.report import Status
from tests.providers.fake_llm import FakeLLM, Turn, call, serve
from tests.providers.helpers import KEY, environ, run, write_suite

SERVERS = """
servers:
  weather:
    command: ["mcptest", "mock", "--tools-from", "weather.yml"]
    env:
      DEFAULT_CITY: Paris
      LOG_LEVEL: info
      WEATHER_API_TOKEN: { env: WEATHER_TOKEN }
      REGION_CODE: { env: REGION }
secrets: [REGION]
"""
AGENT = """
agents:
  - name: city weather
    model: gpt-4o-mini
    servers: [weather]
    prompt: "Weather in ${CITY} (info level), key ${WEATHER_TOKEN}, region ${REGION}."
    expect:
      - final_response: { contains: "Paris" }
      - tool_calls[0].args.city: { exact: Paris }
      - tool_calls[0].content[0].text: { contains: "sunny in Paris" }
"""
# A secret holding `"` and `\` is escaped in JSON text, so only value-level masking catches it.
TOKEN = 'tok"en\\9f8e7d6c5b4a'
REGION = "eu-west-secret-7"
CASSETTE = Path("cassettes") / "city-weather" / "gpt-4o-mini.json"


def _suite(tmp_path: Path) -> Path:
    path = write_suite(tmp_path, AGENT)
    text = path.read_text().split("agents:")[0]
    body = path.read_text()[len(text) :]
    path.write_text("# yaml-language-server: $schema=x\n" + SERVERS + body)
    return path


def _env(url: str = "http://127.0.0.1:9") -> dict[str, str]:
    return environ(url, CITY="Paris", WEATHER_TOKEN=TOKEN, REGION=REGION)


def test_ordinary_env_values_survive_record_and_replay_and_secrets_do_not(tmp_path: Path) -> None:
    turns = [Turn(calls=[call("get_weather", city="Paris")]), Turn(text="ignored")]
    fake = FakeLLM(turns, echo_prompt=True)
    suite = _suite(tmp_path)
    with serve(fake) as url:
        recorded = run(suite, _env(url), record_mode="all")
    assert recorded.report.ok, recorded.report.results[0].failures
    text = (tmp_path / CASSETTE).read_text()
    assert (
        "You said: Weather in Paris (info level), key ***, region ***."
        in json.loads(text)["runs"][0]["replies"][-1]["text"]
    )
    assert '"city": "Paris"' in text and "22 degrees and sunny in Paris" in text
    replayed = run(suite, {"CITY": "Paris", "WEATHER_TOKEN": TOKEN, "REGION": REGION})
    row = replayed.report.results[0]
    assert (row.status, row.error) == (Status.PASSED, None)
    for path in tmp_path.rglob("*.json"):
        data = path.read_text()
        assert KEY not in data and "9f8e7d6c5b4a" not in data and REGION not in data, path
