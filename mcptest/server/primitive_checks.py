"""Doctor's count and token cost of the primitives beside tools: resources, resource templates, prompts."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mcptest.checks.lint.surface import listing_tokens

if TYPE_CHECKING:
    from mcptest.server.doctor import Probe
    from mcptest.server.session import ServerSession

PRIMITIVES = (
    ("resources", "resources/list", "resources", "resources"),
    ("resource templates", "resources/templates/list", "resourceTemplates", "resources"),
    ("prompts", "prompts/list", "prompts", "prompts"),
)
"""(label, method, wire key, the capability that advertises it)."""


def add_primitive_checks(probe: Probe, lists: dict[str, list[dict[str, Any]]]) -> None:
    """One check per primitive the server lists entries of: how many, and their listing's token cost."""
    from mcptest.server.doctor import Status

    for label, _method, key, _capability in PRIMITIVES:
        if lists.get(key):
            items = lists[key]
            tokens = listing_tokens(items)
            probe.add(
                label,
                Status.PASS,
                f"{len(items)} {label}, {tokens} tokens (cl100k_base)",
                count=len(items),
                tokens=tokens,
            )


async def list_primitives(session: ServerSession) -> dict[str, list[dict[str, Any]]]:
    """Every page of each primitive list the server's capabilities advertise, by wire key."""
    offers = session.info.capabilities if session.info else {}
    return {key: await session.listing(method, key) for _l, method, key, cap in PRIMITIVES if cap in offers}
