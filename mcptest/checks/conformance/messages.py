"""The official JSON Schema of each protocol version (`schemas/VERSION.json`, copied from `schema/VERSION/schema.json`
of github.com/modelcontextprotocol/modelcontextprotocol at commit b0f60ba5, 2026-08-22) and the validation of a
result or error against the definition its method names."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

HANDSHAKE_VERSIONS = ("2025-06-18", "2025-11-25")
"""The versions opened by the `initialize` handshake (a session per connection)."""
MODERN_VERSIONS = ("2026-07-28",)
"""The versions without a handshake: every request carries its version and capabilities in `params._meta`, and
`server/discover` says what the server speaks."""
SCHEMA_VERSIONS = (*HANDSHAKE_VERSIONS, *MODERN_VERSIONS)
"""The protocol versions whose schema ships with mcptest."""
SCHEMA_COMMIT = "b0f60ba5409db7a6582440a7b473cc0398890f15"

RESULTS = {
    "initialize": "InitializeResult",
    "ping": "EmptyResult",
    "tools/list": "ListToolsResult",
    "tools/call": "CallToolResult",
    "resources/list": "ListResourcesResult",
    "resources/templates/list": "ListResourceTemplatesResult",
    "resources/read": "ReadResourceResult",
    "resources/subscribe": "EmptyResult",
    "resources/unsubscribe": "EmptyResult",
    "prompts/list": "ListPromptsResult",
    "prompts/get": "GetPromptResult",
    "logging/setLevel": "EmptyResult",
    "completion/complete": "CompleteResult",
    "server/discover": "DiscoverResult",
}
"""The schema definition each method's result must satisfy."""


@cache
def _document(version: str) -> dict[str, Any]:
    path = Path(__file__).with_name("schemas") / f"{version}.json"
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def schema_version(version: str | None, offered: str) -> str:
    """The shipped schema for a negotiated version: its own, else the one of the version offered (a version the
    server made up, `"2.0"`, is checked apart by lifecycle-version)."""
    return version if version in SCHEMA_VERSIONS else offered if offered in SCHEMA_VERSIONS else SCHEMA_VERSIONS[-1]


@cache
def _validator(version: str, definition: str) -> Any:
    from mcptest.core.json_schema import validator

    document = _document(version)
    defs = "$defs" if "$defs" in document else "definitions"
    if definition == "JSONRPCError" and definition not in document[defs]:
        definition = "JSONRPCErrorResponse"
    return validator({**document, "$ref": f"#/{defs}/{definition}"})


def problems(version: str, method: str, message: dict[str, Any]) -> list[str]:
    """What in a response to `method` breaks the version's schema: its result against the method's result
    definition, an error against the JSON-RPC error definition (at most three problems, each with its path)."""
    if "error" in message:
        checked, definition = message, "JSONRPCError"
    elif method in RESULTS and isinstance(message.get("result"), dict):
        checked, definition = message["result"], RESULTS[method]
    else:
        return []
    return _against(version, definition, checked)


@cache
def _union(version: str, union: str) -> dict[str, str]:
    """The members of one of the version's message unions (`ServerNotification`, `ServerRequest`, `ClientRequest`,
    `ClientNotification`), by method: `notifications/message` -> `LoggingMessageNotification`, ..."""
    document = _document(version)
    defs = document["$defs"] if "$defs" in document else document["definitions"]
    out: dict[str, str] = {}
    if union not in defs:  # 2026-07-28 has no ServerRequest: a server sends the client no request there
        return out
    for ref in defs[union].get("anyOf", [{"$ref": f"#/$defs/{union}"}]):  # a union of one is that definition
        name = ref["$ref"].rsplit("/", 1)[-1]
        method = defs[name].get("properties", {}).get("method", {}).get("const")
        if isinstance(method, str):
            out[method] = name
    return out


def _against(version: str, definition: str, checked: Any) -> list[str]:
    out = []
    for error in _validator(version, definition).iter_errors(checked):
        where = "/".join(str(p) for p in error.absolute_path) or "(top)"
        out.append(f"{definition} at {where}: {error.message[:200]}")
        if len(out) == 3:
            break
    return out


def notification_problems(version: str, message: dict[str, Any]) -> list[str]:
    """What in a notification the server sent breaks the version's schema (none for a method the version does not
    define: a custom notification is not the schema's to judge)."""
    definition = _union(version, "ServerNotification").get(str(message.get("method")))
    return [] if definition is None else _against(version, definition, message)


def server_request_problems(version: str, message: dict[str, Any]) -> list[str]:
    """What in a request the server sent the client (`ping`, `sampling/createMessage`, `elicitation/create`,
    `roots/list`, ...) breaks the version's schema (none for a method the version does not define)."""
    definition = _union(version, "ServerRequest").get(str(message.get("method")))
    return [] if definition is None else _against(version, definition, message)


def client_problems(version: str, message: dict[str, Any]) -> list[str]:
    """What in a message mcptest itself sent (a request, a notification, or its answer to a server's request) breaks
    the version's schema. A method the version does not define is a deliberate probe (an unknown method), not
    judged."""
    if "method" in message:
        union = "ClientRequest" if "id" in message else "ClientNotification"
        definition = _union(version, union).get(str(message.get("method")))
        return [] if definition is None else _against(version, definition, message)
    if "error" in message:
        return _against(version, "JSONRPCError", message)
    return _against(version, "ClientResult", message.get("result"))
