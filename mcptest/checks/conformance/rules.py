"""The conformance checks: each a pure function of the Transcript a run recorded, with a stable id, its level and
the spec section (2025-11-25) it comes from. A check whose capability or fixture is absent is skipped with the
reason; one whose probe got no answer fails with why (a timeout, `server exited (code N)`)."""

from __future__ import annotations

import base64
import binascii
import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from mcptest.checks.conformance.exchange import SERVER_INFO, Exchange, Transcript
from mcptest.checks.conformance.messages import (
    MODERN_VERSIONS,
    SCHEMA_VERSIONS,
    notification_problems,
    problems,
    schema_version,
    server_request_problems,
)

KNOWN_VERSIONS = ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28")
UNSUPPORTED_VERSION = "1999-01-01"
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
RESOURCE_NOT_FOUND = -32002
HEADER_MISMATCH = -32020
UNSUPPORTED_PROTOCOL_VERSION = -32022
MODERN = MODERN_VERSIONS[0]
"""The first version without the initialize handshake (2026-07-28)."""
LAST_HANDSHAKE = "2025-11-25"
MOVED = {
    "basic/utilities/": "basic/patterns/",
    "basic/transports#stdio": "basic/transports/stdio",
    "basic/transports#security-warning": "basic/transports/streamable-http#security-%26-endpoint",
    "basic/transports#sending-messages-to-the-server": "basic/transports/streamable-http#sending-messages",
    "basic/lifecycle#operation": "basic/versioning",
}
"""Spec sections whose page 2026-07-28 moved (their old path prefix, the new one)."""
SPEC = "https://modelcontextprotocol.io/specification/"
_TOOL_NAME = re.compile(r"^[A-Za-z0-9_.\-]{1,128}$")


@dataclass(frozen=True)
class Verdict:
    status: str
    """`pass`, `fail` or `skip`."""
    message: str = ""
    evidence: str = ""
    """What was sent and received (on a failure)."""


@dataclass(frozen=True)
class Check:
    id: str
    level: str
    """MUST or SHOULD: a failed MUST fails the run; a failed SHOULD is a warning unless `--fail-on should`."""
    section: str
    title: str
    judge: Callable[[Transcript], Verdict]
    transport: str = "any"
    """`any`, or the transports the check is of, joined by `+` (`stdio`, `http`, `stdio+sse`)."""
    since: str = ""
    """The first protocol version whose text has the rule (empty: every version); skipped on older ones."""
    until: str = ""
    """The last protocol version whose text has the rule (empty: every version since); skipped on newer ones."""
    must_since: str = ""
    """A SHOULD that the text of this version and later makes a MUST."""

    def level_at(self, version: str) -> str:
        """The check's level under `version`."""
        return "MUST" if self.must_since and version >= self.must_since else self.level

    def url(self, version: str | None = None) -> str:
        """The spec section in the text of `version` (a version mcptest knows), else of the newest handshake one."""
        version = version if version in KNOWN_VERSIONS else LAST_HANDSHAKE
        section = self.section
        if version >= MODERN:  # 2026-07-28 moved pages: utilities became patterns, each transport has its own page
            for old, new in MOVED.items():
                section = section.replace(old, new) if section.startswith(old) else section
        return f"{SPEC}{version}/{section}"


PASS = Verdict("pass")


def skip(reason: str) -> Verdict:
    return Verdict("skip", reason)


def fail(message: str, *exchanges: Exchange | None) -> Verdict:
    evidence = "\n".join(e.describe() for e in exchanges if e is not None)
    return Verdict("fail", message, evidence)


def _missing(t: Transcript, exchange: Exchange | None, what: str) -> Verdict | None:
    """A failure when the probe got no answer; a skip when it was never made (its fixture is absent)."""
    if exchange is None:
        return fail(f"{what}: not probed ({t.exited})") if t.exited else skip(f"{what} was not probed")
    if exchange.problem:
        return fail(f"{what}: {exchange.problem}", exchange)
    if exchange.received is None:
        return fail(f"{what}: no JSON-RPC response came back", exchange)
    return None


def _declared(t: Transcript, capability: str) -> Verdict | None:
    if capability not in t.capabilities:
        return skip(f"server declares no `{capability}`")
    return None


# lifecycle -----------------------------------------------------------------------------------------------------


def initialize_result(t: Transcript) -> Verdict:
    ex = t.initialize
    if (missing := _missing(t, ex, "initialize")) is not None:
        return missing
    assert ex is not None
    result = ex.result
    if result is None:
        return fail("initialize answered with an error, not a result", ex)
    wrong = []
    if not isinstance(result.get("protocolVersion"), str):
        wrong.append("`protocolVersion` is not a string")
    if not isinstance(result.get("capabilities"), dict):
        wrong.append("`capabilities` is not an object")
    info = result.get("serverInfo")
    if not isinstance(info, dict) or not isinstance(info.get("name"), str) or not isinstance(info.get("version"), str):
        wrong.append("`serverInfo` lacks a string `name` and `version`")
    return fail("; ".join(wrong), ex) if wrong else PASS


def version_negotiation(t: Transcript) -> Verdict:
    ex = t.initialize
    if ex is None or ex.result is None:
        return skip("initialize gave no result")
    answered = t.version
    if answered == t.offered_version or answered in KNOWN_VERSIONS:
        return PASS
    return fail(
        f"offered {t.offered_version}, the server answered {answered!r}, which is no protocol version "
        f"({', '.join(KNOWN_VERSIONS)})",
        ex,
    )


def unsupported_version(t: Transcript) -> Verdict:
    ex = t.get("initialize:unsupported-version")
    if ex is None:
        return (
            skip("probed once per server, in the newest version's run")
            if not t.exited
            else fail(f"not probed ({t.exited})")
        )
    if ex.problem:
        return fail(f"initialize offering {UNSUPPORTED_VERSION}: {ex.problem}", ex)
    if ex.error is not None or (ex.status is not None and ex.status >= 400):
        return PASS  # refusing the version is allowed (the spec's example is a -32602 error)
    answered = (ex.result or {}).get("protocolVersion")
    if answered == UNSUPPORTED_VERSION:
        return fail(f"the server accepted protocol version {UNSUPPORTED_VERSION}, which no server supports", ex)
    if not isinstance(answered, str):
        return fail("initialize offering an unsupported version got neither an error nor a protocolVersion", ex)
    return PASS


def ping(t: Transcript) -> Verdict:
    ex = t.get("ping")
    if (missing := _missing(t, ex, "ping")) is not None:
        return missing
    assert ex is not None
    if ex.result is None:
        return fail("ping answered with an error", ex)
    if {k for k in ex.result if k != "_meta"}:
        return fail("ping's result must be empty", ex)
    return PASS


# JSON-RPC framing ----------------------------------------------------------------------------------------------


def jsonrpc_version(t: Transcript) -> Verdict:
    bad = [m for m in t.messages if not isinstance(m, dict) or m.get("jsonrpc") != "2.0"]
    if bad:
        return Verdict("fail", f'{len(bad)} message(s) lack "jsonrpc": "2.0"', f"received: {str(bad[0])[:400]}")
    return PASS


def response_ids(t: Transcript) -> Verdict:
    strays = [s for s in t.strays if '"id": null' not in s and '"id"' in s]
    if strays:
        return Verdict("fail", f"{len(strays)} response(s) carry an id mcptest never sent", "received: " + strays[0])
    return PASS


