"""DESC rules about tool annotations: conformance checks on the JSON, not heuristics."""

from __future__ import annotations

from collections.abc import Iterator

from mcptest.checks.findings import Hit, pointer
from mcptest.records.catalog import Tool

HINTS = ("readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint")
"""The four behaviour hints of MCP tool annotations; each must be a JSON boolean when present."""


def desc_011_non_boolean_annotation(tool: Tool) -> Iterator[Hit]:
    """An annotation hint is present with a non-boolean value.

    What it flags: `readOnlyHint`, `destructiveHint`, `idempotentHint` or `openWorldHint` holding anything but
    `true` or `false` (a string "true", a number, null). It inspects only the JSON type.
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
