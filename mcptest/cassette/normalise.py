"""The one normalisation pass shared by recorder and replayer: stable call ids, canonical JSON, stable hashes."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from typing import Any

from mcptest.cassette.format import Cassette, CassetteRun
from mcptest.providers.messages import ModelReply
from mcptest.report.redact import redact_data
from mcptest.trace import CatalogTool


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
    """Sorted keys, two-space indent, UTF-8 kept, a final newline: the same data always gives the same text."""
    return json.dumps(value, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def dumps(cassette: Cassette) -> str:
    """The cassette's file text (normalised)."""
    return canonical(normalise(cassette).model_dump(mode="json"))


def catalog_hash(catalog: Sequence[CatalogTool], secrets: set[str] = set()) -> str:  # noqa: B006 - never mutated
    """`sha256:` of the catalog's canonical JSON with secrets masked, as the cassette stores it."""
    data = redact_data([t.model_dump(mode="json") for t in catalog], secrets)
    text = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return "sha256:" + hashlib.sha256(text.encode()).hexdigest()