def error_objects(t: Transcript) -> Verdict:
    for message in t.messages:
        if not isinstance(message, dict) or "error" not in message:
            continue
        error = message["error"]
        ok = (
            isinstance(error, dict)
            and isinstance(error.get("code"), int)
            and not isinstance(error.get("code"), bool)
            and isinstance(error.get("message"), str)
        )
        if not ok:
            return Verdict(
                "fail", "an error object lacks an integer `code` and a string `message`", f"received: {message}"
            )
    return PASS


def notifications_unanswered(t: Transcript) -> Verdict:
    answered = [s for s in t.strays if '"id": null' in s or '"id"' not in s]
    if answered:
        return Verdict("fail", "the server answered a notification", "received: " + answered[0])
    return PASS


def unknown_method(t: Transcript) -> Verdict:
    ex = t.get("unknown-method")
    if (missing := _missing(t, ex, "an unknown method")) is not None:
        return missing
    assert ex is not None
    code = (ex.error or {}).get("code")
    if code != METHOD_NOT_FOUND:
        got = f"error {code}" if ex.error is not None else "a result"
        return fail(f"an unknown method must get error {METHOD_NOT_FOUND} (Method not found), got {got}", ex)
    return PASS


def stdout_clean(t: Transcript) -> Verdict:
    if t.not_json:
        return Verdict("fail", f"{len(t.not_json)} line(s) of stdout are not JSON-RPC", "received: " + t.not_json[0])
    return PASS


def message_schema(t: Transcript) -> Verdict:
    version = schema_version(t.version, t.offered_version)
    for label, ex in _all_exchanges(t):
        if ex.sent is None or ex.received is None or "id" not in ex.sent:
            continue
        if ex.status is not None and ex.status >= 400:
            continue  # an HTTP refusal (its body often has `"id": null`) is the transport's: the http-* checks judge it
        method = str(ex.sent.get("method"))
        checked_version = version
        if method == "initialize":
            answered = (ex.result or {}).get("protocolVersion")
            checked_version = schema_version(answered if isinstance(answered, str) else None, t.offered_version)
        found = problems(checked_version, method, ex.received)
        if found:
            return fail(f"{label}: breaks the {checked_version} schema: " + "; ".join(found), ex)
    for message in t.messages:
        if isinstance(message, dict) and "method" in message:
            request = "id" in message
            found = (server_request_problems if request else notification_problems)(version, message)
            if found:
                kind = "request" if request else "notification"
                text = f"{kind} {message['method']}: breaks the {version} schema: " + "; ".join(found)
                return Verdict("fail", text, f"received (unprompted): {json.dumps(message, ensure_ascii=False)}")
    return PASS


def _all_exchanges(t: Transcript) -> list[tuple[str, Exchange]]:
    out = list(t.exchanges.items())
    for method, pages in t.pages.items():
        out += [(f"{method} page {i + 1}", page) for i, page in enumerate(pages)]
    out += [(f"tools/call {name}", ex) for name, ex in t.calls]
    return out


# capabilities --------------------------------------------------------------------------------------------------

UNDECLARED = {
    "tools": "tools/list",
    "resources": "resources/list",
    "prompts": "prompts/list",
    "logging": "logging/setLevel",
    "completions": "completion/complete",
}


def _undeclared(t: Transcript) -> list[tuple[str, Exchange]]:
    return [(c, ex) for c in UNDECLARED if (ex := t.get(f"undeclared:{c}")) is not None]


def undeclared_refused(t: Transcript) -> Verdict:
    probed = _undeclared(t)
    if not probed:
        return skip("the server declares every capability probed") if not t.exited else fail(t.exited)
    for capability, ex in probed:
        if ex.problem:
            return fail(f"{UNDECLARED[capability]}: {ex.problem}", ex)
        if ex.succeeded:
            return fail(
                f"the server answers {UNDECLARED[capability]} but declares no `{capability}` capability "
                "(a server that supports it must declare it)",
                ex,
            )
    return PASS


def undeclared_code(t: Transcript) -> Verdict:
    probed = [(c, ex) for c, ex in _undeclared(t) if ex.error is not None]
    if not probed:
        return skip("no undeclared capability was refused with an error")
    for capability, ex in probed:
        if (ex.error or {}).get("code") != METHOD_NOT_FOUND:
            return fail(f"{UNDECLARED[capability]} of an undeclared capability: expected error -32601", ex)
    return PASS


# tools ---------------------------------------------------------------------------------------------------------


def _pages(t: Transcript, method: str, capability: str) -> tuple[list[Exchange], Verdict | None]:
    if (absent := _declared(t, capability)) is not None:
        return [], absent
    pages = t.pages.get(method) or []
    if not pages:
        return [], fail(f"{method}: not probed ({t.exited})") if t.exited else skip(f"{method} was not probed")
    for page in pages:
        if (missing := _missing(t, page, method)) is not None:
            return pages, missing
        if page.result is None:
            return pages, fail(f"{method} answered with an error", page)
    return pages, None


def tools_list(t: Transcript) -> Verdict:
    pages, verdict = _pages(t, "tools/list", "tools")
    if verdict is not None:
        return verdict
    for page in pages:
        tools = (page.result or {}).get("tools")
        if not isinstance(tools, list):
            return fail("tools/list: `tools` is not an array", page)
        for tool in tools:
            if not isinstance(tool, dict) or not isinstance(tool.get("name"), str):
                return fail(f"tools/list: a tool without a string `name`: {str(tool)[:200]}", page)
            if not isinstance(tool.get("inputSchema"), dict):
                return fail(f"tools/list: tool '{tool['name']}' has no `inputSchema` object", page)
    return PASS


def tool_names(t: Transcript) -> Verdict:
    _, verdict = _pages(t, "tools/list", "tools")
    if verdict is not None:
        return verdict
    names = [str(tool.get("name")) for tool in t.items("tools/list", "tools")]
    bad = [n for n in names if not _TOOL_NAME.match(n)]
    if bad:
        shown = ", ".join(repr(n if len(n) <= 40 else n[:40] + "…") + f" ({len(n)} chars)" for n in bad[:3])
        return Verdict("fail", f"tool names should be 1-128 of A-Z a-z 0-9 _ - . : {shown}")
    repeated = sorted({n for n in names if names.count(n) > 1})
    if repeated:
        return Verdict("fail", f"tool names should be unique: {', '.join(repeated[:5])} listed more than once")
    return PASS


def _schema_problem(schema: Any) -> str | None:
    if not isinstance(schema, dict):
        return "is not a JSON object"
    if schema.get("type") != "object":
        return f'has type {schema.get("type")!r}, not "object"'
    from mcptest.core.schema_checks import schema_problem

    found = schema_problem(schema)
    return None if found is None else f"is not a valid JSON Schema: {found[1][:200]}"


def input_schemas(t: Transcript) -> Verdict:
    _, verdict = _pages(t, "tools/list", "tools")
    if verdict is not None:
        return verdict
    for tool in t.items("tools/list", "tools"):
        if (why := _schema_problem(tool.get("inputSchema"))) is not None:
            return Verdict("fail", f"tool '{tool.get('name')}': inputSchema {why}")
    return PASS


