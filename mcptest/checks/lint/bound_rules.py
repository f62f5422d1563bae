"""SCH-004: a size bound where it states a real intent (short names and titles a server keeps), not on all strings."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from mcptest.checks.findings import Hit
from mcptest.checks.lint.schema_rules import Node, walk
from mcptest.checks.lint.text import (
    CODE_NAME,
    SELECTORS,
    argument_text,
    arguments,
    branch_types,
    declared_read_only,
    description_of,
    has_verb_in,
    normalized,
    prose_enum,
    sentences,
    types_of,
    words,
)
from mcptest.core.re_cache import compiled
from mcptest.records.catalog import Tool

LABEL_WORDS = frozenset(
    [
        "name",
        "title",
        "label",
        "topic",
        "subject",
        "tag",
        "category",
        "caption",
    ]
)
"""The last word of a string property's name that marks a short free-text value the server stores or acts on."""
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
        "validate",
        "check",
        "render",
        "preview",
    ]
)
"""Tool actions whose name or title arguments look an existing value up rather than make a new one."""
_REFERENCE = compiled(
    r"\b(?:existing|must\s+match|refers?\s+to|available|configured|depends?\s+on|filter(?:s|ing)?|fallback)\b"
    r"|\b(?:name|id|type|title|label)\s+of\s+(?:the|an?)\s+(?:\w+\s+){1,3}"
    r"(?:to(?!\s+(?:be\s+)?(?:create|make|register)[ds]?\b)|where|containing|from|that"
    r"|which|in|whose)\b",
    re.IGNORECASE,
)
"""A name that refers to an existing thing: "existing", "must match", "the name of the Helm release to upgrade";
not "The name of the secret to create" (a new value the server stores)."""
CREATE_VERBS = frozenset(
    [
        "create",
        "add",
        "new",
        "install",
        "insert",
        "register",
        "make",
        "save",
        "write",
        "rename",
        "copy",
        "post",
        "publish",
        "submit",
        "upload",
        "set",
        "put",
        "build",
        "generate",
        "screenshot",
        "record",
        "store",
        "log",
        "start",
        "schedule",
        "invite",
        "send",
        "reply",
        "comment",
        "label",
        "tag",
    ]
)
"""Tool actions that make a new thing: a name or title they take is the new value the server stores."""
KEY_WORDS = frozenset(["name", "title", "label"])
KIND_WORDS = frozenset(["type", "kind"])
"""Last words of a name that names a member of a set the server defines (`nodeType`, `shape_type`): no label word,
except as a field of the records a tool stores (`entities[].entityType` in `create_entities`), which it keeps as
given."""
_IDENTIFIER = compiled(r"(?:^|_)(?:id|key|number|uuid|slug)$|[a-z](?:Id|Key|Number|Uuid)$|^(?:id|key)$", re.I)
"""An argument name that identifies the thing acted on: then a name or title beside it is the new value."""
_NEW_VALUE = compiled(
    r"\b(?:name|title|label)\s+(?:for|to give|to assign)\b|\b(?:new|output|resulting)\b", re.IGNORECASE
)
_EXTERNAL_FORM = compiled(
    r"\b(?:SQL|SELECT|INSERT|UPDATE|DELETE|CREATE TABLE|statement|Cypher|GraphQL|SPARQL|query language|MIME"
    r"|media type|content[- ]type|ISO[- ]?\d+|RFC ?\d+|regex|regular expression|glob)\b"
)
"""A value whose validity comes from a language or a standard (a SQL statement, a MIME type): not from a length."""
_EITHER_KEY = compiled(r"id_?or_?name|name_?or_?id", re.IGNORECASE)
"""An argument that takes an existing thing's id or name (`attachmentFieldIdOrName`): a lookup key."""
_CAMEL = compiled(r"([a-z0-9])([A-Z])")
_FIRST_WORD = compiled(r"[A-Za-z]+")


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


def _creating_tool(tool: Tool) -> bool:
    """Whether the tool's name, or the first word of its description, makes something new (create, add, ...), or
    one of the operations its selector argument lists does (`action: createRole | listRoles`)."""
    first = _FIRST_WORD.search(tool.description)
    return (
        has_verb_in(tool.name, CREATE_VERBS)
        or (first is not None and has_verb_in(first.group(0), CREATE_VERBS))
        or bool(_created_by_operations(tool))
    )


def _created_by_operations(tool: Tool) -> set[str]:
    """The kinds of record the operations of a selector argument create (`action: createRole | createApiKey |
    listRoles` -> role, api, key): a tool of several operations writes what its create operations name, whatever
    language its description is in."""
    made: set[str] = set()
    for name, schema in arguments(tool):
        values = schema.get("enum") if name.lower() in SELECTORS else None
        for value in values if isinstance(values, list) else ():
            parts = _name_words(str(value)) if isinstance(value, str) else []
            if len(parts) > 1 and parts[0] in CREATE_VERBS:
                made.update(p.removesuffix("s") for p in parts[1:])
    return made


def _has_identifier(tool: Tool, own: str) -> bool:
    """Whether another top-level argument identifies the thing acted on (`sprint_id`, `pageId`, `issue_number`)."""
    return any(n != own and _IDENTIFIER.search(n) for n, _ in arguments(tool))


