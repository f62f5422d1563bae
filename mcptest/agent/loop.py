"""The agent loop: present the merged catalog, route each tool call to its server, stop at an answer or max_turns."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import anyio

from mcptest.agent.conversation import token_usage, turn_records
from mcptest.providers.base import Provider
from mcptest.providers.errors import RunFailed
from mcptest.providers.prices import Price, cost
from mcptest.providers.retry import RetryPolicy, Sleep, with_retries
from mcptest.records.messages import (
    ModelReply,
    ModelRequest,
    RequestedCall,
    ToolExchange,
    ToolReply,
    UserMessage,
)
from mcptest.records.trace import CatalogTool, ToolCall, Trace
from mcptest.server.session import CallOutcome

_NAME = re.compile(r"[^A-Za-z0-9_-]")


class ToolExecutor(Protocol):
    """Runs `tools/call` on a named server: live sessions, or a cassette's recorded results."""

    async def call(self, server: str, tool: str, args: dict[str, Any]) -> CallOutcome:
        """The outcome of one call."""
        ...


@dataclass(frozen=True)
class LoopSettings:
    """What shapes a run besides the model: the prompt (and further user messages), the limits, the retry policy."""

    model: str | None
    prompt: str
    turns: tuple[str, ...] = ()
    system: str | None = None
    max_turns: int = 10
    max_tokens: int = 4096
    timeout_s: float | None = None
    retry: RetryPolicy = RetryPolicy()


@dataclass
class RunLog:
    """Everything a run exchanged, in order: what a cassette stores."""

    replies: list[ModelReply] = field(default_factory=list)
    exchanges: list[ToolExchange] = field(default_factory=list)


def present(catalog: Sequence[CatalogTool]) -> dict[str, CatalogTool]:
    """Presented name -> tool: the bare name when unique, else `server__tool`, cleaned to what the APIs accept."""
    counts: dict[str, int] = {}
    for tool in catalog:
        counts[tool.name] = counts.get(tool.name, 0) + 1
    out: dict[str, CatalogTool] = {}
    for tool in catalog:
        wanted = tool.name if counts[tool.name] == 1 else f"{tool.server or 'injected'}__{tool.name}"
        name = base = _NAME.sub("_", wanted)[:64] or "tool"
        n = 1
        while name in out:
            n += 1
            name = f"{base[:60]}_{n}"
        out[name] = tool
    return out


async def run_agent(
    settings: LoopSettings,
    catalog: Sequence[CatalogTool],
    provider: Provider,
    tools: ToolExecutor,
    *,
    price: Price | None = None,
    sleep: Sleep = anyio.sleep,
) -> tuple[Trace, RunLog]:
    """One run. A provider failure or the per-run timeout ends it early: the partial run carries an `error`."""
    names, offered = offer(catalog)
    request = ModelRequest(
        model=settings.model,
        system=settings.system,
        prompt=settings.prompt,
        tools=offered,
        max_tokens=settings.max_tokens,
    )
    run = _Run(names, tools, RunLog())
    error = None
    with anyio.move_on_after(settings.timeout_s if settings.timeout_s else float("inf")) as scope:
        try:
            await run.conversation(request, provider, settings, sleep)
        except RunFailed as exc:
            error = exc.message
    if scope.cancelled_caught:
        error = f"the run did not finish within {settings.timeout_s:g}s"
    return run.trace(settings, list(catalog), price, error), run.log


def offer(catalog: Sequence[CatalogTool]) -> tuple[dict[str, CatalogTool], list[dict[str, Any]]]:
    """What a model is shown: presented name -> tool, and the definitions (name, description, inputSchema)."""
    names = present(catalog)
    return names, [{**_wire(t.tool), "name": n} for n, t in names.items()]


def _wire(tool: dict[str, Any]) -> dict[str, Any]:
    keep = ("description", "inputSchema")
    return {k: tool[k] for k in keep if tool.get(k) is not None}


