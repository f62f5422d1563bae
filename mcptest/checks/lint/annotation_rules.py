"""DESC rules about tool annotations: conformance checks on the JSON, not heuristics."""

from __future__ import annotations

import re
from collections.abc import Iterator

from mcptest.checks.findings import Hit, pointer
from mcptest.checks.lint.text import SELECTORS, arguments, normalized, sentences
from mcptest.core.re_cache import compiled
from mcptest.records.catalog import Tool

HINTS = ("readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint")
"""The four behaviour hints of MCP tool annotations; each must be a JSON boolean when present."""


def desc_011_non_boolean_annotation(tool: Tool) -> Iterator[Hit]:
    """An annotation hint is present with a non-boolean value.

    What it flags: `readOnlyHint`, `destructiveHint`, `idempotentHint` or `openWorldHint` holding anything but
    `true` or `false` (a string "true", a number, null). It inspects only the JSON type.
    Worth acting on: always; the fix is the JSON type, and a client's safety prompt depends on it.
    Why it matters: clients decide whether to ask for confirmation from these hints; a client that reads
    `"false"` (a non-empty string) as truthy, or ignores it, treats a destructive tool as safe or the reverse.
    Example: `"annotations": {"readOnlyHint": "true"}`
    Fix: `"annotations": {"readOnlyHint": true}`
    """
    annotations = tool.annotations or {}
    for hint in HINTS:
        if hint in annotations and not isinstance(annotations[hint], bool):
            yield Hit(
                f"annotations.{hint} is {annotations[hint]!r}, not a boolean",
                f"Use {hint}: true or false.",
                pointer("annotations", hint),
            )


def desc_012_missing_annotations(tool: Tool) -> Iterator[Hit]:
    """A tool declares no annotations object at all.

    What it flags: a tool without an `annotations` object. An object that is present, even empty, passes.
    Worth acting on: always on a tool that writes, deletes or reaches outside; on a tool that only reads, one
    `readOnlyHint: true` spares the user a confirmation on every call.
    Why it matters: without annotations a client cannot tell whether a call is read-only, destructive,
    idempotent or reaches the outside world, so it must either ask the user every time or never.
    Example: `{"name": "delete_file", "description": "...", "inputSchema": {...}}`
    Fix: `"annotations": {"readOnlyHint": false, "destructiveHint": true, "idempotentHint": true,
    "openWorldHint": false}`
    """
    if tool.annotations is None:
        yield Hit(
            "tool declares no annotations",
            "Add annotations with readOnlyHint, destructiveHint, idempotentHint and openWorldHint.",
            pointer("annotations"),
        )


TASK_SUPPORT = ("forbidden", "optional", "required")
"""The values MCP (2025-11-25) allows for `execution.taskSupport`."""


def desc_015_invalid_task_support(tool: Tool) -> Iterator[Hit]:
    """A tool's `execution` is not an object, or its `taskSupport` is not `forbidden`, `optional` or `required`.

    What it flags: `execution` holding anything but a JSON object, and `execution.taskSupport` holding anything
    but one of the three values MCP 2025-11-25 defines (a misspelling, another case, a boolean). Absent values pass:
    they mean `forbidden`.
    Worth acting on: always; the value is read by clients, not people, and any other spelling means `forbidden`.
    Why it matters: clients decide from `taskSupport` whether to call the tool as a task. A client that cannot
    read the value treats the tool as `forbidden` and calls it plainly, so a tool that needs a task fails every
    call with "method not found"; one that allows tasks is never run as one.
    Example: `"execution": {"taskSupport": "Required"}`, `"execution": {"taskSupport": true}`
    Fix: `"execution": {"taskSupport": "required"}`
    """
    execution = tool.raw.get("execution")
    if execution is None:
        return
    if not isinstance(execution, dict):
        yield Hit(f"execution is {execution!r}, not an object", 'Use "execution": {"taskSupport": ...}.', "/execution")
        return
    value = execution.get("taskSupport")
    if "taskSupport" in execution and value not in TASK_SUPPORT:
        yield Hit(
            f"execution.taskSupport is {value!r}, not one of forbidden, optional, required",
            "Use taskSupport: forbidden, optional or required (lower case).",
            pointer("execution", "taskSupport"),
        )


