"""Multi-turn agent tests: every user message recorded and replayed through the real SDKs, scripted, and gated."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from mcptest.records.report import Status
from tests.providers.fake_llm import FakeLLM, Turn, call, serve
from tests.providers.helpers import environ, run, run_cells, write_suite

CONVERSATION = """
agents:
  - name: convert after asking
    model: {model}
    servers: [weather]
    prompt: What is the weather in Oslo?
    turns:
      - Convert that to Fahrenheit.
      - Thanks. Which is warmer, Oslo or Paris?
    tool_selection: {{ expected_tool: get_weather, min_selection_rate: 1.0 }}
    expect:
      - turns[0].tool_calls[0].name: {{ exact: get_weather }}
      - turns[0].final_response: {{ contains: "22" }}
      - turns[1].tool_calls[0].name: {{ exact: convert_temperature }}
      - turns[1].final_response: {{ contains: Fahrenheit }}
      - turns[2].tool_names: {{ exact: [get_weather] }}
      - tool_names: {{ exact: [get_weather, convert_temperature, get_weather] }}
      - final_response: {{ contains: "same" }}
      - conversation.tokens.total: {{ exact: 720 }}
      - conversation.turns: {{ exact: 6 }}
"""
MODELS = {"openai": "gpt-4o-mini", "anthropic": "claude-haiku-4-5"}
# The fake answers by how many assistant turns the conversation holds, so the index runs across user messages.
TURNS = [
    Turn(calls=[call("get_weather", city="Oslo")]),
    Turn(text="It is 22 degrees in Oslo."),
    Turn(calls=[call("convert_temperature", value=22, to="fahrenheit")]),
    Turn(text="That is 71.6 Fahrenheit."),
    Turn(calls=[call("get_weather", city="Paris")]),
    Turn(text="The same: 22 degrees in both."),
]


def _record(tmp_path: Path, provider: str) -> tuple[Any, FakeLLM, Path]:
    fake = FakeLLM(TURNS)
    suite = write_suite(tmp_path, CONVERSATION.format(model=MODELS[provider]))
    with serve(fake) as url:
        result = run(suite, environ(url), record_mode="all")
    return result, fake, suite


@pytest.mark.parametrize("provider", ["openai", "anthropic"])
def test_a_three_turn_conversation_records_every_message_and_replays_with_no_key(tmp_path: Path, provider: str) -> None:
    recorded, fake, suite = _record(tmp_path, provider)
    assert recorded.report.ok, recorded.report.results[0].failures
    sent = [m for m in fake.requests[-1]["body"]["messages"] if m["role"] == "user" and isinstance(m["content"], str)]
    assert [m["content"] for m in sent] == [
        "What is the weather in Oslo?",
        "Convert that to Fahrenheit.",
        "Thanks. Which is warmer, Oslo or Paris?",
    ]
    cassette = json.loads((tmp_path / "cassettes" / "convert-after-asking" / f"{MODELS[provider]}.json").read_text())
    assert cassette["format_version"] == "2"
    assert cassette["fingerprint"]["turns"] == [
        "Convert that to Fahrenheit.",
        "Thanks. Which is warmer, Oslo or Paris?",
    ]
    assert len(cassette["runs"][0]["replies"]) == 6
    replayed = run(suite, {})
    assert replayed.report.ok and replayed.report.results[0].targets == recorded.report.results[0].targets


def test_the_trace_keeps_each_turn_with_its_calls_answer_and_tokens(tmp_path: Path) -> None:
    _, _, suite = _record(tmp_path, "openai")
    (trace,) = run_cells(suite, {}).cells[0].traces
    assert trace.user_turns is not None
    assert [(t.prompt, t.calls, t.model_turns) for t in trace.user_turns] == [
        ("What is the weather in Oslo?", 1, 2),
        ("Convert that to Fahrenheit.", 1, 2),
        ("Thanks. Which is warmer, Oslo or Paris?", 1, 2),
    ]
    assert [t.tokens.total if t.tokens else None for t in trace.user_turns] == [240, 240, 240]
    assert trace.final_response == "The same: 22 degrees in both." and trace.turns == 6
    assert [c.name for c in trace.calls_of_turn(1)] == ["convert_temperature"]


def test_changing_a_turns_text_refuses_replay_and_names_the_turn(tmp_path: Path) -> None:
    _, _, suite = _record(tmp_path, "anthropic")
    suite.write_text(suite.read_text().replace("Convert that to Fahrenheit.", "Convert that to Kelvin."))
    row = run(suite, {}).report.results[0]
    assert row.status == Status.FAILED and row.error is not None
    assert "recorded with other settings: turns[1] ('Convert that to Fahrenheit.' -> 'Convert that to Kelvin.')" in (
        row.error
    )


def test_adding_a_turn_refuses_replay_and_says_how_many_messages(tmp_path: Path) -> None:
    _, _, suite = _record(tmp_path, "openai")
    suite.write_text(suite.read_text().replace("      - Thanks.", "      - And tomorrow?\n      - Thanks."))
    row = run(suite, {}).report.results[0]
    assert row.error is not None and "the number of turns (3 -> 4 user messages)" in row.error


SCRIPTED = """
agents:
  - name: scripted conversation
    provider: scripted
    servers: [weather, notes]
    prompt: Weather in Paris?
    turns: [Save it as a note., Thanks!]
    max_turns: 3
    script:
      - turns:
          - tool_calls: [{ name: weather__get_weather, args: { city: Paris } }]
          - answer: Sunny, 22 degrees.
          - tool_calls: [{ name: save_note, args: { text: sunny } }]
          - answer: Saved.
          - answer: You are welcome.
    calls: {}
    equal_function_sets:
      classes: [{ name: weather, members: [weather.get_weather] }, { name: note, members: [save_note] }]
    orchestration: {}
    discovery: { name_free: false }
    distractors: { count: 1, source: { from: near_duplicate, of: [save_note] }, correct: [notes.save_note] }
    token_efficiency: { classes: [{ name: note, members: [save_note] }] }
    tool_selection: { expected_tool: save_note, min_selection_rate: 1.0 }
    workflow: { order: [get_weather, save_note], match: strict }
    expect:
      - turns[1].tool_calls[0].args.text: { exact: sunny }
      - turns[2].tool_calls: { exact: [] }
      - turns[2].final_response: { exact: You are welcome. }