def _names_the_target(tool: Tool, name: str, desc: str) -> bool:
    """Whether a top-level name, title or label is the key of the thing a tool acts on: the tool makes nothing
    new, the description does not call the value new, and no other argument identifies the target."""
    if _NEW_VALUE.search(desc) or _creating_tool(tool):
        return False
    return not _has_identifier(tool, name)


def _unbounded_label(tool: Tool, node: Node, lookup_tool: bool) -> str | None:
    types, schema = types_of(node.schema), node.schema
    if "string" not in types:
        return None
    at = _property_path(node.path)
    own = _property_schema(tool.input_schema, at)
    word = _name_words(str(at[-1]))[-1]
    desc = description_of(own) or description_of(schema)
    bounded = any(k in schema for k in ("maxLength", "enum", "const", "format", "pattern"))
    stored_kind = word in KIND_WORDS and len(at) > 2 and at[-3] == "items" and _creating_tool(tool)
    if bounded or not (word in LABEL_WORDS or stored_kind) or prose_enum(desc) or _EXTERNAL_FORM.search(desc):
        return None
    if lookup_tool or _REFERENCE.search(desc) or _EITHER_KEY.search(str(at[-1])):
        return None
    if len(at) > 2 and declared_read_only(tool):
        return None  # a name or label inside a read-only tool's records is data it reads or draws, not one it keeps
    if "items" in at and not _named_records(tool, at):
        return None
    if word in KEY_WORDS and len(at) == 2 and _names_the_target(tool, str(at[1]), desc):
        return None
    if _names_another_thing(tool, str(at[-1])):
        return None
    return "string without maxLength"


_OWN_NAME_PARTS = frozenset(
    "display full first last middle nick short long given family friendly screen new old original preferred".split()  # noqa: SIM905
)
"""Words before `name` that say which of the record's own names it is (`display_name`, `new_name`), not whose."""


def _names_another_thing(tool: Tool, field: str) -> bool:
    """Whether a `<thing>_name` names a thing other than the record the tool writes (`branchName` in `create_commit`,
    `voice_name` in `text_to_speech`, `font_name` in `add_paragraph`): a reference to something that exists, looked
    up, not a value the tool stores; `project_name` in `create_project` and `display_name` are the record's own."""
    parts = _name_words(field)
    if len(parts) < 2 or parts[-1] != "name" or parts[-2] in _OWN_NAME_PARTS:
        return False
    stem = parts[-2].removesuffix("s")
    return stem not in _name_stems(tool.name) and stem not in _created_by_operations(tool)


def _named_records(tool: Tool, at: tuple[str | int, ...]) -> bool:
    """Whether the innermost list a field sits in holds the records the tool is named for (`entities` in
    `create_entities`, `objects` in `mass_create_objects`), not parts of another record (a workflow's `nodes`, an
    event's `attendees`, a flag's `variations`)."""
    index = len(at) - 1 - at[::-1].index("items")
    if index < 1:
        return False
    return _name_words(str(at[index - 1]))[-1].removesuffix("s") in _name_stems(tool.name)


def _name_stems(name: str) -> set[str]:
    """The words of a name, plural and singular alike (`create_entities` -> create, entitie)."""
    return {w.removesuffix("s") for w in _name_words(name)}