def output_schemas(t: Transcript) -> Verdict:
    _, verdict = _pages(t, "tools/list", "tools")
    if verdict is not None:
        return verdict
    with_output = [tool for tool in t.items("tools/list", "tools") if "outputSchema" in tool]
    if not with_output:
        return skip("no tool declares an outputSchema")
    for tool in with_output:
        if (why := _schema_problem(tool.get("outputSchema"))) is not None:
            return Verdict("fail", f"tool '{tool.get('name')}': outputSchema {why}")
    return PASS


def tool_calls(t: Transcript) -> Verdict:
    if (absent := _declared(t, "tools")) is not None:
        return absent
    if not t.calls:
        return skip("no tool is annotated read-only with arguments mcptest can build, so none was called")
    for name, ex in t.calls:
        if (missing := _missing(t, ex, f"tools/call {name}")) is not None:
            return missing
        if ex.result is not None and not isinstance(ex.result.get("content"), list):
            return fail(f"tools/call {name}: the result has no `content` array", ex)
    return PASS


def structured_content(t: Transcript) -> Verdict:
    if (absent := _declared(t, "tools")) is not None:
        return absent
    schemas = {str(tool.get("name")): tool.get("outputSchema") for tool in t.items("tools/list", "tools")}
    checked = [(n, ex) for n, ex in t.calls if isinstance(schemas.get(n), dict) and ex.result is not None]
    checked = [(n, ex) for n, ex in checked if not (ex.result or {}).get("isError")]
    if not checked:
        return skip("no successful call of a tool with an outputSchema")
    from mcptest.core.json_schema import validator

    for name, ex in checked:
        structured = (ex.result or {}).get("structuredContent")
        if structured is None:
            return fail(f"tools/call {name}: the tool declares an outputSchema but sent no structuredContent", ex)
        errors = list(validator(schemas[name]).iter_errors(structured))  # type: ignore[arg-type]
        if errors:
            return fail(f"tools/call {name}: structuredContent breaks the outputSchema: {errors[0].message[:200]}", ex)
    return PASS


def unknown_tool(t: Transcript) -> Verdict:
    if (absent := _declared(t, "tools")) is not None:
        return absent
    ex = t.get("tools/call:unknown")
    if (missing := _missing(t, ex, "tools/call of an unknown tool")) is not None:
        return missing
    assert ex is not None
    if ex.succeeded and not (ex.result or {}).get("isError"):
        return fail("a call of a tool the server does not list succeeded", ex)
    return PASS


def invalid_arguments(t: Transcript) -> Verdict:
    if (absent := _declared(t, "tools")) is not None:
        return absent
    ex = t.get("tools/call:invalid-arguments")
    if ex is None:
        return skip("no read-only tool with a required argument to leave out")
    if (missing := _missing(t, ex, "tools/call with a required argument missing")) is not None:
        return missing
    if ex.succeeded and not (ex.result or {}).get("isError"):
        return fail("a call without the tool's required arguments succeeded (servers must validate tool inputs)", ex)
    return PASS


def tool_error_in_result(t: Transcript) -> Verdict:
    if (absent := _declared(t, "tools")) is not None:
        return absent
    ex = t.get("tools/call:test_error_handling")
    if ex is None:
        return skip("the server has no `test_error_handling` fixture tool")
    if (missing := _missing(t, ex, "tools/call test_error_handling")) is not None:
        return missing
    if ex.error is not None:
        return fail("a tool's own error came back as a JSON-RPC error, not as a result with isError: true", ex)
    if not (ex.result or {}).get("isError"):
        return fail("test_error_handling's result does not set isError: true", ex)
    return PASS


def _pagination(t: Transcript, method: str, key: str, capability: str) -> Verdict:
    pages, verdict = _pages(t, method, capability)
    if verdict is not None:
        return verdict
    cursors = [(p.result or {}).get("nextCursor") for p in pages]
    given = [c for c in cursors if c]
    if len(given) != len({repr(c) for c in given}):
        return fail(f"{method}: nextCursor cycles (a cursor came back twice)", pages[-1])
    if cursors[-1]:
        return fail(f"{method}: still paginating after {len(pages)} pages", pages[-1])
    if len(pages) > 1:
        first = [repr(i) for i in ((pages[0].result or {}).get(key) or [])]
        second = [repr(i) for i in ((pages[1].result or {}).get(key) or [])]
        if first and first == second:
            return fail(f"{method}: the cursor was not honoured (page 2 repeats page 1)", pages[1])
    return PASS


# resources -----------------------------------------------------------------------------------------------------


def resources_list(t: Transcript) -> Verdict:
    pages, verdict = _pages(t, "resources/list", "resources")
    if verdict is not None:
        return verdict
    for page in pages:
        listed = (page.result or {}).get("resources")
        if not isinstance(listed, list):
            return fail("resources/list: `resources` is not an array", page)
        for item in listed:
            if (
                not isinstance(item, dict)
                or not isinstance(item.get("uri"), str)
                or not isinstance(item.get("name"), str)
            ):
                return fail(f"resources/list: a resource without a string `uri` and `name`: {str(item)[:200]}", page)
    return PASS


def resource_templates(t: Transcript) -> Verdict:
    if (absent := _declared(t, "resources")) is not None:
        return absent
    pages = t.pages.get("resources/templates/list") or []
    if pages and pages[0].error is not None and pages[0].error.get("code") == METHOD_NOT_FOUND:
        return skip("the server implements no resources/templates/list")
    _, verdict = _pages(t, "resources/templates/list", "resources")
    if verdict is not None:
        return verdict
    for page in pages:
        listed = (page.result or {}).get("resourceTemplates")
        if not isinstance(listed, list):
            return fail("resources/templates/list: `resourceTemplates` is not an array", page)
        for item in listed:
            if not isinstance(item, dict) or not isinstance(item.get("uriTemplate"), str):
                return fail(f"resources/templates/list: a template without `uriTemplate`: {str(item)[:200]}", page)
    return PASS


def resource_read(t: Transcript) -> Verdict:
    if (absent := _declared(t, "resources")) is not None:
        return absent
    ex = t.get("resources/read")
    if ex is None:
        return skip("the server lists no resource to read") if not t.exited else fail(f"not probed ({t.exited})")
    if (missing := _missing(t, ex, "resources/read")) is not None:
        return missing
    contents = (ex.result or {}).get("contents")
    if ex.result is None or not isinstance(contents, list) or not contents:
        return fail("resources/read of a listed resource gave no `contents` array", ex)
    for item in contents:
        if not isinstance(item, dict) or not isinstance(item.get("uri"), str):
            return fail("resources/read: a content item without a string `uri`", ex)
        if ("text" in item) == ("blob" in item):
            return fail("resources/read: a content item must hold exactly one of `text` and `blob`", ex)
        if "blob" in item:
            try:
                base64.b64decode(str(item["blob"]), validate=True)
            except (binascii.Error, ValueError):
                return fail("resources/read: a `blob` is not base64", ex)
    return PASS


def _unknown_resource(t: Transcript) -> tuple[Exchange | None, Verdict | None]:
    if (absent := _declared(t, "resources")) is not None:
        return None, absent
    ex = t.get("resources/read:unknown")
    return ex, _missing(t, ex, "resources/read of an unknown URI")


def resource_not_found(t: Transcript) -> Verdict:
    ex, verdict = _unknown_resource(t)
    if verdict is not None:
        return verdict
    assert ex is not None
    if ex.succeeded and (ex.result or {}).get("contents"):
        return fail("reading a resource the server does not have succeeded", ex)
    return PASS