_DESTRUCTIVE_VERBS = frozenset(
    "delete remove drop purge destroy erase wipe truncate kill terminate uninstall".split()  # noqa: SIM905
)
"""A tool name's first word that says the call destroys something."""
_READ_VERBS = frozenset(
    "get list read search find fetch show view describe query lookup count inspect retrieve browse".split()  # noqa: SIM905
)
"""A tool name's first word that says the call only reads."""


def desc_016_annotations_contradict_name(tool: Tool) -> Iterator[Hit]:
    """An annotation hint contradicts itself or what the tool's name says the call does.

    What it flags: `readOnlyHint: true` together with `destructiveHint: true` (a read cannot destroy); a tool whose
    name starts with a destroying verb (delete, remove, drop, purge, destroy, erase, wipe, truncate, kill,
    terminate, uninstall) annotated `readOnlyHint: true` or `destructiveHint: false` (a `remove` that takes a mark
    or a link off something, `remove_label` or `remove_member`, is undone by adding it back: left alone); and one
    whose name starts with a reading verb (get, list, read, search, find, fetch, show, view, describe, query,
    lookup, count, inspect, retrieve, browse) annotated `destructiveHint: true` without `readOnlyHint: true`, unless
    the name also names a write (`search_and_replace`), or `readOnlyHint: false` with `destructiveHint: false` (both
    said outright: the call writes, without destroying) unless the tool may change something after all: a write
    named in its description outside a sentence that sends writes to another tool ("download, cache", "gets messages
    from or clears"), an operation selector (`action`), or an argument naming where it saves (`responseFilePath`,
    `output_dir`). From the description: `readOnlyHint: true` on a tool a sentence of whose description opens on a
    write it does, in the third person and with its object ("Saves output file to directory", "Adds Percy snapshot
    commands to the specified test files"; an imperative such as "Write it as ..." instructs the agent), and
    `destructiveHint: false` on one that "replaces (all) the contents", "replaces all ...", "adds or replaces",
    "overwrites the existing" or "overwrites if it exists". Only explicit hints are judged: a missing one is
    DESC-012's finding, and a name whose first word is a prefix (`hubspot-...`) is left alone. In the default tier
    since issue 33's twelfth round: 11 findings on the labelled real catalogs, all true; after the seventeenth
    round's readings, 22 of 23 true.
    Worth acting on: always; one of the two is wrong, and a client believes the hint.
    Why it matters: clients skip the confirmation for a read-only or non-destructive call; a delete marked so runs
    unasked, and a read marked destructive makes the user confirm every lookup.
    Example: `{"name": "find_flaky_tests", "annotations": {"destructiveHint": true}}`
    Fix: `"annotations": {"readOnlyHint": true}` (or rename the tool if it really destroys).
    """
    annotations = tool.annotations or {}
    read_only, destructive = annotations.get("readOnlyHint"), annotations.get("destructiveHint")
    verb = _first_word(tool.name)
    if read_only is True and destructive is True:
        problem, at = "readOnlyHint and destructiveHint are both true", "destructiveHint"
    elif verb in _DESTRUCTIVE_VERBS and read_only is True:
        problem, at = f"a '{verb}' tool is annotated readOnlyHint: true", "readOnlyHint"
    elif verb in _DESTRUCTIVE_VERBS and destructive is False and read_only is not True and not _detaches(tool.name):
        problem, at = f"a '{verb}' tool is annotated destructiveHint: false", "destructiveHint"
    elif verb in _READ_VERBS and destructive is True and read_only is not True and not _writes_too(tool.name):
        problem, at = f"a '{verb}' tool is annotated destructiveHint: true", "destructiveHint"
    elif (
        verb in _READ_VERBS
        and read_only is False
        and destructive is False
        and not _writes_too(tool.name)
        and not _side_effect(tool)
    ):
        problem, at = f"a '{verb}' tool is annotated readOnlyHint: false", "readOnlyHint"
    elif read_only is True and (said := _said_write(tool.description)):
        problem, at = f"annotated readOnlyHint: true, but the description says it {said}", "readOnlyHint"
    elif destructive is False and read_only is not True and (said := _said_replace(tool.description)):
        problem, at = f"annotated destructiveHint: false, but the description says it {said}", "destructiveHint"
    else:
        return
    yield Hit(problem, "Make the hints say what the call does.", pointer("annotations", at))


