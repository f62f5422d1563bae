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
    }.items()
}
_SNAPSHOT = re.compile(r"-(\d{8}|\d{4}-\d{2}-\d{2}|latest)$")


def price_for(model: str | None, overrides: Mapping[str, Price] = {}) -> Price | None:
    """The suite's price for `model`, else the table's; a dated snapshot (`-20250929`) uses its family's price."""
    if not model:
        return None
    for name in (model, _SNAPSHOT.sub("", model)):
        found = overrides.get(name) or PRICES.get(name)
        if found is not None:
            return found
    return None


def cost(price: Price | None, input_tokens: int, output_tokens: int) -> float | None:
    """Dollars for the tokens at `price`, rounded to a millionth; None when the price is unknown."""
    if price is None:
        return None
    return round((input_tokens * price.input + output_tokens * price.output) / 1_000_000, 6)
