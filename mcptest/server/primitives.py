"""Resources, resource templates and prompts over an open session: listing (paginated), reading, rendering.

Each request goes out raw and comes back as the wire JSON the server sent; a 2026-07-28 `input_required` answer
is driven to its end through the session's client answers, as the SDK's own `Client` does.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import anyio

from mcptest.core.errors import did_you_mean
from mcptest.core.uri_template import matches
from mcptest.server.limits import limits, raise_hint

if TYPE_CHECKING:
    from mcptest.server.session import ServerSession

MakeRequest = Callable[[Any, str | None], Any]
"""Builds the request for one round, given the previous round's input responses and request state."""


class Cursors:
    """The `nextCursor`s of one paginated listing: one that comes back is a cycle, and pages are bounded."""

    def __init__(self, method: str, limit: int) -> None:
        self.method = method
        self.limit = limit
        self.seen: dict[str, int] = {}

    def problem(self, cursor: Any) -> str | None:
        """Why listing must stop at `cursor` (None: fetch its page)."""
        import json

        key = json.dumps(cursor, sort_keys=True, default=str)
        shown = key if len(key) <= 60 else key[:60] + "…"
        if key in self.seen:
            page = len(self.seen) + 1
            first = self.seen[key]
            return (
                f"{self.method}: the server's nextCursor cycles: page {page} gave cursor {shown} again, first given "
                f"by page {first}; mcptest stopped listing"
            )
        self.seen[key] = len(self.seen) + 1
        if len(self.seen) >= self.limit:
            return f"{self.method}: still paginating after {self.limit:,} pages; mcptest stopped listing " + (
                f"({raise_hint('pages')})"
            )
        return None


@functools.cache
def _raw_adapter() -> Any:
    """Reads any result as a plain dict (built once: a TypeAdapter costs ~0.2 ms, a call's whole overhead ~2 ms)."""
    from pydantic import TypeAdapter

    return TypeAdapter(dict[str, Any])


async def send_wire(client: Any, make: MakeRequest, on_progress: Any = None) -> dict[str, Any]:
    """Send a request and return its result as wire JSON, answering `input_required` rounds on the way."""
    from mcp import types

    raw = _raw_adapter()

    async def attempt(responses: Any, state: str | None) -> Any:
        wire = await client.session.send_request(make(responses, state), raw, progress_callback=on_progress)
        if wire.get("resultType") == "input_required":
            return types.InputRequiredResult.model_validate(wire)
        return wire

    result: dict[str, Any] = await client._drive_input_required(await attempt(None, None), attempt)
    # Notifications are handed to their callbacks in tasks of their own: let those already received run.
    for _ in range(3):
        await anyio.lowlevel.checkpoint()
    return result


async def send_unchecked(client: Any, request: Any) -> dict[str, Any]:
    """Send one request (an SDK request model, or `{"method": ..., "params": ...}`) and return the server's result
    as it came, unvalidated.

    The SDK's `send_request` checks every result against the negotiated version's models and raises one
    ValidationError for a whole `tools/list` when a single tool breaks them (naming no tool, keeping no data), so
    this stamps the request as `send_request` does and sends it through the same dispatcher, minus that check.
    """
    session = client.session
    data = (
        dict(request)
        if isinstance(request, dict)
        else request.model_dump(by_alias=True, mode="json", exclude_none=True)
    )
    opts: dict[str, Any] = {}
    session._stamp(data, opts)
    if session._session_read_timeout_seconds is not None:
        opts["timeout"] = session._session_read_timeout_seconds
    raw: dict[str, Any] = await session._dispatcher.send_raw_request(data["method"], data.get("params"), opts)
    return raw


