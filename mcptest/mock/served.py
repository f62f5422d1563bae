"""A catalog snapshot served back: its resources, templates and prompts beside its tools.

A snapshot holds listings, not contents, so a read or a prompt answers with text that says what was asked.
"""

from __future__ import annotations

from dataclasses import replace

from mcptest.mock.spec import MockPrompt, MockResource, MockSpec
from mcptest.records.catalog import Catalog


def served_snapshot(spec: MockSpec, catalog: Catalog) -> MockSpec:
    """The spec with the snapshot's other primitives (a primitive with no entries is not advertised)."""
    resources = [
        MockResource(dict(r), f"mcptest mock: {r.get('uri')} (contents were not captured)") for r in catalog.resources
    ]
    prompts = [MockPrompt(dict(p), _prompt_text(p)) for p in catalog.prompts]
    return replace(
        spec,
        resources=resources or None,
        resource_templates=[dict(t) for t in catalog.resource_templates] or None,
        prompts=prompts or None,
    )


def _prompt_text(prompt: dict) -> str:
    args = [a.get("name") for a in prompt.get("arguments") or [] if isinstance(a, dict)]
    shown = ", ".join(f"{name}=${{args.{name}}}" for name in args)
    return f"mcptest mock: prompt {prompt.get('name')}" + (f" with {shown}" if shown else "")
