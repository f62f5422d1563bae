"""Asking a model which tool: the instruction, the questions a bench needs, and reading the pick from a reply."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from mcptest.agent.loop import offer
from mcptest.bench.spec import Bench
from mcptest.providers.base import Provider
from mcptest.providers.retry import RetryPolicy, Sleep, with_retries
from mcptest.records.catalog import Tool
from mcptest.records.messages import ModelReply, ModelRequest
from mcptest.records.trace import CatalogTool

SYSTEM = (
    "You choose tools. The user's request comes next; pick the one tool that best serves it and call it, once. "
    "Do not answer in text."
)
"""The instruction sent with every request. Changing it changes every pick's fingerprint (all are asked again)."""

MAX_TOKENS = 4096
"""The output-token limit of a pick: room for a reasoning model's thinking before its one tool call."""


@dataclass(frozen=True)
class Presented:
    """A catalog as the model sees it: presented name -> tool name, and the definitions sent."""

    names: dict[str, str]
    offered: list[dict[str, Any]]

    @classmethod
    def of(cls, tools: Sequence[Tool]) -> Presented:
        """The catalog through the agent loop's own presentation (names cleaned to what the APIs accept)."""
        names, offered = offer([CatalogTool(tool=t.raw) for t in tools])
        return cls({n: t.tool["name"] for n, t in names.items()}, offered)


@dataclass(frozen=True)
class Question:
    """One pick a bench needs: a request on one catalog; `where` says which catalog for messages."""

    intent: int
    query: str
    tools: tuple[Tool, ...]
    where: str


def questions(bench: Bench) -> list[Question]:
    """Every pick `run_bench` will ask for: each intent on the baseline catalog, then on each mutated catalog."""
    tools = bench.catalog.tools
    catalogs = [(tools, "the baseline catalog")]
    for i, mut in enumerate(bench.mutations):
        index = next(j for j, t in enumerate(tools) if t.name == mut.tool)
        edited = (*tools[:index], mut.apply(tools[index]), *tools[index + 1 :])
        catalogs.append((edited, f"mutations[{i}] ({mut.kind} {mut.tool})"))
    return [Question(i, intent.query, c, where) for c, where in catalogs for i, intent in enumerate(bench.intents)]


def request(model: str, query: str, presented: Presented) -> ModelRequest:
    """The single turn: the instruction, the request verbatim, the catalog as real tool definitions."""
    return ModelRequest(model=model, system=SYSTEM, prompt=query, tools=presented.offered, max_tokens=MAX_TOKENS)


async def ask(
    provider: Provider, model: str, query: str, presented: Presented, retry: RetryPolicy, sleep: Sleep
) -> ModelReply:
    """One model call (retried on 429, 5xx and dropped connections, honouring Retry-After)."""
    message = request(model, query, presented)
    return await with_retries(lambda: provider.reply(message), retry, sleep)


def pick_from(reply: ModelReply, presented: Presented) -> str | None:
    """The tool the reply picked: its first tool call, else the one tool its text names; otherwise none (a miss).

    A call to a tool that was not offered picks nothing. Text counts only when it names exactly one offered tool
    as a whole word: a reply that weighs two tools has not picked one.
    """
    if reply.calls:
        return presented.names.get(reply.calls[0].name)
    named = {n for n in presented.names if re.search(rf"(?<![\w-]){re.escape(n)}(?![\w-])", reply.text or "")}
    return presented.names[named.pop()] if len(named) == 1 else None
