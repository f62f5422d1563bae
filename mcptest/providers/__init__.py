"""Model providers: which one a model id names, and building one (the SDKs are imported only when a run needs them).

May import: core, expect, records, checks.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from mcptest.providers.base import Provider
from mcptest.providers.errors import MissingKey

PROVIDERS = ("anthropic", "openai", "scripted")
KEY_VARS = {"anthropic": "ANTHROPIC_API_KEY", "openai": "OPENAI_API_KEY"}
BASE_URL_VARS = {"anthropic": "ANTHROPIC_BASE_URL", "openai": "OPENAI_BASE_URL"}
_OPENAI = re.compile(r"^(gpt-|chatgpt-|o\d)")


def provider_of(model: str | None, explicit: str | None = None) -> str | None:
    """`provider:` when given, else by prefix: `claude-` is Anthropic; `gpt-`, `chatgpt-`, `o<digit>` are OpenAI."""
    if explicit:
        return explicit
    if model is None:
        return None
    if model.startswith("claude-"):
        return "anthropic"
    if _OPENAI.match(model):
        return "openai"
    return None


def unknown_model_hint(model: str) -> str:
    """What to write when a model id names no provider."""
    return (
        f"cannot tell which provider serves model '{model}' (claude-* is Anthropic; gpt-*, chatgpt-*, o<digit>* are "
        "OpenAI): add `provider: openai` (with `base_url:` for an OpenAI-compatible server such as Ollama or vLLM) "
        "or `provider: anthropic`"
    )


def build(name: str, environ: Mapping[str, str], base_url: str | None = None) -> Provider:
    """A live provider: the key from the environment only; `base_url` or the provider's *_BASE_URL variable."""
    url = base_url or environ.get(BASE_URL_VARS[name]) or None
    key = environ.get(KEY_VARS[name])
    if not key and name == "openai" and url:
        key = "not-needed"  # local OpenAI-compatible servers ignore the key, but the SDK insists on one
    if not key:
        raise MissingKey(f"{KEY_VARS[name]} is not set: export it to run {name} models live (replay needs no key)")
    if name == "anthropic":
        from mcptest.providers.anthropic import AnthropicProvider

        return AnthropicProvider(key, url)
    from mcptest.providers.openai import OpenAIProvider

    return OpenAIProvider(key, url)


def key_values(environ: Mapping[str, str]) -> set[str]:
    """The API keys present in the environment: values that must never reach a cassette or a report."""
    from mcptest.core.secrets import collect

    return collect(environ.get(var, "") for var in KEY_VARS.values())
