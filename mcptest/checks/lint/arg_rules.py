"""DESC rules about the arguments: their descriptions, enums and examples (top-level `inputSchema` properties)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache
from typing import Any

from mcptest.checks.findings import Hit, Severity, pointer
from mcptest.checks.lint.schema_rules import ref_path, resolve_path
from mcptest.checks.lint.shapes import enum_values, follow
from mcptest.checks.lint.text import (
    CJK_CHAR,
    CJK_VERB,
    CODE_NAME,
    COMMON_VERBS,
    SELECTORS,
    argument_text,
    arguments,
    branch_types,
    description_of,
    english,
    has_common_verb,
    lexicon,
    named_values,
    normalized,
    prose_enum,
    required,
    sentences,
    types_of,
    unwrap_lists,
    words,
)
from mcptest.core.re_cache import compiled
from mcptest.records.catalog import Tool

_EXAMPLE_KEYS = ("examples", "example", "default")
_PROSE_EXAMPLE = compiled(
    r"\be\.g\.|\bi\.e\.|\bfor (?:example|instance)\b|\bexamples?\b|\bsuch as\b|\blike ['\"`]"
    r"|YYYY|\bHH:MM|\bISO[ -]?(?:\d{3,5}|format)\b|\bRFC ?\d{3,4}\b|\bIANA\b|\bBCP ?47\b|\bE\.164\b|\bMIME[ -]type\b"
    r"|\bunix (?:time|timestamp)|\bin the format\b"
    r"|(?<![\w'])'[^'\s][^']{0,60}'(?!\w)|\"[^\"\s][^\"]{0,60}\"|`[^`]{1,60}`",
    re.IGNORECASE,
)
"""Prose that shows a value's form: an example marker, a date/time format, a named standard that defines the form
(ISO 8601, ISO 4217, RFC 3339, an IANA time zone name, BCP 47, E.164, a MIME type), a quoted sample value."""
_STRUCTURED = compiled(
    r"\bjson\b(?! (?:documents?|files?|responses?|output|results?|data)\b)"
    r"|\bdates?\b|\btimes?\b|\btimestamps?\b|\bdatetime\b|\bcoordinates?\b|\bsyntax\b"
    r"|\bquery language\b|\bexpressions?\b|\bcql\b|\bjql\b|\bcron\b|\bregex|\bfield prefixes\b",
    re.IGNORECASE,
)
"""A description that names a structured form the agent must reproduce (a JSON string, a date, coordinates); a
"JSON document" or "JSON file" is what an argument points at (a key, a path), not the form it is written in."""
_DOCUMENTED_SYNTAX = compiled(
    r"\b(?i:match(?:es|ing) the syntax of)\b|\b(?i:query DSL)\b"
    # a named syntax ("full NCBI syntax", "JQL query syntax"), not a data format's
    r"|\b(?!(?:JSON|YAML|XML|CSV|HTML) )[A-Z][A-Za-z0-9.-]*[A-Z0-9][A-Za-z0-9.-]*(?: query)? (?i:syntax)\b"
    r"|\b(?i:matching|pattern) /[^/\n]{3,}/"  # "In readable date time format matching /^(\d+) +(day|week)s?$/"
    r"|\b(?:PromQL|LogQL|TraceQL|MetricsQL|GraphQL|SPARQL|Cypher|KQL|JMESPath|JSONPath|XPath)\b"  # a query language
)
"""An argument that follows a documented syntax by name ("matching the syntax of the query argument of
db.collection.find()", "Complete Elasticsearch query DSL object", "supports full NCBI syntax", "a JQL query syntax
string") or states its pattern ("matching /^(\\d+) +(day|week|month)s?$/"): the documentation, or the pattern,
is its example."""
_PROPER_NAME = compiled(r"^[A-Z][A-Za-z'.]*[a-z.](?:[ -][A-Z][A-Za-z'.]*[a-z.])*$")
"""A value written as a proper name ("New York", "Chicago"): it names the thing itself, nothing to explain."""


def _at(name: str) -> str:
    return pointer("inputSchema", "properties", name)


def desc_006_undocumented_required_argument(tool: Tool) -> Iterator[Hit]:
    """A required argument has no description.

    What it flags: each name in `inputSchema.required` whose property has no non-empty `description` (a `title` does not
    count: it is a label, not an explanation).
    Why it matters: the agent must fill a required argument on every call; with only a name such as `id` or `repo_path`
    to go on, it guesses the format and loops on validation errors (arXiv:2602.14878, "opaque parameters"). Two
    undescribed arguments say what they are all the same, and are left alone: a record whose every field is a number, a
    boolean or an enum (`{longitude, latitude}`, `{width, height}`, or an array of such records), or an object whose
    every field is that or described (a REST call's `body`): its fields are its documentation; and an argument the
    tool's description names in quotes or backticks ("Provide 'requestId' and 'taskId'", "`polygon1` and `polygon2` are
    each an array of rings"): the description is where the agent reads about it. A third is left alone too: a required
    argument named exactly `id` or `name`, in a tool whose description names its action (in English, or with a verb of
    one in Chinese or Japanese: "アイテム の詳細を取得する") and so the one object it acts on ("Get a specific document
    by ID", "Delete a monitor", "Describe the configuration of a Pinecone index"): it is that object's key (the one a
    listing returned, or the new object's name), its type gives its form, and a careful author would not add "The ID of
    the document" (tests/lint/real/labels/PRINCIPLE.md); and, decided in the seventh round, a number key named after an
    object the tool's name or description names (`topic_id` in "Read topic metadata", `tag_ids` in `bulk_edit_tags`,
    `issue_number` in `get_issue`): a number has no form to guess and the listing gave it; and, decided in the
    fourteenth round, the key of the one object the tool's name names under a longer name than `id` (`task_id` in
    `get_task`, `voiceId` in `get_voice`), string or number, but not several keys in one string; and, decided in the
    twentieth round, a string of the user's own words (`query`, `message`, `content`, `title`, `subject`) where the tool
    says nothing of a syntax or markup they follow (an SQL query, Markdown): the agent writes them as the user puts them
    (27 of 34 such findings dismissed by the groups labelled by hand), also as a record's field (a routine's `title`)
    but not a search's `query` or `text` inside a request. Decided in the twenty-first round: a number whose name ends
    in its unit (`duration_seconds`, `weight_kg`), a string whose `format` is a date, a time, an e-mail or a UUID (not a
    URI: whether any address will do is the question), an argument the description names bare where no prose word is
    (`province1/province2 ...`, "the same vendor_name"), and, in a tool that says what it does, a number key whose
    object a listing tool of the catalog gives (`test_plan_id` beside `get_test_plans`: `lint_tools` drops it; alone, a
    tool keeps the finding), and the name of the one object the tool's name ends on (`topic_name` in
    `kafka_describe_topic`), as a bare `name` is, and an argument whose values the tool description lists ("Types:
    united-orders, united-returns."), DESC-013's finding, and (twenty-second round) an argument a call written with
    keywords in the description sets, when it sets two or more (`value='#ff0000' source='hex' target='rgb'`): the worked
    call shows what each takes; and (twenty-third round) a key whose object the description names with the key's forms
    in parentheses ("for a user (vanity name or SteamID64)" on `user_identifier`), and a number key written as one word
    (`appid`), as `app_id` is. Two more say what they are: a field every sign-up or map form has (`username`, `email`,
    `password`, `latitude`, `longitude`), and a tagged request, an object (or a union of objects) that requires a field
    fixed by a `const` (`{"operation": {"const": "get-deploy"}, "params": ...}`): its tag names the operation and its
    fields are its form. So do a boolean (its name is the yes-or-no question: `is_private`), a choice among two or more
    listed values (an `enum`: `action: list|get|create`; decided in the fourteenth round, 37 of 45 such findings were
    dismissed) and a paging control (`page`, `page_size`, `limit`, `offset`, `cursor`), in the arguments or in a
    wrapper's fields: all four such findings in the labelled groups were dismissed; and so does a number of a table's or
    page's layout (`rows`, `cols`, `start_row`, `end_col`, `left`, `top`, `width`, `height`, `zoom`, `bearing`: 17
    findings, all dismissed), but not an index (`slide_index`: from 0 or from 1?). And an argument the tool description
    documents in a docstring-style section (`Args:` then ` project: Project name`, what FastMCP sends when a function's
    docstring becomes the description) is described: the agent reads that line with the tool, and the author has written
    what the finding asks for. A tool's lone argument that references a model of all its arguments (FastMCP's `params:
    {"$ref": "#/$defs/VMPowerInput"}`) is a wrapper: its fields are asked of, where the definition declares them, not
    the wrapper; a first or last name is a form's field like an email.
    It is critical only where the agent would fail calls: nothing gives the value space (no type, or an enum with no
    value), or the name says the value has a form to get right (`repo_path`, `sessionId`, `start_date`) and nothing else
    gives it, or an object or list whose structure is undeclared, or a list of lists (a polygon's rings: an order to
    know). A number, a boolean, a one-value enum, a record of declared fields or free text (`query`, `title`, `message`)
    is filled from its type and name, at worst less well: a warning.
    Worth acting on: when the agent has nothing but a bare name to fill the value from (`repo_path`, `scope`,
    `generalize`, a string `tableId` whose form it must know), or a nested array of numbers whose order nothing states.
    Example: `"required": ["repo_path"], "properties": {"repo_path": {"type": "string"}}`
    Fix: `"repo_path": {"type": "string", "description": "Absolute path of the git repository."}`
    """
    props = dict(arguments(tool))
    for name in required(tool):
        schema = props.get(name, {})
        if argument_text(tool, name, schema) or _says_what_it_is(tool, name, schema):
            continue
        if _fields(schema):  # an undescribed wrapper (`request`, `body`): its fields are what the agent fills
            yield from _undescribed_fields(tool, schema, ("inputSchema", "properties", name), 0)
            continue
        target = ref_path(schema.get("$ref"))
        resolved = resolve_path(tool.input_schema, target) if target else None
        if target and len(props) == 1 and isinstance(resolved, dict) and _fields(resolved):  # the lone `params` model
            yield from _undescribed_fields(tool, resolved, ("inputSchema", *target), 0, owner=name)
            continue
        severity = None if _fails_calls(name, schema) else Severity.WARNING
        yield Hit(
            f"required argument '{name}' has no description",
            "Say what the value is and its format.",
            _at(name),
            severity=severity,
            listed=_number_key_object(name, schema) if _names_its_object(tool.description) else (),
        )


def _says_what_it_is(tool: Tool, name: str, schema: dict[str, Any]) -> bool:
    """Whether an undescribed required argument says what it is all the same (DESC-006's silences: an evident
    record, a name the description quotes, a tagged request, a form's field, a flag, a choice, a paging or layout
    number, and, in a tool that says what it does, its object's key or the user's own words)."""
    if _evident_record(schema) or _quoted_in(tool.description, name) or _tagged_request(schema):
        return True
    if name in _keyword_call(tool.description, tuple(n for n, _ in arguments(tool))):
        return True  # "value='#ff0000' source='hex' target='rgb' -> ...": the worked call shows what it takes
    if _values_in_description(tool, name):
        return True  # "Statuses: UNPAID, PROCESSING, ...": the values are its documentation (DESC-013 asks an enum)
    if name.lower() in _COMMON_FIELDS or _says_itself(name, schema) or _noted_object(tool.description, name):
        return True
    return _names_its_object(tool.description) and (
        name.lower() in ("id", "name")
        or _numeric_key(tool, name, schema)
        or _own_key(tool, name, schema)
        or _users_words(tool, name, schema)
        or _named_thing(tool, name, schema)
    )


def _noted_object(description: str, name: str) -> bool:
    """A key whose object the tool description names with a note on the key's forms in parentheses right after it
    ("Get player summaries for a user (vanity name or SteamID64)" on `user_identifier`): the note is its
    description."""
    parts = _name_parts(name)
    if len(parts) != 2 or parts[1] not in {*_KEY_SUFFIXES, "identifier"} or len(parts[0]) < 3 or "(" not in description:
        return False
    return any(_singular(m["object"].lower()) == parts[0] for m in _OBJECT_NOTE.finditer(description))


_OBJECT_NOTE = compiled(r"\b(?P<object>[A-Za-z]+)\s+\((?=[^()\n]*\bor\b)[^()\n]{3,60}\)")
"""An object named with its key's forms in parentheses: "a user (vanity name or SteamID64)"."""


