"""Record a run through a real SDK, replay it with no key, server or network; refusals, misses and secrets."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from mcptest.records.report import Status
from tests.providers.fake_llm import FakeLLM, Turn, call, serve
from tests.providers.helpers import KEY, environ, run, write_suite

AGENT = """
agents:
  - name: weather note
    model: gpt-4o-mini
    servers: [weather, notes]
    prompt: Save the weather in ${CITY} with token ${NOTES_TOKEN}.
    runs: 3
    distractors: { count: 2, source: { from: catalog }, correct: [weather.get_weather, notes.save_note] }
    tool_selection: { expected_tool: save_note, min_selection_rate: 1.0 }
    expect:
      - final_response: { contains: "Saved" }
"""
TOKEN = "tok-9f8e7d6c5b4a"
TURNS = [
    Turn(calls=[call("weather__get_weather", city="Paris")]),
    Turn(calls=[call("save_note", text="sunny")]),
    Turn(text="Saved."),
]
CASSETTE = Path("cassettes") / "weather-note" / "gpt-4o-mini.json"


def _env(url: str = "http://127.0.0.1:9") -> dict[str, str]:
    return environ(url, CITY="Paris", NOTES_TOKEN=TOKEN)


def _stable(report: Any) -> dict[str, Any]:
    """The report without wall-clock figures (durations differ between any two runs)."""
    data = report.model_dump(mode="json")
    data.pop("duration_ms")
    for row in data["results"]:
        row.pop("duration_ms")
    return data


def _record(tmp_path: Path, turns: list[Turn] = TURNS) -> tuple[Any, FakeLLM]:
    fake = FakeLLM(turns)
    with serve(fake) as url:
        result = run(write_suite(tmp_path, AGENT), _env(url), record_mode="all")
    return result, fake


def test_record_then_replay_gives_the_same_report_for_every_run_with_no_key_or_server(tmp_path: Path) -> None:
    recorded, fake = _record(tmp_path)
    assert len(fake.requests) == 9 and recorded.report.ok
    replayed = run(tmp_path / "suite.yml", {"CITY": "Paris", "NOTES_TOKEN": TOKEN})  # no key, no model endpoint
    assert _stable(replayed.report) == _stable(recorded.report)
    assert [r.run for r in replayed.report.results] == [1, 2, 3]
    floor = replayed.report.gates[0]
    assert (floor.block, floor.runs, floor.status) == ("tool_selection", 3, Status.PASSED)


def test_an_identical_re_recording_writes_an_identical_file(tmp_path: Path) -> None:
    _record(tmp_path)
    first = (tmp_path / CASSETTE).read_text()
    _record(tmp_path)  # fresh call ids and response ids from the fake, same behaviour
    assert (tmp_path / CASSETTE).read_text() == first
    data = json.loads(first)
    assert [c["id"] for c in data["runs"][0]["replies"][0]["calls"]] == ["call_1"]
    assert [t["tool"]["name"] for t in data["catalog"] if t["distractor"]] == [
        "get_current_weather",
        "convert_currency",
    ]


def test_the_cassette_keeps_the_full_catalog_so_token_efficiency_fires_on_replay(tmp_path: Path) -> None:
    _record(tmp_path)
    suite = (tmp_path / "suite.yml").read_text()
    gate = "    token_efficiency: { classes: [{ name: save, members: [save_note] }] }\n"
    (tmp_path / "suite.yml").write_text(suite.replace("    expect:\n", gate + "    expect:\n"))
    replayed = run(tmp_path / "suite.yml", {"CITY": "Paris", "NOTES_TOKEN": TOKEN})
    efficiency = next(g for g in replayed.report.gates if g.block == "token_efficiency")
    assert efficiency.targets["token_efficiency.tool_surface_tokens"] > 100
    assert efficiency.targets["token_efficiency.cost"] == round(3 * (300 * 0.15 + 60 * 0.6) / 1e6, 6)


def test_editing_the_prompt_refuses_replay_and_says_what_changed(tmp_path: Path) -> None:
    _record(tmp_path)
    suite = tmp_path / "suite.yml"
    suite.write_text(suite.read_text().replace("Save the weather", "Store the weather"))
    row = run(suite, {"CITY": "Paris", "NOTES_TOKEN": TOKEN}).report.results[0]
    assert row.status == Status.FAILED
    assert row.error is not None
    assert row.error.startswith(f"replay refused: {tmp_path / CASSETTE} was recorded with other settings: the prompt")
    assert "'Save the weather in Paris with token ***.' -> 'Store the weather" in row.error
    assert row.error.endswith(f"re-record it with: mcptest run {suite} --record --filter 're:^weather note$'")


def test_changing_the_distractors_refuses_replay_as_a_catalog_change(tmp_path: Path) -> None:
    _record(tmp_path)
    suite = tmp_path / "suite.yml"
    suite.write_text(suite.read_text().replace("count: 2", "count: 3"))
    row = run(suite, {"CITY": "Paris", "NOTES_TOKEN": TOKEN}).report.results[0]
    assert (
        row.error is not None
        and "other settings: the tool catalog (a distractor or tool definition differs)" in row.error
    )


def test_a_missing_cassette_fails_with_its_path_and_the_record_command(tmp_path: Path) -> None:
    suite = write_suite(tmp_path, AGENT)
    row = run(suite, _env()).report.results[0]
    assert (row.status, row.run) == (Status.FAILED, None)
    assert row.error == (
        f"no cassette at {tmp_path / CASSETTE}; "
        f"record it with: mcptest run {suite} --record --filter 're:^weather note$'"
    )


def test_under_ci_record_mode_once_records_nothing(tmp_path: Path) -> None:
    fake = FakeLLM(TURNS)
    with serve(fake) as url:
        row = run(write_suite(tmp_path, AGENT), _env(url) | {"CI": "true"}, record_mode="once").report.results[0]
    assert fake.requests == [] and not (tmp_path / CASSETTE).exists()
    assert row.error is not None and "(CI=true: nothing records implicitly)" in row.error


def test_record_mode_once_records_only_what_is_missing(tmp_path: Path) -> None:
    _record(tmp_path)
    before = (tmp_path / CASSETTE).stat().st_mtime_ns
    fake = FakeLLM(TURNS)
    with serve(fake) as url:
        assert run(tmp_path / "suite.yml", _env(url), record_mode="once").report.ok
    assert fake.requests == [] and (tmp_path / CASSETTE).stat().st_mtime_ns == before


def test_no_secret_reaches_a_cassette_or_a_report(tmp_path: Path) -> None:
    fake = FakeLLM(TURNS[:2] + [Turn(text="Saved.")], echo_prompt=True)
    with serve(fake) as url:
        result = run(write_suite(tmp_path, AGENT), _env(url), record_mode="all")
    (tmp_path / "report.json").write_text(result.report.model_dump_json())
    assert KEY in json.dumps(fake.requests[0]["headers"])  # the key really was sent
    assert TOKEN in json.dumps(fake.requests[0]["body"])  # and the prompt really held the token
    for path in tmp_path.rglob("*.json"):
        text = path.read_text()
        assert KEY not in text and TOKEN not in text, path
    assert "You said: Save the weather in Paris with token ***." in (tmp_path / CASSETTE).read_text()