"""


def test_a_script_plays_the_model_across_user_messages_and_every_gate_reads_the_whole_conversation(
    tmp_path: Path,
) -> None:
    report = run(write_suite(tmp_path, SCRIPTED), {}).report
    assert report.results[0].status == Status.PASSED, report.results[0].failures
    gates = {g.block: g for g in report.gates}
    assert gates["equal_function_sets"].targets["tool_selection.recall"] == 100  # turn 0's call and turn 1's
    assert gates["workflow"].targets["workflow.in_order"] == 100
    assert {g.block: g.status for g in report.gates} == {
        "calls": Status.PASSED,
        "discovery": Status.PASSED,
        "distractors": Status.PASSED,
        "equal_function_sets": Status.PASSED,
        "orchestration": Status.PASSED,
        "token_efficiency": Status.PASSED,
        "tool_selection": Status.PASSED,
        "workflow": Status.PASSED,
    }


def test_a_message_left_unanswered_after_max_turns_ends_the_conversation(tmp_path: Path) -> None:
    looping = SCRIPTED.replace("          - answer: Sunny, 22 degrees.\n", "").replace("max_turns: 3", "max_turns: 1")
    (trace,) = run_cells(write_suite(tmp_path, looping), {}).cells[0].traces
    assert trace.user_turns is not None and len(trace.user_turns) == 1
    assert trace.final_response is None and trace.user_turns[0].final_response is None


def test_turns_on_a_recorded_test_is_a_load_error(tmp_path: Path) -> None:
    from mcptest.core.errors import UserError
    from mcptest.suite.loader import load_suite

    suite = write_suite(tmp_path, "agents:\n  - name: r\n    tool_calls: []\n    turns: [again]\n")
    with pytest.raises(UserError) as err:
        load_suite(suite, {})
    assert "agents[0].turns: `turns:` is for live runs" in str(err.value.problems[0])


def test_a_one_message_run_is_its_own_turn_zero(tmp_path: Path) -> None:
    inline = """
agents:
  - name: inline
    prompt: Weather in Paris?
    tool_calls: [{ name: get_weather, server: weather, args: { city: Paris } }]
    final_response: Sunny.
    tokens: 120
    expect:
      - turns[0].final_response: { exact: Sunny. }
      - turns[0].tool_names: { exact: [get_weather] }
      - turns[0].prompt: { exact: Weather in Paris? }
      - turns[0].tokens.total: { exact: 120 }
"""
    report = run(write_suite(tmp_path, inline), {}).report
    assert report.results[0].status == Status.PASSED, report.results[0].failures


def test_name_free_discovery_reads_every_user_message(tmp_path: Path) -> None:
    neutral = SCRIPTED.replace("prompt: Weather in Paris?", "prompt: How is it in Paris today?")
    named_later = neutral.replace("turns: [Save it as a note., Thanks!]", "turns: [Call save_note with it., Thanks!]")
    counts = []
    for i, suite in enumerate((neutral, named_later)):
        (tmp_path / str(i)).mkdir()
        report = run(write_suite(tmp_path / str(i), suite), {}).report
        discovery = next(g for g in report.gates if g.block == "discovery")
        counts.append(discovery.targets["discovery.named_in_prompt"])
    assert counts == [0, 1]