def sch_004_unbounded_string_or_array(tool: Tool) -> Iterator[Hit]:
    """A short name, title or label that the server stores has no `maxLength`.

    What it flags: a property (or its anyOf/oneOf branch), at any depth, typed `string` without `maxLength`,
    `enum`, `const`, `format` or `pattern`, whose name ends in a label word (name, title, label, topic, subject,
    tag, category, caption: `branch_name`, `title`). An optional string (`anyOf: [string, null]`) is reported at its
    property.
    It leaves alone what a length does not bound:
    - strings whose validity comes from an external format or language: paths, URLs, globs, git refs, time
      zones, dates (no label word, or a `format`/`pattern`), and values described as a SQL (or Cypher, GraphQL)
      statement, a MIME or content type, an ISO or RFC code, a regex or a glob;
    - open-ended payloads (file content, messages, text) and a label whose description lists its values
      (DESC-013's finding: the fix is an enum);
    - a `type` or `kind` (`nodeType`, `shape_type`, `workItemType`) names a member of a set the server defines,
      even in a tool that makes a new thing: the fix would be an enum, not a length (22 of the 24 such findings
      in the labelled groups were dismissed); it is flagged only as a field of the records a tool stores
      (`entities[].entityType` in `create_entities`: a knowledge graph keeps each record's type as given);
    - lookup keys that only have to match an existing value: a name or title in a tool whose name or first
      word is get, list, read, open, show, view, fetch, retrieve, describe, find, lookup, select, use, delete,
      remove, checkout, switch, resolve or search, or described as "existing", "must match", "refers to",
      "available", "configured", "depends on", a filter ("filter by tag", "job name to filter") or a fallback
      ("as fallback when no id"), "the name of the Helm release to ..." (but not "the name of the
      secret to create": a new value); and a top-level name,
      title or label in a tool that makes nothing new (no create, add, install, save, write, ... verb), when no
      other argument identifies the target (`upgrade_helm_chart(name)`; beside a `sprint_id`, `name` is the new
      value) and the description does not call it new or the output's;
    - the name of another thing than the record the tool writes (`branchName` in `create_commit`, `voice_name` in
      `text_to_speech`, `font_name` in `add_paragraph`): a reference to something that exists, looked up; the
      record's own names (`collection_name` in `chroma_create_collection`, `display_name`, `new_name`) stay, as do
      the names of what a selector's operations create (`roleName` beside `action: createRole | getRole`);
    - a name inside a list of parts of the record a tool writes (a workflow's `nodes`, an event's `attendees`, a
      flag's `variations`, a rich menu's `actions`): the records in a list are flagged only where the tool is named
      for them (`entities` in `create_entities`): over the labelled groups this drops 24 findings the labellers
      dismissed and 4 they kept;
    - a search query (query, q, term, keyword): the server hands it on rather than keeps it, and an agent does not
      write an over-long one; a limit the description states is SCH-010's finding (all 70 such findings in the
      groups labelled since held_out_10 were dismissed; PRINCIPLE.md's fourteenth-round decision made it so
      for all).
    The same field in several variants of one union (`actions.items.anyOf.0..8.properties.label`: a postback, a
    message, a URI action, each with its `label`) is one field to bound: it is reported once, its `pointers` naming
    every branch.
    Arrays are never flagged: how many tags, labels or categories a call carries is the caller's workload or a
    filter, and no real catalog showed a count limit a `maxItems` would have stated (a limit written only in
    prose is another defect).
    Worth acting on: when the server stores the value (a title, a name it creates).
    Why it matters: a short label the server stores has a real size limit (a column width, an index key); without
    the bound the agent learns it from a failed call, or pastes a paragraph into a title.
    Example: `"title": {"type": "string"}` in `create_issue`
    Fix: `"title": {"type": "string", "maxLength": 200}`
    """
    lookup_tool = _lookup_tool(tool)
    found: dict[tuple[str | int, ...], list[Node]] = {}
    for node in walk(tool.input_schema):
        if node.is_property and _unbounded_label(tool, node, lookup_tool):
            found.setdefault(_branchless(node.path), []).append(node)
    record = _record_written(tool)
    for path, nodes in found.items():
        first = _optional_property(tool, nodes[0]) if len(nodes) == 1 else nodes[0]
        where = first.where if len(nodes) == 1 else f"{first.where} (and {len(nodes) - 1} other branches of its union)"
        pointers = tuple(n.pointer for n in nodes) if len(nodes) > 1 else ()
        same = (*record, "/".join(map(str, _property_path(path)))) if record else ()
        yield Hit(f"{where}: string without maxLength", "Add maxLength.", first.pointer, pointers, same=same)


WRITE_VERBS = frozenset(
    ["create", "add", "new", "update", "edit", "modify", "set", "patch", "rename", "put", "upsert", "save", "write"]
)
"""The verbs of tools that write a kind of record: `create_task` and `update_task` both write a task."""


def _record_written(tool: Tool) -> tuple[str, ...]:
    """The kind of record a tool writes, as the words of its name beside a write verb (`asana_update_task` ->
    asana, task; plural and singular alike), or () for a tool named for no write. The same unbounded field of one
    kind of record is one defect, however many tools write it: the author bounds it once, in the record's model."""
    names = _name_words(tool.name)
    if not WRITE_VERBS.intersection(names):
        return ()
    return tuple(sorted(w.removesuffix("s") for w in names if w not in WRITE_VERBS))


def _optional_property(tool: Tool, node: Node) -> Node:
    """The property a string branch belongs to when its union's other branches are only `null` (an optional string
    as Pydantic writes it, `anyOf: [{type: string}, {type: null}]`): the property is what an author reads as the
    field (`subject`), and the bound goes beside its type. Any other node as it is."""
    path = node.path
    if len(path) < 3 or path[-2] not in ("anyOf", "oneOf"):
        return node
    union = _property_schema(tool.input_schema, path[:-2])
    others = [b for i, b in enumerate(union.get(path[-2]) or ()) if i != path[-1]]
    if others and all(isinstance(b, dict) and b.get("type") == "null" for b in others):
        return Node(path[:-2], union, node.is_property)
    return node


def _branchless(path: tuple[str | int, ...]) -> tuple[str | int, ...]:
    """A path with each anyOf/oneOf branch index made one (`actions.items.anyOf.3.properties.label` ->
    `actions.items.anyOf.*.properties.label`): the same field in every variant of a union is one field to fix."""
    return tuple("*" if i and path[i - 1] in ("anyOf", "oneOf") else p for i, p in enumerate(path))


