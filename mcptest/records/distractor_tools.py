"""Distractor tools as full MCP definitions, generated deterministically: bundled look-alikes or near-duplicates."""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Iterable, Iterator, Sequence
from functools import cache
from importlib.resources import files
from typing import Any

from mcptest.records.trace import CatalogTool

_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")


@cache
def bundled_tools() -> tuple[dict[str, Any], ...]:
    """The bundled catalog of plausible-but-irrelevant tools (weather, currency, calendar, ...), in fixed order."""
    text = files("mcptest.records").joinpath("data", "distractor_catalog.json").read_text(encoding="utf-8")
    return tuple(json.loads(text)["tools"])


def bare_name(tool_id: str) -> str:
    """`catalog.search_products` -> `search_products`; a bare name stays as it is."""
    return tool_id.partition(".")[2] if "." in tool_id else tool_id


def from_catalog(count: int, exclude: Iterable[str] = ()) -> list[CatalogTool]:
    """The first `count` bundled tools, in catalog order, skipping any whose name is in `exclude`.

    Taking a prefix keeps the sets nested: the tools injected at count 4 are among those injected at count 8, so a
    sweep over counts traces a clean accuracy-vs-distractor-count curve.
    """
    skip = set(exclude)
    chosen = [t for t in bundled_tools() if t["name"] not in skip][:count]
    return [CatalogTool(server=None, tool=copy.deepcopy(t), distractor=True) for t in chosen]


def near_duplicates(
    of: Sequence[str], count: int, catalog: Sequence[CatalogTool] = (), exclude: Iterable[str] = ()
) -> list[CatalogTool]:
    """`count` name-collision variants of the tools in `of`, round-robin over the tools, one variant kind at a time.

    Kinds, in order: `name_v2`, `name_internal`, a casing variant (snake_case <-> camelCase, else Capitalized),
    the last word's plural or singular, then `name_v3`, `name_v4`, ... without end. A variant whose name is taken
    (by `exclude`, the real catalog, a base tool or an earlier variant) is skipped. Each copies the real tool's
    definition (description, inputSchema, annotations) from `catalog` when it is there, and keeps its server.
    """
    taken = set(exclude) | {t.name for t in catalog} | {bare_name(b) for b in of}
    out: list[CatalogTool] = []
    for base, name in _variants(of):
        if len(out) == count:
            break
        if name not in taken:
            taken.add(name)
            out.append(_copy_as(base, name, catalog))
    return out


def _variants(of: Sequence[str]) -> Iterator[tuple[str, str]]:
    kind = 0
    while of:
        for base in of:
            yield base, _variant(bare_name(base), kind)
        kind += 1


def _variant(name: str, kind: int) -> str:
    if kind == 0:
        return f"{name}_v2"
    if kind == 1:
        return f"{name}_internal"
    if kind == 2:
        return recased(name)
    if kind == 3:
        return pluralized(name)
    return f"{name}_v{kind - 1}"


def recased(name: str) -> str:
    """snake_case -> camelCase, camelCase -> snake_case, else Capitalized (UPPER when that changes nothing)."""
    if "_" in name.strip("_"):
        head, *rest = name.split("_")
        return head + "".join(w[:1].upper() + w[1:] for w in rest)
    if _CAMEL.search(name):
        return _CAMEL.sub("_", name).lower()
    capitalized = name[:1].upper() + name[1:]
    return capitalized if capitalized != name else name.upper()


def pluralized(name: str) -> str:
    """The last word made singular when it looks plural, plural otherwise: `get_product` <-> `get_products`."""
    stem, word = _last_word(name)
    lower = word.lower()
    if lower.endswith("ies") and len(word) > 3:
        return stem + word[:-3] + "y"
    if lower.endswith("s") and not lower.endswith("ss") and len(word) > 1:
        return stem + word[:-1]
    if lower.endswith("y") and len(word) > 1 and lower[-2] not in "aeiou":
        return stem + word[:-1] + "ies"
    if lower.endswith(("s", "x", "z", "ch", "sh")):
        return stem + word + "es"
    return stem + word + "s"


def _last_word(name: str) -> tuple[str, str]:
    cut = max(name.rfind("_") + 1, max((m.start() for m in _CAMEL.finditer(name)), default=0))
    return name[:cut], name[cut:]


def _copy_as(base: str, name: str, catalog: Sequence[CatalogTool]) -> CatalogTool:
    original = next((t for t in catalog if base in (t.id, t.name)), None)
    if original is not None:
        return CatalogTool(server=original.server, tool={**copy.deepcopy(original.tool), "name": name}, distractor=True)
    server = base.partition(".")[0] if "." in base else None
    words = bare_name(base).replace("_", " ")
    tool = {"name": name, "description": f"{words[:1].upper()}{words[1:]}.", "inputSchema": {"type": "object"}}
    return CatalogTool(server=server, tool=tool, distractor=True)
