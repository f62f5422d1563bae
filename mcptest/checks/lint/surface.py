"""Tool-surface token cost: what advertising a catalog costs on every model call (cl100k_base, offline)."""

from __future__ import annotations

import json
import weakref

from mcptest.core.tokens import count_tokens
from mcptest.records.catalog import Catalog, Tool

_COUNTED: dict[int, int] = {}
"""Tokens of each live Tool object, by id: doctor's token check and the lint both need them; count once."""


def surface_parts(tool: Tool) -> tuple[str, str, str]:
    """The three texts a model is charged for: the name, the description and the compact inputSchema JSON."""
    schema = json.dumps(tool.input_schema, separators=(",", ":"), ensure_ascii=False)
    return tool.name, tool.description, schema


def tool_tokens(tool: Tool) -> int:
    """cl100k_base tokens of one tool: tokens(name) + tokens(description) + tokens(compact inputSchema JSON).

    Counted once per Tool object (a Tool is immutable); the entry goes when the object does.
    """
    key = id(tool)
    if key not in _COUNTED:
        _COUNTED[key] = sum(count_tokens(part) for part in surface_parts(tool))
        weakref.finalize(tool, _COUNTED.pop, key, None)
    return _COUNTED[key]


def catalog_tokens(catalog: Catalog) -> int:
    """The tool-surface tokens of a whole catalog: the sum of `tool_tokens` over its tools."""
    return sum(tool_tokens(tool) for tool in catalog.tools)


def listing_tokens(items: tuple[dict[str, object], ...] | list[dict[str, object]]) -> int:
    """cl100k_base tokens of resource, template or prompt listings: the sum over entries of their compact JSON."""
    return sum(count_tokens(json.dumps(item, separators=(",", ":"), ensure_ascii=False)) for item in items)
