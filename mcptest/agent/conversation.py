"""A conversation's bookkeeping: which replies and calls answered which user message, and the tokens they used."""

from __future__ import annotations

from collections.abc import Sequence

from mcptest.records.messages import ModelReply
from mcptest.records.trace import TokenUsage, UserTurn


def turn_records(
    starts: Sequence[tuple[str, int, int]], finals: Sequence[str | None], replies: Sequence[ModelReply], calls: int
) -> list[UserTurn]:
    """One record per user message sent: `starts` holds (message, its first reply, its first call) in order,
    `finals` the answers given (a message left unanswered has none), `calls` the number of calls in all."""
    bounds = [*starts[1:], ("", len(replies), calls)]
    return [
        UserTurn.model_construct(  # built from the loop's own counts: nothing to validate
            prompt=message,
            calls=bounds[i][2] - first_call,
            final_response=finals[i] if i < len(finals) else None,
            model_turns=bounds[i][1] - first_reply,
            tokens=token_usage(replies[first_reply : bounds[i][1]]),
        )
        for i, (message, first_reply, first_call) in enumerate(starts)
    ]


def token_usage(replies: Sequence[ModelReply]) -> TokenUsage | None:
    """Input, output, cached and reasoning tokens summed over the replies; None when no reply reported usage."""
    usages = [r.usage for r in replies if r.usage is not None]
    if not usages:
        return None
    i, o = sum(u.input for u in usages), sum(u.output for u in usages)
    cached, reasoning = sum(u.cached for u in usages), sum(u.reasoning for u in usages)
    return TokenUsage.model_construct(input=i, output=o, cached=cached, reasoning=reasoning, total=i + o)
