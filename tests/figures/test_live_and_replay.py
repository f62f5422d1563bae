"""Issue 12: a replay gives every figure the live run gave (recorded through the real OpenAI SDK, a fake provider)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mcptest.records.report import Report
from tests.providers.fake_llm import FakeLLM, Turn, call, serve
from tests.providers.helpers import environ, run, write_suite

AGENT = """
agents:
  - name: weather note
    model: gpt-4o-mini
    servers: [weather, notes]
    prompt: Save the weather in Paris.
    runs: 2
    distractors: { count: 2, source: { from: catalog }, correct: [weather.get_weather, notes.save_note] }
    tool_selection: { expected_tool: save_note, min_selection_rate: 1.0 }
    equal_function_sets: { classes: [{ name: weather, members: [get_weather] }, { name: save, members: [save_note] }] }
    token_efficiency: { classes: [{ name: save, members: [notes.save_note] }] }
    orchestration: {}
"""
TURNS = [
    Turn(calls=[call("weather__get_weather", city="Paris")]),
    Turn(calls=[call("save_note", text="sunny")]),
    Turn(text="Saved."),
]


def figures(report: Report) -> dict[str, Any]:
    """Every figure of a report: each row's and each gate's targets, statuses and failures (wall time aside)."""
    rows = {(r.name, r.model, r.run): (r.status, r.targets, r.failures) for r in report.results}
    gates = {(g.test, g.model, g.block): (g.status, g.targets, g.failures, g.lines) for g in report.gates}
    return {"rows": rows, "gates": gates, "summary": report.summary}


def test_live_and_replay_agree_on_every_figure_token_efficiency_tool_surface_tokens_included(tmp_path: Path) -> None:
    suite = write_suite(tmp_path, AGENT)
    with serve(FakeLLM(TURNS)) as url:
        live = run(suite, environ(url), record_mode="all").report
    replayed = run(suite, {}).report  # no key, no endpoint: the cassette alone
    surface = [g.targets["token_efficiency.tool_surface_tokens"] for g in (live.gates[-1], replayed.gates[-1])]
    assert surface[0] == surface[1] and surface[0] > 100
    assert len(live.gates) == 5
    assert figures(replayed) == figures(live)