_WRITE_OPENING = compiled(
    r"^(?:(?:this tool|the tool|it)\s+)?(?P<verb>(?:saves|writes|stores|uploads|deletes|removes|overwrites|modifies"
    r"|updates)\s+\w[^.\n]{0,60}|adds\s+\w[^.\n]{0,60}?\bto\b[^.\n]{0,40})",
    re.IGNORECASE,
)
"""A sentence that opens on a write the tool does, in the third person and with its object ("Saves output file to
directory", "Adds Percy snapshot commands to the test files"): what the call does besides what it returns. An
imperative ("Write it as `bar and not foo`") tells the agent what to do, and a bare heading ("Writes") says
nothing."""
_REPLACE = compiled(
    r"\b(?P<verb>replaces? (?:all )?(?:of )?the (?:existing )?contents?|overwrites? (?:the )?existing"
    r"|removes? the existing|(?:adds|creates) or replaces|replaces? all\b[^.\n]{0,40}|overwrites? (?:it )?if (?:it|one"
    r"|the file) (?:already )?(?:does|exists))\b",
    re.IGNORECASE,
)
"""A description that says the call destroys what was there ("Replaces all the contents of an environment")."""


def _detaches(name: str) -> bool:
    """Whether a `remove` tool takes a mark or a link off something (`remove_label`, `remove_tag`, `remove_member`):
    undone by adding it back, not a destruction."""
    parts = normalized(name).split()
    return len(parts) >= 2 and parts[0] == "remove" and parts[1] in _DETACHABLE


_DETACHABLE = frozenset(
    ["label", "labels", "tag", "tags", "member", "members", "watcher", "watchers", "assignee", "assignees",
     "reaction", "reactions", "star", "from", "participant", "participants", "reviewer", "reviewers"]
)  # fmt: skip


def _writes_too(name: str) -> bool:
    """Whether a name that opens on a read also names a write (`search_and_replace`, `find_and_delete`)."""
    return bool(set(normalized(name).split()) & _NAMED_WRITES)


_NAMED_WRITES = frozenset(["replace", "update", "delete", "remove", "set", "write", "edit", "move", "rename", "drop"])


def _side_effect(tool: Tool) -> bool:
    """Whether a tool named for a read says it may also change something: a write in its description ("Gets messages
    from or clears the console", "Download, safely process, cache"), an operation selector (one of its operations
    may write), or an argument naming where it saves (`responseFilePath`, `output_dir`)."""
    return bool(
        any(_SIDE_EFFECT.search(s) and not _ELSEWHERE.search(s) for s in sentences(tool.description))
        or any(name.lower() in SELECTORS or _SAVE_TARGET.search(name) for name, _ in arguments(tool))
    )


_SIDE_EFFECT = compiled(
    r"\b(?:download|cach|sav|stor|writ|clear|delet|remov|creat|modif|updat|overwrit|upload|record)(?:e|es|ed|ing|s)?\b",
    re.IGNORECASE,
)
_ELSEWHERE = compiled(r"\binstead\b", re.IGNORECASE)
"""A sentence that sends a write to another tool ("For CRUD operations (create/modify/delete), use
manage_gameobject instead"): no write of this one."""
_SAVE_TARGET = compiled(r"(?i)(?:output|save|dest|download|export|request|response)\w*(?:path|dir|file)")


def _said_write(description: str) -> str | None:
    """The write a sentence of the description opens on, lowercased, or None."""
    for sentence in sentences(description):
        found = _WRITE_OPENING.match(sentence.strip())
        if found:
            return found.group("verb").strip().lower()
    return None


def _said_replace(description: str) -> str | None:
    found = _REPLACE.search(description)
    return found.group("verb").lower() if found else None


def _first_word(name: str) -> str:
    match = re.match(r"[A-Za-z][a-z]*", name.replace("-", "_"))
    return match.group(0).lower() if match else ""