def _named_thing(tool: Tool, name: str, schema: dict[str, Any]) -> bool:
    """The name of the one object the tool's name ends on (`topic_name` in `kafka_describe_topic`, `channelName` in
    `discord_create_text_channel`, `procedure_name` in `get_tax_procedure`): the object's name, as a bare `name` is
    (the fifth-round decision), a string the user gives or a listing returned; not where the tool's name ends on a
    plural (`AttributeName` in `set_subscription_attributes` picks one of a set) or on another object
    (`resourceName` in `get_resource_events`)."""
    parts = _name_parts(name)
    last = (_name_parts(tool.name) or [""])[-1]
    if types_of(schema) - {"string"} or len(parts) != 2 or parts[-1] != "name" or _singular(last) != last:
        return False
    return parts[0] == last


def _users_words(tool: Tool, name: str, schema: dict[str, Any]) -> bool:
    """A string of the user's own words (`query`, `message`, `content`, `title`, `subject`), which the agent writes
    as the user puts them; not where the tool says the words follow a syntax (an SQL `query`, search operators), nor
    in a tool whose description is too short to say what they are for."""
    if types_of(schema) - {"string"} or normalized(name) not in _USERS_WORDS or len(tool.description.strip()) < 20:
        return False  # "Search", "Create ticket": too short to say what the words are for (DESC-001's bound)
    return not _SYNTAX_WORDS.search(f"{tool.name} {tool.description}")


def _records_words(tool: Tool, name: str, schema: dict[str, Any]) -> bool:
    """A field of a record the agent writes that holds its own words (a routine's `title`, an issue type's
    `description`): what `_users_words` says of an argument. Not a search's `query` or `text` inside a request
    (Pinecone's `inputs.text`, a `fieldMap`'s `text`): there the field is a part of a structured call whose form
    matters."""
    return normalized(name) in _RECORDS_WORDS and _users_words(tool, name, schema)


_RECORDS_WORDS = frozenset("message content body subject title description".split())  # noqa: SIM905
_USERS_WORDS = frozenset(
    """
    query q search query term question message text content body subject title description
    """.split()  # noqa: SIM905 (a word list reads better as prose)
)
"""Names of a string the agent fills with the user's words (twentieth-round decision, PRINCIPLE.md)."""
_SYNTAX_WORDS = compiled(
    r"\b(?:sql|select|cypher|sparql|graphql|jql|cql|syntax|operators?|regex|dsl|markdown|html)\b", re.IGNORECASE
)
"""Words of a tool that says its text follows a syntax or a markup: the form is then worth describing."""


def _says_itself(name: str, schema: dict[str, Any]) -> bool:
    """A boolean (its name is the yes-or-no question), a choice among listed values (an enum), a paging control
    (`page`, `limit`, `offset`, `cursor`, `page_size`) or a number of a table's or page's layout (`_LAYOUT`): no
    form to guess and nothing a description would add."""
    if types_of(schema) == {"boolean"} or _listed_values(schema):
        return True
    if types_of(schema) - {"null"} == {"string"} and schema.get("format") in _FORMATS:
        return True
    if types_of(schema) and not types_of(schema) - {"integer", "number"}:
        ws = normalized(name).split()
        if ws and ws[-1] in _LAYOUT and set(ws[:-1]) <= {"start", "end", "min", "max"}:
            return True
        if len(ws) > 1 and ws[-1] in _UNITS:
            return True
    return normalized(name) in _PAGING and not (types_of(schema) - {"integer", "number", "string"})


def _listed_values(schema: dict[str, Any]) -> bool:
    """Whether the value is one of two or more listed values (an `enum`, of the argument or of its items): the list
    is what the agent picks from (`action: list|get|create|delete`, `resource: application|database|service`)."""
    for target in (schema, schema.get("items")):
        if isinstance(target, dict) and isinstance(target.get("enum"), list) and len(target["enum"]) >= 2:
            return True
    return False


_PAGING = frozenset(["page", "page size", "per page", "limit", "offset", "cursor", "page number", "page token"])
_FORMATS = frozenset(["date", "date-time", "time", "email", "uuid", "ipv4", "ipv6"])
"""A JSON Schema `format` every agent knows how to write: the format is the argument's form. Not a URI: whether any
page will do, and in which scheme, is what the labellers split on (see `_fails_calls`)."""
_UNITS = frozenset(
    """
    seconds secs sec s ms millis milliseconds minutes mins min hours hrs days weeks months years kg g lb lbs km m
    meters metres miles mm cm px pt percent pct bytes kb mb gb usd eur
    """.split()  # noqa: SIM905 (a word list reads better as prose)
)
_LAYOUT = frozenset("rows cols columns row col column width height left top x y zoom bearing".split())  # noqa: SIM905
"""A number that is a table's size or a cell in it, or a place or size on a page or map (`rows`, `start_col`,
`left`, `width`, `zoom`): its name is all it needs. An index (`slide_index`) is not: counted from 0 or from 1?"""


_FORMED_NAMES = frozenset(
    """
    path paths dir directory file files filename id ids key keys token ref refs sha hash date dates time times
    timestamp datetime uuid slug pattern regex expression cron json selector xpath range cell
    cells code coordinates polygon line geometry source destination dest src target branch ref revision commit
    """.split()  # noqa: SIM905 (a word list reads better as prose)
)
"""Name words of a string (or list) whose value has a form to get right: a path, an id, a date, a URL, a pattern."""


def _fails_calls(name: str, schema: dict[str, Any]) -> bool:
    """Whether an undescribed required argument would make an agent fail calls (DESC-006's critical case): nothing
    gives its value space (no type and no enum, or an enum with no value at all), or its name says it has a form to
    get right (`repo_path`, `sessionId`, `start_date`) and nothing else gives it, or it is an undeclared structure
    (an object without properties, a list without items, a list of lists). A number, a boolean, a non-empty enum, a
    record of declared fields or free text (`query`, `title`, `message`) is filled from its type and name: a worse
    call at worst, so a warning; so is a URL (`url`, `site_url`), whose form every agent knows: the labellers split
    6 to 5 on whether an undescribed one is worth acting on at all, and none fails a call for want of a description."""
    enum = schema.get("enum")
    if isinstance(enum, list):
        return not enum
    types = types_of(schema) - {"null"}
    if not types:
        return not any(k in schema for k in ("const", "anyOf", "oneOf", "allOf", "$ref", "properties"))
    if "array" in types:
        items = schema.get("items")
        nested = isinstance(items, dict) and "array" in types_of(items)  # rings, coordinate pairs: an order to know
        return not isinstance(items, dict) or nested or _fails_calls(name, items)
    if "object" in types:
        return not schema.get("properties")
    if "string" not in types or any(k in schema for k in ("format", "pattern", "const")):
        return False
    return bool(set(_name_parts(name)) & _FORMED_NAMES)


def _fields(schema: dict[str, Any]) -> dict[str, Any] | None:
    """The declared fields of an object (not an array, not a union): a wrapper whose fields are filled one by one."""
    props = schema.get("properties")
    if "array" in types_of(schema) or not isinstance(props, dict) or not props:
        return None
    return props


def _undescribed_fields(
    tool: Tool, schema: dict[str, Any], at: tuple[str, ...], depth: int, owner: str | None = None
) -> Iterator[Hit]:
    """DESC-006 inside an undescribed wrapper, inline or a definition it references (`owner` names the argument
    then): each field it requires with no description (left alone as at the top level: evident records, tagged
    requests, the fields every form has, keys of the object the tool names), and the same inside its fields that
    are wrappers or arrays of them, whether required or not (an optional object, once sent, must hold its required
    fields)."""
    owner = owner or at[2]
    props = _fields(schema) or {}
    needed = {n for n in schema.get("required") or () if isinstance(n, str)}
    for name, field in props.items():
        if not isinstance(field, dict):
            continue
        place = (*at, "properties", name)
        items = field.get("items")
        inner, inner_at = (items, (*place, "items")) if isinstance(items, dict) and _fields(items) else (field, place)
        if description_of(field) or _evident_record(field) or _tagged_request(field):
            continue
        if _fields(inner) and depth < 4:
            yield from _undescribed_fields(tool, inner, inner_at, depth + 1, owner)
        elif name in needed and not _quoted_in(tool.description, name) and name.lower() not in _COMMON_FIELDS:
            if _says_itself(name, field):
                continue
            if _names_its_object(tool.description) and (
                name.lower() in ("id", "name") or _numeric_key(tool, name, field) or _records_words(tool, name, field)
            ):
                continue
            yield Hit(
                f"required field '{name}' of '{owner}' has no description",
                "Say what the value is and its format.",
                pointer(*place),
                severity=None if _fails_calls(name, field) else Severity.WARNING,
            )


