"""The client side of a session: answers to the server's requests, and what each call saw on the way.

A server may ask the client for sampling, elicitation or roots, and send log and progress notifications, while
a test's call is under way. The suite's `client:` answers the requests; everything is captured per call, in wire
form, so tests can assert on `sampling_requests[i]`, `elicitation_requests[i]`, `logs[i]` and `progress[i]`.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from mcptest.suite.client_config import ClientAnswers

LOG_LEVEL = "debug"
"""The level mcptest asks servers to log at, so `logs` fills whatever protocol version is negotiated."""


@dataclass(eq=False)  # compared by identity: two calls' empty captures are equal, yet each must leave its own
class CallCapture:
    """The notifications and server requests seen while one call was under way, each as the server sent it."""

    logs: list[dict[str, Any]] = field(default_factory=list)
    progress: list[dict[str, Any]] = field(default_factory=list)
    sampling_requests: list[dict[str, Any]] = field(default_factory=list)
    elicitation_requests: list[dict[str, Any]] = field(default_factory=list)
    unanswered: list[str] = field(default_factory=list)
    """Requests the suite gave no answer to, each explained with the fix."""

    async def on_progress(self, progress: float, total: float | None, message: str | None) -> None:
        """A `notifications/progress` for this call's request."""
        note = {"progress": progress, "total": total, "message": message}
        self.progress.append({k: v for k, v in note.items() if v is not None})


class ClientSide:
    """The callbacks handed to the SDK's `Client` for one server, recording into the current call's capture."""

    def __init__(self, server: str, answers: ClientAnswers) -> None:
        self.server = server
        self.answers = answers
        self.active: list[CallCapture] = []
        """The captures of the calls under way: one, except under `--workers`, where calls overlap."""

    def client_kwargs(self) -> dict[str, Any]:
        """Keyword arguments for `mcp.Client`: every callback, and the log level that opts in to log messages."""
        kwargs: dict[str, Any] = dict(
            sampling_callback=self._sampling,
            elicitation_callback=self._elicitation,
            logging_callback=self._log,
            log_level=LOG_LEVEL,
        )
        if self.answers.roots is not None:  # advertising roots makes servers ask for them
            kwargs["list_roots_callback"] = self._roots
        return kwargs

    @contextmanager
    def capture(self) -> Iterator[CallCapture]:
        """Record what the server sends while the block runs.

        Progress belongs to its request (a token per request). Logs and server requests name no request: while
        calls overlap (`--workers`), each goes to every call under way, which is why a test that asserts on them
        runs alone on its server (`mcptest.run.workers`).
        """
        capture = CallCapture()
        self.active.append(capture)
        try:
            yield capture
        finally:  # by identity: two empty captures are equal, and `remove` would take another call's
            self.active[:] = [c for c in self.active if c is not capture]

    async def _log(self, params: Any) -> None:
        for capture in self.active:
            capture.logs.append(_wire(params))

    async def _sampling(self, context: Any, params: Any) -> Any:
        from mcp import types

        wire = _wire(params)
        for capture in self.active:
            capture.sampling_requests.append(wire)
        text = last_message_text(wire)
        for answer in self.answers.sampling:
            if answer.when is None or answer.when.test(text) is None:
                return types.CreateMessageResult(
                    role="assistant",
                    content=types.TextContent(type="text", text=answer.text),
                    model=answer.model,
                    stop_reason=answer.stop_reason,
                )
        why = "no `client.sampling` answer matches it" if self.answers.sampling else "the suite gives no answer"
        fix = f'servers.{self.server}.client.sampling: [{{ text: "..." }}]'
        return self._refuse(f"sampling (last message: {_short(text)}); {why}: answer it with `{fix}`")

    async def _elicitation(self, context: Any, params: Any) -> Any:
        from mcp import types

        wire = _wire(params)
        for capture in self.active:
            capture.elicitation_requests.append(wire)
        message = str(wire.get("message", ""))
        answers = self.answers.elicitation_answers
        for answer in answers:
            if answer.when is None or answer.when.test(message) is None:
                return types.ElicitResult(action=answer.action.value, content=answer.content)
        why = "no `client.elicitation` answer's `when:` matches it" if answers else "the suite gives no answer"
        fix = f"servers.{self.server}.client.elicitation: {{ action: accept, content: {{...}} }}"
        return self._refuse(f"elicitation ({_short(message)}); {why}: answer it with `{fix}`")

    async def _roots(self, context: Any) -> Any:
        from mcp import types

        roots = [types.Root(uri=uri) for uri in self.answers.roots or []]
        return types.ListRootsResult(roots=roots)

    def _refuse(self, what: str) -> Any:
        from mcp import types

        message = f"server '{self.server}' asked for {what}"
        overlap = f" ({len(self.active)} calls were under way at once; run them one at a time to tell which asked)"
        for capture in self.active:
            capture.unanswered.append(message + (overlap if len(self.active) > 1 else ""))
        return types.ErrorData(code=types.INVALID_REQUEST, message=f"mcptest: {message}")


def last_message_text(params: dict[str, Any]) -> str:
    """The text of a sampling request's last message (its text blocks joined), what `when:` matches."""
    messages = params.get("messages") or [{}]
    content = messages[-1].get("content")
    blocks = content if isinstance(content, list) else [content]
    return "\n".join(b.get("text", "") for b in blocks if isinstance(b, dict) and b.get("type") == "text")


def _wire(model: Any) -> dict[str, Any]:
    data: dict[str, Any] = model.model_dump(mode="json", by_alias=True, exclude_none=True)
    return data


def _short(text: str) -> str:
    return json.dumps(text[:120] + ("..." if len(text) > 120 else ""), ensure_ascii=False)
