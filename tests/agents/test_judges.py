"""Judges and juries through the real SDKs against the fake servers: recorded once, replayed for free."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from mcptest.core.exit_codes import ExitCode
from mcptest.records.report import Status
from mcptest.report.console import render_pretty
from tests.conftest import run_cli
from tests.providers.fake_llm import FakeLLM, Turn, call, serve
from tests.providers.helpers import environ, run, run_cells, write_suite

SUITE = """
agents:
  - name: judged
    model: {model}
    servers: [weather]
    prompt: What is the weather in Oslo?
    turns: [And in Fahrenheit?]
    expect:
      - turns[0].final_response:
          judge: {{ rubric: States the temperature with its unit., threshold: 0.7, model: claude-judge-1 }}
      - final_response:
          jury:
            rubric: Converts correctly and says so plainly.
            threshold: 0.7
            quorum: 0.5
            jurors: [{{ model: claude-judge-1 }}, {{ model: gpt-judge-2 }}]
"""
AGENT = [
    Turn(calls=[call("get_weather", city="Oslo")]),
    Turn(text="It is 22 degrees Celsius in Oslo."),
    Turn(text="That is 71.6 Fahrenheit."),
]


def verdict(score: float, reason: str, passed: bool = True, **extra: Any) -> Turn:
    """A judge's answer as the fake model writes it."""
    return Turn(text=json.dumps({"pass": passed, "score": score, "reason": reason, **extra}), usage=(50, 10))


def _judges(first: Turn, second: Turn) -> dict[str, list[Turn]]:
    return {"claude-judge-1": [first], "gpt-judge-2": [second]}


CASSETTE = Path("cassettes") / "judged" / "gpt-4o-mini.json"


def _record(tmp_path: Path, judges: dict[str, list[Turn]], suite: str = SUITE, model: str = "gpt-4o-mini") -> Any:
    fake = FakeLLM(AGENT, by_model=judges)
    path = write_suite(tmp_path, suite.format(model=model))
    with serve(fake) as url:
        result = run(path, environ(url), record_mode="all")
    return result, fake, path


@pytest.mark.parametrize("model", ["gpt-4o-mini", "claude-haiku-4-5"])
def test_a_judge_and_a_jury_are_recorded_and_replay_the_same_verdicts_for_free(tmp_path: Path, model: str) -> None:
    judges = _judges(verdict(0.9, "Gives 22 degrees Celsius."), verdict(0.8, "Converts 22 C to 71.6 F."))
    recorded, fake, path = _record(tmp_path, judges, model=model)
    row = recorded.report.results[0]
    assert row.status == Status.PASSED, row.failures
    # 3 agent calls; the judge on turn 0 and the jury's two jurors on the final answer
    assert sorted(r["body"]["model"] for r in fake.requests) == sorted(
        [model] * 3 + ["claude-judge-1"] * 2 + ["gpt-judge-2"]
    )
    judge, jury = row.judgements
    assert (judge.kind, judge.passed, judge.score, judge.reason) == ("judge", True, 0.9, "Gives 22 degrees Celsius.")
    assert (jury.kind, jury.passed, jury.score, jury.quorum) == ("jury", True, 1.0, 0.5)
    assert jury.reason == (
        "2 of 2 jurors scored at least 0.7 (quorum 0.5): claude-judge-1 0.9: Gives 22 degrees Celsius.; "
        "gpt-judge-2 0.8: Converts 22 C to 71.6 F."
    )
    shown = render_pretty(recorded.report, width=300)
    assert "judge turns[0].final_response: score 0.9, Gives 22 degrees Celsius." in shown
    asked = next(r for r in fake.requests if r["body"]["model"] == "gpt-judge-2")["body"]["messages"]
    assert "<<<\nThat is 71.6 Fahrenheit.\n>>>" in asked[-1]["content"]
    assert "- And in Fahrenheit?" in asked[-1]["content"]

    cassette = json.loads((tmp_path / "cassettes" / "judged" / f"{model}.json").read_text())
    assert cassette["format_version"] == "2"
    assert [(j["expect"], j["juror"], j["model"]) for j in cassette["runs"][0]["judgements"]] == [
        (0, 0, "claude-judge-1"),
        (1, 0, "claude-judge-1"),
        (1, 1, "gpt-judge-2"),
    ]
    assert [j["models"] for j in cassette["fingerprint"]["judges"]] == [
        ["claude-judge-1"],
        ["claude-judge-1", "gpt-judge-2"],
    ]

    replayed = run(path, {})  # no key, no model endpoint
    assert replayed.report.results[0].model_dump() == row.model_dump() | {
        "duration_ms": replayed.report.results[0].duration_ms
    }
    assert run_cells(path, {}).spent == 0.0


