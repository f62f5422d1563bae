"""The agent loop through the real Anthropic SDK against a fake Messages API server, with two real MCP servers."""

from __future__ import annotations

from pathlib import Path

import pytest

from mcptest.core.errors import UserError
from mcptest.records.report import Status
from tests.providers.fake_llm import FakeLLM, Turn, call, serve
from tests.providers.helpers import KEY, environ, run, run_cells, write_suite

AGENT = """
agents:
  - name: weather note
    model: claude-haiku-4-5
    servers: [weather, notes]
    system: You are terse.
    prompt: Save a note with the weather in Paris.
"""


def test_tool_use_blocks_reach_both_servers_and_tool_results_go_back(tmp_path: Path) -> None:
    turns = [
        Turn(text="Checking.", calls=[call("weather__get_weather", city="Paris"), call("save_note", text="sunny")]),
        Turn(text="Saved."),
    ]
    fake = FakeLLM(turns)
    with serve(fake) as url:
        trace = run_cells(write_suite(tmp_path, AGENT), environ(url), record_mode="all").cells[0].traces[0]
    assert [c.id for c in trace.tool_calls] == ["weather.get_weather", "notes.save_note"]
    first, second = fake.requests
    assert first["path"] == "/v1/messages" and first["headers"]["authorization"] == f"Bearer {KEY}"
    assert first["body"]["system"] == "You are terse."
    assert first["body"]["tools"][0] == {
        "name": "weather__get_weather",
        "description": first["body"]["tools"][0]["description"],
        "input_schema": first["body"]["tools"][0]["input_schema"],
    }
    assistant, results = second["body"]["messages"][1:]
    assert [b["type"] for b in assistant["content"]] == ["text", "tool_use", "tool_use"]
    assert [(r["type"], r["content"], r["is_error"]) for r in results["content"]] == [
        ("tool_result", "It is 22 degrees and sunny in Paris.", False),
        ("tool_result", "Saved note: sunny", False),
    ]
    assert trace.cost_usd == round((200 * 1 + 40 * 5) / 1e6, 6)


def test_a_429_then_success_and_an_unknown_tool(tmp_path: Path) -> None:
    turns = [Turn(calls=[call("teleport", to="Mars")]), Turn(text="Cannot.")]
    fake = FakeLLM(turns, failures=[(429, {"retry-after-ms": "10"})])
    with serve(fake) as url:
        runs = run_cells(write_suite(tmp_path, AGENT), environ(url), record_mode="all")
    trace = runs.cells[0].traces[0]
    assert len(fake.requests) == 3 and trace.error is None
    assert trace.tool_calls[0].unknown_tool and trace.final_response == "Cannot."
    result = fake.requests[2]["body"]["messages"][-1]["content"][0]
    assert result["is_error"] is True and result["content"].startswith("error: unknown tool 'teleport'")


def test_a_500_fails_the_run_with_the_providers_message(tmp_path: Path) -> None:
    fake = FakeLLM([Turn(text="never")], failures=[(500, {"retry-after": "0"})] * 4)
    with serve(fake) as url:
        result = run(write_suite(tmp_path, AGENT), environ(url), record_mode="all")
    assert result.report.results[0].status == Status.FAILED
    assert result.report.results[0].error == "anthropic: HTTP 500: fake 500 (after 4 attempts)"


def test_a_missing_key_stops_the_run_before_any_server_starts_and_names_the_variable(tmp_path: Path) -> None:
    with pytest.raises(UserError) as err:
        run(write_suite(tmp_path, AGENT), {}, record_mode="all")
    assert str(err.value.problems[0]).endswith(
        "ANTHROPIC_API_KEY is not set: export it to run anthropic models live (replay needs no key) "
        "(test 'weather note', model claude-haiku-4-5)"
    )
