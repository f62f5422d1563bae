"""The tool-bench spec: a catalog, intents with their gold tools, and the mutations to try one at a time."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from mcptest.bench import mutations as m
from mcptest.records.catalog import Catalog, Tool


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Intent(_Model):
    """A request and the tools that count as a correct pick for it."""

    query: str = Field(min_length=1, description="What the user asks for, in their words.")
    gold: list[str] = Field(min_length=1, description="The tool names that count as a correct pick.")


class SpecFile(_Model):
    """The spec file as written; `mutations` items are checked one by one, per kind (see `MUTATIONS`)."""

    catalog: dict[str, Any] | list[Any] | None = Field(None, description="An inline tools/list result or array.")
    catalog_path: str | None = Field(None, description="A saved tools/list JSON, relative to the spec file.")
    intents: list[Intent] = Field(min_length=1)
    mutations: list[Any] | None = None


class _Mutation(_Model):
    tool: str = Field(description="The tool whose description is edited.")

    def apply(self, tool: Tool) -> Tool:
        """The tool with this mutation applied."""
        raise NotImplementedError


class Blank(_Mutation):
    kind: Literal["blank"]

    def apply(self, tool: Tool) -> Tool:
        return m.blank(tool)


class Genericize(_Mutation):
    kind: Literal["genericize"]

    def apply(self, tool: Tool) -> Tool:
        return m.genericize(tool)


class Truncate(_Mutation):
    kind: Literal["truncate"]
    chars: int = Field(ge=0, description="How many characters of the description to keep.")

    def apply(self, tool: Tool) -> Tool:
        return m.truncate(tool, self.chars)


class DropKeyword(_Mutation):
    kind: Literal["drop_keyword"]
    word: str = Field(min_length=1, description="The content word to remove, with its inflections.")

    def apply(self, tool: Tool) -> Tool:
        return m.drop_keyword(tool, self.word)


Mutation = Blank | Genericize | Truncate | DropKeyword

MUTATIONS: dict[str, type[Blank | Genericize | Truncate | DropKeyword]] = {
    m.MutationKind.BLANK: Blank,
    m.MutationKind.GENERICIZE: Genericize,
    m.MutationKind.TRUNCATE: Truncate,
    m.MutationKind.DROP_KEYWORD: DropKeyword,
}
"""Each kind and the model that validates its parameters: the registry, one plain dict."""


@dataclass(frozen=True)
class Bench:
    """A loaded, checked spec: every gold and mutated tool exists in the catalog."""

    path: str
    catalog: Catalog
    intents: tuple[Intent, ...]
    mutations: tuple[Mutation, ...]
