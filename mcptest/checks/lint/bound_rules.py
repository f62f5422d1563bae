"""SCH-004: a size bound where it states a real intent (short labels, names, queries), not on every string and array."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from mcptest.checks.findings import Hit
from mcptest.checks.lint.schema_rules import Node, walk
from mcptest.checks.lint.text import description_of, has_verb_in, prose_enum, types_of, words
from mcptest.records.catalog import Tool

LABEL_WORDS = frozenset(
    [
        "name",
        "title",
        "label",
        "type",
        "kind",
        "query",
        "q",
        "term",
        "keyword",
        "topic",
        "subject",
        "tag",
        "category",
        "caption",
    ]
)
"""The last word of a string property's name that marks a short free-text value the server stores or acts on."""
LABEL_LISTS = frozenset(["tags", "labels", "keywords", "topics", "categories", "aliases"])
"""The last word of an array property's name that marks a short list the server stores."""
LOOKUP_VERBS = frozenset(
    [
        "get",
        "list",
        "read",
        "open",
        "show",
        "view",
        "fetch",
        "retrieve",
        "describe",
        "find",
        "lookup",
        "select",
        "use",
        "delete",
        "remove",
        "checkout",
        "switch",
        "resolve",
        "search",
    ]
)
"""Tool actions whose name, title or type arguments look an existing value up rather than make a new one."""
ACTED_ON = frozenset(["query", "q", "term", "keyword"])
"""Label words a search acts on whatever the tool's verb: never a lookup key."""
_REFERENCE = re.compile(
    r"\b(?:existing|must\s+match|refers?\s+to|available|configured|depends?\s+on)\b"
    r"|\b(?:name|id|type|title|label)\s+of\s+(?:the|an?)\s+\w+\s+(?:to|where|containing|from|that|which|in|whose)\b",
    re.IGNORECASE,
)
_LOCAL_FILTER = re.compile(r"\b(?:filter|fuzzy)|\b(?:key|name)\s+prefix\b", re.IGNORECASE)
"""A query described as a filter over what the server already holds: no engine limit to state."""
_CAMEL = re.compile(r"([a-z0-9])([A-Z])")
_FIRST_WORD = re.compile(r"[A-Za-z]+")


def _name_words(name: str) -> list[str]:
    return words(_CAMEL.sub(r"\1 \2", name).replace("_", " ").replace("-", " ")) or [name.lower()]


def _property_path(path: tuple[str | int, ...]) -> tuple[str | int, ...]:
    """The path up to the property a node belongs to (a union branch belongs to the property that holds it)."""
    i, end = 0, len(path)
    while i < len(path):
        if path[i] == "properties" and i + 1 < len(path):
            end, i = i + 2, i + 2  # a property may itself be named "properties": skip over the name
        else:
            i += 1
    return path[:end]


def _property_schema(root: Any, path: tuple[str | int, ...]) -> dict[str, Any]:
    for part in path:
        root = root[part]
    return root if isinstance(root, dict) else {}


def _lookup_tool(tool: Tool) -> bool:
    """Whether the tool's name, or the first word of its description, is a lookup action."""
    first = _FIRST_WORD.search(tool.description)
    return has_verb_in(tool.name, LOOKUP_VERBS) or (first is not None and has_verb_in(first.group(0), LOOKUP_VERBS))


def _unbounded_label(tool: Tool, node: Node, lookup_tool: bool) -> str | None:
    types, schema = types_of(node.schema), node.schema
    if not types & {"string", "array"}:
        return None
    at = _property_path(node.path)
    own = _property_schema(tool.input_schema, at)
    word = _name_words(str(at[-1]))[-1]
    desc = description_of(own) or description_of(schema)
    bounded = any(k in schema for k in ("maxLength", "enum", "const", "format", "pattern"))
    if "string" in types and not bounded and word in LABEL_WORDS and not prose_enum(desc):
        looks_up = lookup_tool or bool(_REFERENCE.search(desc))
        if word in ACTED_ON:
            return None if _LOCAL_FILTER.search(desc) else "string without maxLength"
        return None if looks_up else "string without maxLength"
    if "array" in types and "maxItems" not in schema and word in LABEL_LISTS:
        return None if lookup_tool or _REFERENCE.search(desc) else "array without maxItems"
    return None


def sch_004_unbounded_string_or_array(tool: Tool) -> Iterator[Hit]:
    """A short label, name or query has no `maxLength`, or a list of labels has no `maxItems`.

    What it flags: a property (or its anyOf/oneOf branch), at any depth, typed `string` without `maxLength`,
    `enum`, `const`, `format` or `pattern`, whose name ends in a label word (name, title, label, type, kind,
    query, q, term, keyword, topic, subject, tag, category, caption: `branch_name`, `entityType`, `title`), or
    typed `array` without `maxItems` whose name ends in tags, labels, keywords, topics, categories or aliases.
    It leaves alone what a length does not bound: strings whose validity comes from an external format (paths,
    URLs, globs, git refs and shas, time zones, dates: they have no label word, or carry `format`/`pattern`),
    open-ended payloads (file content, messages, text), a label whose description lists its values (DESC-013's
    finding: the fix is an enum), lookup keys that only have to match an existing value (a name, title or type
    in a tool whose name or first word is get, list, read, open, show, view, fetch, retrieve, describe, find,
    lookup, select, use, delete, remove, checkout, switch, resolve or search, or described as "existing",
    "must match", "refers to", "available", "configured", "depends on", "the name of the entity
    to/where/containing ..."; a query, q, term or keyword is always acted on), and
    arrays whose length is the caller's workload (ids, paths, files, edits, entities), filter lists in a search
    (categories in `search_papers`: each must match an existing value), and a query described as a filter,
    fuzzy or name/key prefix match over what the server already holds (no engine limit exists to state).
    Worth acting on: when the server stores the value (a title, a name it creates) or hands it to an engine with
    a length limit (a search API's query).
    Why it matters: a short label the server stores or acts on has a real size limit (a column width, an index
    key, a search engine's query length); without the bound the agent learns it from a failed call, or pastes
    a paragraph into a title.
    Example: `"title": {"type": "string"}` in `create_issue`; `"tags": {"type": "array"}`
    Fix: `"title": {"type": "string", "maxLength": 200}`; `"tags": {"type": "array", "maxItems": 20}`
    """
    lookup_tool = _lookup_tool(tool)
    for node in walk(tool.input_schema):
        if node.is_property:
            problem = _unbounded_label(tool, node, lookup_tool)
            if problem:
                fix = "Add maxLength." if problem.startswith("string") else "Add maxItems."
                yield Hit(f"{node.where}: {problem}", fix, node.pointer)