def sch_010_limit_only_in_prose(tool: Tool) -> Iterator[Hit]:
    """A limit (or a file-name suffix) the argument's description states is missing from its schema.

    What it flags: a property, at any depth, whose own description states an upper limit as a number ("max 200", "max:
    50", "maximum 100", "at most 10", "up to 25", "no more than 5", "(1-500)", "(0.0-1.0, default 0.6)", "(-180 to
    180)", "between 1 and 100", "between 10000ms and 300000ms", "from 1 to 100", "One to 20 symbols", "Range is 0 to 1",
    "Valid range: 1-100", "Maximum - 500", "Month number 1-12", "clamped to [1, 500]", "Clamped 1000–2000", "(must be >
    range_low, ≤ 2100)"; a bare argument's line in the tool description's `Args:` section counts as its description, and
    so does a range written right after its code-quoted name there, "``brightness`` 0-100") that the schema does not
    carry: a number or integer without `maximum`/`exclusiveMaximum` (or an `enum` that closes its values), a string
    whose limit is counted in characters ("max 400 chars") without `maxLength`,
    an array without `maxItems` when the limit counts its items (no noun after the figure, `items` or `entries`, or the
    array's own noun: "One to 20 Yahoo Finance symbols" on `symbols`, "by their IMDb IDs (max 5)" on `name_ids`); a
    nullable number (`anyOf: [{type: integer}, {type: null}]`) is a number, and a `maximum` that is only the integer
    type's range (zod's `9007199254740991`) is no bound. The same field in several variants of one union is one finding,
    its `pointers` naming every branch. A limit on the value's precision ("Up to 4 decimal places") is not one on the
    value. A string limit without a unit is left alone (400 what?), and so is "Maximum number of results" with no
    figure; so is an item's length said of an array ("Each instruction MUST be no more than 20 words"), another noun's
    count ("Max 20 pages" on page ranges) and an integer type's own range ("(0-4294967295)"). A file-name format stated
    the same way ("Filename must end with .png, .jpg, or .jpeg", "must end in .html", "Absolute path of a new .jpg
    file") is flagged on a string without a `pattern`, `format` or `enum` (issue 33 names it: a format in prose that the
    schema lacks). A number whose description states only a floor ("(minimum 2)", "integer >= 1", "A positive number",
    "The minimum value is 0") and has no `minimum`/`exclusiveMinimum` is flagged for its minimum, and an array whose
    description asks for a fewest count ("(minimum 2)", "(2 or more)", "at least 2") and has no `minItems` for that; so
    is a string whose description asks for its fewest characters ("(3+ chars)", "min length: 1 character") or gives its
    exact length ("64-character hex name"; not "the 64-character string ID" an API gives) and that has no `minLength`,
    pattern, format or enum. An integer whose note lists three or more consecutive values as its choices ("the
    polynomial degree: 0, 1, 2, or 3") and that has no `maximum` or `enum` is flagged for both bounds; "typically 1, 2,
    or 3" gives the usual values, not the only ones. A cap the tool description puts on one call ("Max 5,000 rows per
    call") bounds the tool's one bare count argument (`limit`).
    Worth acting on: always when the server enforces the limit; the fix is one keyword. In the default tier since
    issue 33's seventh round (32 findings on the ten labelled groups rules may be tuned on, all true).
    Why it matters: a validating client checks the schema, not the prose; the agent that sends 500 learns the
    limit from the server's error, one failed call later.
    Example: `"limit": {"type": "number", "description": "Maximum number of users to return (default 100, max 200)"}`
    Fix: `"maximum": 200` (and `"minimum": 1` when the prose gives a floor).
    """
    limited: dict[tuple[str | int, ...], tuple[str, list[str], str]] = {}
    for node in walk(tool.input_schema):
        if not node.is_property:
            continue
        text = description_of(node.schema)
        if len(node.path) == 2 and node.path[0] == "properties":  # an argument: the tool description may bound it
            text = _argument_note(tool, str(node.path[1]), node.schema, text)
        suffixes = _prose_suffixes(text)
        textual = "string" in types_of(node.schema) | branch_types(node.schema)
        if suffixes and textual and not _shapes_text(node.schema):
            shown = ", ".join(suffixes)
            yield Hit(
                f"{node.where}: the description says the value must end with {shown}, the schema has no pattern",
                f'Add "pattern": "{_suffix_pattern(suffixes)}".',
                node.pointer,
            )
            continue
        limit = _prose_limit(text)
        types = (types_of(node.schema) | branch_types(node.schema)) - {"null"}
        keys = _bound_keys(node.schema)
        if limit is None and "integer" in types and not keys & {"maximum", "exclusiveMaximum", "enum", "const"}:
            run = _listed_run(text)  # "the polynomial degree (0, 1, 2, or 3)": a range written out
            if run is not None:
                limited.setdefault(
                    _branchless(node.path),
                    (
                        f"{node.where}: the description lists the values {run[0]} to {run[1]} that the schema lacks "
                        "(no maximum)",
                        [node.pointer],
                        f'Add "minimum": {run[0]}, "maximum": {run[1]}.',
                    ),
                )
                continue
        if limit is None and "array" in types and "minItems" not in keys and (least := _ITEM_FLOOR.search(text)):
            fewest = int(least["n"] or least["m"] or least["n2"])
            limited.setdefault(
                _branchless(node.path),
                (
                    f"{node.where}: the description states at least {fewest} items that the schema lacks (no minItems)",
                    [node.pointer],
                    f'Add "minItems": {fewest}.',
                ),
            )
            continue
        if limit is None and "string" in types and not keys & {"minLength", *_TEXT_BOUNDS}:
            length = _text_length(text)  # "(3+ chars)", "min length: 1 character", "64-character hex name"
            if length is not None:
                chars, exact = length
                limited.setdefault(
                    _branchless(node.path),
                    (
                        f"{node.where}: the description states "
                        + (f"a length of {chars} characters" if exact else f"at least {chars} characters")
                        + " that the schema lacks (no minLength)",
                        [node.pointer],
                        f'Add "minLength": {chars}, "maxLength": {chars}.' if exact else f'Add "minLength": {chars}.',
                    ),
                )
                continue
        if limit is None:
            floor = _prose_floor(text) if types & {"number", "integer"} else None
            if floor is not None and not keys & {"minimum", "exclusiveMinimum"}:
                limited.setdefault(
                    _branchless(node.path),
                    (
                        f"{node.where}: the description states a lower limit of {floor} that the schema lacks "
                        "(no minimum)",
                        [node.pointer],
                        f'Add "minimum": {floor}.',
                    ),
                )
            continue
        figure, unit, after = limit
        if types & {"number", "integer"} and not keys & {"maximum", "exclusiveMaximum", "enum", "const"}:
            if figure in _TYPE_RANGES or (unit and unit.lower().startswith(_TEXT_UNITS)):
                continue  # the integer type's own range (0-4294967295), or a length said of something else
            missing = "maximum"
        elif "string" in types and unit and unit.lower().startswith(("char", "letter")) and not keys & _TEXT_BOUNDS:
            missing = "maxLength"
        elif "array" in types and "maxItems" not in keys and _counts_items(after, node.path):
            missing = "maxItems"
        else:
            continue
        key = _branchless(node.path)
        if key in limited:  # the same field in another variant of one union: one field to bound, one finding
            limited[key][1].append(node.pointer)
            continue
        limited[key] = (
            f"{node.where}: the description states a limit of {figure} that the schema lacks (no {missing})",
            [node.pointer],
            f'Add "{missing}": {figure}.',
        )
    for message, pointers, fix in limited.values():
        yield Hit(message, fix, pointers[0], tuple(pointers) if len(pointers) > 1 else ())


