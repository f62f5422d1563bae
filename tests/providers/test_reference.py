"""One small exchange per provider, in the API's documented wire form (tests/providers/reference/*.json), held to
the SDK's own types; the fake of that API must answer in the same shape, and the provider must read both alike.

The references are written from each API reference's response syntax (this machine cannot call the real APIs);
what keeps them honest is that the SDK's own models (or botocore's service model for Bedrock) take every field
of them, and refuse the unknown ones.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.providers.fake_llm import Turn, bedrock_body, call, gemini_body, responses_body

REFERENCE = Path(__file__).parent / "reference"
PROVIDERS = ("openai-responses", "gemini", "mistral", "bedrock")
READ = {  # the parts of a response the provider reads: the fake must carry each field the reference has there
    "openai-responses": ("output", "usage", "status"),
    "gemini": ("candidates", "usageMetadata"),
    "mistral": ("choices", "usage"),
    "bedrock": ("output", "stopReason", "usage"),
}

# The Mistral fake is the OpenAI chat body (one fake serves /v1/chat/completions for both), whose calls carry no
# `index`; the provider does not read it.
UNREPRODUCED = {"choices[].message.tool_calls[].index"}


def reference(provider: str) -> dict[str, Any]:
    return json.loads((REFERENCE / f"{provider}.json").read_text(encoding="utf-8"))


def paths(value: Any, prefix: str = "") -> set[str]:
    """Every key path of a JSON value, list positions collapsed (`output[].call_id`)."""
    if isinstance(value, dict):
        return {prefix + k for k in value} | {p for k, v in value.items() for p in paths(v, f"{prefix}{k}.")}
    if isinstance(value, list):
        return {p for v in value for p in paths(v, prefix.rstrip(".") + "[].")}
    return set()


def no_extra(model: Any, where: str = "") -> list[str]:
    """Fields a pydantic model kept without knowing them (the OpenAI SDK allows extras), anywhere in the tree."""
    from pydantic import BaseModel

    if isinstance(model, BaseModel):
        found = [f"{where}.{k}" for k in model.model_extra or {}]
        return found + [
            p for name in type(model).model_fields for p in no_extra(getattr(model, name), f"{where}.{name}")
        ]
    if isinstance(model, list):
        return [p for i, v in enumerate(model) for p in no_extra(v, f"{where}[{i}]")]
    return []


def sdk_parsed(provider: str, body: dict[str, Any]) -> Any:
    """The body as the provider's SDK reads it, refusing a field the SDK's model does not have; Bedrock's through
    botocore's service model, the shapes of the Converse output."""
    if provider == "bedrock":
        import botocore.session

        model = botocore.session.get_session().get_service_model("bedrock-runtime")
        assert not shape_problems(body, model.operation_model("Converse").output_shape)
        return body
    if provider == "openai-responses":
        from openai.types.responses import Response as Model
    elif provider == "gemini":
        from google.genai.types import GenerateContentResponse as Model  # extra="forbid": unknown fields refused
    else:
        from mistralai.client.models import ChatCompletionResponse as Model
    parsed = Model.model_validate(body)
    assert not no_extra(parsed), no_extra(parsed)
    dumped = parsed.model_dump(mode="json", by_alias=True, exclude_unset=True)
    assert paths(body) <= paths(dumped), paths(body) - paths(dumped)  # nothing dropped as unknown (Mistral ignores)
    return parsed


def shape_problems(value: Any, shape: Any, where: str = "") -> list[str]:
    """Where a JSON value does not fit a botocore shape: unknown members, wrong types."""
    kind = shape.type_name
    if kind == "structure" and not shape.is_document_type:
        if not isinstance(value, dict):
            return [f"{where}: not an object"]
        unknown = [f"{where}.{k}: not in {shape.name}" for k in value if k not in shape.members]
        known = [
            p
            for k, v in value.items()
            if k in shape.members
            for p in shape_problems(v, shape.members[k], f"{where}.{k}")
        ]
        return unknown + known
    if kind == "list":
        return [p for i, v in enumerate(value) for p in shape_problems(v, shape.member, f"{where}[{i}]")]
    expected = {"string": str, "integer": int, "long": int, "boolean": bool, "double": (int, float)}.get(kind)
    return [f"{where}: not a {kind}"] if expected is not None and not isinstance(value, expected) else []


def reply_of(provider: str, parsed: Any) -> Any:
    if provider == "openai-responses":
        from mcptest.providers.openai_responses import from_response
    elif provider == "gemini":
        from mcptest.providers.gemini import from_response
    elif provider == "mistral":
        from mcptest.providers.mistral import from_completion as from_response
    else:
        from mcptest.providers.bedrock import from_response
    return from_response(parsed)


def fake_body(provider: str, model: str) -> dict[str, Any]:
    from tests.providers.fake_llm import openai_body

    turn = Turn(text="I'll check the weather.", calls=[call("get_weather", city="Paris")])
    build = {"openai-responses": responses_body, "gemini": gemini_body, "bedrock": bedrock_body}.get(provider)
    return build(turn, model) if build else openai_body(turn, model) | {"object": "chat.completion"}


@pytest.mark.parametrize("provider", PROVIDERS)
def test_the_reference_fits_the_sdk_and_the_fake_answers_in_its_shape(provider: str) -> None:
    ref = reference(provider)
    reply = reply_of(provider, sdk_parsed(provider, ref["response"]))
    expected = ref["expected"]
    assert [[c.name, c.arguments] for c in reply.calls] == expected["calls"] and reply.text == expected["text"]
    assert reply.usage is not None
    assert [reply.usage.input, reply.usage.output, reply.usage.cached, reply.usage.reasoning] == expected["usage"]

    fake = fake_body(provider, "a-model")
    from_fake = reply_of(provider, sdk_parsed(provider, fake))
    assert [[c.name, c.arguments] for c in from_fake.calls] == expected["calls"]
    read = {p for p in paths(ref["response"]) if p.split(".")[0].split("[")[0] in READ[provider]} - UNREPRODUCED
    assert read <= paths(fake), f"the fake leaves out {sorted(read - paths(fake))}"