def resource_not_found_code(t: Transcript) -> Verdict:
    ex, verdict = _unknown_resource(t)
    if verdict is not None:
        return verdict
    assert ex is not None
    if _version(t) >= MODERN:  # 2026-07-28: "servers MUST return a JSON-RPC error with code -32602 (Invalid Params)"
        if (ex.error or {}).get("code") != INVALID_PARAMS:
            return fail(f"an unknown resource must get error {INVALID_PARAMS} (Invalid params) in {_version(t)}", ex)
        return PASS
    if (ex.error or {}).get("code") != RESOURCE_NOT_FOUND:
        return fail(f"an unknown resource should get error {RESOURCE_NOT_FOUND} (Resource not found)", ex)
    return PASS


def subscribe(t: Transcript) -> Verdict:
    if (absent := _declared(t, "resources")) is not None:
        return absent
    if not (t.capabilities.get("resources") or {}).get("subscribe"):
        return skip("server declares no `resources.subscribe`")
    for label in ("resources/subscribe", "resources/unsubscribe"):
        ex = t.get(label)
        if ex is None:
            return skip("the server lists no resource to subscribe to")
        if (missing := _missing(t, ex, label)) is not None:
            return missing
        if ex.result is None:
            return fail(f"{label} answered with an error", ex)
    return PASS


# prompts, logging, completion ----------------------------------------------------------------------------------


def prompts_list(t: Transcript) -> Verdict:
    pages, verdict = _pages(t, "prompts/list", "prompts")
    if verdict is not None:
        return verdict
    for page in pages:
        listed = (page.result or {}).get("prompts")
        if not isinstance(listed, list):
            return fail("prompts/list: `prompts` is not an array", page)
        for item in listed:
            if not isinstance(item, dict) or not isinstance(item.get("name"), str):
                return fail(f"prompts/list: a prompt without a string `name`: {str(item)[:200]}", page)
    return PASS


def prompt_get(t: Transcript) -> Verdict:
    if (absent := _declared(t, "prompts")) is not None:
        return absent
    ex = t.get("prompts/get")
    if ex is None:
        return skip("the server lists no prompt") if not t.exited else fail(f"not probed ({t.exited})")
    if (missing := _missing(t, ex, "prompts/get")) is not None:
        return missing
    messages = (ex.result or {}).get("messages")
    if ex.result is None or not isinstance(messages, list):
        return fail("prompts/get of a listed prompt gave no `messages` array", ex)
    for message in messages:
        if not isinstance(message, dict) or message.get("role") not in ("user", "assistant"):
            return fail("prompts/get: a message's role is neither `user` nor `assistant`", ex)
        if not isinstance(message.get("content"), dict) or not isinstance(message["content"].get("type"), str):
            return fail("prompts/get: a message's content has no `type`", ex)
    return PASS


def unknown_prompt(t: Transcript) -> Verdict:
    if (absent := _declared(t, "prompts")) is not None:
        return absent
    ex = t.get("prompts/get:unknown")
    if (missing := _missing(t, ex, "prompts/get of an unknown prompt")) is not None:
        return missing
    assert ex is not None
    if ex.succeeded:
        return fail("getting a prompt the server does not list succeeded", ex)
    return PASS


def set_level(t: Transcript) -> Verdict:
    if (absent := _declared(t, "logging")) is not None:
        return absent
    ex = t.get("logging/setLevel")
    if (missing := _missing(t, ex, "logging/setLevel")) is not None:
        return missing
    assert ex is not None
    if ex.result is None:
        return fail("logging/setLevel answered with an error", ex)
    return PASS


def complete(t: Transcript) -> Verdict:
    if (absent := _declared(t, "completions")) is not None:
        return absent
    ex = t.get("completion/complete")
    if ex is None:
        return skip("no prompt argument or resource template to complete")
    if (missing := _missing(t, ex, "completion/complete")) is not None:
        return missing
    completion = (ex.result or {}).get("completion")
    values = completion.get("values") if isinstance(completion, dict) else None
    if not isinstance(values, list) or not all(isinstance(v, str) for v in values):
        return fail("completion/complete: `completion.values` is not an array of strings", ex)
    if len(values) > 100:
        return fail(f"completion/complete: {len(values)} values, over the 100 allowed", ex)
    return PASS


# list_changed, progress, cancellation --------------------------------------------------------------------------

LIST_CHANGED = {
    "notifications/tools/list_changed": "tools",
    "notifications/resources/list_changed": "resources",
    "notifications/prompts/list_changed": "prompts",
}


def _notifications(t: Transcript, method: str) -> list[tuple[int, dict[str, Any]]]:
    """The notifications of `method` the server sent, with their place among all its messages."""
    return [
        (i, m) for i, m in enumerate(t.messages) if isinstance(m, dict) and m.get("method") == method and "id" not in m
    ]


def _shown(message: Any) -> str:
    return "received (unprompted): " + json.dumps(message, ensure_ascii=False)[:400]


def list_changed(t: Transcript) -> Verdict:
    sent = [(i, m) for method in LIST_CHANGED for i, m in _notifications(t, method)]
    for _, message in sorted(sent, key=lambda pair: pair[0]):
        capability = LIST_CHANGED[message["method"]]
        declared = t.capabilities.get(capability)
        if not isinstance(declared, dict) or declared.get("listChanged") is not True:
            return Verdict(
                "fail",
                f"the server sent {message['method']} but its `{capability}` capability does not declare "
                "`listChanged: true`",
                _shown(message),
            )
    if not sent:
        declared = [c for c in LIST_CHANGED.values() if (t.capabilities.get(c) or {}).get("listChanged") is True]
        why = f" (declared for {', '.join(declared)})" if declared else ""
        return skip(f"the server sent no list_changed notification{why}; a change cannot be caused without changing "
                    "the server's state")  # fmt: skip
    return PASS


def _progress(t: Transcript) -> list[tuple[int, dict[str, Any], str]]:
    """Every progress notification the server sent: its place, the message, its token as JSON."""
    out = []
    for i, message in _notifications(t, "notifications/progress"):
        params = message.get("params") if isinstance(message.get("params"), dict) else {}
        out.append((i, message, json.dumps(params.get("progressToken"))))  # type: ignore[union-attr]
    return out


def _no_progress(t: Transcript) -> Verdict:
    offered = len(t.progress_tokens)
    if not offered:
        return skip("no request carried a progress token (no tool was called)")
    return skip(f"the server sent no progress notification (a progress token came with {offered} request(s))")


def progress_tokens(t: Transcript) -> Verdict:
    found = _progress(t)
    if not found:
        return _no_progress(t)
    answered: dict[str, int] = {}
    for i, message in enumerate(t.messages):
        if isinstance(message, dict) and "method" not in message and "id" in message:
            answered.setdefault(json.dumps(message["id"]), i)
    for i, message, token in found:
        request = t.progress_tokens.get(token)
        if request is None:
            return Verdict(
                "fail", f"a progress notification names the token {token}, which no request of mcptest carried",
                _shown(message),
            )  # fmt: skip
        if request == json.dumps(t.cancelled):
            continue  # a cancelled request's last notifications may cross the cancellation
        if request in answered and answered[request] < i:
            return Verdict(
                "fail", f"a progress notification for token {token} came after the response to its request "
                "(the operation was no longer in progress)", _shown(message),
            )  # fmt: skip
    return PASS


