"""The raw exchange a conformance run records: each request or notification as sent, what came back on the wire
(status, headers, body, the JSON-RPC message), and what went wrong on the way (no answer, the server exited)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

_SHOWN = 600
SERVER_INFO = "io.modelcontextprotocol/serverInfo"
"""The result `_meta` key a 2026-07-28 server names itself under."""


@dataclass
class Exchange:
    """One request (or notification, GET, DELETE) and what the server answered."""

    sent: dict[str, Any] | None
    """The JSON-RPC message sent; None for an HTTP GET or DELETE."""
    http_method: str = ""
    """POST, GET or DELETE over HTTP; "" over stdio."""
    request_headers: dict[str, str] = field(default_factory=dict)
    status: int | None = None
    headers: list[tuple[str, bytes]] = field(default_factory=list)
    """The response headers as they came (values as bytes: a session id may not be ASCII)."""
    body: str = ""
    """The response body (HTTP) or line (stdio) as received, cut for the report."""
    received: dict[str, Any] | None = None
    """The JSON-RPC response to the request (the one carrying its id)."""
    problem: str | None = None
    """Why no answer came: a timeout, the server exited, the connection failed."""
    events: list[tuple[str | None, str]] = field(default_factory=list)
    """An SSE answer's events as they came: each one's `id:` (None without) and its data."""

    @property
    def result(self) -> dict[str, Any] | None:
        found = (self.received or {}).get("result")
        return found if isinstance(found, dict) else None

    @property
    def error(self) -> dict[str, Any] | None:
        found = (self.received or {}).get("error")
        return found if isinstance(found, dict) else None

    @property
    def succeeded(self) -> bool:
        """A result came back (and no error)."""
        return self.received is not None and "result" in self.received and "error" not in self.received

    def header(self, name: str) -> bytes | None:
        return next((v for k, v in self.headers if k.lower() == name.lower()), None)

    @property
    def event_ids(self) -> list[str]:
        """The ids of the SSE events of this answer, in order."""
        return [i for i, _ in self.events if i is not None]

    @property
    def content_type(self) -> str:
        return (self.header("content-type") or b"").decode("latin-1").split(";")[0].strip().lower()

    def describe(self) -> str:
        """What was sent and received, for a failure's evidence."""
        where = f"{self.http_method} " if self.http_method else ""
        sent = _short(self.sent) if self.sent is not None else "(no body)"
        extra = "".join(f" {k}: {v}" for k, v in self.request_headers.items())
        lines = [f"sent: {where}{sent}{' with' + extra if extra else ''}"]
        if self.problem:
            lines.append(f"received: nothing ({self.problem})")
        else:
            status = f"HTTP {self.status} " if self.status is not None else ""
            kind = f"[{self.content_type}] " if self.http_method and self.content_type else ""
            got = _short(self.received) if self.received is not None else repr(self.body[:_SHOWN]) or "(empty)"
            lines.append(f"received: {status}{kind}{got}")
        return "\n".join(lines)


def _short(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= _SHOWN else text[:_SHOWN] + "…"


@dataclass
class Transcript:
    """Everything one conformance run sent and received, by the label of each probe."""

    transport: str
    """`stdio`, `http` (Streamable HTTP) or `sse` (the legacy HTTP+SSE transport)."""
    offered_version: str
    exchanges: dict[str, Exchange] = field(default_factory=dict)
    pages: dict[str, list[Exchange]] = field(default_factory=dict)
    """Each listing's pages, in order (`tools/list`, `resources/list`, ...)."""
    calls: list[tuple[str, Exchange]] = field(default_factory=list)
    """The read-only tool calls made, by tool name."""
    messages: list[Any] = field(default_factory=list)
    """Every JSON value the server sent, in order."""
    strays: list[str] = field(default_factory=list)
    """Responses to ids never sent (or to notifications), described."""
    not_json: list[str] = field(default_factory=list)
    """Lines of stdout that are no JSON-RPC message."""
    exited: str | None = None
    """`server exited (code N)` once the server died mid-run."""
    sent: list[dict[str, Any]] = field(default_factory=list)
    """Every message mcptest sent, in order (its requests, notifications and answers to the server's requests)."""
    progress_tokens: dict[str, Any] = field(default_factory=dict)
    """The progress tokens mcptest offered (as JSON) and the id of the request each came with."""
    cancelled: Any = None
    """The id of the in-flight request mcptest cancelled (None: none was)."""
    page_limit: int = 50
    notes: list[str] = field(default_factory=list)
    """What the run could not do and why (shown with the report)."""
    modern: bool = False
    """A 2026-07-28 run: no handshake; `server/discover` says what the server speaks and declares, and every request
    carries its version and capabilities in `params._meta`."""
    auth: str = ""
    """How the server is authenticated to: "" (not at all), `bearer` (a static token) or `oauth` (client
    credentials through the SDK's provider)."""
    malformed: set[str] = field(default_factory=set)
    """The ids (as JSON) of the requests mcptest made malformed on purpose (no `_meta` envelope, an unknown version):
    not judged as mcptest's own messages."""

    def get(self, label: str) -> Exchange | None:
        return self.exchanges.get(label)

    @property
    def initialize(self) -> Exchange | None:
        return self.exchanges.get("initialize")

    @property
    def discover(self) -> Exchange | None:
        return self.exchanges.get("server/discover")

    @property
    def opening(self) -> dict[str, Any]:
        """The result that says what the server declares: initialize's, or server/discover's in a 2026-07-28 run."""
        ex = self.discover if self.modern else self.initialize
        return (ex.result if ex is not None else None) or {}

    @property
    def capabilities(self) -> dict[str, Any]:
        caps = self.opening.get("capabilities")
        return caps if isinstance(caps, dict) else {}

    @property
    def version(self) -> str | None:
        """The version the server speaks on this run: the one initialize negotiated; in a 2026-07-28 run the one
        offered when server/discover answered with a result (what it lists is judged by discover-result)."""
        if self.modern:
            return self.offered_version if self.opening else None
        found = self.opening.get("protocolVersion")
        return found if isinstance(found, str) else None

    @property
    def server_info(self) -> dict[str, Any]:
        """The server's name and version: initialize's `serverInfo`, or the `_meta` of server/discover's result."""
        if self.modern:
            meta = self.opening.get("_meta")
            found = meta.get(SERVER_INFO) if isinstance(meta, dict) else None
        else:
            found = self.opening.get("serverInfo")
        return found if isinstance(found, dict) else {}

    def items(self, method: str, key: str) -> list[dict[str, Any]]:
        """Every item the pages of `method` listed under `key`."""
        out: list[dict[str, Any]] = []
        for page in self.pages.get(method, []):
            listed = (page.result or {}).get(key)
            out += [i for i in listed or [] if isinstance(i, dict)] if isinstance(listed, list) else []
        return out