def _per_call_cap(tool: Tool, name: str) -> str:
    """A cap on what one call returns, stated in the tool description ("Max 5,000 rows per call"), as the note of the
    tool's one count argument (`limit`, `max_results`, `page_size` ...), which it bounds; "" otherwise."""
    if normalized(name) not in _COUNT_NAMES:
        return ""
    counts = [n for n, _ in arguments(tool) if normalized(n) in _COUNT_NAMES]
    found = _PER_CALL.search(tool.description) if counts == [name] else None
    return f"max {found['n'] or found['m']}" if found else ""


def _argument_note(tool: Tool, name: str, schema: dict[str, Any], own: str) -> str:
    """What SCH-010 reads for a top-level argument: its own description or, when it has none, its `Args:` line or
    inline note, a range after its quoted name, or the sentence about it; and when that states no limit, the limit
    the tool description puts on it elsewhere: a sentence about a number or string ("`timeout` is capped at 60"), a
    cap on one call for the one count argument, or a cap on a list's own noun ("up to 50 addresses")."""
    if not tool.description:
        return own
    cap = _per_call_cap(tool, name)
    text = own or (
        argument_text(tool, name, schema)
        or _range_beside_name(tool.description, name)
        or cap
        or _sentence_on(tool.description, name)
    )
    if _prose_limit(text):
        return text
    if _scalar(schema):
        return f"{text} {_sentence_on(tool.description, name) or cap}"
    return f"{text} {_noun_cap(tool.description, name)}"


def _noun_cap(description: str, name: str) -> str:
    """A cap the tool description puts on the argument's own noun ("Validate up to 50 addresses in one call" on
    `addresses`), as a note `_prose_limit` reads ("up to 50 addresses"); "" when there is none."""
    noun = _singular((_name_words(name) or [""])[-1].lower())
    for found in _NOUN_CAP.finditer(description) if len(noun) > 2 else ():
        if _singular((found["noun"] or found["before"]).lower()) == noun:
            return found.group(0)
    return ""


_NOUN_CAP = compiled(
    r"\b(?:up to|at most|no more than|max(?:imum)?(?: of)?)\s+\d[\d,]*\s+(?P<noun>[A-Za-z]+)\b"
    r"|\b(?P<before>[A-Za-z]+)\s+\((?:up to|at most|max(?:imum)?)\s*:?\s*\d[\d,]*\)",
    re.I,
)
"""A cap on a list's noun: "up to 50 addresses", or "by their IMDb IDs (max 5)" (the noun before the cap)."""


def _scalar(schema: dict[str, Any]) -> bool:
    """Whether a property holds one number or string (a note on a list's fields bounds them, not the list)."""
    return not (types_of(schema) | branch_types(schema)) & {"array", "object"}


def _sentence_on(description: str, name: str) -> str:
    """The part of a tool description that says something of the argument by name: a sentence whose subject it is
    ("Name is capped at 255 chars.", "Scale defaults to 1 ... and is clamped to 1-3."), or the clause after its code
    name up to the next argument's ("`timeout` is capped at 60, `limit` at 200"), or its note ("per_page: max
    100."); "" when none is."""
    if not description or name.lower() not in description.lower():
        return ""
    code = CODE_NAME.search(name) is not None
    for sentence in sentences(description):
        subject = re.match(
            rf"(?:the\s+)?[`*]*{re.escape(name)}[`*]*{_SUBJECT_VERB}",
            sentence,
            re.IGNORECASE,
        )
        if subject:
            return sentence[subject.end() :]
        if code:
            found = re.search(rf"`{re.escape(name)}`|(?<![\w`-]){re.escape(name)}(?![\w`-])", sentence)
            if found:
                rest = sentence[found.end() :]
                return re.split(r"[,;]\s*`|\s`\w", rest, maxsplit=1)[0]
    return ""


