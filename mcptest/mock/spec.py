"""What a mock server serves, in MCP wire form: the common shape of manifests, snapshots and presets."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class MockTool:
    """One tool: its `tools/list` entry and its canned `tools/call` result (None: echo the call)."""

    listing: dict[str, Any]
    response: dict[str, Any] | None = None
    asks: dict[str, Any] | None = None
    """What the tool asks the client before answering: `sampling` and/or `elicitation` (manifest `asks:`)."""

    @property
    def name(self) -> str:
        """The tool's name."""
        return str(self.listing["name"])

    @property
    def input_schema(self) -> dict[str, Any]:
        """The JSON Schema its arguments must satisfy."""
        schema: dict[str, Any] = self.listing.get("inputSchema") or {}
        return schema

    @property
    def output_schema(self) -> dict[str, Any] | None:
        """The JSON Schema of its structured content, if it declares one."""
        return self.listing.get("outputSchema")


@dataclass(frozen=True)
class MockResource:
    """One resource: its `resources/list` entry and the text `resources/read` returns."""

    listing: dict[str, Any]
    text: str

    @property
    def uri(self) -> str:
        """The resource's URI."""
        return str(self.listing["uri"])


@dataclass(frozen=True)
class MockPrompt:
    """One prompt: its `prompts/list` entry and the text `prompts/get` returns."""

    listing: dict[str, Any]
    text: str


@dataclass(frozen=True)
class MockSpec:
    """Everything a mock server serves; a primitive that is None is not advertised in `initialize`."""

    name: str
    version: str
    instructions: str | None = None
    tools: list[MockTool] | None = None
    resources: list[MockResource] | None = None
    prompts: list[MockPrompt] | None = None
    resource_templates: list[dict[str, Any]] | None = None
    """`resources/templates/list` entries (wire form); a URI one of them matches is read as placeholder text."""
    source: str = field(default="", compare=False)
