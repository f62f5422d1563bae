"""Scripted agent tests: the real loop against real servers with no key; distractors presented and called."""

from __future__ import annotations

from pathlib import Path

from mcptest.core.exit_codes import ExitCode
from mcptest.records.report import Status
from tests.conftest import run_cli
from tests.providers.helpers import run, run_cells, write_suite

SCRIPTED = """
agents:
  - name: scripted
    provider: scripted
    servers: [weather, notes]
    prompt: Weather in Paris, then note it.
    runs: 2
    distractors: { count: 2, source: { from: near_duplicate, of: [save_note] }, correct: [notes.save_note] }
    script:
      - turns:
          - tool_calls: [{ name: weather__get_weather, args: { city: Paris } }]
          - tool_calls: [{ name: save_note, args: { text: sunny } }]
          - answer: Noted.
      - turns:
          - tool_calls: [{ name: save_note_v2, args: { text: sunny } }]
          - answer: Tried.
    expect:
      - final_response: { exact: Noted. }
"""


def test_each_run_plays_its_script_and_an_injected_tool_answers_with_an_error(tmp_path: Path) -> None:
    cells = run_cells(write_suite(tmp_path, SCRIPTED), {}).cells
    first, second = cells[0].traces
    assert [c.id for c in first.tool_calls] == ["weather.get_weather", "notes.save_note"]
    assert [t.name for t in first.catalog or [] if t.distractor] == ["save_note_v2", "save_note_internal"]
    injected = second.tool_calls[0]
    assert (injected.id, injected.is_error, injected.unknown_tool) == ("notes.save_note_v2", True, False)
    assert injected.text == "error: tool 'save_note_v2' is unavailable"


def test_the_report_judges_each_run_and_the_distractor_gate_sees_the_injected_call(tmp_path: Path) -> None:
    report = run(write_suite(tmp_path, SCRIPTED), {}).report
    assert [(r.run, r.status) for r in report.results] == [(1, Status.PASSED), (2, Status.FAILED)]
    gate = report.gates[0]
    assert gate.targets["distractors.chose_distractor"] == 1 and gate.targets["distractors.accuracy"] == 50


def test_scripted_runs_need_no_cassette_and_write_none(tmp_path: Path) -> None:
    one = SCRIPTED.replace("runs: 2", "runs: 1").split("      - turns:\n          - tool_calls: [{ name: save_note_v2")[
        0
    ]
    suite = write_suite(tmp_path, one + "    expect:\n      - final_response: { exact: Noted. }\n")
    ran = run_cli("run", str(suite), "--record")
    assert ran.code == ExitCode.OK, ran.stdout + ran.stderr
    assert not (tmp_path / "cassettes").exists()


def test_an_unknown_model_is_a_load_error_that_says_how_to_name_the_provider(write) -> None:
    suite = write(
        "suite.yml",
        """
servers: { s: { command: [x] } }
agents:
  - name: local
    model: llama3.2
    servers: [s]
    prompt: hi
  - name: short script
    provider: scripted
    runs: 3
    prompt: hi
    script: [{ turns: [{ answer: a }] }, { turns: [{ answer: b }] }]
""",
    )
    ran = run_cli("validate", str(suite))
    assert ran.code == ExitCode.USAGE
    assert ran.stderr.splitlines() == [
        f"{suite}:4:12: agents[0].model: cannot tell which provider serves model 'llama3.2' (claude-* is Anthropic; "
        "gpt-*, chatgpt-*, o<digit>* are OpenAI; gemini-* is Gemini; mistral-*, magistral-*, codestral-*, "
        "ministral-*, devstral-* are Mistral): add `provider:` (anthropic, openai, gemini, mistral or bedrock; "
        "openai with `base_url:` for an OpenAI-compatible server such as Ollama or vLLM), or prefix the id with its "
        "provider (`bedrock:<model id>`)",
        f"{suite}:11:13: agents[1].script: the script has 2 runs but `runs:` is 3 "
        "(give one run for all, or one per run)",
    ]