def progress_increasing(t: Transcript) -> Verdict:
    found = _progress(t)
    if not found:
        return _no_progress(t)
    last: dict[str, Any] = {}
    for _, message, token in found:
        value = (message.get("params") or {}).get("progress")
        if token not in t.progress_tokens or not isinstance(value, (int, float)) or isinstance(value, bool):
            continue  # progress-tokens judges an unknown token, schema-messages the shape
        if token in last and value <= last[token]:
            return Verdict(
                "fail", f"progress for token {token} went from {last[token]} to {value}: it must increase with each "
                "notification", _shown(message),
            )  # fmt: skip
        last[token] = value
    return PASS


def _cancelled_by_closing(t: Transcript) -> Verdict | None:
    if t.modern and t.transport == "http":
        return skip(f"on Streamable HTTP in {t.offered_version} a request is cancelled by closing its stream")
    return None


def cancellation_ignored(t: Transcript) -> Verdict:
    if (by_closing := _cancelled_by_closing(t)) is not None:
        return by_closing
    ex = t.get("cancel:after")
    if ex is None:
        return fail(f"not probed ({t.exited})") if t.exited else skip("not probed")
    if ex.problem or ex.received is None:
        why = ex.problem or "no JSON-RPC response came back"
        return fail(
            f"after a cancellation of a request it had already answered, the server no longer answers: {why}",
            t.get("cancel:completed"), ex,
        )  # fmt: skip
    return PASS


def cancellation_no_response(t: Transcript) -> Verdict:
    if (by_closing := _cancelled_by_closing(t)) is not None:
        return by_closing
    ex = t.get("cancel:in-flight")
    if ex is None:
        return skip(f"the server has no slow read-only fixture tool ({', '.join(SLOW_FIXTURES)}) to cancel mid-way")
    if t.cancelled is None:
        if ex.problem and not ex.problem.startswith("no answer"):
            return fail(f"the call to cancel mid-way: {ex.problem}", ex)
        return skip("the call ended before a progress notification showed it running, so it was not cancelled")
    if ex.received is not None:
        return fail("the server answered a request after mcptest cancelled it", ex, t.get("cancel:notification"))
    if ex.problem and not ex.problem.startswith("no answer"):
        return fail(f"after the cancellation: {ex.problem}", ex)
    return PASS


SLOW_FIXTURES: dict[str, dict[str, Any]] = {"trigger-long-running-operation": {"duration": 0.5, "steps": 5}}
"""Read-only tools known to run long and report progress (the reference server's), with arguments that make them
last half a second in five steps: the one a cancellation is tried on mid-way."""


# Streamable HTTP -----------------------------------------------------------------------------------------------


def session_id(t: Transcript) -> Verdict:
    ex = t.initialize
    if ex is None or ex.problem:
        return skip("initialize gave no answer")
    value = ex.header("mcp-session-id")
    if value is None:
        return skip("the server issues no session id")
    if not value or not all(0x21 <= b <= 0x7E for b in value):
        shown = value.decode("utf-8", errors="replace")
        return fail(f"the Mcp-Session-Id {shown[:60]!r} is not visible ASCII (0x21-0x7E)", ex)
    return PASS


def content_types(t: Transcript) -> Verdict:
    for label, ex in _all_exchanges(t):
        if ex.http_method != "POST" or ex.sent is None or "id" not in ex.sent or ex.status is None:
            continue
        if ex.status >= 400 or label.startswith("http:"):
            continue
        if ex.content_type not in ("application/json", "text/event-stream"):
            return fail(f"{label}: a request's answer must be application/json or text/event-stream", ex)
    return PASS


def notification_accepted(t: Transcript) -> Verdict:
    ex = t.get("initialized")
    if ex is None or ex.status is None:
        return (
            fail(f"notifications/initialized: {ex.problem}", ex)
            if ex is not None and ex.problem
            else skip("not probed")
        )
    if ex.status != 202 or ex.body.strip():
        return fail("a notification must be answered HTTP 202 Accepted with no body", ex)
    return PASS


def _session_probe(t: Transcript, label: str) -> tuple[Exchange | None, Verdict | None]:
    if t.initialize is None or t.initialize.header("mcp-session-id") is None:
        return None, skip("the server issues no session id")
    ex = t.get(label)
    if ex is None:
        return None, skip("not probed")
    if ex.problem:
        return ex, fail(ex.problem, ex)
    return ex, None


def session_required(t: Transcript) -> Verdict:
    ex, verdict = _session_probe(t, "http:no-session")
    if verdict is not None:
        return verdict
    assert ex is not None
    if ex.status != 400:
        return fail("a request without the Mcp-Session-Id the server issued should get HTTP 400", ex)
    return PASS


def session_deleted(t: Transcript) -> Verdict:
    deleted, verdict = _session_probe(t, "http:delete")
    if verdict is not None:
        return verdict
    assert deleted is not None
    if deleted.status == 405:
        return skip("the server does not let clients end sessions (DELETE: 405)")
    after = t.get("http:after-delete")
    if after is None or after.problem:
        return fail("no answer after DELETE", deleted, after)
    if deleted.status is not None and deleted.status >= 400:
        return fail(f"DELETE of the session answered HTTP {deleted.status}", deleted)
    if after.status != 404:
        return fail("a request with a session ended by DELETE must get HTTP 404", deleted, after)
    return PASS


def origin_checked(t: Transcript) -> Verdict:
    ex = t.get("http:origin")
    if ex is None:
        return skip("not probed")
    if ex.problem:
        return fail(ex.problem, ex)
    if ex.status == 403:
        return PASS
    if ex.status is not None and 400 <= ex.status < 500 and _version(t) < "2025-11-25":
        return PASS  # before 2025-11-25 the spec said "MUST validate the Origin header" and named no status
    return fail("initialize with `Origin: http://evil.example` must get HTTP 403 (DNS rebinding protection)", ex)


def _version(t: Transcript) -> str:
    """The version the checks are of: the negotiated one, else the one offered."""
    return t.version if t.version in KNOWN_VERSIONS else t.offered_version


def protocol_header(t: Transcript) -> Verdict:
    ex = t.get("http:bad-protocol-version")
    if ex is None:
        return skip("not probed")
    if ex.problem:
        return fail(ex.problem, ex)
    if ex.status != 400:
        return fail(f"a request with `MCP-Protocol-Version: {UNSUPPORTED_VERSION}` must get HTTP 400", ex)
    return PASS


def get_stream(t: Transcript) -> Verdict:
    ex = t.get("http:get")
    if ex is None:
        return skip("not probed")
    if ex.problem:
        return fail(ex.problem, ex)
    if ex.status == 405 or (ex.status == 200 and ex.content_type == "text/event-stream"):
        return PASS
    return fail("GET on the endpoint must open a text/event-stream or answer 405 Method Not Allowed", ex)


# 2026-07-28: no handshake, a `_meta` envelope on every request, server/discover ----------------------------------


