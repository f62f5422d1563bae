"""A catalog snapshot: every primitive a server offers (tools, resources, templates, prompts), its info and
capabilities, in one versioned JSON file (`mcptest catalog --output`), which the mock can serve back."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from mcptest.core.errors import Problem, UserError

SNAPSHOT_FORMAT_VERSION = "1"


class ServerIdentity(BaseModel):
    """Who the server said it is in the handshake."""

    name: str | None = None
    version: str | None = None
    protocolVersion: str = Field(description="The protocol version the session negotiated.")  # noqa: N815


class CatalogSnapshot(BaseModel):
    """What one server offered when it was captured; each list is in wire form, as the server sent it."""

    model_config = ConfigDict(extra="forbid")

    format_version: str = Field(SNAPSHOT_FORMAT_VERSION, description="Bumped on any incompatible change.")
    server: ServerIdentity
    capabilities: dict[str, Any] = Field(description="The server's capabilities from the handshake.")
    instructions: str | None = Field(None, description="The server's instructions, if it gave any.")
    tools: list[Any] = Field(
        description="Every `tools/list` entry, all pages, exactly as listed (one that breaks the schema too)."
    )
    resources: list[dict[str, Any]] = Field(description="Every `resources/list` entry, all pages.")
    resourceTemplates: list[dict[str, Any]] = Field(  # noqa: N815
        description="Every `resources/templates/list` entry, all pages."
    )
    prompts: list[dict[str, Any]] = Field(description="Every `prompts/list` entry, all pages.")


def save_snapshot(snapshot: CatalogSnapshot, path: str | Path) -> None:
    """Write the snapshot atomically (a temp file beside it, then a rename)."""
    from mcptest.core.atomic import atomic_write_text

    text = json.dumps(snapshot.model_dump(mode="json", exclude_none=True), indent=2, ensure_ascii=False) + "\n"
    try:
        atomic_write_text(path, text)
    except OSError as exc:
        raise UserError([Problem(str(path), 0, 0, f"cannot write the snapshot: {exc.strerror or exc}")]) from None


def counts(snapshot: CatalogSnapshot) -> str:
    """`3 tools, 2 resources, 1 resource template, 4 prompts`."""
    parts = [
        (len(snapshot.tools), "tool"),
        (len(snapshot.resources), "resource"),
        (len(snapshot.resourceTemplates), "resource template"),
        (len(snapshot.prompts), "prompt"),
    ]
    return ", ".join(f"{n} {word}{'' if n == 1 else 's'}" for n, word in parts)
