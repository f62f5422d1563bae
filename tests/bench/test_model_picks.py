"""`--selector model:<id>`: picks asked through the real SDKs of a fake model on 127.0.0.1, recorded, replayed."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import anyio
import pytest

from mcptest.bench import load_spec, run_bench
from mcptest.bench.recording import ModelOptions, PicksFailed, cassette_path, model_selector
from mcptest.bench.report import BenchReport
from mcptest.core.errors import UserError
from tests.bench.conftest import tool
from tests.bench.fake_picker import picking_llm
from tests.providers.fake_llm import serve
from tests.providers.helpers import KEY, environ, no_wait

TOOLS = [
    tool("read_file", "Read the contents of a file from disk."),
    tool("send_email", "Send an email message to a recipient."),
    tool("get_weather", "Return the weather forecast for a city."),
    tool("create_issue", "Open a new issue in the tracker."),
]
INTENTS = [
    ("read the contents of notes.txt", ["read_file"]),
    ("send an email message to Bob", ["send_email"]),
    ("what is the weather forecast in Paris", ["get_weather"]),
    ("open a new issue about the crash", ["create_issue"]),
    ("dance for me", ["read_file"]),
]
MUTATIONS = [{"tool": "get_weather", "kind": "blank"}, {"tool": "send_email", "kind": "truncate", "chars": 10}]
MODEL = "gpt-4o-mini"


@pytest.fixture
def spec(spec_file: Callable[..., Path]) -> Path:
    return spec_file(TOOLS, INTENTS, MUTATIONS)


def bench_with(spec: Path, model: str = MODEL, **options: object) -> tuple[BenchReport, list[str]]:
    """Load, pick through the cassette, run: what `tool-bench run --selector model:<id>` does, in process."""
    bench = load_spec(spec)
    selector, notes = model_selector(bench, model, ModelOptions(**{"sleep": no_wait, **options}))  # type: ignore[arg-type]
    return run_bench(bench, selector), notes


def test_recorded_picks_replay_offline_to_an_identical_report(spec: Path) -> None:
    fake = picking_llm()
    with serve(fake) as url:
        recorded, notes = bench_with(spec, record=True, environ=environ(url))
    replayed, replay_notes = bench_with(spec, environ={})  # no key, and the server is gone
    assert replayed.model_dump() == recorded.model_dump()
    assert len(fake.requests) == 15 and replay_notes == []
    path = cassette_path(spec, MODEL)
    assert path == spec.parent / "cassettes" / "tool-bench" / "spec" / "gpt-4o-mini.json"
    assert notes == [f"mcptest: asked the model for 15 picks, $0.0004, reused 0; wrote {path}"]
    assert [(i.picked, i.correct) for i in recorded.intents] == [
        ("read_file", True),
        ("send_email", True),
        ("get_weather", True),
        ("create_issue", True),
        (None, False),
    ]
    blank, truncate = recorded.mutations
    assert (blank.lost, blank.drop, truncate.lost) == ([2], 0.2, [])
    assert recorded.selector == "model:gpt-4o-mini"


def test_the_model_sees_the_catalog_as_real_tool_definitions_in_one_turn(spec: Path) -> None:
    fake = picking_llm()
    with serve(fake) as url:
        bench_with(spec, record=True, environ=environ(url), concurrency=1)
    first = fake.requests[0]["body"]
    assert first["model"] == MODEL and first["messages"][1] == {"role": "user", "content": INTENTS[0][0]}
    assert first["tools"][0] == {
        "type": "function",
        "function": {"name": "read_file", "description": TOOLS[0]["description"], "parameters": {"type": "object"}},
    }
    blanked = fake.requests[5 * 1 + 2]["body"]["tools"][2]["function"]  # mutation 0, intent 2: get_weather blanked
    assert blanked == {"name": "get_weather", "parameters": {"type": "object"}}


def test_an_anthropic_model_records_and_replays_the_same_way(spec: Path) -> None:
    fake = picking_llm()
    with serve(fake) as url:
        recorded, _ = bench_with(spec, "claude-haiku-4-5", record=True, environ=environ(url))
    assert fake.requests[0]["path"] == "/v1/messages" and fake.requests[0]["body"]["tools"][0]["name"] == "read_file"
    replayed, _ = bench_with(spec, "claude-haiku-4-5", environ={})
    assert replayed == recorded and recorded.baseline.correct == 4


def test_a_changed_mutation_asks_the_model_again_only_for_its_own_picks(
    spec: Path, spec_file: Callable[..., Path]
) -> None:
    with serve(picking_llm()) as url:
        bench_with(spec, record=True, environ=environ(url))
    changed = spec_file(TOOLS, INTENTS, [MUTATIONS[0], {**MUTATIONS[1], "chars": 4}])
    fake = picking_llm()
    with serve(fake) as url:
        _, notes = bench_with(changed, record=True, environ=environ(url))
    assert len(fake.requests) == 5
    assert {r["body"]["tools"][1]["function"].get("description") for r in fake.requests} == {"Send"}
    assert notes[0].startswith("mcptest: asked the model for 5 picks, $0.0001, reused 10;")
    cassette = json.loads(cassette_path(changed, MODEL).read_text(encoding="utf-8"))
    assert len(cassette["picks"]) == 15  # the picks of the old truncation are gone


def test_replay_without_a_cassette_says_where_it_looks_and_how_to_record(spec: Path) -> None:
    with pytest.raises(UserError) as caught:
        bench_with(spec, environ={"CI": "true"})
    assert str(caught.value) == (
        f"mcptest: no cassette at {cassette_path(spec, MODEL)} (CI=true: nothing records implicitly); "
        f"record it with: mcptest tool-bench run {spec} --selector model:gpt-4o-mini --record"
    )


def test_replay_names_the_picks_it_lacks_and_the_catalog_each_was_asked_on(
    spec: Path, spec_file: Callable[..., Path]
) -> None:
    with serve(picking_llm()) as url:
        bench_with(spec, record=True, environ=environ(url))
    changed = spec_file(TOOLS, INTENTS, [MUTATIONS[0], {**MUTATIONS[1], "chars": 4}])
    with pytest.raises(UserError) as caught:
        bench_with(changed, environ={})
    path = cassette_path(spec, MODEL)
    assert str(caught.value).splitlines() == [
        f"{path}: no recorded pick for 5 of 15 questions, e.g.:",
        f"{path}:   intents[0] 'read the contents of notes.txt' on mutations[1] (truncate send_email) "
        "(the cassette has this intent on 3 other catalogs)",
        f"{path}:   intents[1] 'send an email message to Bob' on mutations[1] (truncate send_email) "
        "(the cassette has this intent on 3 other catalogs)",
        f"{path}:   intents[2] 'what is the weather forecast in Paris' on mutations[1] (truncate send_email) "
        "(the cassette has this intent on 3 other catalogs)",
        f"{path}:   and 2 more",
        f"mcptest: record them with: mcptest tool-bench run {changed} --selector model:gpt-4o-mini --record",
    ]


def test_a_429_then_success_is_retried_after_the_servers_retry_after(spec: Path) -> None:
    waits: list[float] = []

    async def sleep(seconds: float) -> None:
        waits.append(seconds)
        await anyio.sleep(0)

    fake = picking_llm(failures=[(429, {"Retry-After": "3"})])
    with serve(fake) as url:
        report, _ = bench_with(spec, record=True, environ=environ(url), sleep=sleep, concurrency=1)
    assert (len(fake.requests), waits, report.baseline.correct) == (16, [3.0], 4)


def test_a_failure_that_persists_stops_asking_and_keeps_what_was_recorded(
    spec: Path, spec_file: Callable[..., Path]
) -> None:
    with serve(picking_llm()) as url:
        bench_with(spec, record=True, environ=environ(url))
    changed = spec_file(TOOLS, INTENTS, [MUTATIONS[0], {**MUTATIONS[1], "chars": 4}])
    failing = picking_llm(failures=[(500, {})] * 100)
    with serve(failing) as url, pytest.raises(PicksFailed) as caught:
        bench_with(changed, record=True, environ=environ(url), concurrency=1)
    path = cassette_path(spec, MODEL)
    assert str(caught.value) == (
        "mcptest: 5 picks not recorded: openai: HTTP 500: fake 500 (after 4 attempts); the 10 recorded are saved "
        f"in {path}; run the same command again to ask for the rest"
    )
    assert len(failing.requests) == 4
    assert len(json.loads(path.read_text(encoding="utf-8"))["picks"]) == 10


def test_no_secret_reaches_the_cassette(spec: Path) -> None:
    with serve(picking_llm(leak=True)) as url:
        bench_with(spec, record=True, environ=environ(url))
    text = cassette_path(spec, MODEL).read_text(encoding="utf-8")
    assert KEY not in text and "Bearer ***" in text


def test_a_tool_named_in_text_is_the_pick(spec: Path) -> None:
    with serve(picking_llm(in_text=True)) as url:
        report, _ = bench_with(spec, record=True, environ=environ(url))
    assert [i.picked for i in report.intents] == ["read_file", "send_email", "get_weather", "create_issue", None]


def test_a_model_with_no_known_prefix_needs_a_provider_to_record(spec: Path) -> None:
    with pytest.raises(UserError) as caught:
        bench_with(spec, "llama3.2", record=True, environ={})
    assert "add --provider openai (with --base-url for an OpenAI-compatible server" in str(caught.value)
    fake = picking_llm()
    with serve(fake) as url:
        report, _ = bench_with(spec, "llama3.2", record=True, provider="openai", base_url=f"{url}/v1", environ={})
    assert report.baseline.correct == 4 and "max_tokens" in fake.requests[0]["body"]


def test_recording_without_a_key_names_the_variable(spec: Path) -> None:
    with pytest.raises(UserError) as caught:
        bench_with(spec, "claude-haiku-4-5", record=True, environ={})
    assert str(caught.value) == (
        "mcptest: --record: ANTHROPIC_API_KEY is not set: export it to run anthropic models live (replay needs no key)"
    )


def test_recording_again_with_nothing_missing_asks_nothing_and_needs_no_key(
    spec: Path, spec_file: Callable[..., Path]
) -> None:
    with serve(picking_llm()) as url:
        bench_with(spec, record=True, environ=environ(url))
    fewer = spec_file(TOOLS, INTENTS, MUTATIONS[:1])
    _, notes = bench_with(fewer, record=True, environ={})
    assert notes == [f"mcptest: asked the model for 0 picks, reused 10; wrote {cassette_path(spec, MODEL)}"]
    assert len(json.loads(cassette_path(spec, MODEL).read_text(encoding="utf-8"))["picks"]) == 10
