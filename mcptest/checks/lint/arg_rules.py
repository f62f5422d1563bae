"""DESC rules about the arguments: their descriptions, enums and examples (top-level `inputSchema` properties)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from mcptest.checks.findings import Hit, pointer
from mcptest.checks.lint.text import arguments, description_of, prose_enum, required, types_of
from mcptest.records.catalog import Tool

_EXAMPLE_KEYS = ("examples", "example", "default")
_PROPER_NAME = re.compile(r"^[A-Z][A-Za-z'.]*[a-z.](?:[ -][A-Z][A-Za-z'.]*[a-z.])*$")
"""A value written as a proper name ("New York", "Chicago"): it names the thing itself, nothing to explain."""


def _at(name: str) -> str:
    return pointer("inputSchema", "properties", name)


def desc_006_undocumented_required_argument(tool: Tool) -> Iterator[Hit]:
    """A required argument has no description.

    What it flags: each name in `inputSchema.required` whose property has no non-empty `description`
    (a `title` does not count: it is a label, not an explanation).
    Why it matters: the agent must fill a required argument on every call; with only a name such as `id` or
    `repo_path` to go on, it guesses the format and loops on validation errors (arXiv:2602.14878,
    "opaque parameters").
    Example: `"required": ["repo_path"], "properties": {"repo_path": {"type": "string"}}`
    Fix: `"repo_path": {"type": "string", "description": "Absolute path of the git repository."}`
    """
    props = dict(arguments(tool))
    for name in required(tool):
        if not description_of(props.get(name, {})):
            yield Hit(
                f"required argument '{name}' has no description", "Say what the value is and its format.", _at(name)
            )


def desc_007_enum_values_not_described(tool: Tool) -> Iterator[Hit]:
    """An enum-typed argument has a description that mentions none of its enum values.

    What it flags: an argument with an `enum` (or an array whose `items` has one) and a description that
    names none of the allowed values (whole words, ignoring case). Values that explain themselves are left
    alone: when every value is written as a proper name, each word capitalised ("New York", "Chicago",
    "Celsius"), it names the thing itself. Lowercase codes and modes ("c", "f"; "error", "debug") and numbers
    still need the description to say what each one does.
    Why it matters: the schema says which values are legal, the description is where the agent learns
    which one to pick; a description that ignores the values leaves the choice to chance.
    Example: `"unit": {"enum": ["c", "f"], "description": "The unit."}`
    Fix: explain each value: `"description": "Temperature unit: c for Celsius, f for Fahrenheit."`
    """
    for name, schema in arguments(tool):
        values = _enum_values(schema)
        desc = description_of(schema)
        if values and desc and not _self_explanatory(values) and not any(_mentions(desc, v) for v in values):
            shown = ", ".join(str(v) for v in values[:8])
            yield Hit(
                f"argument '{name}' describes none of its values ({shown})", "Explain what each value means.", _at(name)
            )


def desc_008_inverted_information_density(tool: Tool) -> Iterator[Hit]:
    """An argument description is longer than the tool description.

    What it flags: a tool with one or more arguments whose description has more characters than the tool's own
    (non-empty) description, reported once per tool naming every such argument (the fix is one: the tool
    description). An empty tool description is DESC-001's finding, not this one.
    Why it matters: the tool description is what the agent reads to choose the tool; when the detail lives in
    an argument, the choice is made on the thinner text (inverted information density). It is pedantic (off by
    default; `--strict` or `--select DESC-008` turns it on): on real servers the longer argument text is mostly a
    format or example list that belongs there (4 of the 5 tools it flagged in the labelled real set).
    Example: tool "Query data." with a `sql` argument described in three sentences.
    Fix: move what the tool does and returns into the tool description; keep argument descriptions to
    the value's meaning and format.
    """
    own = len(tool.description.strip())
    longer = [name for name, schema in arguments(tool) if own and len(description_of(schema)) > own]
    if longer:
        names = ", ".join(f"'{n}'" for n in longer)
        yield Hit(
            f"argument{'s' if len(longer) > 1 else ''} {names} described at more length than the tool itself "
            f"({own} characters)",
            "Move purpose and result into the tool description.",
            _at(longer[0]),
            tuple(_at(n) for n in longer) if len(longer) > 1 else (),
        )


def desc_009_missing_examples(tool: Tool) -> Iterator[Hit]:
    """A tool with a non-trivial input schema provides no usage examples.

    What it flags: a tool with more than one argument, or a single argument that is required or not a plain
    string, that carries no `examples` array (on the tool or its `inputSchema`) and no argument declaring
    `examples`, `example` or a `default` that shows a value's form. A default of `null`, `true`/`false`, `""`,
    `[]` or `{}` shows nothing about the argument's form and does not count.
    Why it matters: Anthropic's advanced-tool-use guidance reports worked examples raising accuracy from 72%
    to 90% on complex parameter handling.
    Example: `create_event(title, start, duration_minutes)` with no example anywhere.
    Fix: add `"examples": ["2026-03-01T09:00:00Z"]` to `start`, or an `examples` array of whole argument
    objects to the `inputSchema`.
    """
    args = list(arguments(tool))
    if not _non_trivial(args, set(required(tool))) or _has_examples(tool, args):
        return
    yield Hit(
        f"{len(args)} argument(s) and no usage example",
        "Add `examples` to the arguments (or an `examples` array to inputSchema).",
        pointer("inputSchema"),
    )


def desc_013_enum_in_prose(tool: Tool) -> Iterator[Hit]:
    """A string argument lists its allowed values in the description but declares no enum.

    What it flags: a string (or untyped) argument without `enum`/`const` whose description spells out a fixed
    set ("one of open, closed, or pending", "allowed values: low, medium, high", "'json' or 'csv'"). A list
    after "e.g." or "such as" is examples, not a set, and is not flagged.
    Why it matters: values in prose are not validated; the agent sends "High" for "high" and loops on
    errors. It is the inverse of DESC-007.
    Example: `"status": {"type": "string", "description": "The new status, one of open, closed, or pending"}`
    Fix: `"status": {"type": "string", "enum": ["open", "closed", "pending"], ...}`
    """
    for name, schema in arguments(tool):
        types = types_of(schema)
        if (types and "string" not in types) or "enum" in schema or "const" in schema:
            continue
        values = prose_enum(description_of(schema))
        if values:
            yield Hit(
                f"argument '{name}' lists values in prose ({', '.join(values)}) but declares no enum",
                f'Declare them: "enum": {values!r}'.replace("'", '"'),
                _at(name),
            )


def _enum_values(schema: dict[str, Any]) -> list[Any]:
    items = schema.get("items")
    enum = schema.get("enum", items.get("enum") if isinstance(items, dict) else None)
    return [v for v in enum if v is not None] if isinstance(enum, list) else []


def _mentions(text: str, value: Any) -> bool:
    return re.search(rf"(?<!\w){re.escape(str(value))}(?!\w)", text, re.IGNORECASE) is not None


def _non_trivial(args: list[tuple[str, dict[str, Any]]], req: set[str]) -> bool:
    if len(args) != 1:
        return len(args) > 1
    name, schema = args[0]
    plain_string = types_of(schema) == {"string"} and "enum" not in schema
    return name in req or not plain_string


def _has_examples(tool: Tool, args: list[tuple[str, dict[str, Any]]]) -> bool:
    if isinstance(tool.raw.get("examples"), list) or isinstance(tool.input_schema.get("examples"), list):
        return True
    return any(key in schema and _shows_form(key, schema[key]) for _, schema in args for key in _EXAMPLE_KEYS)


def _shows_form(key: str, value: Any) -> bool:
    return key != "default" or not (value is None or isinstance(value, bool) or value in ("", [], {}))


def _self_explanatory(values: list[Any]) -> bool:
    return all(isinstance(v, str) and _PROPER_NAME.match(v) for v in values)