_SUBJECT_VERB = r"(?:\s*:|\s+(?:is|are|must|should|can|defaults|accepts|takes)\b)"
_COUNT_NAMES = frozenset(["limit", "max results", "page size", "per page", "top", "count", "max rows", "n"])
_PER_CALL = compiled(
    r"\b(?:max(?:imum)?|up to|at most)\s+(?P<n>\d[\d,]*)\s+(?:rows|results|items|records|entries|points)\s+per\s+"
    r"(?:call|request|query|page)\b"
    r"|(?:^|(?<=[.;]\s))max(?:imum)?\s+(?P<m>\d[\d,]*)\s+(?:rows|results|items|records|entries)\s*(?:[.;]|$)",
    re.IGNORECASE,
)


def _listed_run(text: str) -> tuple[int, int] | None:
    """The first and last of three or more consecutive integers a note lists as the choices ("0, 1, 2, or 3"), or
    None: an integer's range written out value by value."""
    found = _INTEGER_LIST.search(text) if text and "," in text else None
    if found is None or _USUAL.search(text[max(0, found.start() - 25) : found.start()]):
        return None  # "typically 1, 2, or 3": the usual values, not the only ones
    numbers = [int(n) for n in re.findall(r"\d+", found.group(0))]
    if numbers != list(range(numbers[0], numbers[0] + len(numbers))):
        return None
    return numbers[0], numbers[-1]


_INTEGER_LIST = compiled(r"(?<![\w.,-])\d{1,3}(?:\s*,\s*\d{1,3}){1,}\s*,?\s+(?:or|and)\s+\d{1,3}(?![\w%-]|\.\d)")
"""Three or more small integers joined by commas and a last "or"/"and" ("0, 1, 2, or 3")."""
_SUGGESTED = compiled(r"\b(?:recommended|suggested|typically|usually|e\.g\.|for example|such as|ideally)\W*$", re.I)
_SUGGESTED_AFTER = compiled(r"\s*(?:is\s+|are\s+)?(?:recommended|suggested|advised|ideal)\b", re.IGNORECASE)
_USUAL = compiled(r"\b(?:typically|usually|commonly|often|e\.g\.|such as|for example|like)\W*$", re.IGNORECASE)


def _range_beside_name(description: str, name: str) -> str:
    """A range the tool description writes right after the argument's name in code quotes ("``brightness`` 0-100",
    "`position` (0-100)", "``urls`` 1-5"), as the note `_prose_limit` reads ("(0-100)"); "" when there is none."""
    if name not in description:
        return ""
    found = re.search(rf"`{{1,2}}{re.escape(name)}`{{1,2}}{_RANGE_AFTER_NAME}", description)
    return f"({found['low']}-{found['high']})" if found else ""


_RANGE_AFTER_NAME = r"\s*\(?\s*(?P<low>\d+(?:\.\d+)?)\s*[-–]\s*(?P<high>\d+(?:\.\d+)?)\b(?![-–.]?\d)"
"""A range of two unsigned figures, in parentheses or not, straight after an argument's quoted name."""


_SUFFIX_RULE = compiled(
    r"\b(?:must|should|has to|needs? to)\s+(?:end|finish)\s+(?:with|in)\s+(?P<list>[\"'`]?\.\w{1,6}[\"'`]?"
    r"(?:\s*(?:,|\bor\b|,\s*or\b)\s*[\"'`]?\.\w{1,6}[\"'`]?)*)"
    r"|\bpath\s+(?:of|to)\s+an?\s+(?:new\s+)?(?P<one>\.[a-z0-9]{2,5})\s+file\b",
    re.IGNORECASE,
)
"""A file-name format written in prose: "Filename must end with .png, .jpg, or .jpeg", "must end in .html", "Absolute
path of a new .jpg file" (the path of one kind of file)."""


def _prose_suffixes(text: str) -> list[str]:
    """The file extensions a description says the value must end with, in order, or none."""
    match = _SUFFIX_RULE.search(text) if "." in text else None
    if match is None:
        return []
    return [match["one"]] if match["one"] else re.findall(r"\.\w{1,6}", match["list"])


def _suffix_pattern(suffixes: list[str]) -> str:
    names = "|".join(s[1:] for s in suffixes)
    return f"\\\\.({names})$" if len(suffixes) > 1 else f"\\\\.{names}$"


def _shapes_text(schema: dict[str, Any]) -> bool:
    """Whether the schema (or one of its branches) already constrains the text: a pattern, a format or an enum."""
    return bool(_bound_keys(schema) & {"pattern", "format", "enum", "const"})


_TEXT_BOUNDS = frozenset(["maxLength", "enum", "const", "pattern", "format"])
"""What already bounds a string's length: `maxLength`, or a closed set or form ("limited to 2 character country
codes" on an enum of them)."""
_TYPE_RANGES = frozenset([2**31 - 1, 2**32 - 1, 2**53 - 1, 2**63 - 1, 2**64 - 1])
"""Upper ends of integer types (`(0-4294967295)`): the type's range, not a limit the server chose."""
_TEXT_UNITS = ("char", "letter", "word", "byte", "line", "decimal", "digit", "significant")
"""Units of a limit that is not the value's: a length ("max 400 chars" said of a number) or its precision ("Up to 4
decimal places", "18 digits")."""
_ITEM_UNITS = frozenset(["item", "entry", "element", "value", "result"])


