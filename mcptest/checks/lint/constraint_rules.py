"""SCH rules for constraints the prose states and the schema does not carry (document 002's validation loops)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from mcptest.checks.findings import Hit, pointer
from mcptest.checks.lint.shapes import Prop, branches, nullable, properties
from mcptest.checks.lint.text import description_of, nearest_name, normalized, prose_enum, sentences, types_of
from mcptest.core.re_cache import compiled
from mcptest.records.catalog import Tool

NON_EMPTY = compiled(
    r"\b(?:must|should|shall|may|can)\s*(?:not|n't)\s+be\s+empty\b|\bcannot\s+be\s+empty\b|\bnever\s+be\s+empty\b"
    r"|\bnon-?empty\b|\bnot\s+an?\s+empty\b|\bat\s+least\s+one\b(?!\s+of\b)"
    r"|\b(?:must|always)\s+(?:always\s+)?(?:include|contain)\b",
    re.IGNORECASE,
)
"""Phrases that demand a non-empty array. "at least one of" is left out: it asks for one of several fields."""

_BOUNDS = ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "enum", "const")
_VALUE_SET_BOUNDS = ("enum", "const", "format", "pattern")


def _where(prop: Prop) -> str:
    return ".".join(str(p) for p in prop.path)


def _demands_non_empty(tool: Tool, prop: Prop, names: set[str]) -> bool:
    if NON_EMPTY.search(description_of(prop.schema)):
        return True
    return prop.top_level and any(
        nearest_name(s, m.span(), names) == prop.name
        for s in sentences(tool.description)
        for m in NON_EMPTY.finditer(s)
    )


def sch_006_non_empty_array_without_min_items(tool: Tool) -> Iterator[Hit]:
    """An array its description says must not be empty has no `minItems`.

    What it flags: an array property (or a property whose non-null `anyOf`/`oneOf` branch is an array), at any
    depth, without `minItems` of 1 or more, when its own description demands it be non-empty, or the tool
    description does for a top-level argument (the demand is tied to the argument name nearest to it in the
    same sentence). Demands: "must not be empty", "cannot be empty", "non-empty", "not an empty list", "at
    least one" (but not "at least one of"), "must include", "always include". The demand alone decides: an
    optional array that is sent must still be non-empty.
    Worth acting on: when the server rejects or mishandles `[]` (an empty set created, a bulk call that does
    nothing); not when the prose only describes what the entries are.
    Why it matters: the schema accepts `[]`, so the call succeeds and does nothing useful. Document 002's agent
    created test sets with no tests: `create_test_set_bulk` said "always include tests" and required `tests`,
    but nothing stopped an empty array; `categories: []` failed the same way. It is a warning: the server may
    still reject `[]` itself; the schema just does not tell the agent so before the call.
    It is pedantic (off by default) since issue 33's ninth round: none of its 6 findings on labelled real catalogs
    was true (an empty aggregation pipeline is valid; "one entry per missing piece" describes entries).
    Example: `"tests": {"type": "array", "description": "The tests; must not be empty."}`
    Fix: `"tests": {"type": "array", "minItems": 1, ...}` (on the array branch of an `anyOf`).
    """
    names = {p.name for p in properties(tool.input_schema) if p.top_level}
    for prop in properties(tool.input_schema):
        arrays = [b for b in branches(prop.schema, tool.input_schema) if "array" in types_of(b)]
        bounded = any(isinstance(b.get("minItems"), int) and b["minItems"] >= 1 for b in arrays)
        if arrays and not bounded and _demands_non_empty(tool, prop, names):
            yield Hit(
                f"{_where(prop)}: the description demands a non-empty array, the schema accepts []",
                'Add "minItems": 1.',
                pointer("inputSchema", *prop.path),
            )


def sch_007_nullable_hides_constraint(tool: Tool) -> Iterator[Hit]:
    """A nullable union (`anyOf`/`oneOf` with null, or a type list with null) hides the real constraint.

    What it flags: a property, at any depth, that admits null through `anyOf`/`oneOf` with a null branch or a
    `type` list with `"null"`, when a non-null branch is an integer or number with none of `minimum`,
    `maximum`, `exclusiveMinimum`, `exclusiveMaximum`, `enum`, `const`; or is a string with no `enum`,
    `const`, `format` or `pattern` while the description spells out a value set ("one of low, medium,
    high"). The string case is only checked below the top level: a top-level argument with values in prose is
    DESC-013's finding, and one problem is reported once.
    Worth acting on: when the non-null branch has a range or value set the server enforces; a nullable number
    with no natural bound (an expiry, a score) has nothing to add.
    Why it matters: this is the shape pydantic gives `priority: int | None`, and it is where document 002's
    agent looped: it sent "High", "Medium", "medium" and "" and got back "is not valid under any of the given
    schemas", an error that names no branch and no valid value, so the agent guessed again. It is a warning:
    some nullable numbers have no natural bound (a score, an offset); when one exists, the schema should say it.
    Two nullable numbers hide nothing and are left alone: a cap (`max_lines`, `max_depth`, `min_score`, `limit`),
    whose null means "no cap" (pydantic's `max_lines: int | None = None`), and a number that is one member of a
    mixed union (`value: string | number | boolean | null`), a free value with no scale.
    It is pedantic (off by default) since issue 33's ninth round: none of its 9 findings on labelled real catalogs
    was true (an expiry in seconds, a period: nullable numbers whose natural bound nobody states).
    Example: `"priority": {"anyOf": [{"type": "integer"}, {"type": "null"}]}`
    Fix: put the constraint on the branch: `{"anyOf": [{"type": "integer", "minimum": 1, "maximum": 5},
    {"type": "null"}]}`, or an `enum` on the string branch.
    """
    for prop in properties(tool.input_schema):
        if not nullable(prop.schema):
            continue
        problem = _hidden(prop, branches(prop.schema, tool.input_schema))
        if problem:
            yield Hit(
                f"{_where(prop)}: {problem}",
                "Put the constraint on the non-null branch.",
                pointer("inputSchema", *prop.path),
            )


def _hidden(prop: Prop, options: list[dict[str, Any]]) -> str | None:
    free = _free_number(prop.name, options)
    for branch in options:
        types = types_of(branch) - {"null"}
        if types & {"integer", "number"} and not free and not any(k in branch for k in _BOUNDS):
            return f"{'/'.join(sorted(types))} | null with no minimum, maximum or enum"
        values = prose_enum(description_of(prop.schema) or description_of(branch))
        if "string" in types and not prop.top_level and values and not any(k in branch for k in _VALUE_SET_BOUNDS):
            return f"string | null whose values ({', '.join(values)}) are only in the description"
    return None


def _free_number(name: str, options: list[dict[str, Any]]) -> bool:
    """A nullable number with no bound to hide: a cap (`max_lines`, `min_score`, `limit`), whose null means "no
    cap", or one member of a mixed union (`value: string | number | boolean | null`), a free value."""
    kinds = {t for branch in options for t in types_of(branch)} - {"null"}
    if kinds - {"integer", "number"}:
        return True
    first = (normalized(name).split() or [""])[0]
    return first in ("max", "maximum", "min", "minimum", "limit")


_DESTRUCTIVE_SWITCH = frozenset(
    "delete remove clear purge wipe overwrite force drop destroy replace prune reset archive archived".split()  # noqa: SIM905
)
"""A boolean argument's first word that names a destroying effect (`clear_existing`, `overwrite`, `archived`)."""


def sch_012_destructive_default(tool: Tool) -> Iterator[Hit]:
    """A boolean that switches on a destroying effect defaults to true.

    What it flags: a top-level boolean argument with `"default": true` whose name's first word names a destroying
    effect: delete, remove, clear, purge, wipe, overwrite, force, drop, destroy, replace, prune, reset, archive(d)
    (`clear_existing`, `overwrite`, `archived`). It is pedantic (off by default) until its precision is measured on
    servers it was not written against.
    Worth acting on: when a plain call (the agent sends only what it must) destroys something the user did not ask
    to lose; the safe default is false, and the destructive call says so.
    Why it matters: an agent leaves optional arguments out; with this default, a rebuild wipes the index and an
    update archives the record, while the tool may even be annotated non-destructive.
    Example: `"clear_existing": {"type": "boolean", "default": true, "description": "If true, clear the index first"}`
    Fix: `"default": false` (and `destructiveHint: true` on the tool if the effect stays).
    """
    props = tool.input_schema.get("properties")
    for name, schema in props.items() if isinstance(props, dict) else ():
        if not isinstance(schema, dict) or schema.get("default") is not True or "boolean" not in types_of(schema):
            continue
        first = (re.findall(r"[a-z]+", re.sub(r"([a-z])([A-Z])", r"\1 \2", name).lower()) or [""])[0]
        if first in _DESTRUCTIVE_SWITCH:
            yield Hit(
                f"'{name}' defaults to true: a call that leaves it out gets the destructive effect",
                "Default it to false; the call that wants the effect sets it.",
                pointer("inputSchema", "properties", name),
            )


_AGENT_MARKS = frozenset("llm ai agent assistant model bot mcp".split())  # noqa: SIM905
_HUMAN_MARKS = frozenset("ui user human manual web cli".split())  # noqa: SIM905
_SPEAKER_NAMES = frozenset("role author speaker sender from".split())  # noqa: SIM905
"""Arguments whose user/assistant values name a message's speaker (a chat `role`), which the agent does set."""


def sch_013_caller_marker_argument(tool: Tool) -> Iterator[Hit]:
    """An argument asks who is calling, a user interface or the model: the agent should never set it.

    What it flags: a top-level argument whose `enum` (two or three string values) names only callers, at least one
    a model (llm, ai, agent, assistant, model, bot, mcp) and one a person or interface (ui, user, human, manual,
    web, cli): desktop-commander's `origin: "ui" | "llm"`, added to every tool so its own UI can tell its calls
    from the model's. An argument named for a message's speaker (`role`, `author`, `sender`) is left alone: a chat
    tool's `role: user | assistant` is a value the agent does choose. It is pedantic (off by default; `--strict` or
    `--select SCH-013` turns it on): the class is the UI-only argument issue 33 names, and its one real case is a
    single server's; its precision on servers it was not written against is unmeasured.
    Worth acting on: always where the server, not the agent, knows who calls; the agent that sets it can only
    claim to be the model, or pretend to be the UI.
    Why it matters: the argument costs tokens in every tool, and an agent that sends `ui` (the first value) makes
    the server treat a model's call as a person's (skipping the checks or telemetry meant for the model).
    Example: `"origin": {"type": "string", "enum": ["ui", "llm"]}` in `read_file`
    Fix: drop the argument from the tool the model sees; let the UI call its own endpoint or pass it out of band.
    """
    props = tool.input_schema.get("properties")
    for name, schema in props.items() if isinstance(props, dict) else ():
        values = schema.get("enum") if isinstance(schema, dict) else None
        if not isinstance(values, list) or not 2 <= len(values) <= 3 or name.lower() in _SPEAKER_NAMES:
            continue
        marks = {v.lower() for v in values if isinstance(v, str)}
        if (
            len(marks) == len(values)
            and marks <= _AGENT_MARKS | _HUMAN_MARKS
            and marks & _AGENT_MARKS
            and marks & _HUMAN_MARKS
        ):
            shown = " | ".join(str(v) for v in values)
            yield Hit(
                f"'{name}' ({shown}) asks who is calling: the model always is, so the argument is the UI's",
                "Drop it from the tool the model sees; let the UI mark its own calls out of band.",
                pointer("inputSchema", "properties", name),
            )