def discover_result(t: Transcript) -> Verdict:
    ex = t.discover
    if (missing := _missing(t, ex, "server/discover")) is not None:
        return missing
    assert ex is not None
    result = ex.result
    if result is None:
        return fail("server/discover answered with an error, not a result", ex)
    wrong = []
    versions = result.get("supportedVersions")
    if not isinstance(versions, list) or not all(isinstance(v, str) for v in versions):
        wrong.append("`supportedVersions` is not a list of strings")
    elif t.offered_version not in versions:
        wrong.append(f"`supportedVersions` lacks {t.offered_version}, the version the request carried and was served")
    if not isinstance(result.get("capabilities"), dict):
        wrong.append("`capabilities` is not an object")
    return fail("; ".join(wrong), ex) if wrong else PASS


def discover_server_info(t: Transcript) -> Verdict:
    ex = t.discover
    if ex is None or ex.result is None:
        return skip("server/discover gave no result")
    info = t.server_info
    if not isinstance(info.get("name"), str) or not isinstance(info.get("version"), str):
        return fail(f"server/discover's result names no server: `_meta[{SERVER_INFO!r}]` lacks name and version", ex)
    return PASS


def result_type(t: Transcript) -> Verdict:
    for label, ex in _all_exchanges(t):
        result = ex.result
        if result is None or ex.sent is None:
            continue
        if result.get("resultType") not in ("complete", "input_required"):
            got = result.get("resultType", "no resultType")
            return fail(f'{label}: a result must carry `resultType` "complete" (or "input_required"), got {got!r}', ex)
    return PASS


def _modern_refusal(t: Transcript, label: str, code: int, what: str) -> Verdict:
    ex = t.get(label)
    if (missing := _missing(t, ex, what)) is not None:
        return missing
    assert ex is not None
    got = (ex.error or {}).get("code")
    if got != code:
        answer = f"error {got}" if ex.error is not None else "a result"
        return fail(f"{what} must get error {code}, got {answer}", ex)
    if ex.http_method and ex.status != 400:
        return fail(f"{what} must be answered HTTP 400 Bad Request, got HTTP {ex.status}", ex)
    return PASS


def envelope_required(t: Transcript) -> Verdict:
    return _modern_refusal(t, "modern:no-envelope", INVALID_PARAMS, "a request without the `_meta` envelope")


def version_unsupported(t: Transcript) -> Verdict:
    verdict = _modern_refusal(
        t, "modern:unsupported-version", UNSUPPORTED_PROTOCOL_VERSION, f"a request of protocol {UNSUPPORTED_VERSION}"
    )
    if verdict.status != "pass":
        return verdict
    ex = t.get("modern:unsupported-version")
    assert ex is not None
    data = (ex.error or {}).get("data")
    supported = data.get("supported") if isinstance(data, dict) else None
    if not isinstance(supported, list) or not all(isinstance(v, str) for v in supported):
        return fail(
            "UnsupportedProtocolVersionError must list the versions the server supports in `data.supported`", ex
        )
    return PASS


def header_mismatch(t: Transcript) -> Verdict:
    return _modern_refusal(t, "http:header-mismatch", HEADER_MISMATCH, "an Mcp-Method header that contradicts the body")


def unknown_method_status(t: Transcript) -> Verdict:
    ex = t.get("unknown-method")
    if ex is None or ex.problem or ex.received is None:
        return skip("the unknown method got no JSON-RPC answer (jsonrpc-unknown-method says why)")
    if ex.status != 404:
        return fail("an unknown method must be answered HTTP 404 Not Found (with error -32601)", ex)
    return PASS


def get_not_allowed(t: Transcript) -> Verdict:
    ex = t.get("http:get")
    if ex is None:
        return skip("not probed")
    if ex.problem:
        return fail(ex.problem, ex)
    if ex.status != 405:
        return fail(f"GET on the endpoint should be answered 405 Method Not Allowed in {t.offered_version}", ex)
    return PASS


def no_session_id(t: Transcript) -> Verdict:
    for label, ex in _all_exchanges(t):
        if ex.header("mcp-session-id") is not None:
            return fail(f"{label}: the server minted an Mcp-Session-Id, which {t.offered_version} does not have", ex)
    return PASS


# SSE resumption (Streamable HTTP, 2025-03-26 to 2025-11-25) ----------------------------------------------------


def _session_streams(t: Transcript) -> list[tuple[str, Exchange]]:
    """The SSE answers of the run's own session (not the probes without a session id, not the resumption)."""
    skipped = ("http:origin", "http:no-session", "http:resume")
    return [(label, ex) for label, ex in _all_exchanges(t) if ex.events and label not in skipped]


def resume_point(t: Transcript) -> tuple[str, str] | None:
    """Where to resume: the first stream of the session with an event id followed by an event with data (the
    stream's label and that id); None when the server attaches no ids, or none is followed by a message."""
    for label, ex in _session_streams(t):
        for i, (event_id, _) in enumerate(ex.events):
            if event_id is not None and any(data.strip() for _, data in ex.events[i + 1 :]):
                return label, event_id
    return None


def event_ids_unique(t: Transcript) -> Verdict:
    seen: dict[str, str] = {}
    for label, ex in _session_streams(t):
        for event_id in ex.event_ids:
            if event_id in seen:
                where = f"on {seen[event_id]} and on {label}" if seen[event_id] != label else f"twice on {label}"
                return fail(f"the SSE event id {event_id!r} comes {where}: ids must be unique across the session", ex)
            seen[event_id] = label
    if not seen:
        return skip("the server attaches no ids to its SSE events (no resumption offered)")
    return PASS


def _message_key(data: str) -> str | None:
    try:
        return json.dumps(json.loads(data), sort_keys=True)
    except ValueError:
        return None


def resumed(t: Transcript) -> Verdict:
    ex = t.get("http:resume")
    if ex is None:
        if not any(e.event_ids for _, e in _session_streams(t)):
            return skip("the server attaches no ids to its SSE events (no resumption offered)")
        return skip("no event id was followed by a message on its stream, so there was nothing to resume")
    if ex.problem:
        return fail(f"GET with Last-Event-ID: {ex.problem}", ex)
    if ex.status != 200:
        return PASS  # resuming is the server's choice ("MAY use this header to replay")
    last = ex.request_headers.get("Last-Event-ID", "")
    streams = _session_streams(t)
    home = next((label for label, e in streams if last in e.event_ids), "")
    after: set[str] = set()
    before: set[str] = set()
    elsewhere: set[str] = set()
    for label, e in streams:
        cut = next((i for i, (event_id, _) in enumerate(e.events) if event_id == last), -1) if label == home else -1
        for i, (_, data) in enumerate(e.events):
            key = _message_key(data)
            if key is not None:
                (elsewhere if label != home else after if i > cut else before).add(key)
    evidence = f"resumed {home} from Last-Event-ID {last!r}; replayed: " + (
        " | ".join(d[:200] for _, d in ex.events if d.strip())[:600] or "nothing"
    )
    for _, data in ex.events:
        key = _message_key(data)
        if key is None or key in after:
            continue
        if key in elsewhere:
            text = f"the resumed stream replays a message of another stream (MUST NOT): {data[:200]}"
            return Verdict("fail", text, evidence)
        if key in before:
            return Verdict(
                "fail", f"the resumed stream replays a message sent before Last-Event-ID: {data[:200]}", evidence
            )
    return PASS


# authorization (HTTP servers that require a token) --------------------------------------------------------------


def resource_metadata_url(ex: Exchange) -> str | None:
    """The `resource_metadata` URL a 401's WWW-Authenticate names (RFC 9728 section 5.1), if any."""
    challenge = (ex.header("www-authenticate") or b"").decode("latin-1")
    found = re.search(r'resource_metadata\s*=\s*"?([^",\s]+)"?', challenge)
    return found.group(1) if found else None


