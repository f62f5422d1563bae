"""The scripted provider: the suite lists, run by run, the tool calls and the answer the "model" makes."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict, Field

if TYPE_CHECKING:  # a suite's scripts are loaded without the message models; a run imports them
    from mcptest.records.messages import ModelReply, ModelRequest, RequestedCall


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ScriptedCall(_Strict):
    """One tool call of a scripted turn."""

    name: str = Field(description="The tool name as presented to the model (the bare name when it is unique).")
    args: Any = Field(
        default_factory=dict, description="The arguments: an object, or a string of raw JSON text (may be malformed)."
    )


class ScriptedTurn(_Strict):
    """One model turn: tool calls (made in one turn, i.e. in parallel) or a final answer."""

    tool_calls: list[ScriptedCall] = Field(default_factory=list, description="Calls made this turn.")
    answer: str | None = Field(None, description="The text the model writes; a turn without tool calls ends the run.")


class ScriptedRun(_Strict):
    """What the model does in one run, turn by turn."""

    turns: list[ScriptedTurn] = Field(min_length=1, description="The turns, in order.")


class ScriptedProvider:
    """Plays one ScriptedRun: turn i of the script answers the i-th model call; past the end, an empty answer."""

    name = "scripted"

    def __init__(self, run: ScriptedRun) -> None:
        self._turns = list(run.turns)
        self._next = 0

    async def reply(self, request: ModelRequest) -> ModelReply:
        """The next scripted turn."""
        from mcptest.records.messages import ModelReply

        if self._next >= len(self._turns):
            return ModelReply(stop="end_of_script")
        turn, index = self._turns[self._next], self._next
        self._next += 1
        calls = [_call(c, f"call_{index + 1}_{j + 1}") for j, c in enumerate(turn.tool_calls)]
        return ModelReply(text=turn.answer, calls=calls, stop="tool_use" if calls else "end_turn")

    async def aclose(self) -> None:
        """Nothing to release."""


def _call(call: ScriptedCall, call_id: str) -> RequestedCall:
    from mcptest.records.messages import RequestedCall, parse_arguments

    args, parsed = parse_arguments(call.args)
    return RequestedCall(id=call_id, name=call.name, arguments=args, parsed=parsed)
