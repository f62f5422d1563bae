"""OpenAI's Responses API, Gemini, Mistral and Bedrock, each through its real SDK against a fake of its HTTP API on
127.0.0.1, with real MCP servers: a tool-using run recorded and replayed with no key, a changed catalog refusing
replay, a 429 retried after the server's hint, a malformed answer, a three-turn conversation with a judge."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from mcptest.records.report import Status
from tests.conftest import run_cli
from tests.providers.fake_llm import FakeLLM, Turn, api_of, call, serve
from tests.providers.helpers import KEY, environ, run, run_cells, write_suite

# provider: (the suite lines naming the model, the cassette's file name)
MODELS = {
    "openai-responses": ("model: gpt-5-mini\n    api: responses", "gpt-5-mini"),
    "gemini": ("model: gemini-2.5-flash", "gemini-2.5-flash"),
    "mistral": ("model: mistral-small-latest", "mistral-small-latest"),
    "bedrock": ("model: amazon.nova-lite-v1:0\n    provider: bedrock", "amazon.nova-lite-v1-0"),
}
PROVIDERS = list(MODELS)
AGENT = """
agents:
  - name: weather note
    {model}
    servers: [weather, notes]
    system: You are terse.
    prompt: Save a note with the weather in Paris.
    max_turns: 4
"""
TWO_CALLS = [
    Turn(text="Checking.", calls=[call("weather__get_weather", city="Paris"), call("save_note", text="sunny")]),
    Turn(text="Saved."),
]


def env(url: str) -> dict[str, str]:
    """Every provider pointed at the fake, with dummy keys and AWS credentials."""
    return environ(
        url,
        GEMINI_API_KEY=KEY,
        GEMINI_BASE_URL=url,
        MISTRAL_API_KEY=KEY,
        MISTRAL_BASE_URL=url,
        AWS_ACCESS_KEY_ID="AKIAFAKEFAKEFAKE",
        AWS_SECRET_ACCESS_KEY=KEY,
        AWS_REGION="us-east-1",
        AWS_ENDPOINT_URL_BEDROCK_RUNTIME=url,
    )


def suite(tmp_path: Path, provider: str, text: str = AGENT) -> Path:
    return write_suite(tmp_path, text.replace("{model}", MODELS[provider][0]))


def _sent_results(provider: str, body: dict[str, Any]) -> list[str]:
    """The tool results the second request carried back, in the provider's own wire form."""
    if provider == "openai-responses":
        return [i["output"] for i in body["input"] if i.get("type") == "function_call_output"]
    if provider == "gemini":
        parts = body["contents"][-1]["parts"]
        return [p["functionResponse"]["response"]["result"] for p in parts]
    if provider == "mistral":
        return [m["content"] for m in body["messages"] if m["role"] == "tool"]
    return [b["toolResult"]["content"][0]["text"] for b in body["messages"][-1]["content"]]


