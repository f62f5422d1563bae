"""The small pieces: provider choice, prices, Retry-After, backoff, presented names, the cassette's normal form."""

from __future__ import annotations

from pathlib import Path

import anyio
import pytest

from mcptest.agent.loop import present
from mcptest.cassette.format import Cassette, CassetteRun, Fingerprint
from mcptest.cassette.normalise import dumps
from mcptest.providers import provider_of
from mcptest.providers.errors import ProviderError, retry_after_seconds
from mcptest.providers.prices import Price, cost, price_for
from mcptest.providers.retry import RetryPolicy, with_retries
from mcptest.records.messages import ModelReply, RequestedCall
from mcptest.records.trace import CatalogTool


@pytest.mark.parametrize(
    ("model", "explicit", "provider"),
    [
        ("claude-haiku-4-5", None, "anthropic"),
        ("gpt-4.1", None, "openai"),
        ("chatgpt-4o-latest", None, "openai"),
        ("o3", None, "openai"),
        ("o4-mini", None, "openai"),
        ("omni", None, None),
        ("llama3.2", None, None),
        ("llama3.2", "openai", "openai"),
    ],
)
def test_the_provider_comes_from_the_prefix_or_provider_key(model: str, explicit: str | None, provider: str) -> None:
    assert provider_of(model, explicit) == provider


def test_prices_snapshots_overrides_and_unknown_models() -> None:
    assert price_for("claude-haiku-4-5-20251001") == Price(input=1, output=5)
    assert price_for("gpt-4o", {"gpt-4o": Price(input=0, output=0)}) == Price(input=0, output=0)
    assert price_for("my-local-model") is None
    # a dated id of its own price wins over its family: Mistral Large 3 (2512) is not Large 2 (2411)
    assert (price_for("mistral-large-2512"), price_for("mistral-large-2411")) == (
        Price(input=0.5, output=1.5),
        Price(input=2, output=6),
    )
    assert cost(None, 1000, 1000) is None
    assert cost(Price(input=3, output=15), 1_000_000, 100_000) == 4.5


@pytest.mark.parametrize(
    ("headers", "seconds"),
    [({"retry-after": "3"}, 3.0), ({"retry-after-ms": "250"}, 0.25), ({"retry-after": "soon"}, None), ({}, None)],
)
def test_retry_after_headers(headers: dict[str, str], seconds: float | None) -> None:
    assert retry_after_seconds(headers) == seconds


def test_backoff_doubles_and_is_capped_and_a_4xx_is_not_retried() -> None:
    waits: list[float] = []
    calls = {"n": 0}

    async def sleep(seconds: float) -> None:
        waits.append(seconds)

    async def overloaded() -> None:
        calls["n"] += 1
        raise ProviderError("busy", status=529)

    async def bad_request() -> None:
        calls["n"] += 1
        raise ProviderError("no", status=400)

    policy = RetryPolicy(attempts=5, base_s=1, cap_s=3)
    with pytest.raises(ProviderError, match=r"busy \(after 5 attempts\)"):
        anyio.run(lambda: with_retries(overloaded, policy, sleep))
    assert waits == [1, 2, 3, 3]
    with pytest.raises(ProviderError, match="^no$"):
        anyio.run(lambda: with_retries(bad_request, policy, sleep))
    assert calls["n"] == 6


def test_colliding_tool_names_are_made_unique_and_map_back() -> None:
    tools = [
        CatalogTool(server="a", tool={"name": "search"}),
        CatalogTool(server="b", tool={"name": "search"}),
        CatalogTool(server="b", tool={"name": "fetch page"}),
    ]
    names = present(tools)
    assert {n: t.id for n, t in names.items()} == {
        "a__search": "a.search",
        "b__search": "b.search",
        "fetch_page": "b.fetch page",
    }


def test_normalising_renumbers_call_ids_so_two_recordings_compare_equal() -> None:
    def cassette(ids: list[str]) -> Cassette:
        reply = ModelReply(calls=[RequestedCall(id=i, name="search") for i in ids])
        fingerprint = Fingerprint(
            model="m",
            provider="openai",
            system=None,
            prompt="p",
            servers=[],
            catalog="sha256:0",
            max_turns=1,
            max_tokens=1,
            runs=1,
        )
        return Cassette(
            test="t", fingerprint=fingerprint, catalog=[], runs=[CassetteRun(replies=[reply], exchanges=[])]
        )

    assert dumps(cassette(["toolu_x", "toolu_y"])) == dumps(cassette(["call_abc", "call_def"]))
    assert '"id": "call_2"' in dumps(cassette(["toolu_x", "toolu_y"]))


def test_a_later_user_message_follows_the_answer_in_both_wire_formats() -> None:
    from mcptest.providers import anthropic, openai
    from mcptest.records.messages import ModelReply, ModelRequest, UserMessage

    request = ModelRequest(
        model="m",
        prompt="Hi",
        history=[ModelReply(text="Hello."), UserMessage(text="Again?"), ModelReply(), UserMessage(text="Hm?")],
    )
    assert anthropic.to_messages(request) == [
        {"role": "user", "content": "Hi"},
        {"role": "assistant", "content": [{"type": "text", "text": "Hello."}]},
        {"role": "user", "content": "Again?"},
        {"role": "user", "content": "Hm?"},  # an empty answer is left out: the Messages API refuses empty content
    ]
    assert [(m["role"], m["content"]) for m in openai.to_messages(request)] == [
        ("user", "Hi"),
        ("assistant", "Hello."),
        ("user", "Again?"),
        ("assistant", None),
        ("user", "Hm?"),
    ]


def test_bedrock_credentials_are_found_through_botocores_chain_without_a_network_call(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from mcptest.providers.bedrock import NO_CREDENTIALS, credentials_missing

    for var in (
        "AWS_ACCESS_KEY_ID",
        "AWS_SECRET_ACCESS_KEY",
        "AWS_SESSION_TOKEN",
        "AWS_PROFILE",
        "AWS_DEFAULT_PROFILE",
    ):
        monkeypatch.delenv(var, raising=False)
    files = tmp_path / "credentials"
    files.write_text("[dev]\naws_access_key_id = AKIAFAKEFAKEFAKE\naws_secret_access_key = not-a-secret\n")
    monkeypatch.setenv("AWS_SHARED_CREDENTIALS_FILE", str(files))
    monkeypatch.setenv("AWS_CONFIG_FILE", str(tmp_path / "config"))
    assert credentials_missing({}) == NO_CREDENTIALS  # no default profile, no variable: refused up front
    assert credentials_missing({"AWS_PROFILE": "dev"}) is None  # the shared credentials file, through botocore
    assert "AWS_PROFILE is set but empty: unset it" in str(credentials_missing({"AWS_PROFILE": ""}))
    assert "could not be found" in str(credentials_missing({"AWS_PROFILE": "nope"}))
    assert credentials_missing({"AWS_ACCESS_KEY_ID": "AKIAFAKE", "AWS_SECRET_ACCESS_KEY": "x"}) is None
    assert credentials_missing({"AWS_BEARER_TOKEN_BEDROCK": "token"}) is None
    assert credentials_missing({"AWS_EC2_METADATA_DISABLED": "false"}) is None  # asking the instance: opted in
    (tmp_path / "config").write_text("[default]\ncredential_process = /bin/false\n")
    assert credentials_missing({}) is None  # a credential_process is the user's program: not run up front