_KEY_SUFFIXES = frozenset(["id", "ids", "uuid", "uuids", "number", "numbers", "slug", "key", "keys"])
"""The last word of an argument name that makes it the key of the object its other words name (`topic_id`)."""
_COMMON_FIELDS = frozenset(
    ["username", "email", "password", "latitude", "longitude", "lat", "lng", "lon"]
    + ["firstname", "lastname", "first_name", "last_name"]
)
"""Argument names whose value every agent knows the meaning and form of, as every sign-up or map form does."""


def _tagged_request(schema: dict[str, Any]) -> bool:
    """An object (or a union of objects) each of which requires a field fixed by a `const` or a one-value enum:
    a tagged request (`{"operation": {"const": "get-deploy"}, "params": {...}}`) whose tag names the operation
    and whose fields are its form."""
    branches = [b for k in ("anyOf", "oneOf") for b in schema.get(k) or () if isinstance(b, dict)] or [schema]
    return all(_tagged(b) for b in branches)


def _tagged(schema: dict[str, Any]) -> bool:
    props, needed = schema.get("properties"), schema.get("required")
    if not isinstance(props, dict) or not isinstance(needed, list):
        return False
    return any(isinstance(props.get(n), dict) and _fixed(props[n]) for n in needed if isinstance(n, str))


def _fixed(schema: dict[str, Any]) -> bool:
    enum = schema.get("enum")
    return "const" in schema or (isinstance(enum, list) and len(enum) == 1)


def _name_parts(name: str) -> list[str]:
    return words(re.sub(r"([a-z0-9])([A-Z])", r"\1 \2", name).replace("_", " ").replace("-", " "))


def _singular(word: str) -> str:
    return word[:-3] + "y" if word.endswith("ies") else word[:-1] if word.endswith("s") and len(word) > 3 else word


def _numeric_key(tool: Tool, name: str, schema: dict[str, Any]) -> bool:
    """A number key of an object the tool names: `<object>_id`, `<object>Ids`, `<object>_number` typed integer or
    number (or an array of them), whose object words the tool's name or description names (`topic_id` in "Read
    topic metadata", `tag_ids` in `bulk_edit_tags`, `issue_number` in `get_issue`): the agent takes it from the
    listing or the call that returned the object, and a number has no form to guess. A string key (`tableId`,
    `recordId`) may have one (`tblXXXX`, `rec...`) and is not taken here."""
    numeric = {"integer", "number"}
    if not (types_of(schema) & numeric or types_of(schema.get("items") or {}) & numeric):
        return False
    return _key_of_named(name, _name_parts(tool.name) + words(tool.description))


def _own_key(tool: Tool, name: str, schema: dict[str, Any]) -> bool:
    """The key of the one object the tool's name names, under a longer name than `id` (`task_id` in `get_task`,
    `voice_id` in `get_voice`, `item_key` in `zotero_item_metadata`): what the fifth-round decision says of `id`.
    Several keys in one string (`task_ids: string`: comma-separated? a JSON array?) have a form to know: not taken."""
    if name.lower().endswith("s") and "string" in types_of(schema):
        return False
    return _key_of_named(name, _name_parts(tool.name))


def _key_of_named(name: str, named: list[str]) -> bool:
    """Whether `name` is a key (`<object>_id`, `<object>Ids`, `<object>_number` ...) whose object words are all
    among `named` (singular and plural alike)."""
    parts = _name_parts(name)
    if len(parts) == 1 and _COMPACT_ID.fullmatch(parts[0]):  # `appid`, `badgeid`: `app_id` written as one word
        parts = [parts[0][:-2], "id"]
    if len(parts) < 2 or parts[-1] not in _KEY_SUFFIXES:
        return False
    named = [*named, *(w[:-2] for w in named if _COMPACT_ID.fullmatch(w))]  # "for an appid" names the app too
    stems = {_singular(w) for w in named}
    return all(_singular(w) in stems for w in parts[:-1])


_COMPACT_ID = compiled(r"[a-z]{3,}id")


def _number_key_object(name: str, schema: dict[str, Any]) -> tuple[str, ...]:
    """The object words (singular) of a number key (`test_plan_id` -> `test plan`, `subscriberIds` -> `subscriber`),
    for `lists_object`; empty for any other argument. A string key may have a form to know (`tblXXXX`): not taken."""
    numeric = {"integer", "number"}
    if not (types_of(schema) & numeric or types_of(schema.get("items") or {}) & numeric):
        return ()
    parts = _name_parts(name)
    if len(parts) < 2 or parts[-1] not in _KEY_SUFFIXES:
        return ()
    return tuple(_singular(w) for w in parts[:-1] if w not in ("from", "to", "source", "target", "parent"))


def lists_object(tool_name: str, objects: tuple[str, ...]) -> bool:
    """Whether a tool's name says it lists the object `objects` names: a listing verb and the object's last word
    in the plural, its other words beside it (`get_test_plans` lists test plans; `get_relationships` lists no
    relationship types; a `template_catalog`, with no verb and no plural, is not taken)."""
    parts = _name_parts(tool_name)
    if not objects or not _LISTING & set(parts):
        return False
    last = objects[-1]
    plural = last[:-1] + "ies" if last.endswith("y") and last[-2:-1] not in "aeiou" else last + "s"
    return plural in parts and {_singular(w) for w in parts} >= set(objects[:-1])


_LISTING = frozenset("get list search find filter browse query fetch all".split())  # noqa: SIM905


def _names_its_object(description: str) -> bool:
    """Whether a tool description says, in English, Chinese or Japanese, what the tool does (an action, so the object
    it acts on)."""
    if CJK_CHAR.search(description) and CJK_VERB.search(description):
        return True  # "アイテムの詳細を取得する" ("Get an item's details"): a verb of an action, in Chinese or Japanese
    return bool(description.strip()) and english(description) and has_common_verb(description)


def _evident_record(schema: dict[str, Any]) -> bool:
    """An object, or an array of objects, whose declared fields are all numbers, booleans, enums or consts; or an
    object (not an array) whose fields each say what they are, by that type or their own description: a wrapper
    (a REST call's `path`, `query` or `body`) whose fields are its documentation, filled one by one."""
    items = schema.get("items")
    target = items if "array" in types_of(schema) and isinstance(items, dict) else schema
    props = target.get("properties")
    if not isinstance(props, dict) or not props or target.get("additionalProperties") not in (None, False):
        return False
    wrapper = target is schema  # an object, not a list of them: what one entry stands for still wants saying
    return all(isinstance(p, dict) and (_evident_by_type(p) or (wrapper and description_of(p))) for p in props.values())


def _quoted_in(text: str, name: str) -> bool:
    """Whether `text` names `name` in quotes or backticks in its prose ('requestId', `polygon1`, "mapbox_id"); a
    key of a worked call (`"url": "https://..."`) shows a value, it does not say what the argument is."""
    if name not in text:
        return False
    if re.search(rf"""[`'"]{re.escape(name)}[`'"](?!\s*[:=])""", text):
        return True
    return (
        _IDENTIFIER.search(name) is not None
        and re.search(rf"(?<![\w.(=`'\"-]){re.escape(name)}(?![\w(=:`'\"-])", text) is not None
    )


_IDENTIFIER = compiled(r"_|\d|[a-z][A-Z]")
"""A name no prose word is (`vendor_name`, `province1`, `startAt`): written bare in a description, it names the
argument."""


def desc_007_enum_values_not_described(tool: Tool) -> Iterator[Hit]:
    """An enum-typed argument has a description that mentions none of its enum values.

    What it flags: an argument with an `enum` (or an array whose `items` has one) and a description that
    names none of the allowed values (whole words, ignoring case). Values that explain themselves are left
    alone: when every value is written as a proper name, each word capitalised ("New York", "Chicago",
    "Celsius"), it names the thing itself. Lowercase codes and modes ("c", "f"; "error", "debug") and numbers
    still need the description to say what each one does. A single value (nothing to choose), and sets of
    self-describing words (open/closed/all, asc/desc, day/week/month, markdown/text, GET/POST, Y/yes) and time
    spans written as a count and a unit (`1d`, `5d`, `1wk`, `3mo`, `10y`, with `ytd` and `max`) are left alone
    too, and so are values the description spells out as the words they abbreviate ("in-the-money, out-of-the-money, or
    at-the-money" for `itm`, `otm`, `atm`),
    and so are values explained where the agent reads them anyway and values whose role names them:
    - the tool's description names most of them ("strategic merge patch, JSON merge patch, or JSON patch";
      "logs from pods, deployments, or jobs": plurals count);
    - the argument sorts (`sort`, `order_by`, or an `order` described as a sort: "Sort order field"): each value
      names the field it sorts on;
    - the argument picks an action (`operation`, `action`, `command`, `subCommand`, `event`) and most values are
      verbs the English lexicon knows (cordon/drain, pause/restart/undo, APPROVE/REQUEST_CHANGES/COMMENT): a
      verb says what it does;
    - the argument names a country, language, locale or region (by name or description) and most values are
      standard codes of that kind (ISO 3166 `US`, ISO 639 `de`, BCP 47 `pt-BR`, `zh-hans`): the standard
      defines each one; so does a language picked by its name (`languageId`: javascript, python, go), and a set
      of MIME types (`text/plain`, `application/xliff+xml`).
    Worth acting on: when a value's effect cannot be told from its spelling (`mode: fast|full`, `c|f`,
    `output: wide|name|custom`). It is pedantic (off by default) since issue 33's ninth round: on the labelled
    real catalogs 3 of its 12 findings on seen servers were true and none of 18 on servers no rule was tuned on;
    whether a value set explains itself is the reader's call more than the schema's.
    Why it matters: the schema says which values are legal, the description is where the agent learns
    which one to pick; a description that ignores the values leaves the choice to chance.
    Example: `"unit": {"enum": ["c", "f"], "description": "The unit."}`
    Fix: explain each value: `"description": "Temperature unit: c for Celsius, f for Fahrenheit."`
    """
    for name, schema in arguments(tool):
        values = _enum_values(schema)
        desc = description_of(schema)
        if not values or not desc or _self_explanatory(values) or any(_mentions(desc, v) for v in values):
            continue
        if _spelled_out(desc, values):
            continue
        if _mostly_mentioned(tool.description, values) or _named_by_role(name, values, desc):
            continue
        if _standard_codes(name, desc, values):
            continue
        shown = ", ".join(str(v) for v in values[:8])
        yield Hit(
            f"argument '{name}' describes none of its values ({shown})", "Explain what each value means.", _at(name)
        )