async def list_all(session: ServerSession, method: str, key: str) -> list[dict[str, Any]]:
    """Every item of a paginated list (`resources/list`, `resources/templates/list`, `prompts/list`), wire form."""
    from mcp import types

    from mcptest.server.session import EndlessPages, ServerUnavailable

    request_type = {
        "resources/list": types.ListResourcesRequest,
        "resources/templates/list": types.ListResourceTemplatesRequest,
        "prompts/list": types.ListPromptsRequest,
    }[method]
    items: list[dict[str, Any]] = []
    cursor = None
    cursors = Cursors(method, limits().pages)  # a server that never stops paginating must not hang the run
    while True:
        request = request_type(params=types.PaginatedRequestParams(cursor=cursor) if cursor else None)
        try:
            page = await session.send(_fixed(request))
        except ServerUnavailable as exc:
            # Many servers that offer resources implement no templates/list: an empty list, not a failure.
            if f"error {types.METHOD_NOT_FOUND}:" in exc.message and not items:
                return []
            raise
        items += [item for item in page.get(key) or [] if isinstance(item, dict)]
        cursor = page.get("nextCursor")
        if not cursor:
            return items
        if problem := cursors.problem(cursor):
            raise EndlessPages(f"server '{session.name}': {problem}")


def _fixed(request: Any) -> MakeRequest:
    return lambda _responses, _state: request


def read_request(uri: str) -> MakeRequest:
    """A `resources/read` for `uri`."""
    from mcp import types

    def make(responses: Any, state: str | None) -> Any:
        params = types.ReadResourceRequestParams(uri=uri, input_responses=responses, request_state=state)
        return types.ReadResourceRequest(params=params)

    return make


def prompt_request(name: str, args: dict[str, str]) -> MakeRequest:
    """A `prompts/get` of `name` with `args`."""
    from mcp import types

    def make(responses: Any, state: str | None) -> Any:
        params = types.GetPromptRequestParams(
            name=name, arguments=args or None, input_responses=responses, request_state=state
        )
        return types.GetPromptRequest(params=params)

    return make


def unknown_resource(uri: str, template: str | None, resources: list[Any], templates: list[Any]) -> str | None:
    """Why a resource test names nothing the server lists (None when it does), with the closest name."""
    uris = [str(r.get("uri")) for r in resources]
    patterns = [str(t.get("uriTemplate")) for t in templates]
    if template is not None:
        if template in patterns:
            return None
        hint = did_you_mean(template, patterns) or _listed("resource templates", patterns)
        return f"the server lists no resource template '{template}'{hint}"
    if uri in uris or any(matches(p, uri) for p in patterns):
        return None
    hint = did_you_mean(uri, uris + patterns) or _listed("resources", uris)
    return f"the server lists no resource '{uri}' and no template matches it{hint}"


def unknown_prompt(name: str, prompts: list[Any]) -> str | None:
    """Why a prompt test names a prompt the server does not list (None when it does), with the closest name."""
    names = [str(p.get("name")) for p in prompts]
    if name in names:
        return None
    return f"the server lists no prompt '{name}'{did_you_mean(name, names) or _listed('prompts', names)}"


def _listed(kind: str, names: list[str]) -> str:
    if not names:
        return f"; it lists no {kind}"
    shown = ", ".join(names[:8]) + (", ..." if len(names) > 8 else "")
    return f"; it lists {shown}"


async def opt_in_logs(client: Any) -> None:
    """Ask a handshake-era server for its log messages (`logging/setLevel`); 2026-07-28 requests carry the level."""
    import warnings

    from mcp_types.version import MODERN_PROTOCOL_VERSIONS

    from mcptest.server.client_answers import LOG_LEVEL

    if client.protocol_version in MODERN_PROTOCOL_VERSIONS or client.server_capabilities.logging is None:
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # setLevel is deprecated in 2026-07-28, and still the way for older servers
        try:
            with anyio.fail_after(5):
                await client.set_logging_level(LOG_LEVEL)
        except Exception as exc:  # a server that refuses a log level is still usable; its tests just see no logs
            logging.getLogger("mcptest").debug("logging/setLevel refused: %s", exc)