def test_a_jury_at_exactly_its_quorum_with_a_juror_at_exactly_the_threshold_passes(tmp_path: Path) -> None:
    criteria = """
      - final_response:
          judge:
            criteria:
              - {{ name: accuracy, description: The number is right. }}
              - {{ name: unit, description: The unit is named. }}
              - {{ name: tone, description: Plain words. }}
            threshold: 0.7
            model: gpt-judge-2
"""
    suite = SUITE + criteria
    scored = [
        {"name": "accuracy", "score": 0.57, "reason": "Rounded."},
        {"name": "unit", "score": 0.83, "reason": "Says Fahrenheit."},
        {"name": "tone", "score": 0.7, "reason": "Plain."},
    ]
    judges = {
        "claude-judge-1": [verdict(0.7, "Exactly adequate.")],
        "gpt-judge-2": [verdict(0.69, "Just short.", passed=False, criteria=scored)],
    }
    # the jury: 0.7 reaches 0.7, 0.69 does not: 1 of 2 = the quorum 0.5.
    # the criteria judge: (0.57 + 0.83 + 0.7) / 3 is 0.7, which floating point makes 0.6999999999999998.
    recorded, _, _ = _record(tmp_path, judges, suite)
    row = recorded.report.results[0]
    assert row.status == Status.PASSED, row.failures
    jury, criteria_judge = row.judgements[1], row.judgements[2]
    assert (jury.passed, jury.score) == (True, 0.5)
    assert [j.passed for j in jury.jurors] == [True, False]
    (juror,) = criteria_judge.jurors
    assert juror.score is not None and juror.score < 0.7 and juror.passed and juror.said_pass is False
    assert [(c.name, round(c.weight, 6), c.score, c.reason) for c in juror.criteria] == [
        ("accuracy", 0.333333, 0.57, "Rounded."),
        ("unit", 0.333333, 0.83, "Says Fahrenheit."),
        ("tone", 0.333333, 0.7, "Plain."),
    ]


def test_a_jury_below_its_quorum_fails_with_every_jurors_score_and_reason(tmp_path: Path) -> None:
    judges = _judges(verdict(0.9, "Fine."), verdict(0.4, "Wrong conversion.", passed=False))
    suite = SUITE.replace("quorum: 0.5", "quorum: 0.75")
    row = _record(tmp_path, judges, suite)[0].report.results[0]
    (failure,) = row.failures
    assert (failure.target, failure.matcher) == ("final_response", "jury")
    assert failure.message == (
        "the jury did not reach its quorum: 1 of 2 jurors scored at least 0.7 (quorum 0.75): "
        "claude-judge-1 0.9: Fine.; gpt-judge-2 0.4: Wrong conversion."
    )
    assert failure.expected["quorum"] == 0.75


def test_a_judge_answer_that_is_not_json_is_asked_again_once(tmp_path: Path) -> None:
    judges = _judges(Turn(text="Looks good to me!"), verdict(0.8, "Right."))
    judges["claude-judge-1"].append(Turn(text='```json\n{"pass": true, "score": 0.75, "reason": "Has the unit."}\n```'))
    recorded, fake, path = _record(tmp_path, judges)
    row = recorded.report.results[0]
    assert row.status == Status.PASSED, row.failures
    retry = [r for r in fake.requests if r["body"]["model"] == "claude-judge-1"]
    assert len(retry) == 4  # the judge and the first juror, each asked twice
    follow_up = retry[1]["body"]["messages"]
    assert [m["role"] for m in follow_up] == ["user", "assistant", "user"]
    assert follow_up[2]["content"].startswith("Your answer could not be used: not valid JSON (Expecting value")
    replayed = run(path, {}).report.results[0]
    assert replayed.status == Status.PASSED and replayed.judgements == row.judgements


def test_a_judge_answer_that_is_still_not_json_after_the_retry_fails_saying_why(tmp_path: Path) -> None:
    judges = _judges(Turn(text="Looks good to me!"), verdict(0.8, "Right."))
    judges["claude-judge-1"].append(Turn(text='{"pass": true, "score": 7, "reason": "Great."}'))
    row = _record(tmp_path, judges)[0].report.results[0]
    assert row.status == Status.FAILED
    messages = [f.message for f in row.failures]
    assert messages[0] == (
        'judge claude-judge-1 gave no usable verdict: its answer was "score" must be a number from 0.0 to 1.0, '
        "after one retry"
    )
    assert len(row.failures) == 1  # the jury still passes: gpt-judge-2 alone is its quorum of 0.5
    unusable = row.judgements[1].jurors[0]
    assert (unusable.error, unusable.score, unusable.passed) == (True, None, False)


