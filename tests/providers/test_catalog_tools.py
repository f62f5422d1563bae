"""Every tool of the real catalogs (../shared/catalogs, the repo's released and linted real catalogs) offered to each
new provider through its real SDK against the fake of its API: the request carries every tool, in a form the
provider's own published schema accepts, and what Gemini's subset cannot express is named by
`doctor --model-view --provider gemini`, one warning per tool and field."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import anyio
import pytest

from mcptest.providers import build, schema_losses
from mcptest.providers.gemini_schema import _KEPT
from mcptest.records.messages import ModelRequest
from tests.conftest import ROOT
from tests.providers.fake_llm import FakeLLM, Turn, serve
from tests.providers.test_more_providers import env

SHARED = ROOT.parent / "shared" / "catalogs"
CATALOGS = sorted(
    p
    for p in [
        *SHARED.glob("*.json"),
        *(ROOT / "tests" / "catalog_diff" / "releases").glob("*.json"),
        *(ROOT / "tests" / "lint" / "real").glob("*.json"),
        ROOT / "examples" / "tool-bench" / "catalog.json",
    ]
    if "tools" in json.loads(p.read_text(encoding="utf-8"))
)
MODELS = {
    "gemini": "gemini-2.5-flash",
    "mistral": "mistral-small-latest",
    "bedrock": "amazon.nova-lite-v1:0",
    "openai-responses": "gpt-5-mini",
}


def tools_of(path: Path) -> list[dict[str, Any]]:
    return [t for t in json.loads(path.read_text(encoding="utf-8"))["tools"]]


@pytest.fixture(scope="module")
def sent() -> dict[str, list[dict[str, Any]]]:
    """Per provider, what the fake received for each catalog's tools. One request per provider offers every tool of
    every catalog (the fake does not mind names repeated across catalogs), split back per catalog here."""
    fake = FakeLLM([Turn(text="ok")])
    every = [t for p in CATALOGS for t in tools_of(p)]
    out: dict[str, list[dict[str, Any]]] = {}
    with serve(fake) as url:
        for name, model in MODELS.items():

            async def offer(name: str = name, model: str = model) -> None:
                provider = build(name, env(url), url)
                try:
                    await provider.reply(ModelRequest(model=model, prompt="hi", tools=every, max_tokens=64))
                finally:
                    await provider.aclose()

            anyio.run(offer)
            out[name] = _per_catalog(name, fake.requests[-1]["body"])
    return out


def _per_catalog(name: str, body: dict[str, Any]) -> list[dict[str, Any]]:
    """The one request's tools cut into one body per catalog, in CATALOGS order."""
    path = {"gemini": ("tools", 0, "functionDeclarations"), "bedrock": ("toolConfig", "tools")}.get(name, ("tools",))
    sent: Any = body
    for step in path:
        sent = sent[step]
    bodies, start = [], 0
    for catalog in CATALOGS:
        n = len(tools_of(catalog))
        part = sent[start : start + n]
        start += n
        bodies.append(
            {"gemini": {"tools": [{"functionDeclarations": part}]}, "bedrock": {"toolConfig": {"tools": part}}}.get(
                name, {"tools": part}
            )
        )
    assert start == len(sent), f"{name}: {len(sent)} tools sent, {start} offered"
    return bodies


def test_the_catalogs_are_the_real_ones() -> None:
    assert len(CATALOGS) >= 40 and {p.name for p in SHARED.glob("*.json")} <= {p.name for p in CATALOGS}
    assert sum(len(tools_of(p)) for p in CATALOGS) >= 600


def _keys(schema: Any) -> set[str]:
    """Every key of a schema and of the schemas nested in it (properties' names are not keys)."""
    if not isinstance(schema, dict):
        return set()
    found = set(schema)
    for key, value in schema.items():
        if key == "properties" and isinstance(value, dict):
            found |= {k for v in value.values() for k in _keys(v)}
        elif key == "items":
            found |= _keys(value)
        elif key == "anyOf" and isinstance(value, list):
            found |= {k for v in value for k in _keys(v)}
    return found


def test_gemini_gets_every_tool_in_its_subset_and_each_loss_is_named(sent: dict[str, list[dict[str, Any]]]) -> None:
    from google.genai import types

    for path, body in zip(CATALOGS, sent["gemini"], strict=True):
        declarations = body["tools"][0]["functionDeclarations"]
        tools = tools_of(path)
        assert [d["name"] for d in declarations] == [t["name"] for t in tools], path
        for tool, declaration in zip(tools, declarations, strict=True):
            types.FunctionDeclaration.model_validate(declaration)  # the SDK's own model of a declaration
            params = declaration.get("parameters", {})
            # the SDK writes some keys in the proto's own spelling (`min_items`), which the API's JSON parser takes
            keys = {re.sub(r"_(\w)", lambda m: m[1].upper(), k) for k in _keys(params)}
            assert keys <= _KEPT, (path.name, tool["name"], keys - _KEPT)
            if not params:  # only a tool with no properties is declared without parameters
                assert not (tool.get("inputSchema") or {}).get("properties"), (path.name, tool["name"])
    losses = {p.name: schema_losses("gemini", tools_of(p)) for p in CATALOGS}
    assert losses["server-everything.json"] == [
        ("gzip-file-as-resource", "properties.data.format", "format 'uri' is not one Gemini knows for string")
    ]
    assert all(tool and at and why for found in losses.values() for tool, at, why in found)


