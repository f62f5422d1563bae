"""What every provider is to the loop: one async call from a request to a reply."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:  # loading a suite (scripted runs) need not build the message models
    from mcptest.records.messages import ModelReply, ModelRequest


class Provider(Protocol):
    """A model behind an API (or a script, or a cassette) that answers one request at a time."""

    name: str

    async def reply(self, request: ModelRequest) -> ModelReply:
        """The model's next turn for the conversation in `request`."""
        ...

    async def aclose(self) -> None:
        """Release the HTTP client, if any."""
        ...
