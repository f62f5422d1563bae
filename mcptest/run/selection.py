"""Which tests a run selects: `--filter` (substring or `re:` regex), `--tag`, `--skip-tag`, `--shard K/N`."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

from mcptest.core.errors import usage_error


class Selectable(Protocol):
    name: str
    tags: list[str]


@dataclass(frozen=True)
class Selection:
    """The filters of one run."""

    filter: str | None = None
    tags: Sequence[str] = field(default_factory=tuple)
    skip_tags: Sequence[str] = field(default_factory=tuple)
    shard: tuple[int, int] | None = None
    """(K, N): only the tests of shard K of N (1-based), see `shard_of`."""

    def __post_init__(self) -> None:
        if self.filter and self.filter.startswith("re:"):
            from mcptest.core.regexes import RegexError, compile_regex

            try:
                compile_regex(self.filter[3:])
            except RegexError as exc:
                raise usage_error(f"--filter: {exc}") from None

    def matches(self, test: Selectable) -> bool:
        """Whether the test is selected: name filter, any of `tags`, none of `skip_tags`."""
        if self.filter:
            if self.filter.startswith("re:"):
                from mcptest.core.regexes import search

                if not search(self.filter[3:], test.name):
                    return False
            elif self.filter not in test.name:
                return False
        if self.tags and not set(self.tags) & set(test.tags):
            return False
        if self.shard and shard_of(test.name, self.shard[1]) != self.shard[0]:
            return False
        return not set(self.skip_tags) & set(test.tags)

    def unsharded(self) -> Selection:
        """The same filters over the whole suite."""
        return Selection(self.filter, self.tags, self.skip_tags)


def shard_of(name: str, shards: int) -> int:
    """The 1-based shard of N that runs the test named `name`: sha256(name) mod N, plus one.

    It depends on the name alone, so adding, removing or moving other tests never moves a test to another shard,
    and every CI machine computes the same split. An agent test is one unit: its runs and models stay together,
    so its gates fold over all of them in one shard.
    """
    return int.from_bytes(hashlib.sha256(name.encode("utf-8")).digest()[:8], "big") % shards + 1


def parse_shard(text: str) -> tuple[int, int]:
    """`K/N` with 1 <= K <= N, as a pair; anything else is a usage error."""
    k, _, n = text.partition("/")
    if not (k.isdigit() and n.isdigit()) or not 1 <= int(k) <= int(n):
        raise usage_error(f"--shard: expected K/N with 1 <= K <= N, e.g. 2/4; got {text!r}")
    return int(k), int(n)
