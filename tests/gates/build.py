"""Tiny builders so gate tests read like the traces they describe."""

from __future__ import annotations

from typing import Any

from mcptest.gates import GATES, GateContext, GateOutcome, gate
from mcptest.records.trace import ToolCall, Trace


def call(tool_id: str, args: Any = None, *, error: bool = False, **fields: Any) -> ToolCall:
    """`call("brave.web_search")` is web_search on server brave; `call("search")` has no server."""
    server, _, name = tool_id.rpartition(".")
    return ToolCall(
        server=server or None, name=name, args={"q": "x"} if args is None else args, is_error=error, **fields
    )


def run(*calls: str | ToolCall, **fields: Any) -> Trace:
    """One run calling the given tools in order."""
    return Trace(tool_calls=[c if isinstance(c, ToolCall) else call(c) for c in calls], **fields)


def evaluate(block: str, config: dict[str, Any], traces: list[Trace], **context: Any) -> GateOutcome:
    """Validate `config` as the YAML block `block` and score `traces` with it."""
    g = gate(block)
    return g.evaluate(traces, g.config.model_validate(config), GateContext(**context))


def classes(**members: list[str]) -> list[dict[str, Any]]:
    """`classes(search=["brave.web_search"], fetch=["http.get"])` -> the YAML `classes:` list."""
    return [{"name": name, "members": ids} for name, ids in members.items()]


__all__ = ["GATES", "call", "classes", "evaluate", "run"]
