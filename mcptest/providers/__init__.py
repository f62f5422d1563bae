"""Model providers: which one a model id names, and building one (the SDKs are imported only when a run needs them).

May import: core, expect, records, checks.
"""

from __future__ import annotations

import importlib.util
import re
from collections.abc import Mapping
from typing import Any

from mcptest.providers.base import Provider
from mcptest.providers.errors import MissingExtra, MissingKey

LIVE = ("anthropic", "openai", "openai-responses", "gemini", "mistral", "bedrock")
PROVIDERS = (*LIVE, "scripted")
KEY_VARS: dict[str, tuple[str, ...]] = {
    "anthropic": ("ANTHROPIC_API_KEY",),
    "openai": ("OPENAI_API_KEY",),
    "openai-responses": ("OPENAI_API_KEY",),
    "gemini": ("GEMINI_API_KEY", "GOOGLE_API_KEY"),
    "mistral": ("MISTRAL_API_KEY",),
}
"""The variables holding each provider's key, first found wins; Bedrock uses the AWS credential chain instead."""
BASE_URL_VARS = {
    "anthropic": "ANTHROPIC_BASE_URL",
    "openai": "OPENAI_BASE_URL",
    "openai-responses": "OPENAI_BASE_URL",
    "gemini": "GEMINI_BASE_URL",
    "mistral": "MISTRAL_BASE_URL",
    "bedrock": "AWS_ENDPOINT_URL_BEDROCK_RUNTIME",
}
AWS_SECRET_VARS = ("AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_BEARER_TOKEN_BEDROCK")
# (module the provider needs, the extra that installs it)
_SDKS = {
    "anthropic": ("anthropic", None),
    "openai": ("openai", None),
    "openai-responses": ("openai", None),
    "gemini": ("google.genai", "gemini"),
    "mistral": ("mistralai", "mistral"),
    "bedrock": ("boto3", "bedrock"),
}
_OPENAI = re.compile(r"^(gpt-|chatgpt-|o\d)")
_MISTRAL = re.compile(r"^(mistral|magistral|codestral|ministral|devstral)-")


def split_model(model: str) -> tuple[str | None, str]:
    """`gemini:gemini-2.5-flash` is (gemini, gemini-2.5-flash); a model without a provider prefix is (None, model)
    (a Bedrock id's own colon, as in `anthropic.claude-…-v1:0`, is not a prefix)."""
    head, sep, rest = model.partition(":")
    return (head, rest) if sep and head in LIVE else (None, model)


def bare_model(model: str | None) -> str | None:
    """The model id the provider's API is sent: without its `provider:` prefix."""
    return None if model is None else split_model(model)[1]


def provider_of(model: str | None, explicit: str | None = None, api: str | None = None) -> str | None:
    """A `provider:` prefix of the model id, else `provider:` (with `api: responses` for OpenAI's Responses API),
    else by the id's prefix: `claude-` Anthropic; `gpt-`, `chatgpt-`, `o<digit>` OpenAI; `gemini-` Gemini;
    `mistral-`, `magistral-`, `codestral-`, `ministral-`, `devstral-` Mistral."""
    if model is not None:
        prefixed, model = split_model(model)
        if prefixed:
            return prefixed
    found = explicit
    if found is None and model is not None:
        if model.startswith("claude-"):
            found = "anthropic"
        elif _OPENAI.match(model):
            found = "openai"
        elif model.startswith("gemini-"):
            found = "gemini"
        elif _MISTRAL.match(model):
            found = "mistral"
    if found == "openai" and api == "responses":
        return "openai-responses"
    return found


def unknown_model_hint(model: str) -> str:
    """What to write when a model id names no provider."""
    return (
        f"cannot tell which provider serves model '{model}' (claude-* is Anthropic; gpt-*, chatgpt-*, o<digit>* are "
        "OpenAI; gemini-* is Gemini; mistral-*, magistral-*, codestral-*, ministral-*, devstral-* are Mistral): add "
        "`provider:` (anthropic, openai, gemini, mistral or bedrock; openai with `base_url:` for an "
        "OpenAI-compatible server such as Ollama or vLLM), or prefix the id with its provider (`bedrock:<model id>`)"
    )


