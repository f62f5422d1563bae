"""Capture a catalog snapshot from a live server: every primitive it offers, its info and capabilities."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from mcptest.records.catalog import Catalog
from mcptest.records.catalog_snapshot import CatalogSnapshot, ServerIdentity

if TYPE_CHECKING:
    from mcptest.core.errors import Problem
    from mcptest.server.session import ServerSession


async def capture(session: ServerSession) -> tuple[CatalogSnapshot, list[Problem]]:
    """List every primitive the server advertises (a primitive it does not advertise is an empty list), its tools
    exactly as listed, with what is wrong with those that break the schema."""
    info = session.info
    assert info is not None
    offers = info.capabilities
    resources = "resources" in offers
    tools = await session.catalog() if "tools" in offers else Catalog(())
    snapshot = CatalogSnapshot(
        server=ServerIdentity(name=info.name, version=info.version, protocolVersion=info.protocol_version),
        capabilities=offers,
        instructions=info.instructions,
        tools=tools.wire()["tools"],
        resources=await session.listing("resources/list", "resources") if resources else [],
        resourceTemplates=(await session.listing("resources/templates/list", "resourceTemplates") if resources else []),
        prompts=await session.listing("prompts/list", "prompts") if "prompts" in offers else [],
    )
    return snapshot, list(tools.problems)


async def snapshot_server(name: str, config: Any, base_dir: Path | str = ".") -> tuple[CatalogSnapshot, list[Problem]]:
    """Start (or reach) one server and capture its snapshot (and its tools' problems); ServerUnavailable when it
    cannot be listed."""
    from mcptest.server.session import ServerUnavailable, SessionPool

    async with SessionPool({name: config}, base_dir) as pool:
        try:
            return await capture(await pool.get(name))
        except ServerUnavailable as exc:  # raised out of the pool's task group it would come wrapped in a group
            failure = exc
    raise failure
