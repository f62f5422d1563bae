"""The one normalisation pass shared by recorder and replayer: stable call ids, canonical JSON, stable hashes."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from typing import Any

from mcptest.cassette.format import Cassette, CassetteRun
from mcptest.core.redact import redact_data
from mcptest.records.messages import ModelReply
from mcptest.records.trace import CatalogTool


def normalise(cassette: Cassette) -> Cassette:
    """The cassette with provider call ids renumbered `call_1, call_2, ...` per run (they differ on every recording)."""
    return cassette.model_copy(update={"runs": [_renumber(run) for run in cassette.runs]})


def _renumber(run: CassetteRun) -> CassetteRun:
    return run.model_copy(update={"replies": renumber(run.replies)})


def renumber(replies: Sequence[ModelReply]) -> list[ModelReply]:
    """The replies with their call ids renumbered `call_1, call_2, ...` (the same id keeps the same number)."""
    ids: dict[str, str] = {}
    out = []
    for reply in replies:
        calls = [c.model_copy(update={"id": ids.setdefault(c.id, f"call_{len(ids) + 1}")}) for c in reply.calls]
        out.append(reply.model_copy(update={"calls": calls}))
    return out


def canonical(value: Any) -> str:
    """Sorted keys, two-space indent, UTF-8 kept, a final newline: the same data always gives the same text.

    A catalog tool's definition keeps the key order the server sent: it is what the model saw, and its tokens are
    counted on that text, so a replay must give the `token_efficiency.tool_surface_tokens` the live run gave.
    """
    return json.dumps(_ordered(value), indent=2, ensure_ascii=False) + "\n"


def _ordered(value: Any) -> Any:
    if isinstance(value, list):
        return [_ordered(v) for v in value]
    if not isinstance(value, dict):
        return value
    as_sent = _CATALOG_ENTRY.issuperset(value) and isinstance(value.get("tool"), dict)
    return {k: value[k] if as_sent and k == "tool" else _ordered(value[k]) for k in sorted(value)}


_CATALOG_ENTRY = frozenset(CatalogTool.model_fields)


def dumps(cassette: Cassette) -> str:
    """The cassette's file text (normalised)."""
    return canonical(normalise(cassette).model_dump(mode="json"))


def catalog_hash(catalog: Sequence[CatalogTool], secrets: set[str] = set()) -> str:  # noqa: B006 - never mutated
    """`sha256:` of the catalog's canonical JSON with secrets masked, as the cassette stores it."""
    data = redact_data([t.model_dump(mode="json") for t in catalog], secrets)
    text = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return "sha256:" + hashlib.sha256(text.encode()).hexdigest()
