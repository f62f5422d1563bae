"""SEC rules about what a tool does to the world: undeclared side effects, and names that collide across servers."""

from __future__ import annotations

import re
from collections.abc import Iterator

from mcptest.checks.findings import Hit, pointer
from mcptest.checks.security.scope import EMPTY, Scope
from mcptest.records.catalog import Tool

DESTRUCTIVE: tuple[str, ...] = (
    "delete",
    "remove",
    "erase",
    "destroy",
    "drop",
    "purge",
    "wipe",
    "overwrite",
    "truncate",
    "kill",
)
SENDING: tuple[str, ...] = (
    "send",
    "email",
    "mail",
    "post",
    "publish",
    "upload",
    "tweet",
    "notify",
    "transfer",
    "pay",
    "sms",
)
_PARTS = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])")
_TO_CLIENT = re.compile(
    r"^\W*(\w+\s+){0,2}(elicitation|progress|notifications?|sampling|requests?\s+(for|to)\s+the\s+(user|client)|"
    r"(it\s+)?(back\s+)?to\s+the\s+(user|client))\b",
    re.IGNORECASE,
)
"""What follows "sends" when the message goes to the MCP client, not the outside world."""
_NEGATED = re.compile(r"\b(not|never|without|no|cannot|won't|doesn't|don't)\s+(\w+\s+){0,2}$", re.IGNORECASE)


def sec_008_undeclared_side_effect(tool: Tool) -> Iterator[Hit]:
    """A tool that says it deletes, overwrites or sends does not declare it in its annotations.

    What it flags: a tool whose name (split at `_`, `-` and case changes) or description uses a destroying verb
    (delete, remove, erase, destroy, drop, purge, wipe, overwrite, truncate, kill) without
    `"destructiveHint": true`, or a sending verb (send, email, mail, post, publish, upload, tweet, notify,
    transfer, pay, sms) without `"openWorldHint": true`; and such a tool that claims `"readOnlyHint": true`. Negated
    uses ("does not delete") and messages to the MCP client ("sends an elicitation request", "sends progress
    notifications") pass. MCP's defaults make an absent hint mean "may destroy, may reach out", but a
    client only asks for confirmation reliably when the hint is stated.
    Why it matters: clients decide from these hints whether to ask the user before a call. A sink described
    as something harmless, or a deletion without the hint, runs unconfirmed in clients that trust the
    annotations, which is how an exfiltrating or destroying call slips through.
    Example: `{"name": "send_report", "annotations": {"readOnlyHint": true}}`
    Fix: `"annotations": {"readOnlyHint": false, "destructiveHint": false, "openWorldHint": true}` for a tool
    that sends; `"destructiveHint": true` for one that deletes or overwrites.
    """
    if "inputSchema" not in tool.raw:  # resources and prompts do not act
        return
    hints = tool.annotations or {}
    verbs = _verbs(tool)
    for verb in verbs:
        kind, hint = ("destroys", "destructiveHint") if verb in DESTRUCTIVE else ("sends", "openWorldHint")
        if hints.get("readOnlyHint") is True:
            yield Hit(
                f"says it {kind} ({verb!r}) but claims readOnlyHint: true",
                f"Set {hint}: true.",
                pointer("annotations", "readOnlyHint"),
            )
            return
        if hints.get(hint) is not True:
            yield Hit(
                f"says it {kind} ({verb!r}) without {hint}: true",
                f"Declare {hint}: true.",
                pointer("annotations", hint),
            )


def sec_009_name_collision(tool: Tool, scope: Scope = EMPTY) -> Iterator[Hit]:
    """Two servers of the scan list a tool (or prompt) with the same name.

    What it flags: a name that more than one server of a suite lists. Each copy is reported, with the servers.
    Why it matters: the model picks tools by name; with two `send_email` tools one server can intercept calls
    meant for the other (tool shadowing by name, the cross-server form of the attacks Invariant Labs published
    in 2025), and clients that prefix or drop duplicates behave differently.
    Example: servers `mail` and `notes` both list `send_email`.
    Fix: rename one (a server prefix such as `notes_send_email`), or do not connect both in one agent.
    """
    servers = scope.servers_of.get(tool.name, frozenset())
    if len(servers) > 1:
        yield Hit(f"also listed by {', '.join(sorted(servers))}", "Rename one of them.", pointer("name"))


def _verbs(tool: Tool) -> list[str]:
    """The first destroying and the first sending verb the name or the description uses (not negated)."""
    words = [w.lower() for w in _PARTS.findall(tool.name)]
    found = []
    for family in (DESTRUCTIVE, SENDING):
        hit = next((w for w in words if w in family), None) or _in_description(tool.description, family)
        if hit:
            found.append(hit)
    return found


def _in_description(description: str, family: tuple[str, ...]) -> str | None:
    for m in _FORMS[family].finditer(description):
        before, after = description[max(0, m.start() - 40) : m.start()], description[m.end() : m.end() + 60]
        if not _NEGATED.search(before) and not (family is SENDING and _TO_CLIENT.search(after)):
            return family[int(str(m.lastgroup)[1:])]
    return None


def _forms(verb: str) -> str:
    """The verb's inflections: delete, deletes, deleted, deleting; drop, drops, dropped, dropping."""
    endings = "e|es|ed|ing" if verb.endswith("e") else f"|s|es|ed|ing|{verb[-1]}ed|{verb[-1]}ing"
    stem = verb[:-1] if verb.endswith("e") else verb
    return rf"{stem}(?:{endings})"


_FORMS = {
    family: re.compile(rf"\b(?:{'|'.join(f'(?P<v{i}>{_forms(v)})' for i, v in enumerate(family))})\b", re.IGNORECASE)
    for family in (DESTRUCTIVE, SENDING)
}
