"""Fixtures for the tool-bench tests: the spec's own example, and a spec writer."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import ROOT

EXAMPLE = ROOT / "examples" / "tool-bench"

SPEC_EXAMPLE = """\
catalog: # inline tools/list, or use catalog_path:
  tools:
    - name: lookup_a
      description: Return the current weather forecast for a city, as JSON.
intents:
  - query: what is the weather forecast in Paris
    gold: [lookup_a]
mutations:
  - tool: lookup_a
    kind: blank # blank | genericize | truncate | drop_keyword
"""
"""The example spec of the tool-bench section, verbatim."""


def tool(name: str, description: str | None = None, **extra: Any) -> dict[str, Any]:
    """A tool as a tools/list entry."""
    raw: dict[str, Any] = {"name": name, "inputSchema": {"type": "object"}, **extra}
    if description is not None:
        raw["description"] = description
    return raw


@pytest.fixture
def spec_file(tmp_path: Path) -> Callable[..., Path]:
    """Write a spec (tools, intents as (query, gold) pairs, mutations) as JSON-in-YAML and return its path."""

    def _write(tools: list[dict[str, Any]], intents: list[tuple[str, list[str]]], mutations: list[Any]) -> Path:
        spec = {
            "catalog": {"tools": tools},
            "intents": [{"query": q, "gold": g} for q, g in intents],
            "mutations": mutations,
        }
        path = tmp_path / "spec.yml"
        path.write_text(json.dumps(spec, indent=2), encoding="utf-8")
        return path

    return _write