def test_a_changed_rubric_or_judge_model_refuses_replay_and_says_which(tmp_path: Path) -> None:
    judges = _judges(verdict(0.9, "Fine."), verdict(0.8, "Fine."))
    _, _, path = _record(tmp_path, judges)
    text = path.read_text()
    path.write_text(text.replace("States the temperature with its unit.", "States the temperature in Kelvin."))
    row = run(path, {}).report.results[0]
    assert row.status == Status.FAILED and row.error is not None
    assert (
        "recorded with other settings: the rubric of expect[0] "
        "('States the temperature with its unit.' -> 'States the temperature in Kelvin.')"
    ) in row.error
    path.write_text(text.replace("model: claude-judge-1 }", "model: claude-judge-3 }"))
    row = run(path, {}).report.results[0]
    assert row.error is not None and "the judge model of expect[0] ('claude-judge-1' -> 'claude-judge-3')" in row.error


def test_a_changed_threshold_or_quorum_replays_without_asking_again(tmp_path: Path) -> None:
    judges = _judges(verdict(0.9, "Fine."), verdict(0.8, "Fine."))
    _, _, path = _record(tmp_path, judges)
    path.write_text(path.read_text().replace("threshold: 0.7, model", "threshold: 0.95, model"))
    row = run(path, {}).report.results[0]
    assert row.error is None
    assert [f.message for f in row.failures] == ["judge claude-judge-1 scored 0.9 < threshold 0.95: Fine."]


def test_max_cost_counts_the_judge_calls(tmp_path: Path) -> None:
    prices = "prices:\n  claude-judge-1: {{ input: 100, output: 100 }}\n  gpt-judge-2: {{ input: 0, output: 0 }}\n"
    priced = prices + SUITE.replace("    turns:", "    runs: 3\n    turns:")
    fake = FakeLLM(AGENT, by_model=_judges(verdict(0.9, "Fine."), verdict(0.8, "Fine.")))
    with serve(fake) as url:
        path = write_suite(tmp_path, priced.format(model="gpt-4o-mini"))
        ran = run_cli(
            "run", str(path), "--record", "--concurrency", "1", "--max-cost", "0.01", "-r", "json", env=environ(url)
        )
    # Three runs of the agent alone cost $0.000243, far under the cap; one run's judge calls (two of 60 tokens at
    # $100 per million) cost $0.012, so the first run spends the budget and the other two are not dispatched.
    assert ran.code == ExitCode.POLICY, ran.stderr
    report = json.loads(ran.stdout)
    assert [r["status"] for r in report["results"]] == ["passed", "skipped"]


def test_a_judge_where_no_model_runs_is_a_load_error(tmp_path: Path) -> None:
    suite = write_suite(
        tmp_path,
        """
agents:
  - name: scripted
    provider: scripted
    servers: [weather]
    prompt: Hi
    script: [{ turns: [{ answer: Hello. }] }]
    expect:
      - final_response: { judge: { rubric: Polite., model: claude-judge-1 } }
  - name: unknown judge
    model: gpt-4o-mini
    servers: [weather]
    prompt: Hi
    expect:
      - final_response: { jury: { rubric: Polite., jurors: [{ model: llama-3 }] } }
""",
    )
    ran = run_cli("validate", str(suite))
    assert ran.code == ExitCode.USAGE
    assert f"{suite}:16:9: agents[0].expect[0]: a `judge` matcher needs an agent test that calls a model" in ran.stderr
    assert "agents[1].expect[0]: jury model: cannot tell which provider serves model 'llama-3'" in ran.stderr


def test_max_cost_refuses_to_record_with_an_unpriced_judge_model(tmp_path: Path) -> None:
    path = write_suite(tmp_path, SUITE.format(model="gpt-4o-mini"))
    ran = run_cli("run", str(path), "--record", "--max-cost", "1", env=environ("http://127.0.0.1:9"))
    assert ran.code == ExitCode.USAGE
    assert "--max-cost cannot count the cost of claude-judge-1, gpt-judge-2: no price is known" in ran.stderr


def test_a_check_added_before_a_judge_replays_without_asking_again(tmp_path: Path) -> None:
    judges = _judges(verdict(0.9, "Fine."), verdict(0.4, "Too terse.", passed=False))
    _, _, path = _record(tmp_path, judges, SUITE.replace("quorum: 0.5", "quorum: 1.0"))
    paired = "    expect:\n      - turns[0].tool_calls[0].name: { exact: get_weather }\n"
    path.write_text(path.read_text().replace("    expect:\n", paired))
    row = run(path, {}).report.results[0]
    assert row.error is None
    assert [(j.expect, j.passed) for j in row.judgements] == [(1, True), (2, False)]
    assert [f.target for f in row.failures] == ["final_response"]
