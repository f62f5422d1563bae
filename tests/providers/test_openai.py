"""The agent loop through the real OpenAI SDK against a fake Chat Completions server, with two real MCP servers."""

from __future__ import annotations

from pathlib import Path

from mcptest.records.report import Status
from tests.providers.fake_llm import FakeLLM, Turn, call, serve
from tests.providers.helpers import KEY, environ, run, run_cells, write_suite

AGENT = """
agents:
  - name: weather note
    model: gpt-4o-mini
    servers: [weather, notes]
    prompt: Save a note with the weather in Paris.
    max_turns: 5
"""
TWO_SERVERS = [
    Turn(calls=[call("weather__get_weather", city="Paris")]),
    Turn(calls=[call("save_note", text="22 degrees in Paris")]),
    Turn(text="Saved."),
]


def test_multi_turn_calls_reach_both_servers_and_results_go_back_to_the_model(tmp_path: Path) -> None:
    fake = FakeLLM(TWO_SERVERS)
    with serve(fake) as url:
        cells = run_cells(write_suite(tmp_path, AGENT), environ(url), record_mode="all").cells
    trace = cells[0].traces[0]
    assert [(c.server, c.name, c.is_error) for c in trace.tool_calls] == [
        ("weather", "get_weather", False),
        ("notes", "save_note", False),
    ]
    assert trace.tool_calls[1].text == "Saved note: 22 degrees in Paris"
    assert (trace.final_response, trace.turns, trace.tokens.total if trace.tokens else None) == ("Saved.", 3, 360)
    assert trace.cost_usd == round((300 * 0.15 + 60 * 0.6) / 1e6, 6)
    second = fake.requests[1]
    assert second["headers"]["authorization"] == f"Bearer {KEY}"
    tool_message = second["body"]["messages"][-1]
    assert tool_message["role"] == "tool" and tool_message["content"] == "It is 22 degrees and sunny in Paris."
    offered = [t["function"]["name"] for t in fake.requests[0]["body"]["tools"]]
    assert offered == ["weather__get_weather", "convert_temperature", "save_note", "notes__get_weather"]


def test_parallel_calls_in_one_turn_each_get_a_result(tmp_path: Path) -> None:
    turns = [
        Turn(calls=[call("weather__get_weather", city="Oslo"), call("weather__get_weather", city="Rome")]),
        Turn(text="Both done."),
    ]
    fake = FakeLLM(turns)
    with serve(fake) as url:
        trace = run_cells(write_suite(tmp_path, AGENT), environ(url), record_mode="all").cells[0].traces[0]
    assert [c.args for c in trace.tool_calls] == [{"city": "Oslo"}, {"city": "Rome"}]
    results = [m for m in fake.requests[1]["body"]["messages"] if m["role"] == "tool"]
    assert [m["content"] for m in results] == [
        "It is 22 degrees and sunny in Oslo.",
        "It is 22 degrees and sunny in Rome.",
    ]


def test_a_429_is_retried_after_the_servers_retry_after(tmp_path: Path) -> None:
    waits: list[float] = []

    async def sleep(seconds: float) -> None:
        waits.append(seconds)

    fake = FakeLLM([Turn(text="Fine.")], failures=[(429, {"Retry-After": "2"})])
    with serve(fake) as url:
        result = run(write_suite(tmp_path, AGENT), environ(url), record_mode="all", sleep=sleep)
    assert [r.status for r in result.report.results] == [Status.PASSED]
    assert (len(fake.requests), waits) == (2, [2.0])


def test_a_500_that_persists_fails_the_run_after_bounded_retries(tmp_path: Path) -> None:
    fake = FakeLLM([Turn(text="never")], failures=[(500, {})] * 10)
    with serve(fake) as url:
        result = run(write_suite(tmp_path, AGENT), environ(url), record_mode="all")
    row = result.report.results[0]
    assert row.status == Status.FAILED
    assert row.error == "openai: HTTP 500: fake 500 (after 4 attempts)"
    assert len(fake.requests) == 4
    assert "cassette not written" in result.notes[0]
    assert not (tmp_path / "cassettes").exists()


def test_malformed_arguments_and_an_unknown_tool_are_recorded_and_answered_with_errors(tmp_path: Path) -> None:
    turns = [Turn(calls=[("save_note", '{"text": "unterminated'), ("delete_everything", "{}")]), Turn(text="Sorry.")]
    fake = FakeLLM(turns)
    with serve(fake) as url:
        trace = run_cells(write_suite(tmp_path, AGENT), environ(url), record_mode="all").cells[0].traces[0]
    bad, unknown = trace.tool_calls
    assert (bad.server, bad.unparseable_arguments, bad.args, bad.is_error) == (
        "notes",
        True,
        '{"text": "unterminated',
        True,
    )
    assert (unknown.server, unknown.name, unknown.unknown_tool, unknown.is_error) == (
        None,
        "delete_everything",
        True,
        True,
    )
    answers = [m for m in fake.requests[1]["body"]["messages"] if m["role"] == "tool"]
    assert answers[0]["content"].startswith("error: the arguments of 'save_note' are not valid JSON")
    assert answers[1]["content"].startswith(
        "error: unknown tool 'delete_everything'; the tools are: weather__get_weather"
    )
    assert trace.final_response == "Sorry." and trace.error is None


def test_the_loop_stops_at_max_turns(tmp_path: Path) -> None:
    fake = FakeLLM([Turn(calls=[call("save_note", text="again")])])
    with serve(fake) as url:
        trace = run_cells(write_suite(tmp_path, AGENT), environ(url), record_mode="all").cells[0].traces[0]
    assert (trace.turns, len(trace.tool_calls), trace.final_response) == (5, 5, None)


def test_an_openai_compatible_server_needs_no_key_and_a_model_of_any_name(tmp_path: Path) -> None:
    local = AGENT.replace("model: gpt-4o-mini", "model: llama3.2\n    provider: openai\n    base_url: {url}/v1")
    fake = FakeLLM([Turn(text="Hello from a local model.")])
    with serve(fake) as url:
        path = write_suite(tmp_path, local.replace("{url}", url))
        result = run(path, {}, record_mode="all")
    assert result.report.results[0].status == Status.PASSED
    assert fake.requests[0]["body"]["model"] == "llama3.2" and "max_tokens" in fake.requests[0]["body"]
    # a provider that reports no cached or reasoning tokens: the split has neither
    expected = {"tool_calls": 0, "tokens.total": 120, "tokens.input": 100, "tokens.output": 20}
    assert result.report.results[0].targets == expected


def test_a_run_that_outlives_its_timeout_fails_with_the_reason_and_keeps_what_it_did(tmp_path: Path) -> None:
    suite = write_suite(tmp_path, AGENT.replace("max_turns: 5", "max_turns: 5\n    timeout_s: 1"))
    fake = FakeLLM(TWO_SERVERS, hang_after=1)  # the first turn answers, the second never does
    with serve(fake) as url:
        try:
            result = run(suite, environ(url), record_mode="all")
        finally:
            fake.released.set()
    [row] = result.report.results
    assert row.status == Status.FAILED
    assert row.error is not None and "did not finish within 1s" in row.error
    assert row.targets["tool_calls"] == 1  # the partial run is kept: the call the first turn asked for