def invalid_token(t: Transcript) -> Verdict:
    if not t.auth:
        return skip("the server is configured with no auth")
    ex = t.get("auth:invalid-token")
    if ex is None:
        return skip("not probed")
    if ex.problem:
        return fail(ex.problem, ex)
    if ex.status != 401:
        return fail("a request with a token the server never issued must get HTTP 401", ex)
    if ex.header("www-authenticate") is None:
        return fail("the 401 must carry a WWW-Authenticate header (RFC 6750 section 3)", ex)
    return PASS


def resource_metadata(t: Transcript) -> Verdict:
    if t.auth != "oauth":
        return skip("the server is not configured with OAuth" + (" (a static bearer token)" if t.auth else ""))
    fetched = [ex for label, ex in t.exchanges.items() if label.startswith("auth:metadata:")]
    if not fetched:
        return skip("not probed (the request with an invalid token got no answer)")
    document = next((ex for ex in fetched if ex.status == 200 and ex.received is not None), None)
    if document is None:
        return fail(
            "no Protected Resource Metadata: the 401 names no `resource_metadata` and the well-known URIs serve none",
            t.get("auth:invalid-token"), *fetched,
        )  # fmt: skip
    servers = (document.received or {}).get("authorization_servers")
    if not isinstance(servers, list) or not servers or not all(isinstance(s, str) for s in servers):
        return fail("the Protected Resource Metadata must list at least one `authorization_servers` entry", document)
    return PASS