def test_bedrock_gets_every_tool_as_its_service_model_requires(sent: dict[str, list[dict[str, Any]]]) -> None:
    import botocore.session

    spec = (
        botocore.session.get_session()
        .get_service_model("bedrock-runtime")
        .operation_model("Converse")
        .input_shape.members["toolConfig"]
        .members["tools"]
        .member.members["toolSpec"]
    )
    name_rule = spec.members["name"].metadata  # {'min': 1, 'max': 64, 'pattern': '[a-zA-Z0-9_-]+'}
    for path, body in zip(CATALOGS, sent["bedrock"], strict=True):
        specs = [t["toolSpec"] for t in body["toolConfig"]["tools"]]
        tools = tools_of(path)
        assert [s["name"] for s in specs] == [t["name"] for t in tools], path
        for tool, s in zip(tools, specs, strict=True):
            assert name_rule["min"] <= len(s["name"]) <= name_rule["max"], s["name"]
            assert re.fullmatch(name_rule["pattern"], s["name"]), s["name"]
            assert s.get("description", "x"), s["name"]  # min length 1: an empty one is left out, never sent
            assert s["inputSchema"]["json"] == (tool.get("inputSchema") or {"type": "object"})


def test_mistral_and_responses_get_every_schema_as_written(sent: dict[str, list[dict[str, Any]]]) -> None:
    from mistralai.client import models

    for path, body in zip(CATALOGS, sent["mistral"], strict=True):
        tools = tools_of(path)
        assert [t["function"]["name"] for t in body["tools"]] == [t["name"] for t in tools], path
        for tool, sent_tool in zip(tools, body["tools"], strict=True):
            models.Tool.model_validate(sent_tool)
            assert sent_tool["function"]["parameters"] == (tool.get("inputSchema") or {"type": "object"})
    for path, body in zip(CATALOGS, sent["openai-responses"], strict=True):
        tools = tools_of(path)
        assert [(t["type"], t["name"], t["strict"]) for t in body["tools"]] == [
            ("function", t["name"], False) for t in tools
        ], path
        assert [t["parameters"] for t in body["tools"]] == [t.get("inputSchema") or {"type": "object"} for t in tools]


def test_the_other_providers_lose_nothing() -> None:
    tools = [t for p in CATALOGS for t in tools_of(p)]
    assert all(schema_losses(name, tools) == [] for name in ("anthropic", "openai", "mistral", "bedrock"))


def test_doctor_warns_one_line_per_tool_and_field(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    from tests.doctor.helpers import cli

    catalog = tmp_path / "catalog.json"
    schema = {
        "type": "object",
        "properties": {
            "when": {"type": "string", "format": "uri"},
            "tags": {"type": "object", "additionalProperties": {"type": "string"}},
            "mode": {"const": "fast"},
        },
        "not": {"required": ["when"]},
    }
    tools = [{"name": "plan", "inputSchema": schema}, {"name": "noop", "inputSchema": {"type": "object"}}]
    catalog.write_text(json.dumps({"tools": tools}), encoding="utf-8")
    out = cli(capsys, "doctor", "--catalog", catalog, "--model-view", "--provider", "gemini", "--no-color")
    assert out.code == 0, out.stderr
    tail = out.stdout.split("gemini cannot take 3 schema field(s) ")[1].splitlines()[1:]
    assert tail == [
        "! plan: inputSchema.properties.when.format: format 'uri' is not one Gemini knows for string",
        "! plan: inputSchema.properties.tags.additionalProperties: a map of free keys (additionalProperties) "
        "cannot be declared",
        "! plan: inputSchema.not: `not` has no Gemini equivalent: left out",
    ]  # `const` has an equivalent (a one-value enum): rewritten, not reported
    data = cli(capsys, "doctor", "--catalog", catalog, "--model-view", "--provider", "mistral", "--json").json()
    assert data["schema_losses"] == [{"source": str(catalog), "provider": "mistral", "losses": []}]
    refused = cli(capsys, "doctor", "--catalog", catalog, "--provider", "gemini")
    assert refused.code == 2 and "--provider goes with --model-view" in refused.stderr
