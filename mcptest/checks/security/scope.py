"""What a SEC rule may know beyond the entry itself: the other names in the scanned catalogs and who lists them."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from mcptest.records.entries import Surface


@dataclass(frozen=True)
class Scope:
    """The catalogs scanned together: every tool and prompt name, and the servers that list each."""

    servers_of: dict[str, frozenset[str]] = field(default_factory=dict)

    @property
    def names(self) -> frozenset[str]:
        """Every tool and prompt name in the scanned catalogs."""
        return frozenset(self.servers_of)

    def mentioned(self, text: str, own: str) -> list[str]:
        """The other entries' names that `text` mentions as whole words (names of 4+ characters)."""
        words = set(_WORDS.findall(text))
        return sorted(n for n in words & self.servers_of.keys() if n != own and len(n) >= 4)


EMPTY = Scope()

_WORDS = re.compile(r"[\w][\w.-]*[\w]|\w")


def scope_of(surfaces: Sequence[Surface]) -> Scope:
    """The scope of a scan over these surfaces (one per server)."""
    servers: dict[str, set[str]] = {}
    for surface in surfaces:
        for e in surface.entries:
            if e.kind in ("tool", "prompt"):
                servers.setdefault(e.key, set()).add(e.server or surface.source)
    return Scope({k: frozenset(v) for k, v in servers.items()})