@pytest.mark.parametrize("provider", PROVIDERS)
def test_a_tool_using_run_is_recorded_replays_with_no_key_and_a_changed_catalog_refuses(
    tmp_path: Path, provider: str
) -> None:
    fake = FakeLLM(TWO_CALLS)
    path = suite(tmp_path, provider)
    with serve(fake) as url:
        recorded = run(path, env(url), record_mode="all")
    row = recorded.report.results[0]
    assert row.status == Status.PASSED, row.error
    assert row.targets["tool_calls"] == 2
    first, second = fake.requests
    assert _sent_results(provider, second["body"]) == ["It is 22 degrees and sunny in Paris.", "Saved note: sunny"]
    tokens = run_cells(path, {}).cells[0].traces[0].tokens  # the replay's trace: what was recorded
    assert tokens is not None and (tokens.input, tokens.output, tokens.total) == (200, 40, 240)
    cached, reasoning = {"openai-responses": (50, 20), "gemini": (50, 20), "mistral": (0, 0), "bedrock": (50, 0)}[
        provider
    ]
    assert (tokens.cached, tokens.reasoning) == (cached, reasoning)
    split = {k: v for k, v in row.targets.items() if k.startswith("tokens.")}  # the report lists them on their own
    assert split == {"tokens.total": 240, "tokens.input": 200, "tokens.output": 40} | {
        f"tokens.{k}": v for k, v in (("cached", cached), ("reasoning", reasoning)) if v
    }
    if provider == "openai-responses":  # the reasoning item goes back with the call it led to
        assert [i.get("type") for i in second["body"]["input"][:3]] == [None, "reasoning", None]
        assert second["body"]["input"][1]["encrypted_content"] == "gAAAAB-fake"
        assert first["body"]["instructions"] == "You are terse." and first["body"]["store"] is False
    elif provider == "gemini":  # the model turn goes back as it came, thought signature included
        assert second["body"]["contents"][1]["parts"][0]["thoughtSignature"] == "c2lnbmF0dXJl"
        assert first["headers"]["x-goog-api-key"] == KEY
    elif provider == "mistral":
        assert first["headers"]["authorization"] == f"Bearer {KEY}"
    else:
        assert first["headers"]["authorization"].startswith("AWS4-HMAC-SHA256 Credential=AKIAFAKEFAKEFAKE/")
        assert first["body"]["system"] == [{"text": "You are terse."}]

    cassette = tmp_path / "cassettes" / "weather-note" / f"{MODELS[provider][1]}.json"
    assert KEY not in cassette.read_text()
    replayed = run(path, {})  # no key, no endpoint
    assert replayed.report.results[0].status == Status.PASSED
    assert replayed.report.results[0].targets == row.targets

    path.write_text(path.read_text().replace("servers: [weather, notes]", "servers: [weather]"))
    refused = run(path, {}).report.results[0]
    assert refused.status == Status.FAILED and refused.error is not None
    assert "replay refused" in refused.error and "recorded with other settings: the servers" in refused.error


@pytest.mark.parametrize("provider", PROVIDERS)
def test_a_429_waits_for_the_providers_hint_and_a_malformed_answer_is_reported(tmp_path: Path, provider: str) -> None:
    waits: list[float] = []

    async def sleep(seconds: float) -> None:
        waits.append(seconds)

    hint = {"gemini": {"retry-delay": "3s"}}.get(provider, {"retry-after": "3"})
    malformed = [Turn(calls=[("save_note", '{"text": "unterminated')]), Turn(text="Sorry.")]
    fake = FakeLLM(malformed, failures=[(429, hint)])
    with serve(fake) as url:
        trace = run_cells(suite(tmp_path, provider), env(url), record_mode="all", sleep=sleep).cells[0].traces[0]
    assert len(fake.requests) >= 2 and waits[0] == 3.0
    if provider in ("gemini", "bedrock"):  # their APIs send no call text: they say the call did not parse
        why = "MALFORMED_FUNCTION_CALL" if provider == "gemini" else "malformed_tool_use"
        assert trace.error is not None and trace.error.startswith(f"{provider}: ") and why in trace.error
    else:
        [bad] = trace.tool_calls
        assert (bad.unparseable_arguments, bad.is_error, trace.final_response) == (True, True, "Sorry.")


CONVERSATION = """
agents:
  - name: judged talk
    {model}
    servers: [weather]
    prompt: What is the weather in Oslo?
    turns: [Convert that to Fahrenheit., Thanks!]
    expect:
      - turns[1].tool_calls[0].name: { exact: convert_temperature }
      - final_response:
          judge: { rubric: Polite., threshold: 0.5, model: JUDGE }
"""
TALK = [
    Turn(calls=[call("get_weather", city="Oslo")]),
    Turn(text="It is 22 degrees in Oslo."),
    Turn(calls=[call("convert_temperature", value=22, to="fahrenheit")]),
    Turn(text="That is 71.6 Fahrenheit."),
    Turn(text="You are welcome."),
]
JUDGES = {
    "openai-responses": "openai-responses:gpt-5-nano",
    "gemini": "gemini-2.5-flash-lite",
    "mistral": "mistral-large-latest",
    "bedrock": "bedrock:amazon.nova-pro-v1:0",
}