CHECKS: tuple[Check, ...] = (
    Check(
        "lifecycle-initialize",
        "MUST",
        "basic/lifecycle#initialization",
        "initialize answers with version, capabilities and serverInfo",
        initialize_result,
        until=LAST_HANDSHAKE,
    ),
    Check(
        "lifecycle-version",
        "MUST",
        "basic/lifecycle#version-negotiation",
        "the answered protocol version is the one offered or one the server supports",
        version_negotiation,
        until=LAST_HANDSHAKE,
    ),
    Check(
        "lifecycle-unsupported-version",
        "MUST",
        "basic/lifecycle#version-negotiation",
        "an unsupported version offered is refused or answered with a supported one",
        unsupported_version,
        until=LAST_HANDSHAKE,
    ),
    Check("ping", "MUST", "basic/utilities/ping", "ping is answered with an empty result", ping, until=LAST_HANDSHAKE),
    Check(
        "discover-result",
        "MUST",
        "server/discover",
        "server/discover answers with the versions it supports (the one served among them) and its capabilities",
        discover_result,
        since=MODERN,
    ),
    Check(
        "discover-server-info",
        "SHOULD",
        "server/discover#discoverresult",
        "server/discover's result names the server in `_meta`",
        discover_server_info,
        since=MODERN,
    ),
    Check(
        "result-type",
        "MUST",
        "basic#result-responses",
        'every result carries `resultType` ("complete" or "input_required")',
        result_type,
        since=MODERN,
    ),
    Check(
        "meta-envelope-required",
        "MUST",
        "basic#meta",
        "a request without the `_meta` protocol version and client capabilities gets -32602",
        envelope_required,
        since=MODERN,
    ),
    Check(
        "version-unsupported-error",
        "MUST",
        "basic/versioning#protocol-version-negotiation",
        "a request of an unsupported version gets -32022 listing the supported versions",
        version_unsupported,
        since=MODERN,
    ),
    Check("jsonrpc-version", "MUST", "basic#messages", 'every message says "jsonrpc": "2.0"', jsonrpc_version),
    Check("jsonrpc-response-ids", "MUST", "basic#responses", "responses carry the id of their request", response_ids),
    Check(
        "jsonrpc-error-objects",
        "MUST",
        "basic#responses",
        "error objects have an integer code and a string message",
        error_objects,
    ),
    Check(
        "jsonrpc-notifications-unanswered",
        "MUST",
        "basic#notifications",
        "notifications get no response",
        notifications_unanswered,
        "stdio+sse",
    ),
    Check("jsonrpc-unknown-method", "MUST", "basic#responses", "an unknown method gets error -32601", unknown_method),
    Check(
        "stdio-stdout-clean",
        "MUST",
        "basic/transports#stdio",
        "stdout carries nothing but MCP messages",
        stdout_clean,
        "stdio",
    ),
    Check(
        "schema-messages",
        "MUST",
        "schema",
        "every result, error and notification is valid under the negotiated version's JSON Schema",
        message_schema,
    ),
    Check(
        "capabilities-undeclared",
        "MUST",
        "basic/lifecycle#operation",
        "methods of undeclared capabilities are refused",
        undeclared_refused,
    ),
    Check(
        "capabilities-undeclared-code",
        "SHOULD",
        "basic/lifecycle#operation",
        "methods of undeclared capabilities get -32601",
        undeclared_code,
    ),
    Check(
        "tools-list",
        "MUST",
        "server/tools#listing-tools",
        "tools/list gives tools with a name and an inputSchema",
        tools_list,
    ),
    Check(
        "tools-name-format",
        "SHOULD",
        "server/tools#tool-names",
        "tool names are 1-128 of A-Z a-z 0-9 _ - . and unique",
        tool_names,
        since="2025-11-25",
    ),
    Check(
        "tools-input-schema",
        "MUST",
        "server/tools#tool",
        "each inputSchema is an object schema valid under its metaschema",
        input_schemas,
    ),
    Check(
        "tools-output-schema",
        "MUST",
        "server/tools#output-schema",
        "each outputSchema is an object schema valid under its metaschema",
        output_schemas,
    ),
    Check(
        "tools-call-result",
        "MUST",
        "server/tools#calling-tools",
        "read-only tools answer with a content array",
        tool_calls,
    ),
    Check(
        "tools-structured-content",
        "MUST",
        "server/tools#structured-content",
        "structuredContent conforms to the tool's outputSchema",
        structured_content,
    ),
    Check(
        "tools-unknown-tool",
        "MUST",
        "server/tools#error-handling",
        "a call of an unknown tool is an error",
        unknown_tool,
    ),
    Check(
        "tools-invalid-arguments",
        "MUST",
        "server/tools#security-considerations",
        "a call without required arguments is an error",
        invalid_arguments,
    ),
    Check(
        "tools-error-in-result",
        "SHOULD",
        "server/tools#error-handling",
        "a tool's own error comes back as a result with isError",
        tool_error_in_result,
    ),
    Check(
        "tools-pagination",
        "MUST",
        "server/utilities/pagination",
        "tools/list pages end and honour their cursors",
        lambda t: _pagination(t, "tools/list", "tools", "tools"),
    ),
    Check(
        "resources-list",
        "MUST",
        "server/resources#listing-resources",
        "resources/list gives resources with a uri and a name",
        resources_list,
    ),
    Check(
        "resources-templates",
        "MUST",
        "server/resources#resource-templates",
        "resources/templates/list gives templates with a uriTemplate",
        resource_templates,
    ),
    Check(
        "resources-read",
        "MUST",
        "server/resources#reading-resources",
        "a listed resource reads as text or base64 blob contents",
        resource_read,
    ),
    Check(
        "resources-not-found",
        "MUST",
        "server/resources#error-handling",
        "reading an unknown resource is an error",
        resource_not_found,
    ),
    Check(
        "resources-not-found-code",
        "SHOULD",
        "server/resources#error-handling",
        "reading an unknown resource gets -32002 (from 2026-07-28: -32602, a MUST)",
        resource_not_found_code,
        must_since=MODERN,
    ),
    Check(
        "resources-subscribe",
        "MUST",
        "server/resources#subscriptions",
        "subscribe and unsubscribe answer when declared",
        subscribe,
        until=LAST_HANDSHAKE,
    ),
    Check(
        "resources-pagination",
        "MUST",
        "server/utilities/pagination",
        "resources/list pages end and honour their cursors",
        lambda t: _pagination(t, "resources/list", "resources", "resources"),
    ),
    Check(
        "prompts-list", "MUST", "server/prompts#listing-prompts", "prompts/list gives prompts with a name", prompts_list
    ),
    Check(
        "prompts-get",
        "MUST",
        "server/prompts#getting-a-prompt",
        "a listed prompt renders as user/assistant messages",
        prompt_get,
    ),
    Check(
        "prompts-unknown",
        "MUST",
        "server/prompts#error-handling",
        "getting an unknown prompt is an error",
        unknown_prompt,
    ),
    Check(
        "prompts-pagination",
        "MUST",
        "server/utilities/pagination",
        "prompts/list pages end and honour their cursors",
        lambda t: _pagination(t, "prompts/list", "prompts", "prompts"),
    ),
    Check(
        "logging-set-level",
        "MUST",
        "server/utilities/logging#setting-log-level",
        "logging/setLevel is answered with a result",
        set_level,
        until=LAST_HANDSHAKE,
    ),
    Check(
        "completion-complete",
        "MUST",
        "server/utilities/completion",
        "completion/complete gives at most 100 string values",
        complete,
    ),
    Check(
        "list-changed-declared",
        "MUST",
        "basic/lifecycle#operation",
        "list_changed notifications come only for capabilities declaring listChanged",
        list_changed,
    ),
    Check(
        "progress-tokens",
        "MUST",
        "basic/utilities/progress#behavior-requirements",
        "progress notifications name only the tokens of requests still in progress",
        progress_tokens,
    ),
    Check(
        "progress-increasing",
        "MUST",
        "basic/utilities/progress#behavior-requirements",
        "the progress value increases with each notification",
        progress_increasing,
    ),
    Check(
        "cancellation-ignored",
        "SHOULD",
        "basic/utilities/cancellation#behavior-requirements",
        "a cancellation of an answered request is ignored: the server goes on answering",
        cancellation_ignored,
    ),
    Check(
        "cancellation-no-response",
        "SHOULD",
        "basic/utilities/cancellation#behavior-requirements",
        "a request cancelled mid-way gets no response",
        cancellation_no_response,
    ),
    Check(
        "http-session-id",
        "MUST",
        "basic/transports#session-management",
        "the Mcp-Session-Id is visible ASCII",
        session_id,
        "http",
        until=LAST_HANDSHAKE,
    ),
    Check(
        "http-content-type",
        "MUST",
        "basic/transports#sending-messages-to-the-server",
        "answers to requests are application/json or text/event-stream",
        content_types,
        "http",
    ),
    Check(
        "http-notification-accepted",
        "MUST",
        "basic/transports#sending-messages-to-the-server",
        "a notification is answered 202 with no body",
        notification_accepted,
        "http",
        until=LAST_HANDSHAKE,
    ),
    Check(
        "http-session-required",
        "SHOULD",
        "basic/transports#session-management",
        "a request without the session id gets 400",
        session_required,
        "http",
        until=LAST_HANDSHAKE,
    ),
    Check(
        "http-session-deleted",
        "MUST",
        "basic/transports#session-management",
        "after DELETE the session's requests get 404",
        session_deleted,
        "http",
        until=LAST_HANDSHAKE,
    ),
    Check(
        "http-origin",
        "MUST",
        "basic/transports#security-warning",
        "a foreign Origin gets 403 (DNS rebinding)",
        origin_checked,
        "http",
    ),
    Check(
        "http-protocol-version-header",
        "MUST",
        "basic/transports#protocol-version-header",
        "an unsupported MCP-Protocol-Version header gets 400",
        protocol_header,
        "http",
        until=LAST_HANDSHAKE,
    ),
    Check(
        "http-get-stream",
        "MUST",
        "basic/transports#listening-for-messages-from-the-server",
        "GET opens an SSE stream or answers 405",
        get_stream,
        "http",
        until=LAST_HANDSHAKE,
    ),
    Check(
        "http-event-ids-unique",
        "MUST",
        "basic/transports#resumability-and-redelivery",
        "SSE event ids are unique across the session's streams",
        event_ids_unique,
        "http",
        until=LAST_HANDSHAKE,
    ),
    Check(
        "http-resume",
        "MUST",
        "basic/transports#resumability-and-redelivery",
        "a GET with Last-Event-ID replays only what its stream sent after that event",
        resumed,
        "http",
        until=LAST_HANDSHAKE,
    ),
    Check(
        "auth-invalid-token",
        "MUST",
        "basic/authorization#token-handling",
        "a token the server never issued gets 401 with WWW-Authenticate",
        invalid_token,
        "http",
    ),
    Check(
        "auth-resource-metadata",
        "MUST",
        "basic/authorization#protected-resource-metadata-discovery-requirements",
        "Protected Resource Metadata naming an authorization server, where the 401 points or at a well-known URI",
        resource_metadata,
        "http",
    ),
    Check(
        "http-header-mismatch",
        "MUST",
        "basic/transports/streamable-http#server-validation",
        "an Mcp-Method header that contradicts the body gets 400 and -32020",
        header_mismatch,
        "http",
        since=MODERN,
    ),
    Check(
        "http-unknown-method-status",
        "MUST",
        "basic/transports/streamable-http#protocol-version-header",
        "an unknown method gets HTTP 404 (and -32601)",
        unknown_method_status,
        "http",
        since=MODERN,
    ),
    Check(
        "http-get-not-allowed",
        "SHOULD",
        "basic/transports/streamable-http#earlier-streamable-http-revisions",
        "GET on the endpoint gets 405 (no standalone stream)",
        get_not_allowed,
        "http",
        since=MODERN,
    ),
    Check(
        "http-no-session-id",
        "SHOULD",
        "basic/transports/streamable-http#earlier-streamable-http-revisions",
        "no Mcp-Session-Id is minted (there are no sessions)",
        no_session_id,
        "http",
        since=MODERN,
    ),
)
"""Every check, in the order a report lists them."""

BY_ID = {check.id: check for check in CHECKS}


def judge(t: Transcript) -> list[tuple[Check, Verdict]]:
    """Every check's verdict on one transcript (a check of the other transport skipped)."""
    out = []
    for check in CHECKS:
        if check.transport != "any" and t.transport not in check.transport.split("+"):
            out.append((check, skip(f"{check.transport.replace('+', ' and ')} only")))
            continue
        if check.since and _version(t) < check.since:
            out.append((check, skip(f"not in protocol {_version(t)} (since {check.since})")))
            continue
        if check.until and _version(t) > check.until:
            out.append((check, skip(f"not in protocol {_version(t)} (until {check.until})")))
            continue
        out.append((check, check.judge(t)))
    return out


__all__ = ["CHECKS", "SCHEMA_VERSIONS", "Check", "Verdict", "judge"]