def _counts_items(after: list[str], path: tuple[str | int, ...]) -> bool:
    """Whether a limit said of an array counts its items: nothing after the figure, a word for items (`items`,
    `entries`), or the array's own noun within the next words ("One to 20 Yahoo Finance symbols" on `symbols`).
    "Each instruction MUST be no more than 20 words" bounds an item's length, and "Max 20 pages" on page ranges
    counts something else."""
    if not after:
        return True
    named = _name_words(str(path[-1])) if path else []
    own = _singular(named[-1]) if named else ""
    for word in after:
        if word.startswith(_TEXT_UNITS):
            return False
        noun = _singular(word)
        if noun in _ITEM_UNITS or (own and (noun == own or (len(noun) >= 4 and own.endswith(noun)))):
            return True  # the array's own noun, or its last part ("terms" on `keyterms`)
    return False


def _singular(word: str) -> str:
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    return word[:-1] if word.endswith("s") and len(word) > 3 else word


_PROSE_LIMIT = compiled(
    r"\b(?:max(?:imum)?(?:\s+(?:length|value|size))?(?:\s+is)?|at most|up to|no more than"
    r"|(?:capped|clamped)(?: (?:at|to))?"
    r"(?:\s+-?\d+(?:\.\d+)?\s*(?:[-–]|to)(?=\s*\d)|\s+\[\s*-?\d+(?:\.\d+)?\s*,\s*(?=\d))?)\b"
    r"\s*(?:[:–]|\s-)?\s*(?:of\s+)?(?P<a>\d[\d,]*)\s*(?P<ua>[a-z]+)?"
    r"|\(\s*-?\d+(?:\.\d+)?\s*(?:[-–]|\bto\b)\s*(?P<b>-?\d[\d,]*(?:\.\d+)?)\s*(?P<ub>[a-z]+)?\s*[),]"
    r"|\bbetween\s+-?\d+(?:\.\d+)?\s*[a-z]*\s+and\s+(?P<c>\d[\d,]*(?:\.\d+)?)\s*(?P<uc>[a-z]+)?"
    r"|(?:\b(?:from\s+\d+|one)|(?:^|(?<=[.;,:]\s))\s*(?P<dlow>\d+))\s+to\s+(?P<d>\d[\d,]*)\b\s*(?P<ud>[a-z]+)?"
    r"|\brange\s*(?:is|of|:)\s*-?\d+(?:\.\d+)?\s*(?:to|[-–])\s*(?P<e>\d[\d,]*(?:\.\d+)?)\b\s*(?P<ue>[a-z]+)?"
    r"|\brang(?:e|ing)\s*(?:is|of|from|:)?\s*\[\s*-?\d+(?:\.\d+)?\s*,\s*(?P<f>\d[\d,]*(?:\.\d+)?)\s*\]\s*(?P<uf>[a-z]+)?"
    r"|(?:^|(?<=[.;,:]\s))\s*(?P<low>\d{1,3})\s*[-–]\s*(?P<g>\d{1,6})\b(?![-–/.]\d)\s*(?P<ug>[a-z]+)?(?=\s*(?:[.;,(]|$))"
    r"|(?<=[a-z]\s)[01]\s*[-–]\s*(?P<k>\d{1,6})\b(?![-–/.]\d)\s*(?P<uk>[a-z]+)?(?=\s*(?:[.;,(]|$))"
    r"|(?:范围|区间)\s*(?:为|是|[:：])?\s*\[\s*-?\d+(?:\.\d+)?\s*,\s*(?P<j>\d[\d,]*)\s*\]"
    r"|范围\s*(?:为|是|[:：])?\s*-?\d+(?:\.\d+)?\s*(?:[-–~～]|到|至)\s*(?P<h>\d[\d,]*(?:\.\d+)?)\s*(?P<uh>个字符|字符|位|个|条|项)?"
    r"|(?:最多|最长|最大|不超过|不能超过|上限为?)\s*(?P<i>\d[\d,]*)\s*(?P<ui>个字符|字符|位|字|个|条|项)?"
    r"|(?:<=|≤)\s*(?P<l>\d[\d,]*(?:\.\d+)?)\b\s*(?P<ul>[a-z]+)?(?=\s*(?:[).,;]|$))",
    re.IGNORECASE,
)
"""An upper limit written in prose: "max 200", "max: 50", "Maximum - 500", "up to 25 items", "(1-500)", "(0.0-1.0,
default 0.6)", "(-180 to 180)", "between 1 and 100", "between 0.5 and 5 seconds", "between 10000ms and 300000ms",
"from 1 to 100", "One to 20 symbols", "Range is 0 to 1", "Valid range: 1-100", "max length: 140 characters", "The
maximum value is 500", "capped at 100", "Value range is [0,50]", "1 to 12 language codes" opening a note or a
clause ("Most snippets, 1 to 50."), "clamped to [1, 500]", and a bare rising range that is a sentence or a
clause of its own ("1-50", "Max results. 1-100 (or ...)"), or one from 0 or 1 that ends a note after a word
("personal rating 1-5", "Month number 1-12"; "results 26-50" is an example). In Chinese: "有效区间 [10, 500]",
"范围 1-1000", "最长 20 位", "最多 100 条", "不超过 50". A bound written "≤ 2100" or "<= 2100" counts where it closes
its clause ("(must be > range_low, ≤ 2100)"; "<=0 defaults to 200" is a condition), and "Clamped 1000–2000" as
"clamped to" does."""

