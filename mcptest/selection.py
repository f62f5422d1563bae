"""Which tests a run selects: `--filter` (substring or `re:` regex), `--tag`, `--skip-tag`."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

from mcptest.errors import usage_error


class Selectable(Protocol):
    name: str
    tags: list[str]


@dataclass(frozen=True)
class Selection:
    """The filters of one run."""

    filter: str | None = None
    tags: Sequence[str] = field(default_factory=tuple)
    skip_tags: Sequence[str] = field(default_factory=tuple)

    def __post_init__(self) -> None:
        if self.filter and self.filter.startswith("re:"):
            from mcptest.regexes import RegexError, compile_regex

            try:
                compile_regex(self.filter[3:])
            except RegexError as exc:
                raise usage_error(f"--filter: {exc}") from None

    def matches(self, test: Selectable) -> bool:
        """Whether the test is selected: name filter, any of `tags`, none of `skip_tags`."""
        if self.filter:
            if self.filter.startswith("re:"):
                from mcptest.regexes import search

                if not search(self.filter[3:], test.name):
                    return False
            elif self.filter not in test.name:
                return False
        if self.tags and not set(self.tags) & set(test.tags):
            return False
        return not set(self.skip_tags) & set(test.tags)