@pytest.mark.parametrize("provider", PROVIDERS)
def test_a_three_turn_conversation_with_a_judge_records_and_replays(tmp_path: Path, provider: str) -> None:
    judge = JUDGES[provider]
    verdict = Turn(text=json.dumps({"pass": True, "score": 0.9, "reason": "Courteous."}), usage=(50, 10))
    fake = FakeLLM(TALK, by_model={judge.split(":", 1)[-1]: [verdict]})
    path = suite(tmp_path, provider, CONVERSATION.replace("JUDGE", judge))
    with serve(fake) as url:
        recorded = run(path, env(url), record_mode="all")
    row = recorded.report.results[0]
    assert row.status == Status.PASSED, (row.error, row.failures)
    assert (row.judgements[0].score, row.judgements[0].reason) == (0.9, "Courteous.")
    assert len(fake.requests) == 6  # five agent calls across three user messages, one judge call
    replayed = run(path, {})
    assert replayed.report.results[0].status == Status.PASSED
    assert replayed.report.results[0].judgements == row.judgements


AWS_CHAIN = (  # AWS_PROFILE is left alone: set but empty, botocore looks for a profile named ""
    "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_BEARER_TOKEN_BEDROCK",
    "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI", "AWS_CONTAINER_CREDENTIALS_FULL_URI", "AWS_WEB_IDENTITY_TOKEN_FILE",
    "AWS_ROLE_ARN", "AWS_EC2_METADATA_DISABLED",
)  # fmt: skip


@pytest.mark.parametrize(
    ("provider", "why"),
    [
        ("gemini", "GEMINI_API_KEY or GOOGLE_API_KEY is not set"),
        ("mistral", "MISTRAL_API_KEY is not set"),
        ("openai-responses", "OPENAI_API_KEY is not set"),
        ("bedrock", "bedrock: no AWS credentials found: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY"),
    ],
)
def test_a_missing_key_is_a_usage_error_naming_the_fix_before_any_server_starts(
    tmp_path: Path, provider: str, why: str
) -> None:
    unset = {
        v: ""
        for v in (
            "GEMINI_API_KEY",
            "GOOGLE_API_KEY",
            "MISTRAL_API_KEY",
            "OPENAI_API_KEY",
            "OPENAI_BASE_URL",
            *AWS_CHAIN,
        )
    }
    no_files = {"AWS_CONFIG_FILE": str(tmp_path / "no-config"), "AWS_SHARED_CREDENTIALS_FILE": str(tmp_path / "no")}
    started = tmp_path / "started"
    path = suite(tmp_path, provider)  # a server that leaves a mark when it starts
    mark = f'command: ["sh", "-c", "touch {started}"]'
    path.write_text(re.sub(r"command: \[.*\]", mark, path.read_text()))
    result = run_cli("run", str(path), "--record", env=unset | no_files)
    assert result.code == 2 and why in result.stderr, result.stderr
    assert "Traceback" not in result.stderr and not started.exists()


def test_a_models_matrix_picks_each_provider_by_prefix_and_reports_them_side_by_side(tmp_path: Path) -> None:
    models = (
        "claude-haiku-4-5,gpt-4o-mini,gemini-2.5-flash,mistral-small-latest,"
        "bedrock:amazon.nova-lite-v1:0,openai-responses:gpt-5-mini"
    )
    fake = FakeLLM(TWO_CALLS)
    path = suite(tmp_path, "gemini")
    with serve(fake) as url:
        result = run_cli("run", str(path), "--record", "--models", models, env=env(url), timeout=180)
    assert result.code == 0, result.stderr
    lines = [line.strip() for line in result.stdout.splitlines() if "weather note [" in line]
    rows = [line for line in lines if line.startswith("PASS")]
    assert [r.split("[", 1)[1].split("]", 1)[0] for r in rows] == models.split(",")
    tokens = {t.split("[", 1)[1].split("]", 1)[0]: t.split("]: ", 1)[1] for t in lines if t.startswith("tokens ")}
    plain = "input 200, output 40, total 240"  # the fakes of these APIs report no cached or reasoning tokens
    assert tokens == {
        "claude-haiku-4-5": plain, "gpt-4o-mini": plain, "mistral-small-latest": plain,
        "gemini-2.5-flash": "input 200 (50 cached), output 40 (20 reasoning), total 240",
        "openai-responses:gpt-5-mini": "input 200 (50 cached), output 40 (20 reasoning), total 240",
        "bedrock:amazon.nova-lite-v1:0": "input 200 (50 cached), output 40, total 240",
    }  # fmt: skip
    assert {api_of(r["path"], r["body"])[0] for r in fake.requests} == {
        "anthropic", "chat", "gemini", "bedrock", "responses"
    }  # fmt: skip