_CJK_UNITS = {"个字符": "characters", "字符": "characters", "位": "characters", "字": "characters"}
_CJK_UNITS |= dict.fromkeys(("个", "条", "项"), "items")
"""Chinese units of a limit ("最长 20 位": 20 characters; "最多 100 条": 100 items), as the English words."""


_PROSE_FLOOR = compiled(
    r"\b(?:min(?:imum)?(?:\s+value)?(?:\s+is)?|at least)\s*:?\s*(?P<a>-?\d+(?:\.\d+)?)\b(?!\s*(?:%|[a-z]))"
    r"|(?:>=|≥)\s*(?P<b>-?\d+(?:\.\d+)?)\b"
    r"|\b(?P<positive>positive|non-?negative)\s+(?:number|integer|int|value|whole number)\b",
    re.IGNORECASE,
)
"""A lower limit of a number written in prose: "(minimum 2)", "The minimum value is 0", "at least 1", "integer >= 1",
"A positive number", "a non-negative integer"; a figure with a unit after it ("at least 8 characters", "min 5
minutes") is said of something else."""


_ITEM_FLOOR = compiled(
    r"\((?:minimum|min\.?|at least)\s*:?\s*(?P<n>\d{1,3})\)|\((?P<m>\d{1,3})\s+or\s+more\)"
    r"|\bat least (?P<n2>\d{1,3})\b(?!\s*(?:char|letter|byte|digit|word|line|%))",
    re.IGNORECASE,
)
"""The fewest items an array's description asks for: "URLs of the PDFs to merge (minimum 2)", "Recipes to compare (2
or more)"; an item's own length ("at least 8 characters") is not a count of items."""


_TEXT_LENGTH = compiled(
    r"(?:\bmin(?:imum)?(?:\s+length)?\s*(?:is|:|of|=)?\s*|\bat least\s+|(?:>=|≥)\s*)(?P<least>\d{1,4})\s*"
    r"(?:char(?:acter)?s?|letters)\b"
    r"|(?<![\w.])(?P<plus>\d{1,4})\+\s*(?:char(?:acter)?s?|letters)\b"
    r"|(?<![\w.-])(?P<exact>\d{1,4})[- ]char(?:acter)?s?\s+(?:hex|long|code|name)\b",
    re.IGNORECASE,
)
"""A string's length stated in prose: its fewest characters ("min length: 1 character", "at least 8 characters",
"(3+ chars)", "≥12 chars"), or its exact length ("64-character hex name", "a 6-char code")."""


def _text_length(text: str) -> tuple[int, bool] | None:
    """The fewest characters a string's description asks for, or its exact length, as (figure, exact)."""
    lowered = text.lower()
    match = _TEXT_LENGTH.search(text) if "char" in lowered or "letter" in lowered else None
    if match is None:
        return None
    if match["exact"]:
        return int(match["exact"]), True
    return int(match["least"] or match["plus"]), False


def _prose_floor(text: str) -> float | int | None:
    """The lower limit a number's description states, or None."""
    match = _PROSE_FLOOR.search(text) if text else None
    if match is None:
        return None
    if match["positive"]:
        return 0 if "neg" in match["positive"].lower() else 1
    figure = match["a"] or match["b"]
    return float(figure) if "." in figure else int(figure)


def _prose_limit(text: str) -> tuple[float, str | None, list[str]] | None:
    """The first upper limit the text states, as (figure, the word after it, the few words after it), or None."""
    match = _PROSE_LIMIT.search(text)
    if match is None:
        return None
    if match.group("dlow") and int(match.group("dlow")) >= int(match.group("d").replace(",", "")):
        return None  # "Pages, 3 to 1.": a range written as a clause must rise too
    if match.group("g") and (
        int(match.group("low")) >= int(match.group("g"))
        or _SUGGESTED.search(text[max(0, match.start() - 30) : match.start()])
    ):
        return None  # a bare range must rise ("1-50"), and be the limit, not advice ("Recommended: 30-60 seconds")
    group = next(g for g in "abcdefghijkl" if match.group(g))
    if _SUGGESTED_AFTER.match(text, match.end(group)):
        return None  # "(1-20 recommended)": advice too
    figure = match.group(group).replace(",", "")
    unit = next((u for u in (match.group("u" + g) for g in "abcdefghikl") if u), None)
    unit = _CJK_UNITS.get(unit, unit) if unit else unit
    return (float(figure) if "." in figure else int(figure)), unit, words(text[match.end(group) :])[:4]


def _bound_keys(schema: dict[str, Any]) -> set[str]:
    """The keywords of the schema and of its anyOf/oneOf branches (a nullable number keeps its bound in a branch),
    without a `maximum` that is only the integer type's range: zod's `.int()` writes `maximum: 9007199254740991`
    (and `minimum: -9007199254740991`) on every integer, which bounds nothing the server chose."""
    keys = set()
    for part in (schema, *(b for k in ("anyOf", "oneOf") for b in schema.get(k) or () if isinstance(b, dict))):
        keys |= {k for k, v in part.items() if not (k == "maximum" and v in _TYPE_RANGES)}
    return keys