def missing(name: str, environ: Mapping[str, str], base_url: str | None = None) -> str | None:
    """Why provider `name` cannot run live here (its SDK not installed, its key not set), or None when it can."""
    module, extra = _SDKS[name]
    if importlib.util.find_spec(module.split(".")[0]) is None or (
        "." in module and importlib.util.find_spec(module) is None
    ):
        return f"{name} models need the {module} package: pip install 'mcptest[{extra}]'"
    if name == "bedrock":  # the AWS credential chain, as far as it can be followed without a network call
        from mcptest.providers.bedrock import credentials_missing

        return credentials_missing(environ)
    if _key(name, environ) or (name in ("openai", "openai-responses") and _url(name, environ, base_url)):
        return None
    variables = " or ".join(KEY_VARS[name])
    return f"{variables} is not set: export it to run {name} models live (replay needs no key)"


def _key(name: str, environ: Mapping[str, str]) -> str | None:
    return next((environ[v] for v in KEY_VARS.get(name, ()) if environ.get(v)), None)


def _url(name: str, environ: Mapping[str, str], base_url: str | None) -> str | None:
    if base_url:
        return base_url
    if name == "bedrock":
        return environ.get("AWS_ENDPOINT_URL_BEDROCK_RUNTIME") or environ.get("AWS_ENDPOINT_URL") or None
    return environ.get(BASE_URL_VARS[name]) or None


def build(name: str, environ: Mapping[str, str], base_url: str | None = None) -> Provider:
    """A live provider: the key from the environment only; `base_url`, else the provider's endpoint variable."""
    why = missing(name, environ, base_url)
    if why is not None:
        raise MissingExtra(why) if "pip install" in why else MissingKey(why)
    url = _url(name, environ, base_url)
    key = _key(name, environ) or "not-needed"  # local OpenAI-compatible servers ignore the key; the SDK wants one
    if name == "anthropic":
        from mcptest.providers.anthropic import AnthropicProvider

        return AnthropicProvider(key, url)
    if name == "openai":
        from mcptest.providers.openai import OpenAIProvider

        return OpenAIProvider(key, url)
    if name == "openai-responses":
        from mcptest.providers.openai_responses import ResponsesProvider

        return ResponsesProvider(key, url)
    if name == "gemini":
        from mcptest.providers.gemini import GeminiProvider

        return GeminiProvider(key, url)
    if name == "mistral":
        from mcptest.providers.mistral import MistralProvider

        return MistralProvider(key, url)
    from mcptest.providers.bedrock import BedrockProvider

    return BedrockProvider(environ, url)


def key_values(environ: Mapping[str, str]) -> set[str]:
    """The API keys and AWS secrets present in the environment: values that must never reach a cassette or a report."""
    from mcptest.core.secrets import collect

    names = {v for vs in KEY_VARS.values() for v in vs} | set(AWS_SECRET_VARS) | {"AWS_ACCESS_KEY_ID"}
    return collect(environ.get(var, "") for var in sorted(names))


def schema_losses(name: str, tools: list[dict[str, Any]]) -> list[tuple[str, str, str]]:
    """What provider `name`'s function-declaration format cannot carry of each tool's inputSchema: (tool, field path,
    what was lost), in catalog order. Gemini's subset loses what `gemini_schema` cannot rewrite; the other providers
    are sent the schema as the server wrote it, so nothing is lost on the way."""
    if name != "gemini":
        return []
    from mcptest.providers.gemini_schema import translate

    return [
        (str(tool.get("name", "")), path, why)
        for tool in tools
        for path, why in translate(tool.get("inputSchema")).problems
    ]
