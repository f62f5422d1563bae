"""List prices per model (dollars per million tokens) and the cost of a run; an unknown price gives no figure."""

from __future__ import annotations

import re
from collections.abc import Mapping

from pydantic import BaseModel, ConfigDict, Field


class Price(BaseModel):
    """Dollars per million tokens, as the provider lists them."""

    model_config = ConfigDict(extra="forbid")

    input: float = Field(ge=0, description="Dollars per million input tokens.")
    output: float = Field(ge=0, description="Dollars per million output tokens.")


# Public list prices (USD per million tokens, standard tier, no caching). Override or extend them in a suite's
# `prices:` when they change or when a local model should count as free.
PRICES: dict[str, Price] = {
    name: Price(input=i, output=o)
    for name, (i, o) in {
        "claude-opus-4-5": (5.0, 25.0),
        "claude-opus-4-1": (15.0, 75.0),
        "claude-opus-4-0": (15.0, 75.0),
        "claude-sonnet-4-5": (3.0, 15.0),
        "claude-sonnet-4-0": (3.0, 15.0),
        "claude-3-7-sonnet": (3.0, 15.0),
        "claude-haiku-4-5": (1.0, 5.0),
        "claude-3-5-haiku": (0.8, 4.0),
        "gpt-5": (1.25, 10.0),
        "gpt-5-mini": (0.25, 2.0),
        "gpt-5-nano": (0.05, 0.4),
        "gpt-4.1": (2.0, 8.0),
        "gpt-4.1-mini": (0.4, 1.6),
        "gpt-4.1-nano": (0.1, 0.4),
        "gpt-4o": (2.5, 10.0),
        "gpt-4o-mini": (0.15, 0.6),
        "o3": (2.0, 8.0),
        "o4-mini": (1.1, 4.4),
        # Gemini API, paid tier, prompts up to 200k tokens (as listed in November 2025). Checked 2026-11-26 against
        # public price summaries quoting ai.google.dev (dated 2026): all agree but 2.0-flash-lite, not found
        # (not checked against Google's own page: no network here).
        "gemini-2.5-pro": (1.25, 10.0),
        "gemini-2.5-flash": (0.3, 2.5),
        "gemini-2.5-flash-lite": (0.1, 0.4),
        "gemini-2.0-flash": (0.1, 0.4),
        "gemini-2.0-flash-lite": (0.075, 0.3),
        # Mistral La Plateforme (as listed in November 2025); `-latest` and dated `-2507` ids use these. Checked
        # 2026-11-26 against public summaries of mistral.ai/pricing (2026): large (Large 2), medium 3/3.1, small 3.2,
        # magistral, codestral, devstral agree; the ministral rows are the 2024 models (Ministral 3 is priced
        # apart); mistral-large-2512 (Large 3) added from the same summaries.
        "mistral-large": (2.0, 6.0),
        "mistral-large-2512": (0.5, 1.5),
        "mistral-medium": (0.4, 2.0),
        "mistral-small": (0.1, 0.3),
        "magistral-medium": (2.0, 5.0),
        "magistral-small": (0.5, 1.5),
        "codestral": (0.3, 0.9),
        "devstral-medium": (0.4, 2.0),
        "devstral-small": (0.1, 0.3),
        "ministral-8b": (0.1, 0.1),
        "ministral-3b": (0.04, 0.04),
        # AWS Bedrock on-demand, us-east-1 (as listed in November 2025); `us.`/`eu.`/`global.` profiles use these.
        # Checked 2026-11-26 against public summaries of the Bedrock pricing page (2026): Nova Pro, Nova Micro and
        # Nova Lite's input agree, and Claude on Bedrock is priced as Anthropic's API; Nova Lite's output and the
        # Llama 3.3 70B row could not be confirmed (the summaries found disagree on Llama).
        "anthropic.claude-sonnet-4-5-20250929-v1:0": (3.0, 15.0),
        "anthropic.claude-haiku-4-5-20251001-v1:0": (1.0, 5.0),
        "anthropic.claude-3-5-haiku-20241022-v1:0": (0.8, 4.0),
        "amazon.nova-pro-v1:0": (0.8, 3.2),
        "amazon.nova-lite-v1:0": (0.06, 0.24),
        "amazon.nova-micro-v1:0": (0.035, 0.14),
        "meta.llama3-3-70b-instruct-v1:0": (0.72, 0.72),
    }.items()
}
PRICES_AS_OF = "2025-11"
"""When the table's prices were taken from the providers' price lists (the Gemini, Mistral and Bedrock rows were
checked again on 2026-11-26 against public summaries of those lists: see the comments above and docs/providers.md)."""
_SNAPSHOT = re.compile(r"-(\d{8}|\d{4}-\d{2}-\d{2}|\d{4}|latest)$")
_PREFIXED = re.compile(r"^[a-z-]+:(?!\d)")
_PROFILE = re.compile(r"^(us|eu|apac|jp|au|us-gov|global)\.")


def price_for(model: str | None, overrides: Mapping[str, Price] = {}) -> Price | None:
    """The suite's price for `model`, else the table's; a dated snapshot (`-20250929`, `-2507`) uses its family's
    price, a `provider:` prefix and a Bedrock inference profile (`us.`) are looked through."""
    if not model:
        return None
    bare = _PROFILE.sub("", _PREFIXED.sub("", model))  # `bedrock:us.amazon.nova-pro-v1:0` is amazon.nova-pro-v1:0
    for name in dict.fromkeys((model, bare, _SNAPSHOT.sub("", bare))):
        found = overrides.get(name) or PRICES.get(name)
        if found is not None:
            return found
    return None


def cost(price: Price | None, input_tokens: int, output_tokens: int) -> float | None:
    """Dollars for the tokens at `price`, rounded to a millionth; None when the price is unknown."""
    if price is None:
        return None
    return round((input_tokens * price.input + output_tokens * price.output) / 1_000_000, 6)