def desc_008_inverted_information_density(tool: Tool) -> Iterator[Hit]:
    """An argument description is longer than the tool description.

    What it flags: a tool with one or more arguments whose description has more characters than the tool's own
    (non-empty) description, reported once per tool naming every such argument (the fix is one: the tool
    description). An empty tool description is DESC-001's finding, not this one.
    Worth acting on: when the tool description is too thin to choose the tool by ("Search"); a format or
    example list in a long argument description belongs there and is not a reason to act.
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
    """An argument whose form is not evident has no example anywhere.

    What it flags: a tool with an argument whose form an agent cannot tell from its name, type and description, when
    neither the schema nor the prose shows one. An argument needs an example when it has no description and is a
    string or untyped (`repo_path`: an absolute path? relative?), when it is a free-form object or an array of
    objects with text fields (`entities: [{name, entityType, observations}]`), or when its description names a
    structured form without showing it: a JSON string, a date or time with no format, coordinates, a query syntax
    ("JSON" there is the argument's form, not a "JSON document" or "JSON file" the argument names). Self-evident
    arguments never need one: booleans, numbers (alone or in a union with null: pydantic's `int | None`), enums and
    consts, typed maps (`additionalProperties: {"type": "string"}`: key-value pairs), strings with a `format` or
    `pattern`, described ids, names, titles, URLs, selectors, and free text (a message, a body, a comment, a search
    term, a subject, an author, a password), and undescribed strings whose name says their form (a URL, an e-mail, an
    opaque `id` or `scrapeId` copied from an earlier result, a question or prompt). An example counts wherever it is: a
    worked call in the tool's description (a code block or JSON object with the call's `"arguments"`, or setting two
    or more of its arguments: it shows the call's form; or written with keywords, `value='#ff0000' source='hex'`, for
    the arguments it sets), an `examples` array (tool or `inputSchema`), an argument's
    `examples`, `example` or a `default` that shows a value, or prose in the argument's or the tool's description
    (`e.g. '2103.12345'`, an "Example" line, "such as", a quoted sample value, `YYYY-MM-DD`, "ISO 8601", "HH:MM", a
    standard that defines the form: an IANA time zone name, ISO 4217, BCP 47, a MIME type), including the argument's
    own line of a parameter list in the tool description (`- filter (optional): ... (e.g., "bedrock")`, or a
    docstring `Args:` line, which also documents an argument the schema leaves bare, or a sentence that names it in
    backticks with an example marker or a standard: "Give `country` as ISO-3 lowercase (e.g. usa, deu)"). A search
    `keyword` or
    `phrase`, like a `query`, is free text, and so is the value of a Django-style text lookup (`name__icontains`: a
    piece of the name; a date lookup such as `created__date__gte` still has a form to show). An argument whose
    description names the documented syntax it follows ("matching the syntax of the filter argument of
    db.collection.find()", "Elasticsearch query DSL object") is shown by that documentation, which every model has
    read. A union one of whose branches has a `format` or `pattern` shows its form; a free-form object named as a
    map by convention (`params` of a query, `headers`, `variables`, `labels`, `env`, the `arguments` of the tool it
    runs, a `mapping` to store, a workspace's `custom_fields`) takes the names the agent already has as keys; and a
    fenced code block in the tool description (a worked query) shows the one argument that would otherwise lack an
    example. An object whose fields are declared (a generated `request` wrapper, a REST call's `body`) shows its
    form through them: in the labelled real catalogs, 13 of the 17 findings on such objects were dismissed; so does
    a list of records whose text fields are each described without naming a structured form ("The header's key.": of
    such findings, the groups labelled by hand before the lint ran dismissed 17 and called none true). A union of
    consts (`anyOf: [{const: "blocknumber"}, {const: "timestamp"}]`) is an enum spelt out, and a description that
    states the value's pattern ("matching /^(\\d+) +(day|week)s?$/") or names a documented syntax ("supports full
    NCBI syntax", "JQL syntax", or a query language by name: PromQL, LogQL, GraphQL, XPath ...) shows its form.
    A string-or-null union and nothing more (pydantic's `str | None`) is a string: an undescribed optional
    `start_time` needs an example as a bare one does, while an optional path (`output_folder`, `dest_dir`) does not
    (the agent leaves it out or passes the user's path). A date or time argument (`start`, `fromDate`,
    `updated_since`) is shown by the tool description's one statement of every date's form ("Dates are
    YYYY-MM-DD.") or the standard named on it ("an ISO start/end window"); a code name (`due_at`) named bare in a
    sentence with a standard ("due_at is ISO8601.") is shown as one in backticks is; and one `Args:` line may
    document two to four arguments ("start_date, end_date: ISO YYYY-MM-DD bounds", "year_from / year_to: ...").
    A required argument with no description whose form any description would give (a string, not a free-form
    object), which DESC-006 reports or the tool description names, is not named here too: the missing description is
    the one defect (twenty-first round: the groups labelled by hand dismissed 94 such findings and kept 21); one
    DESC-006 leaves alone for its name (a search's `q`, its object's key) is judged here as any other.
    Worth acting on: when the flagged argument is one the agent must fill in a form it cannot guess; a careful
    author adds one sample value.
    Why it matters: Anthropic's advanced-tool-use guidance reports worked examples raising accuracy from 72%
    to 90% on complex parameter handling; an example where the form is already plain only costs tokens.
    Example: `create_event(start)` with `start` described as "When the event starts" and no format or example.
    Fix: add `"examples": ["2026-03-01T09:00:00Z"]` to `start`, or write "(e.g. '2026-03-01T09:00:00Z')" in its
    description.
    """
    args = list(arguments(tool))
    needed = set(required(tool))
    if isinstance(tool.raw.get("examples"), list) or isinstance(tool.input_schema.get("examples"), list):
        return
    if _worked_call(tool.description, [n for n, _ in args]):
        return
    texts = {name: argument_text(tool, name, schema) for name, schema in args}
    shown = _keyword_call(tool.description, tuple(texts))  # `value='#ff0000' source='hex'`: a worked call's values
    needing = [
        name
        for name, schema in args
        if _needs_example(name, schema, name in needed, texts[name])
        and not (name in needed and _reported_undescribed(tool, name, schema, texts[name]))
        and not _shows_example(schema, texts[name])
        and not _tool_shows(tool.description, name)
        and not _DOCUMENTED_SYNTAX.search(texts[name])
        and name not in shown
    ]
    if len(needing) == 1 and "```" in tool.description:
        return  # the tool description's fenced example shows the one argument of a form to show
    if needing:
        names = ", ".join(f"'{n}'" for n in needing)
        yield Hit(
            f"argument{'s' if len(needing) > 1 else ''} {names} of a form not evident from the schema, and no example",
            "Show one sample value: `examples` on the argument, or 'e.g. ...' in its description.",
            pointer("inputSchema"),
            tuple(_at(n) for n in needing),
        )


def _reported_undescribed(tool: Tool, name: str, schema: dict[str, Any], text: str) -> bool:
    """Whether a required argument any description would give the form of (a string, not a free-form object) has
    none, and DESC-006 reports it, or the tool description names it (`province1/province2 ...`, where the author
    writes of it): the missing description is then the one defect, and DESC-009 does not name the argument again
    (twenty-first-round decision, tests/lint/real/labels/PRINCIPLE.md). One DESC-006 leaves alone for its name
    (the user's `query`, the key of the tool's object) is still DESC-009's to judge."""
    if text or _fields(schema) or _needs_example(name, schema, True, "A value."):
        return False
    if _quoted_in(tool.description, name) or _values_in_description(tool, name):
        return True
    return not _says_what_it_is(tool, name, schema)


def _values_in_description(tool: Tool, name: str) -> bool:
    """Whether the tool description lists an argument's values ("Statuses: UNPAID, PROCESSING, ...", "format
    (glb|fbx|obj)"): they document it, and the set is DESC-013's finding."""
    return bool(_supported_values(tool.description, name) or _piped_in_description(tool.description, name))


def desc_013_enum_in_prose(tool: Tool) -> Iterator[Hit]:
    """A string argument lists its allowed values in the description but declares no enum.

    What it flags: a string (or untyped) argument, or an array of strings, without `enum`/`const` (on it or its items,
    behind its `$ref` or in a union branch: pydantic's `{"$ref": "#/$defs/Units"}` declares one; nor a `pattern` that
    only alternates the values, `^(qemu|lxc)$`, which closes the set as well) whose description spells out a fixed set
    ("one of open, closed, or pending", "allowed values: low, medium, high", "Supported buttons: BACK (android only),
    HOME, ENTER" (a value's note in parentheses is not a value), "'json' or 'csv'", or three or more upper-case
    constants in parentheses right after the words naming the argument (at most eight): "Logging level (DEBUG, INFO,
    WARNING, ERROR)", two joined by "or" ("(DAILY or MONTHLY)") or quoted commands ("('get_a', 'get_b')"), or a note
    that opens on constants joined by "or" ("ONE_YEAR or THREE_YEARS.", "PAYER or LINKED."; after a dash too: "The type
    — MAX_SAVINGS or CUSTOM_COMMITMENT"), or on the quoted values, each with what it takes: `operation: "list" (no
    args), "get" (board_id_or_name)`, or a note that is nothing but three or more lower-case values, the last joined by
    "or": "polyhaven, sketchfab or polypizza.", "Sort direction (asc/desc)", or quoted values each followed by what it
    gives ('"standard" for full output, "minimal" for compact summary'), or a label, a colon (or a dash) and only the
    values: "Sort column: criticality, depth, or name", "Currency code — NGN, GHS, or KES", "priority:
    low/normal/high/urgent", "Hotspot status: TO_REVIEW, REVIEWED" (two constants), or only two words joined by "or":
    "asc or desc.", or bullets that each open on a quoted value and say what it means ('- "any": kept if any field
    matches'; not after "Common values:"), or quoted values joined by "or" each with a note ('"limited" (AND) or
    "extended" (OR)'; not dates, which are forms), or constants of four characters or more in parentheses, each after
    what it means, joined by "or" ("public (GLOBAL) or private (PRIVATE)"), or "Valid:", "Available values:" or
    "(comma-separated: ADSB, MLAT)" then the values, or quoted codes each with its meaning after the note's label and a
    dash ("Site type code — 'ST' (stream, default), 'LK' (lake), 'SP' (spring)"), or a note that opens on "Any of" and
    quoted values ('Any of "png", "svg", "cdxml"'), or "Available:", "Supports:" or "Gültige Werte:" then the values, or
    a short label, a dash and a bare list ("Test type - short, long, or conveyance"), or words in parentheses after a
    few words naming the argument when the schema corroborates them ("File format to download (fastq, submitted, or
    sra)" with `default: "fastq"`, or three or more short codes: "Filter by severity (Chat, Note, Warn, Error)";
    "Repository owner (username or organization)" names kinds of value, as does a label's "name or number");
    reStructuredText literals (``"pubmed"``) are read as quoted values; a list wrapped onto the next line after a comma
    is one list; yes-or-no words, "(true/false)" (with "None" too, an optional boolean's), ask for a boolean type
    instead (the finding says so where a switch is typed string: "Include silenced alerts (true/false)"), and formats
    named on a path, "Path to the image (PNG, JPG)", are the file's), or a selector argument (`operation`, `action`,
    `command`, ...) whose operations the tool description numbers one by one ("1) getCostAndUsage — ...", "2.
    get_automation_event: ...") or bullets under an "Actions:" heading, or bullets of verb_object names ("-
    list_packages: ..."; a `mode` beside an `action` is not the one they serve), or a note that is only the values piped
    ("auto | literal | regex", "[system] error|warning|info"), slashed ("low/normal/high/urgent") or upper-case and
    comma-joined ("COUNT, SUM, AVG, MIN, MAX"), or a few words naming a kind of choice and then the values in
    parentheses ("Filter by tag status (Active, Inactive)"; "Repository owner (username or organization)" names a
    thing's forms), or values the tool description pipes after the argument's name ("format (glb|fbx|obj)", "``action``
    is open|close|stop") or states in a sentence opening on it ("Source can be gui, spider, or scsynth."), or the sort
    keys it lists as constants for a sort argument ("ordering by CREATED, ID, PATH, TITLE, or UPDATED" on `order_by`),
    or the values the tool description lists under the argument's name as a label ("Supported planets: Sun, Mercury,
    Venus.", "Valid group_by options: color, country.", or a sentence of only its plural and the values: "Statuses:
    UNPAID, PROCESSING, DELIVERED." for `status`); a nullable property with no description is read by its other
    branch's; the fields of an object argument (a request's `data` or `params` wrapper, behind its `$ref` too, reported
    at the definition) are read by their own notes, their values words (a note's "AND, OR, +" are a syntax's operators);
    an argument the schema leaves bare is read from its line in the tool description's `Args:` section or its inline
    note there. Codes count as values too: two or more numbers, each with what it means ("10=relates to, 20=depends on",
    "(0: all, 1: well-formed, 2: creating)"), on an integer, number or string argument, unless the schema's bounds
    already close a run of them ("0=None ... 6=Automatic" with `minimum: 0, maximum: 6`), the number is a count with
    special values ("0=structure, 2=default, -1=unlimited"), or the codes rank a scale ("1=urgent, 2=high, 3=normal,
    4=low": bounds state it). A list of forms with a placeholder ("'YYYY-MM-DD' or 'YYYY-MM'", "'projects/{projectID}'
    or 'projects/{projectNumber}'") is templates of many values, which a `pattern` states, not an enum; so are kinds of
    value each sampled in parentheses ("a kernel name ('sda', 'nvme0n1'), a bare NVMe controller ('nvme0')"). A list
    after "e.g.", "example:" or "such as" is examples, not a set; one after "format", "bad ...:", "instead of" or "not"
    is a form or a counter-example; a list whose last alternative is a kind of value ("'dhcp', 'manual', or a static
    CIDR like ...", "... Or a numeric category id.") is open; and a pair of the tool's own argument names ("either
    'content' or 'content_file'") is an argument group (SCH-009's finding): none of these is flagged.
    Worth acting on: when the listed values are the only ones the server accepts.
    Why it matters: values in prose are not validated; the agent sends "High" for "high" and loops on errors. It is the
    inverse of DESC-007.
    Example: `"status": {"type": "string", "description": "The new status, one of open, closed, or pending"}`
    Fix: `"status": {"type": "string", "enum": ["open", "closed", "pending"], ...}`
    """
    names = {name for name, _ in arguments(tool)}
    for name, schema in arguments(tool):
        if _enumerated_elsewhere(schema, tool.input_schema):
            continue
        if not _takes_strings(schema):
            codes = _coded_numbers(argument_text(tool, name, schema)) if _takes_numbers(schema) else None
            if codes and not _bounded_to(schema, codes):
                yield _enum_in_prose(f"argument '{name}'", codes, _at(name))
            continue
        text = argument_text(tool, name, schema)
        values = (
            prose_enum(text)
            or _ordering_keys(tool.description, name)
            or _listed_operations(tool, name)
            or _piped_in_description(tool.description, name)
            or _supported_values(tool.description, name)
            or _coded_numbers(text)
            or _corroborated(named_values(text), schema)
        )
        if values and _flag_typed_string(schema, values, text):
            yield Hit(
                f"argument '{name}' takes yes or no ({', '.join(values)}) but is typed string",
                "Type it boolean, or declare the enum of the words it takes.",
                _at(name),
            )
            continue
        if values and _not_a_value_set(name, values):
            continue
        if values and _bounded_codes(schema, values):  # "0=Info, 1=Low, ..." read as a label's list
            continue
        if values and not set(values) <= names:  # "either 'content' or 'content_file'": arguments, not values
            yield _enum_in_prose(f"argument '{name}'", values, _at(name))
    for name, schema in arguments(tool):
        # a pydantic `params` model sits behind its `$ref`: its fields are read at the definition they live in
        target, where = follow(schema, tool.input_schema, ("properties", name))
        fields = target.get("properties") if types_of(target) == {"object"} else None
        for field, sub in (fields or {}).items() if isinstance(fields, dict) else ():
            if not isinstance(sub, dict) or not _takes_strings(sub) or _enumerated_elsewhere(sub, tool.input_schema):
                continue
            values = prose_enum(description_of(sub))
            if values and all(_WORDLIKE.match(v) for v in values) and not _not_a_value_set(field, values):
                at = pointer("inputSchema", *where, "properties", field)
                yield _enum_in_prose(f"field '{name}.{field}'", values, at)


def _corroborated(values: list[str] | None, schema: dict[str, Any]) -> list[str] | None:
    """Words a note lists in parentheses ("File format to download (fastq, submitted, or sra)") when the schema
    shows they are the values: its `default` is one of them, or its `examples` are; or they are three or more short
    codes ("(Chat, Note, Warn, Error)"). "Repository owner (username or organization)" names kinds of value, and
    the schema says nothing of them."""
    if not values:
        return None
    examples = schema.get("examples")
    shown = [schema.get("default"), *(examples if isinstance(examples, list) else ())]
    if any(isinstance(v, str) and v in values for v in shown):
        return values
    return values if len(values) >= 3 and all(len(v) <= 5 for v in values) else None


def _enumerated_elsewhere(schema: dict[str, Any], root: dict[str, Any]) -> bool:
    """Whether an argument declares its values through a `$ref` or a union branch (pydantic's `Units` enum is
    `{"$ref": "#/$defs/Units"}`, an optional one `anyOf: [{"$ref": ...}, {"type": "null"}]`): the set is there."""
    if "$ref" not in schema and "anyOf" not in schema and "oneOf" not in schema and "allOf" not in schema:
        return False
    return enum_values(schema, root) is not None


def _enum_in_prose(what: str, values: list[str], at: str) -> Hit:
    return Hit(
        f"{what} lists values in prose ({', '.join(values)}) but declares no enum",
        f'Declare them: "enum": {values!r}'.replace("'", '"'),
        at,
    )


_WORDLIKE = compiled(r"\w")
"""A value that starts as a word does (`private`, `only_owner`); "AND, OR, +" or "=, |" in a field's note are a
syntax's operators and separators, not its values."""


def _takes_strings(schema: dict[str, Any]) -> bool:
    """Whether an argument takes free strings a value set could close: a string (or untyped) argument, or an array
    of such strings ("Filter by alert state: firing, pending, ..." on `states: string[]`), with no enum or const."""
    types = types_of(schema)
    if "enum" in schema or "const" in schema or _CLOSED_PATTERN.match(str(schema.get("pattern", ""))):
        return False
    if any(_CLOSED_PATTERN.match(str(b.get("pattern", ""))) for k in ("anyOf", "oneOf") for b in _dicts(schema.get(k))):
        return False  # `anyOf: [{type: string, pattern: "^(raw|qcow2)$"}, {type: null}]`: an optional closed set
    if not types or "string" in types:
        return True
    items = schema.get("items")
    if types != {"array"} or not isinstance(items, dict) or "enum" in items or "const" in items:
        return False
    return "string" in types_of(items)


_CLOSED_PATTERN = compiled(r"^\^\(?(?:\?:)?[\w.-]+(?:\|[\w.-]+)+\)?\$$")
"""A pattern that is only an alternation of literal values (`^(qemu|lxc)$`): it closes the set as an enum would, and
a validating client checks it."""


def _dicts(value: Any) -> list[dict[str, Any]]:
    return [v for v in value if isinstance(v, dict)] if isinstance(value, list) else []


def _takes_numbers(schema: dict[str, Any]) -> bool:
    """An integer or number argument with no enum or const: one a set of codes could close."""
    types = types_of(schema)
    return bool(types) and types <= {"integer", "number", "null"} and "enum" not in schema and "const" not in schema


def _coded_numbers(text: str) -> list[str] | None:
    """The numbers of a note that codes its values, each number then what it means ("10=relates to, 20=depends
    on, ...", "(0: all, 1: well-formed, 2: creating)", "1 - active, 2 - inactive", "Options:1(Text),2(Number)"):
    two or more distinct numbers, each coded once; None for anything else ("1-100", "max: 50"), and for codes
    after "e.g." or "such as" (samples of ids: "e.g. 57=Arsenal, 65=Manchester City") or where one number is
    approximate ("1000 = stop, ~1100 = gentle, 2000 = full": points on a scale)."""
    if not text or not _CODE_HINT.search(text):
        return None
    found = list(_CODED.finditer(text))
    codes = [m["n"] for m in found]
    if len(codes) < 2 or len(set(codes)) != len(codes) or _QUANTITY_CODE.search(text):
        return None
    if _SAMPLED.search(text[: found[0].start()][-20:]):
        return None  # "(e.g. 57=Arsenal, 65=Manchester City)": ids sampled with their names, not a set
    if all(m["word"].lower() in _RANKS for m in found):
        return None  # "1=urgent, 2=high, 3=normal, 4=low": a scale whose numbers are its ranks, which bounds state
    if _APPROXIMATE_CODE.search(text):
        return None  # "(1000 = stop, ~1100 = gentle, 2000 = full)": points on a scale, one of them approximate
    return codes


_SAMPLED = compiled(r"\b(?:e\.g\.|for example|for instance|such as|example:)", re.IGNORECASE)
_APPROXIMATE_CODE = compiled(r"[~≈]\s*\d+\s*[=:]")


def _bounded_to(schema: dict[str, Any], codes: list[str]) -> bool:
    """Whether the schema's bounds already close a run of consecutive codes ("0=None, ..., 6=Automatic" with
    `minimum: 0, maximum: 6`, on it or on a nullable branch): no value outside the set passes, so an enum would add
    nothing."""
    numbers = sorted(int(c) for c in codes)
    if numbers != list(range(numbers[0], numbers[-1] + 1)):
        return False
    branches = [b for k in ("anyOf", "oneOf") for b in schema.get(k) or () if isinstance(b, dict)]
    return any(part.get("minimum") == numbers[0] and part.get("maximum") == numbers[-1] for part in (schema, *branches))


def _bounded_codes(schema: dict[str, Any], values: list[str]) -> bool:
    """Whether listed values are codes ("0=Info", "1=Low") whose run the schema's bounds already close."""
    codes = [m[1] for m in map(_CODE_VALUE.match, values) if m]
    return len(codes) == len(values) and _bounded_to(schema, codes)


_CODE_VALUE = compiled(r"^(\d{1,5})\s*[=:]")
_CODE_HINT = compiled(r"\d\s*[=:(\-–]")
_CODED = compiled(r"(?:^|(?<=[\s(,;:]))(?P<n>\d{1,5})\s*(?:=|:|\s[-–]|\()\s*(?P<word>[A-Za-z]+)")
"""A number and the sign that codes it: `10=relates`, `0: all`, `1 - active`, `1(Text`. A dash must follow a space,
so a range ("1-100") is not a code."""
_QUANTITY_CODE = compiled(r"-\d+\s*[=:]|\d\s*[=:]\s*(?:default|unlimited|no limit)\b", re.IGNORECASE)
"""A count with special values ("0=structure, 2=default, -1=unlimited"): a quantity, not a set of codes."""
_RANKS = frozenset(
    {
        "urgent",
        "critical",
        "highest",
        "high",
        "major",
        "medium",
        "normal",
        "moderate",
        "minor",
        "low",
        "lowest",
        "none",
        "trivial",
        "weak",
        "mild",
        "strong",
        "severe",
        "light",
        "heavy",
    }
)


def _flag_typed_string(schema: dict[str, Any], values: list[str], text: str) -> bool:
    """A yes-or-no switch typed string, its two words in parentheses ("Include silenced alerts (true/false)" on
    `{"type": "string"}`): the agent sends the boolean its name and note ask for, and a string schema rejects it,
    or the server reads "false" as a non-empty, true string. A nullable or untyped one (`anyOf: [boolean, null]`,
    "True/False/None"), a value that may be "true" among others ('"true" or "false" for checkboxes') and a
    three-way filter ("'true' for finished only, 'false' for unfinished, empty for all") are left alone."""
    pair = {v.lower() for v in values}
    return types_of(schema) == {"string"} and pair in _FLAG_PAIRS and _SWITCH_NOTE.search(text) is not None


_SWITCH_NOTE = compiled(r"\(\s*(?:true|yes|on)\s*[/|,]\s*(?:false|no|off)\s*\)", re.IGNORECASE)


_FLAG_PAIRS = ({"true", "false"}, {"yes", "no"}, {"on", "off"})


def _not_a_value_set(name: str, values: list[str]) -> bool:
    """Values that are not the argument's set: yes-or-no words ("(true, false)": the fix is a boolean type, not an
    enum; with "None" or "null", an optional boolean's), and formats named on a path or file argument ("Path to the
    image (PNG, JPG, BMP, TGA)": the file's type, not the value's), and forms with a placeholder ("YYYY-MM-DD or
    YYYY-MM", "projects/{projectID} or projects/{projectNumber}": templates of many values, which `pattern` states,
    not an enum), and a size's unit suffixes ("(K, M, G, T)")."""
    if {v.lower() for v in values} <= _FLAG_WORDS | {"none", "null"}:  # "True = ...; False = ...; None = no filter"
        return True
    if any(_TEMPLATE.search(v) for v in values):
        return True
    if set(values) <= _SIZE_SUFFIXES:
        return True  # "(K, M, G, T)": a size's unit suffixes, not its values
    named = normalized(name).split() or [""]
    media = named[-1] in _FILE_WORDS or bool(set(named) & _MEDIA_WORDS)
    return media and all(v.isalnum() and v[:1].isupper() and len(v) <= 5 for v in values)


_TEMPLATE = compiled(r"\{[^{}]+\}|<[^<>]+>|\bY{2,4}\b|\bYYYY|\bMM\b|\bDD\b|\bHH\b")
_FLAG_WORDS = frozenset(["true", "false", "yes", "no", "on", "off", "0", "1"])
_FILE_WORDS = frozenset(["path", "paths", "file", "files", "filename", "filepath", "url", "uri"])
_SIZE_SUFFIXES = frozenset(["B", "K", "M", "G", "T", "P", "KB", "MB", "GB", "TB", "KiB", "MiB", "GiB", "TiB"])
_MEDIA_WORDS = frozenset(["image", "images", "photo", "picture", "audio", "video", "document", "attachment"])
"""An argument that carries a file of a kind (`image_source`): "JPEG, PNG, WebP" are the file's formats."""


def _listed_operations(tool: Tool, name: str) -> list[str] | None:
    """The operations a selector argument (`operation`, `action`, `command`, ...) takes when the tool description
    lists them one per numbered item, each opening on the identifier ("1) getCostAndUsage — account-level cost",
    "2. get_automation_event: ..."; bullets list fields and arguments): two or more, each a snake_case or
    camelCase word that is not one of the tool's arguments (a parameter list's items open on those)."""
    if name.lower() not in SELECTORS:
        return None
    arguments_named = {n for n, _ in arguments(tool)}  # an item that opens on an argument documents the argument
    if name.lower() == "mode" and {n.lower() for n in arguments_named} & (SELECTORS - {"mode"}):
        return None  # `action` beside `mode`: the operations are the action's, the mode picks a variant
    listed = dict.fromkeys(m.group("op") for m in _OPERATION_ITEM.finditer(tool.description))
    found = [op for op in listed if op not in arguments_named]
    if len(found) < 2 and "-" in tool.description:
        bulleted = dict.fromkeys(m["op"] for m in _OPERATION_BULLET.finditer(tool.description))
        found = [op for op in bulleted if op not in arguments_named]
        if not _OPERATIONS_HEADING.search(tool.description) and sum("_" in op for op in found) < 2:
            return None  # bullets list fields or arguments as often: an operation reads as a verb_object name
    return found if len(found) >= 2 else None


_OPERATION_ITEM = compiled(
    r"^[ \t]*\d+[.)][ \t]+[`*]*(?P<op>[a-z]+(?:_[a-z0-9]+)+|[a-z]+(?:[A-Z][a-z0-9]+)+)[`*]*[ \t]*(?:[:(—–]|-\s)",
    re.MULTILINE,
)


def _piped_in_description(description: str, name: str) -> list[str] | None:
    """The values the tool description pipes right after the argument's name (bare or in code quotes): two or more
    words joined by `|` in parentheses or after "is" or "=" ("Params: provider, mode (text|image), format
    (glb|fbx|obj|usdz)", "``action`` is open|close|stop", "(``channel`` = stable|beta)", "applikation: BrKons
    (consolidated law, default) | BgblAuth | Erv", each value perhaps with a note), or the set a sentence states of
    it in code quotes ("`country` must be "usa" or "can"") or opening on it (`_stated_values`). Slashed words there
    are left alone: "``card`` (ID/URL/name)" names an identifier's forms, not values to choose from."""
    if name not in description:
        return _stated_values(description, name) if name.capitalize() in description else None
    found = re.search(rf"(?<![\w`-])`{{0,2}}{re.escape(name)}`{{0,2}}{_PIPED_AFTER_NAME}", description)
    if found:
        return found["list"].split("|")
    noted = re.search(rf"(?<![\w`-])`{{0,2}}{re.escape(name)}`{{0,2}}\s*:\s*{_PIPED_WITH_NOTES}", description)
    if noted:  # "applikation: BrKons (consolidated law, default) | BgblAuth | BgblPdf"
        return [re.sub(r"\s*\([^()]*\)", "", v).strip().rstrip(".") for v in noted["list"].split("|")]
    told = re.search(rf"`{re.escape(name)}`\s+(?P<rest>(?:must|can|should)\s+be\s+[^.\n]{{1,120}})", description)
    return prose_enum(told["rest"]) if told else _stated_values(description, name)  # "`country` must be "usa" or "can""


def _stated_values(description: str, name: str) -> list[str] | None:
    """The values a sentence of the tool description states of an argument it opens on: "Source can be gui, spider,
    daemon, supersonic, or scsynth." for `source`: three or more bare words, the last joined by "or", and nothing
    after them in the sentence. "Source can be a path, a URL or a name" lists forms, with articles: no set."""
    said = re.search(
        rf"(?:^|(?<=[.!?]\s))[ \t]*(?:{re.escape(name)}|{re.escape(name.capitalize())})\s+(?:must|can|should)\s+be\s+"
        rf"(?:one\s+of\s*:?\s*)?(?P<list>{_STATED}(?:\s*,\s*{_STATED})+,?\s+or\s+{_STATED})\s*(?:[.;]|$)",
        description,
        re.MULTILINE,
    )
    return [v for v in re.split(r"\s*,\s*(?:or\s+)?|\s+or\s+", said["list"]) if v] if said else None


_STATED = r"(?!(?:a|an|the)\b)[a-z0-9](?:[\w.-]{0,30}\w)?"


@lru_cache(maxsize=4096)  # DESC-006, DESC-009 and DESC-013 ask it of the same argument
def _supported_values(description: str, name: str) -> list[str] | None:
    """The values a tool description states under the argument's name as a label: "Supported planets: Sun, Mercury,
    Venus, Mars." for `planets`, "Valid regions: oregon, frankfurt, singapore." for `region` (its words, a plural too;
    "operations" for an `op`; its code name and "options", "Valid group_by options: color, country."): two or more words
    joined by commas, up to the end of the sentence, a list wrapped onto the next line after a comma read as one. Not
    "Allowed commands: ls, cat" for a shell's `command`: what a list of allowed or available things names may be a part
    of the value."""
    if ":" not in description:
        return None
    description = unwrap_lists(description)  # "Supported operations: intersects, within,\n    crosses, ...": one list
    words = " ".join(w for w in re.split(r"[_\s]+", re.sub(r"([a-z])([A-Z])", r"\1 \2", name)) if w)
    last = words.split()[-1] if words else ""
    plural = last[:-1] + "ies" if last.endswith("y") else last + ("es" if last.endswith(("s", "x")) else "s")
    lowered = description.lower()
    named = "operation" if name.lower() == "op" else words  # `op`: "Supported operations: intersects, within"
    labelled = (named.lower() in lowered or name.lower() in lowered) and any(
        w in lowered for w in ("supported", "valid", "accepted")
    )
    if not labelled and f"{plural.capitalize()}:" not in description.replace(" :", ":"):
        return None  # neither label is there: no pattern to compile for this name
    stated = re.search(
        rf"\b(?:Supported|Valid|Accepted)\s+(?:{re.escape(named)}|{re.escape(name)})s?(?:\s+(?:options|values))?"
        r"\s*:\s*(?P<list>[^.\n]{3,300})",
        description,
        re.IGNORECASE,
    )
    if stated is None:  # "Statuses: UNPAID, PROCESSING, ...": a sentence that is the plural label and the values
        stated = re.search(
            rf"(?:^|(?<=[.!?]\s))[ \t]*{re.escape(plural.capitalize())}\s*:\s*(?P<list>[^.\n]{{3,300}})",
            description,
            re.MULTILINE,
        )
    if stated is None:
        return None
    values = [v.strip() for v in stated["list"].split(",")]
    return values if len(values) >= 2 and all(_SUPPORTED_VALUE.fullmatch(v) for v in values) else None


_SUPPORTED_VALUE = compiled(r"[\w-]{1,30}")


def _ordering_keys(description: str, name: str) -> list[str] | None:
    """The sort keys a tool description lists for its sort argument (`order_by`, `sortBy`, `sort`) as upper-case
    constants after "ordering by" or "sorted by": "Supports ... ordering by CREATED, ID, PATH, TITLE, or UPDATED."."""
    if normalized(name).replace(" ", "") not in _SORT_NAMES or not description:
        return None
    found = _ORDERED_BY.search(description)
    return re.findall(r"[A-Z][A-Z0-9_]+", found["list"]) if found else None


_SORT_NAMES = frozenset(["orderby", "sortby", "sort", "order", "sortfield", "orderfield", "sortkey"])
_ORDERED_BY = compiled(
    r"\b(?:order|sort)(?:ing|ed|s)?\s+by\s+(?P<list>[A-Z][A-Z0-9_]+(?:\s*,\s*[A-Z][A-Z0-9_]+)+,?\s+or\s+[A-Z][A-Z0-9_]+)\b",
    re.IGNORECASE,
)


_PIPED_AFTER_NAME = r"(?:\s\(|\s+is\s+|\s*=\s*)(?P<list>[\w.-]+(?:\|[\w.-]+)+)(?![\w|])"
_PIPED_WITH_NOTES = r"(?P<list>[\w.-]+(?:\s*\([^()\n]{0,60}\))?(?:\s*\|\s*[\w.-]+(?:\s*\([^()\n]{0,60}\))?)+)"


_OPERATION_BULLET = compiled(r"^[ \t]*[-*•][ \t]*`?(?P<op>[a-z]+(?:_[a-z0-9]+)*)`?[ \t]*:[ \t]", re.MULTILINE)
_OPERATIONS_HEADING = compiled(r"^[ \t]*(?:actions|operations|commands)[ \t]*:[ \t]*$", re.MULTILINE | re.IGNORECASE)


def _enum_values(schema: dict[str, Any]) -> list[Any]:
    items = schema.get("items")
    enum = schema.get("enum", items.get("enum") if isinstance(items, dict) else None)
    return [v for v in enum if v is not None] if isinstance(enum, list) else []


def _mentions(text: str, value: Any) -> bool:
    return re.search(rf"(?<!\w){re.escape(str(value))}(?!\w)", text, re.IGNORECASE) is not None


def _needs_example(name: str, schema: dict[str, Any], needed: bool = True, text: str | None = None) -> bool:
    """Whether an argument's form is not evident from its name, type and description (see DESC-009); `text` is
    what documents it, when not its own description (its line in the tool description's `Args:` section)."""
    types = types_of(schema) or branch_types(schema)
    if "enum" in schema or "const" in schema or types & {"boolean", "number", "integer", "null"} == types != set():
        return False  # a number, a flag, or one of them or null (pydantic's `int | None`): nothing to show
    if _branches(schema) and all("const" in b or "enum" in b or b.get("type") == "null" for b in _branches(schema)):
        return False  # a union of consts (`anyOf: [{const: blocknumber}, {const: timestamp}]`): an enum spelt out
    if types & {"object", "array"}:
        return _structured_container(name, schema)
    if any("format" in b or "pattern" in b for b in (schema, *_branches(schema))):
        return False  # `anyOf: [{type: string, format: date-time}, ...]`: a branch shows the form
    desc = description_of(schema) if text is None else text
    if not desc:
        optional = not needed and (_names_one_thing(name) or _last_word(name) in _PATH_WORDS)
        evident = _FREE_TEXT.search(name) or _TEXT_LOOKUP.search(name) or optional
        return not evident and (not any(k in schema for k in ("anyOf", "oneOf", "$ref")) or _nullable_text(schema))
    return _STRUCTURED.search(desc) is not None


def _nullable_text(schema: dict[str, Any]) -> bool:
    """Whether a union is a plain string or null and nothing more (pydantic's `str | None`): a string to the agent."""
    kinds = [b for b in _branches(schema) if b.get("type") != "null"]
    plain = len(kinds) == 1 and set(kinds[0]) <= {"type", "title"} and kinds[0].get("type") == "string"
    return plain and "$ref" not in schema


def _branches(schema: dict[str, Any]) -> list[dict[str, Any]]:
    """The alternatives of a union (`anyOf`/`oneOf`), the ones that are schemas."""
    return [b for k in ("anyOf", "oneOf") for b in schema.get(k) or () if isinstance(b, dict)]


def _last_word(name: str) -> str:
    return (normalized(name).split() or [""])[-1]


_PATH_WORDS = frozenset(["path", "dir", "directory", "folder", "file", "filename"])
"""Last words of an optional path (`output_folder`, `dest_dir`): the agent leaves it out or passes the user's path as
given; the groups labelled by hand before the lint ran called none of these true."""


def _names_one_thing(name: str) -> bool:
    """Whether a name ends in a singular noun (`searchTerm`, `language`, `llm_model`, `topic_within_article`):
    one name, term or phrase, written the way the user says it. A plural (`sources`, `bearings`: a list packed
    into a string, separator unknown), a date, time or range word (`depart_at`, `start_date`, `time_range`), a
    path, colour, code or other formatted value, and a selection verb (`exclude`) do not say how it is written."""
    last = _last_word(name)
    if len(last) < 2 or last in _FORM_WORDS:
        return False
    return not (last.endswith("s") and not last.endswith(("ss", "us", "is")))


_FORM_WORDS = frozenset(
    """
    at by on in from to since until before after between within gt gte lt lte
    date time datetime timestamp day start end deadline due range duration interval period window expiry expires
    schedule cron timezone zone format pattern expression expr filter regex glob selector version
    path dir directory folder file filename cell color colour size dimensions bbox geometry polygon point
    region locale market code hash sha
    exclude include ignore skip omit only
    """.split()  # noqa: SIM905 (a word list reads better as prose)
)
"""Last words of an argument name whose value has a form to get right: a date or time (and the prepositions that
name one: `depart_at`, and the comparison lookups `created__date__gte`, `__lt`), a range, a format, a path, a colour
or size, a geometry, a service-specific code (`region`: `us-en`? `wt-wt`?), or a selection (`exclude`)."""


_FREE_TEXT = compiled(
    r"(?:message|content|body|text|comment|thought|query|note|title|name|summary|description|sql|script|code|question|subject"
    r"|prompt|request|details|reason|keyword|phrase|term|author|password"
    r"|goal|instructions?|url|uri|link|href|email|reply_?to|id|ids)s?$|[a-z](?:Id|Ids|Key|Keys|Url|Uri)$|[a-z]_keys?$",
    re.I,
)
"""An argument name whose form is evident without a description: free text (a search term, an author's name, a
password: written as the user gives it), a URL or e-mail, an opaque id, or the key
of a named object (`item_key`, `projectKey`: copied from the listing or the result that returned it; a bare `key`
names no object, and may be a config key or a sort key)."""
_TEXT_LOOKUP = compiled(r"__i?(?:exact|contains|startswith|endswith)$")
"""A Django-style text lookup (`name__icontains`, `title__istartswith`): the value is a piece of the field's text."""
_CODE_BLOCK = compiled(r"```[^\n]*\n(.*?)```|(\{[^{}]*(?:\{[^{}]*\}[^{}]*)*\})", re.DOTALL)


def _worked_call(description: str, names: list[str]) -> bool:
    """Whether the tool's description shows a worked call: a code block or JSON object with an `"arguments"`
    object, or one that sets two or more of the tool's arguments as keys (`"url": "https://..."`)."""
    if "{" not in description:
        return False
    for match in _CODE_BLOCK.finditer(description):
        block = match.group(1) or match.group(2) or ""
        if re.search(r"[\"']arguments[\"']\s*:", block):
            return True
        keys = {n for n in names if re.search(rf"[\"']?{re.escape(n)}[\"']?\s*:", block)}
        if len(keys) >= min(2, len(names)):
            return True
    return False


@lru_cache(maxsize=1024)  # DESC-006 asks it of each undescribed argument of one tool
def _keyword_call(description: str, names: tuple[str, ...]) -> frozenset[str]:
    """The arguments a call written with keywords in the tool's description sets to a value (`value='#ff0000'
    source='hex' target='rgb'`, `limit=10`), when it sets two or more: a worked call, which shows each one's form
    (DESC-006 and DESC-009 leave them alone). One name set alone (`query = "SELECT ..."`) may be a sample of one
    argument, not a call."""
    if "=" not in description:
        return frozenset()
    found = frozenset(
        n for n in names if re.search(rf"(?<![\w.-]){re.escape(n)}\s*=\s*(?:[\"'\[{{]|-?\d)", description)
    )
    return found if len(found) >= 2 else frozenset()


_MAP_ROLE = compiled(
    r"^(?:params|parameters|variables|vars|headers|labels|env|environment|args|arguments|mapping|custom_?fields)$",
    re.I,
)
"""Names of a free-form object that is a map by convention: a query's parameters, a request's headers, labels,
environment variables, the arguments of the tool or command it runs, a key-value mapping, a workspace's custom
fields; its keys are the names the agent already has (the query's `$name`s, the fields a listing gave), its values
theirs."""


def _structured_container(name: str, schema: dict[str, Any]) -> bool:
    """An object, or an array of objects, with text fields to fill whose form its fields do not show: numbers,
    booleans, enums and formatted strings are evident (coordinates of two numbers), and when at least half of
    the other fields show a sample value (`style: {backgroundColor: "such as '#fff'", palette}`) the fields
    show the container's form; text fields without one (`entities: [{name, entityType, observations}]`) do not. A
    string field named as free text (`content`, `title`, `name`) is evident, described or not: the description says
    what the text is about, there is no form to copy (`messages: [{role: enum, content}]`)."""
    items = schema.get("items")
    target = items if "array" in types_of(schema) and isinstance(items, dict) else schema
    if not ("object" in types_of(target) or isinstance(target.get("properties"), dict)):
        return _STRUCTURED.search(description_of(schema)) is not None
    props = target.get("properties")
    if not isinstance(props, dict) or not props:
        values = target.get("additionalProperties")
        if isinstance(values, dict) and (_evident_by_type(values) or types_of(values) == {"string"}):
            return False  # a typed map (`{"type": "object", "additionalProperties": {"type": "string"}}`): key: value
        return _MAP_ROLE.match(name) is None  # a free-form object: nothing says what goes in it, but a map's role
    if target is schema:
        return False  # an object whose fields are declared (a generated `request` wrapper): they show its form
    text = [
        p
        for n, p in props.items()
        if isinstance(p, dict) and not (_evident_by_type(p) or _free_text_field(n, p) or _described_plainly(p))
    ]
    return bool(text) and 2 * sum(1 for p in text if _shows_example(p)) < len(text)


def _described_plainly(schema: dict[str, Any]) -> bool:
    """A field whose description says what it holds and names no structured form ("The header's key.", "Journal
    title or ISO abbreviation"): a record of such fields shows its form through them, as a declared object does."""
    desc = description_of(schema)
    return bool(desc) and not _STRUCTURED.search(desc) and not (types_of(schema) & {"object", "array"})


def _free_text_field(name: str, schema: dict[str, Any]) -> bool:
    """A string field of a record whose name says it is free text (`content`, `title`, `query`), described or not:
    its description says what the text is about, not a form to copy (perplexity's `messages: [{role, content}]`)."""
    return types_of(schema) == {"string"} and _FREE_TEXT.search(name) is not None


def _evident_by_type(schema: dict[str, Any]) -> bool:
    """A field whose type or constraint shows its form: a number, a boolean, an enum or const, a format or pattern."""
    types = types_of(schema)
    if any(key in schema for key in ("enum", "const", "format", "pattern")):
        return True
    return bool(types) and types <= {"boolean", "number", "integer", "null"}


def _tool_shows(description: str, name: str) -> bool:
    """Whether the tool's description shows this argument in a worked example ("Example: ... name ..."), on its
    own line of a parameter list ("- filter (optional): regex pattern ... (e.g., "bedrock" matches ...)"), or in a
    sentence that names it in backticks and shows its form ("Give `country` as ISO-3 lowercase (e.g. usa, deu)")."""
    if _dated(name) and _DATES_SHOWN.search(description):
        return True  # "Dates are YYYY-MM-DD.": every date argument's form, named or not
    if name not in description:
        return False
    if _dated(name) and re.search(rf"\bISO(?:[ -]?8601)?\s+(?:\w+/)?{re.escape(name)}\b", description):
        return True  # "an ISO start/end window": the standard named on the argument itself
    marker = r"(?:\be\.g\.|\bfor (?:example|instance)\b|\bexamples?\b)"
    if re.search(rf"{marker}[^\n]{{0,80}}?\b{re.escape(name)}\b", description, re.IGNORECASE):
        return True
    line = rf"^[ \t]*[-*]?[ \t]*[`*]*{re.escape(name)}[`*]*[ \t]*(?:\([^)\n]*\))?[ \t]*:[^\n]*{marker}"
    if re.search(line, description, re.MULTILINE | re.IGNORECASE) is not None:
        return True
    named = compiled(rf"`{re.escape(name)}`")  # "Give `country` as ISO-3 lowercase (e.g. usa, can, deu, gbr)"
    if CODE_NAME.search(name):  # `due_at`, `fromDate`: a code name no prose word is ("due_at is ISO8601.")
        named = compiled(rf"(?<![\w-])`?{re.escape(name)}`?(?![\w-])")
    return any(named.search(s) and _FORM_SHOWN.search(s) for s in sentences(description))


def _dated(name: str) -> bool:
    """Whether the argument's name says it takes a date or time (`start_date`, `fromDate`, `updated_since`, `end`)."""
    return _last_word(name) in _DATE_WORDS


_DATE_WORDS = frozenset(
    "at on from to since until before after date time datetime timestamp start end deadline due expiry".split()  # noqa: SIM905
)
_DATES_SHOWN = compiled(
    r"\b(?:dates?|times?|timestamps?|datetimes?)\s+(?:are|is|must be|should be|in|as|use)\b[^.\n]{0,30}?"
    r"(?:YYYY|\bISO[ -]?8601\b|\bRFC ?3339\b|\bunix\b|\bepoch\b)",
    re.IGNORECASE,
)
"""A tool description's one statement of the form of all its dates ("Dates are YYYY-MM-DD.", "All times in ISO
8601"): it shows the form of each argument whose name says it is a date or time."""


_FORM_SHOWN = compiled(
    r"\be\.g\.|\bfor (?:example|instance)\b|\bsuch as\b|YYYY|\bHH:MM|\bISO[ -]?(?:\d{1,5}|format)\b|\bRFC ?\d{3,4}\b"
    r"|\bIANA\b|\bBCP ?47\b|\bE\.164\b|\bin the format\b",
    re.IGNORECASE,
)
"""A sentence of the tool description that names an argument in backticks and shows its form: an example marker or
a standard that defines it ("`country` is ISO-3 lowercase")."""


def _shows_example(schema: dict[str, Any], text: str | None = None) -> bool:
    if any(key in schema and _shows_form(key, schema[key]) for key in _EXAMPLE_KEYS):
        return True
    return _PROSE_EXAMPLE.search(description_of(schema) if text is None else text) is not None


def _shows_form(key: str, value: Any) -> bool:
    return key != "default" or not (value is None or isinstance(value, bool) or value in ("", [], {}))


def _mostly_mentioned(text: str, values: list[Any]) -> bool:
    """Whether `text` names at least half of the values (a plural form counts: "pods" names `pod`)."""
    named = sum(1 for v in values if re.search(rf"(?<!\w){re.escape(str(v))}(?:e?s)?(?!\w)", text, re.IGNORECASE))
    return named * 2 >= len(values)


_SORT_ROLE = frozenset(["sort", "orderby", "sortby", "sortkey"])
_ACTION_ROLE = frozenset(["operation", "action", "command", "subcommand", "event", "op", "verb", "actions"])


_SORTS = compiled(r"\bsort", re.IGNORECASE)


def _named_by_role(name: str, values: list[Any], desc: str = "") -> bool:
    """Values whose argument's role names them: sort keys, or actions most of which are verbs (see DESC-007)."""
    parts = normalized(name).split()
    role = "".join(parts[-2:]) if len(parts) > 1 and "".join(parts[-2:]) in _SORT_ROLE else (parts or [""])[-1]
    if role in _SORT_ROLE or (role == "order" and _SORTS.search(desc)):
        return True  # sort keys; an `order` described as what to sort on ("Sort order field") is one
    if role not in _ACTION_ROLE:
        return False
    verbs = sum(1 for v in values if isinstance(v, str) and _starts_with_verb(v))
    return verbs * 2 > len(values)


_CODE_ROLE = compiled(r"countr|lang|locale|region|market", re.IGNORECASE)
_STANDARD_CODE = compiled(r"[A-Za-z]{2}(?:[-_][A-Za-z]{2,4})?")
_MIME = compiled(r"(?:text|application|image|audio|video|font|model|multipart|message)/[\w.+-]+")
_LANGUAGE_ROLE = compiled(r"lang(?:uage)?(?:_?id|_?name)?$", re.IGNORECASE)
_LANGUAGE_NAME = compiled(r"[a-z][a-z0-9+#.-]{0,20}")
"""A language named by its lowercase name or identifier (`python`, `c++`, `c#`, `objective-c`, `perl6`)."""
"""An ISO 3166 country, ISO 639 language or BCP 47 locale code (`US`, `de`, `pt-BR`, `zh-hans`)."""


def _standard_codes(name: str, desc: str, values: list[Any]) -> bool:
    """Whether the argument picks a country, language or locale and most values are standard codes (DESC-007); or
    it picks a language by its name (`languageId`: javascript, python, go); or every value is a MIME type
    (`text/plain`, `application/xliff+xml`): a standard names each one."""
    if all(isinstance(v, str) and _MIME.fullmatch(v) for v in values):
        return True
    if _LANGUAGE_ROLE.search(name) and all(isinstance(v, str) and _LANGUAGE_NAME.fullmatch(v) for v in values):
        return True
    if not (_CODE_ROLE.search(name) or _CODE_ROLE.search(desc)):
        return False
    codes = sum(1 for v in values if isinstance(v, str) and _STANDARD_CODE.fullmatch(v))
    return codes * 10 >= len(values) * 9


def _starts_with_verb(value: str) -> bool:
    first = (normalized(value).split() or [""])[0]
    return first in COMMON_VERBS or first in lexicon().verbs


def _self_explanatory(values: list[Any]) -> bool:
    if len(values) == 1 or all(isinstance(v, str) and _PROPER_NAME.match(v) for v in values):
        return True
    return all(isinstance(v, str) and (v.lower() in _SELF_DESCRIBING or _DURATION.fullmatch(v)) for v in values)


_DURATION = compiled(r"\d+(?:s|m|min|h|d|w|wk|mo|y|yr)|ytd|max|all", re.IGNORECASE)
"""A time span written as a count and a unit (`1d`, `5d`, `1wk`, `3mo`, `10y`), or `ytd`/`max`: it says what it is."""


def _spelled_out(desc: str, values: list[Any]) -> bool:
    """Whether every value is the initials of words the description spells out in order ("in-the-money,
    out-of-the-money, or at-the-money" for `itm`, `otm`, `atm`): the description explains each value."""
    initials = "".join(w[0] for w in re.findall(r"[A-Za-z]+", desc)).lower()
    return all(isinstance(v, str) and 2 <= len(v) <= 6 and v.isalpha() and v.lower() in initials for v in values)


_SELF_DESCRIBING = frozenset(
    """
    asc desc ascending descending newest oldest latest earliest first last
    open closed all none any both merged draft active inactive archived
    second seconds minute minutes hour hours day days week weeks month months year years quarter daily weekly
    monthly yearly hourly
    json markdown md text html xml yaml csv plain pdf png jpeg jpg
    get post put patch delete head options
    true false yes no y n on off enabled disabled
    string number integer int float double decimal boolean bool date datetime enumeration enum object array
    textarea checkbox radio select file booleancheckbox calculation
    """.split()  # noqa: SIM905 (a word list reads better as prose)
)
"""Enum values that say what they mean (sort orders, states, time units, formats, HTTP methods, data and form-field
type names such as string/number/date or text/textarea/checkbox): DESC-007 leaves an enum of only these alone."""