class _Run:
    """The state of one run while it goes."""

    def __init__(self, names: dict[str, CatalogTool], tools: ToolExecutor, log: RunLog) -> None:
        self.names, self.tools, self.log = names, tools, log
        self.calls: list[ToolCall] = []
        self.final: str | None = None
        self.starts: list[tuple[str, int, int]] = []  # (message, first reply, first call) of each user turn
        self.finals: list[str | None] = []

    async def conversation(
        self, request: ModelRequest, provider: Provider, settings: LoopSettings, sleep: Sleep
    ) -> None:
        """Each user message in turn; a message left unanswered after `max_turns` model calls ends the run."""
        for index, message in enumerate((settings.prompt, *settings.turns)):
            if index:
                request.history.append(UserMessage(text=message))
            self.starts.append((message, len(self.log.replies), len(self.calls)))
            self.final = None
            if not await self.answer(request, provider, settings, sleep):
                return

    async def answer(self, request: ModelRequest, provider: Provider, settings: LoopSettings, sleep: Sleep) -> bool:
        """Model calls and tool calls until the model answers (True) or `max_turns` runs out (False)."""
        for _ in range(settings.max_turns):
            reply = await with_retries(lambda: provider.reply(request), settings.retry, sleep)
            self.log.replies.append(reply)
            request.history.append(reply)
            if not reply.calls:
                self.final = reply.text
                self.finals.append(reply.text)
                return True
            request.history.append([await self.execute(call) for call in reply.calls])
        return False

    async def execute(self, call: RequestedCall) -> ToolReply:
        """Route one call; a call that cannot run is recorded and answered with an error result."""
        target = self.names.get(call.name)
        problem = _problem(call, target, self.names)
        if target is None or problem is not None:
            self.calls.append(_refused(call, target, problem or ""))
            return ToolReply(call_id=call.id, text=f"error: {problem}", is_error=True)
        assert target.server is not None
        outcome = await self.tools.call(target.server, target.name, call.arguments)
        self.log.exchanges.append(
            ToolExchange(
                server=target.server, tool=target.name, args=call.arguments, result=outcome.result, error=outcome.error
            )
        )
        self.calls.append(_made(target, call.arguments, outcome))
        return ToolReply(call_id=call.id, **_reply(outcome))

    def trace(
        self, settings: LoopSettings, catalog: list[CatalogTool], price: Price | None, error: str | None
    ) -> Trace:
        tokens = token_usage(self.log.replies)
        spent = cost(price, tokens.input or 0, tokens.output or 0) if tokens else None
        return Trace(
            model=settings.model,
            prompt=settings.prompt,
            tool_calls=self.calls,
            final_response=self.final,
            turns=len(self.log.replies),
            tokens=tokens,
            cost_usd=spent,
            catalog=catalog,
            error=error,
            user_turns=turn_records(self.starts, self.finals, self.log.replies, len(self.calls))
            if settings.turns
            else None,
        )


def _problem(call: RequestedCall, target: CatalogTool | None, names: dict[str, CatalogTool]) -> str | None:
    if target is None:
        shown = ", ".join(list(names)[:20]) + (", ..." if len(names) > 20 else "")
        return f"unknown tool '{call.name}'; the tools are: {shown or '(none)'}"
    if not call.parsed:
        return f"the arguments of '{call.name}' are not valid JSON: {str(call.arguments)[:200]}"
    if not isinstance(call.arguments, dict):
        return f"the arguments of '{call.name}' must be a JSON object"
    if target.distractor:
        return f"tool '{call.name}' is unavailable"
    return None


def _refused(call: RequestedCall, target: CatalogTool | None, problem: str) -> ToolCall:
    return ToolCall(
        server=target.server if target else None,
        name=target.name if target else call.name,
        args=call.arguments,
        content=[{"type": "text", "text": f"error: {problem}"}],
        is_error=True,
        unknown_tool=target is None,
        unparseable_arguments=not call.parsed,
    )


def _made(target: CatalogTool, args: dict[str, Any], outcome: CallOutcome) -> ToolCall:
    result = outcome.result or {}
    content = [b for b in result.get("content", []) if isinstance(b, dict)]
    if outcome.error:
        content = [{"type": "text", "text": f"error: {outcome.error}"}]
    structured = result.get("structuredContent")
    return ToolCall(
        server=target.server,
        name=target.name,
        args=args,
        content=content,
        structured_content=structured if isinstance(structured, dict) else None,
        is_error=bool(outcome.error) or result.get("isError") is True,
        latency_ms=outcome.duration_ms or None,
    )


def _reply(outcome: CallOutcome) -> dict[str, Any]:
    """The result as text for the model: the text blocks, else the structured content, else the blocks as JSON."""
    if outcome.error:
        return {"text": f"error: {outcome.error}", "is_error": True}
    result = outcome.result or {}
    blocks = result.get("content") or []
    texts = [str(b.get("text", "")) for b in blocks if isinstance(b, dict) and b.get("type") == "text"]
    if texts:
        text = "\n".join(texts)
    elif result.get("structuredContent") is not None:
        text = json.dumps(result["structuredContent"], ensure_ascii=False)
    else:
        text = json.dumps(blocks, ensure_ascii=False) if blocks else ""
    return {"text": text, "is_error": result.get("isError") is True}
