"""SCH rules: strict input-schema lint, recursing into nested objects, arrays, anyOf/oneOf/allOf and $defs."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from mcptest.checks.findings import Hit, Severity, pointer
from mcptest.checks.lint.text import (
    MCP_MODELS,
    SELECTORS,
    arguments,
    description_of,
    has_verb_in,
    normalized,
    required,
    sentences,
    types_of,
)
from mcptest.core.re_cache import compiled
from mcptest.records.catalog import Tool

_BRANCHES = ("anyOf", "oneOf", "allOf")
_TYPED_BY = ("type", "enum", "const", "$ref", *_BRANCHES)


@dataclass(frozen=True)
class Node:
    """One schema in the tree: where it is, and whether it is (a branch of) an object's property."""

    path: tuple[str | int, ...]
    schema: dict[str, Any]
    is_property: bool

    @property
    def pointer(self) -> str:
        """JSON pointer of this schema inside the tool object."""
        return pointer("inputSchema", *self.path)

    @property
    def where(self) -> str:
        """A short human name: `properties.tags.items.properties.label`, or `inputSchema` for the root."""
        return ".".join(str(p) for p in self.path) or "inputSchema"


def walk(schema: Any) -> list[Node]:
    """Every sub-schema a call can reach from `schema`, depth first; anyOf/oneOf/allOf branches inherit
    property-ness. A local `$ref` (`#/$defs/X`) is followed to its target, walked once at its own place; a
    definition no reference reaches is not walked (SCH-011 reports it), and a reference cycle cannot loop."""
    global _last
    if _last[0] is not schema:  # the SCH rules run back to back on one tool: walk its schema once
        _last = (schema, _walk(schema))
    return _last[1]


_last: tuple[Any, list[Node]] = (None, [])


def _walk(root: Any) -> list[Node]:
    out: list[Node] = []
    seen: set[tuple[str | int, ...]] = set()
    stack: list[tuple[Any, tuple[str | int, ...], bool]] = [(root, (), False)]
    while stack:
        schema, path, is_property = stack.pop()
        if not isinstance(schema, dict) or path in seen:
            continue
        seen.add(path)
        out.append(Node(path, schema, is_property))
        children: list[tuple[Any, tuple[str | int, ...], bool]] = []
        props = schema.get("properties")
        children += [(sub, (*path, "properties", n), True) for n, sub in _items(props)]
        children += [(schema.get(k), (*path, k), False) for k in ("items", "additionalProperties")]
        for key in ("prefixItems", *_BRANCHES):
            branch = is_property and key in _BRANCHES
            children += [(sub, (*path, key, i), branch) for i, sub in enumerate(_list(schema.get(key)))]
        target = ref_path(schema.get("$ref"))
        if target is not None:
            children.append((resolve_path(root, target), target, False))
        stack.extend(reversed(children))
    return out


def ref_path(ref: Any) -> tuple[str, ...] | None:
    """The path a local reference (`#/$defs/X`) names inside the schema that holds it; None for any other."""
    if not isinstance(ref, str) or not ref.startswith("#"):
        return None
    return tuple(raw.replace("~1", "/").replace("~0", "~") for raw in ref[1:].split("/")[1:])


def definitions(root: Any) -> list[tuple[tuple[str, str], Any]]:
    """The root's `$defs` and `definitions` entries, as (path, schema)."""
    if not isinstance(root, dict):
        return []
    return [((key, name), sub) for key in ("$defs", "definitions") for name, sub in _items(root.get(key))]


def _items(value: Any) -> list[tuple[str, Any]]:
    return list(value.items()) if isinstance(value, dict) else []


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _is_object(schema: dict[str, Any]) -> bool:
    return "object" in types_of(schema) or isinstance(schema.get("properties"), dict)


def _all_defaulted(props: Any) -> bool:
    return isinstance(props, dict) and all(isinstance(p, dict) and "default" in p for p in props.values())


_OPTIONAL = compiled(
    r"\boptional\b|\bomit|\bif (?:not|omitted|absent|empty)\b|\bleave (?:it )?(?:empty|blank|out)\b"
    r"|\bdefaults? (?:to|is)\b|\(default|\bcan (?:also )?be set (?:with|by|via|in|from)\b|\bfalls? back\b",
    re.IGNORECASE,
)
"""An argument described as optional on purpose ("Optional: ...", "Omit to check all", "defaults to 10"), or given
another source ("can also be set with the IDB_UDID env var", "falls back to the current project")."""
_GROUP_CUE = compiled(
    r"\beither\b|\b(?:exactly|at least) one of\b|\bone of\b|\brequired (?:if|when|unless)\b"
    r"|\bmust be (?:provided|given|supplied|specified|set)\b|\bis required\b|\b(?:use )?this or\b|\bprovide\b",
    re.IGNORECASE,
)


_WRAPPED_LINE = compiled(r"(?:(?<=\bor)|(?<=\beither))[ \t]*\n[ \t]*(?=[a-z_`'\"])")
_HARD_WRAP = compiled(r"(?<=[a-z])[ \t]*\n[ \t]*(?=[a-z_`'\"])")
"""A docstring's line break inside a sentence (a word, then the next line in lower case): read only when the prose
gave no group read line by line, so a choice wrapped after "inline" is found, and a sentence that was already whole
is not lengthened into the next one."""
"""A line break inside a choice of hard-wrapped prose ("Either client_id or\nbuyer_name is required"): the line
ends on its "or", the next goes on in lower case. A line ending on a comma is left alone: in a wrapped list of
filters ("optional MedDRA reaction filter,\nISO date range, age range, country") it joins nothing worth reading."""
_CONDITION = compiled(r"(?P<before>\b\w+\s+)?\brequired (?:if|when)\b(?P<cond>[^.;,)\n]*)", re.IGNORECASE)
_NEGATIVE = compiled(
    r"\b(?:not|no|none|neither|without|omit\w*|absent|missing|empty|unset|unless)\b|n't\b", re.IGNORECASE
)


def _dependency_only(sentence: str) -> bool:
    """Whether the sentence's only cue is "required if/when" another argument is set: a dependency ("Required when
    votes is enabled", "Required if end_date is set": B needs A), not a choice between them. Only a negative
    condition makes one of the two necessary ("Required if issue_key is not given", "not required if ref is
    provided", "required when omitting `path`"), as does any other cue in the sentence ("Either ...")."""
    conditions = list(_CONDITION.finditer(sentence))
    if not conditions or _GROUP_CUE.search(_CONDITION.sub(" ", sentence)):
        return False
    return not any(_NEGATIVE.search(m.group("cond")) or _NEGATIVE.search(m.group("before") or "") for m in conditions)


def _optional_by_design(props: dict[str, Any]) -> bool:
    """Every property has a default or is described as optional: an all-optional object on purpose."""
    return all(isinstance(p, dict) and ("default" in p or _OPTIONAL.search(description_of(p))) for p in props.values())


def argument_groups(tool: Tool) -> list[tuple[str, ...]]:
    """The "A or B" groups the prose asks for: a sentence of the tool's or an argument's description that names
    two or more of the tool's arguments with an alternative cue ("either 'content' or 'content_file' must be
    provided", "exactly one of project_key or issue_key", "Required if issue_key is not given")."""
    global _last_groups
    if _last_groups[0] is not tool:  # SCH-001 and SCH-009 ask of the same tool in a row: read its prose once
        _last_groups = (tool, _argument_groups(tool))
    return _last_groups[1]


_last_groups: tuple[Any, list[tuple[str, ...]]] = (None, [])


def _argument_groups(tool: Tool) -> list[tuple[str, ...]]:
    wrapper = _wrapper(tool)  # one object (`params`) carrying every argument: its fields are the arguments
    names = list(wrapper["properties"]) if wrapper else [n for n, _ in arguments(tool)]
    texts: list[tuple[str | None, str]] = [(None, tool.description)]
    texts += [(n, description_of(s)) for n, s in arguments(tool)]
    groups: list[tuple[str, ...]] = [] if wrapper else _key_pairs(tool) + _worded_pairs(tool)
    if len(names) < 2 or not any(_GROUP_CUE.search(text) for _, text in texts):
        return groups
    found = _prose_groups(texts, names, _WRAPPED_LINE)
    if not found:  # a docstring wrapped mid-sentence ("Pass trades either inline\n    as 'transactions' or ...")
        found = _prose_groups(texts, names, _HARD_WRAP)
    if not found and not wrapper:
        found = _any_filter(tool)
    return groups + [g for g in found if g not in groups]


_ANY_FILTER = compiled(
    r"\bat least one (?:additional |of the )?(?:[\w-]+\s+)?(?:search\s+)?"
    r"(?:parameters?|arguments?|filters?|criteri(?:on|a))\b(?P<note>[^.;\n]{0,80}?)"
    r"\b(?:must|should|has to|needs? to)\s+be\s+(?:provided|given|set|specified|supplied)"
    r"|\bat least one (?:search\s+)?(?:parameter|argument|filter|criterion)\s+is\s+required",
    re.IGNORECASE,
)


def _any_filter(tool: Tool) -> list[tuple[str, ...]]:
    """The optional arguments a search needs one of, when the description says so of all of them ("At least one
    search parameter (other than limit) must be provided", "At least one search criterion is required"): every
    optional argument but the ones the note excepts and the paging and output controls, which narrow nothing."""
    said = _ANY_FILTER.search(tool.description)
    if said is None:
        return []
    note = said["note"] or ""
    needed = set(required(tool))
    group = [
        n
        for n, _ in arguments(tool)
        if n not in needed
        and not set(normalized(n).split()[-1:]) & _MODIFIER_WORDS
        and not re.search(rf"(?<![\w-]){re.escape(n)}(?![\w-])", note)
    ]
    return [tuple(sorted(group))] if len(group) >= 2 else []


def _prose_groups(
    texts: list[tuple[str | None, str]], names: list[str], wrap: re.Pattern[str]
) -> list[tuple[str, ...]]:
    """The groups the sentences of `texts` ask for (`argument_groups`), after joining the line breaks `wrap` finds."""
    groups: list[tuple[str, ...]] = []
    for own, text in texts:
        for sentence in sentences(wrap.sub(" ", text)):
            if not _GROUP_CUE.search(sentence) or not re.search(
                r"\bor\b|\brequired (?:if|when|unless)\b|\b(?:at least|exactly) one of\b", sentence, re.IGNORECASE
            ):
                continue
            if _dependency_only(sentence):
                continue
            named = [n for n in names if re.search(rf"(?<![\w-]){re.escape(n)}(?![\w-])", sentence)]
            named = ([own] if own and own not in named else []) + named
            group = tuple(sorted(set(named)))
            if len(group) >= 2 and group not in groups:
                groups.append(group)
    return groups


def _key_pairs(tool: Tool) -> list[tuple[str, ...]]:
    """Alternative keys of one object among the top-level arguments: two or more named after the same object with
    different key words (`issueId` and `issueKey`, `projectId` and `projectKey`, `repoId` and `repoName`), none of
    them required. Each names the object its own way, so a call gives one: a group no `required` list can say."""
    by_object: dict[str, list[str]] = {}
    parts: dict[str, set[str]] = {}
    for name, _ in arguments(tool):
        words = normalized(name).split()
        if len(words) == 2 and words[1] in _KEY_WORDS:
            by_object.setdefault(words[0], []).append(name)
            parts.setdefault(words[0], set()).add(words[1])
    needed = set(required(tool))
    if _SETS_DEFAULTS.search(tool.name) or _SETS_DEFAULTS.search(next(iter(sentences(tool.description)), "")):
        return []  # a tool that sets defaults or preferences takes any of them, or none
    if _operations(tool):
        return []  # `action: listRoles | getRole | ...`: the key names the object for some operations only
    pairs = [
        tuple(sorted(names)) for noun, names in by_object.items() if len(parts[noun]) >= 2 and not needed & set(names)
    ]
    return pairs + [p for p in _person_keys(tool) if not needed & set(p)]


def _person_keys(tool: Tool) -> list[tuple[str, ...]]:
    """A person's id and their email, side by side (`subscriberId` and `email`, `recipientSubscriberId` and
    `recipientEmail`): the two keys a call names one subscriber, user or recipient by. Not in a tool that lists or
    searches (there they are filters, each narrowing the other)."""
    if has_verb_in(tool.name, _FILTERING):
        return []
    split = {name: normalized(name).split() for name, _ in arguments(tool)}
    found = []
    for email, ws in split.items():
        if not ws or ws[-1] != "email":
            continue
        prefix, n = ws[:-1], len(ws) - 1
        for other, vs in split.items():
            if len(vs) >= 2 and vs[:n] == prefix and vs[-1] == "id" and vs[-2] in _PERSONS and len(vs) <= n + 2:
                found.append(tuple(sorted((email, other))))
    return found


_PERSONS = frozenset("user subscriber contact member customer recipient person account employee client".split())  # noqa: SIM905
_FILTERING = frozenset("list search find query filter count".split())  # noqa: SIM905


def _operations(tool: Tool) -> bool:
    """Whether the tool is several operations behind a selector argument (`action`, `operation` ...) whose enum
    lists two or more of them."""
    return any(
        name.lower() in SELECTORS and isinstance(schema.get("enum"), list) and len(schema["enum"]) >= 2
        for name, schema in arguments(tool)
    )


def _worded_pairs(tool: Tool) -> list[tuple[str, ...]]:
    """Two optional top-level arguments the tool description offers as the ways to make the call, by a word of each
    one's name: "Fetch the latest Assembly status by URL or ID" (`assembly_url`, `assembly_id`), "Add a comment to
    a task or project" (`task_id`, `project_id`), "Specify by text or paragraph index" (`target_text`,
    `target_paragraph_index`), "Retrieve a single wiki page by its path or numeric ID" (`path`, `id`: the noun after
    one qualifying word). Each word must name exactly one argument, and neither argument may be required nor
    described as one a call may leave out ("auto-detected when omitted"); not in a tool of several operations behind a
    selector, where the ways serve some operations only."""
    if _operations(tool):
        return []  # `operation: list_invoice_summaries | ...`: the ways serve some operations only
    props = dict(arguments(tool))
    needed = set(required(tool))
    optional = [(n, normalized(n).split()) for n, _ in arguments(tool) if n not in needed]
    found: list[tuple[str, ...]] = []
    for match in _WORDED_CHOICE.finditer(tool.description):
        picked = []
        for words in ((match["a"],), (match["b"], match["b2"])):  # "by its path or numeric ID": the noun after one word
            hits = next((h for w in words if w and len(h := [n for n, ws in optional if w.lower() in ws]) == 1), [])
            picked.append(hits[0] if hits else None)
        if None not in picked and picked[0] != picked[1]:
            if any(_OPTIONAL.search(description_of(props[p])) for p in picked if p):
                continue  # "auto-detected via STS when omitted": a call may give neither
            pair = tuple(sorted(p for p in picked if p))
            if pair not in found:
                found.append(pair)
    return found


_WORDED_CHOICE = compiled(
    r"\b(?:by|for|to|on)\s+(?:an?\s+|the\s+|its\s+)?(?P<a>[A-Za-z]+)\s*,?\s+or\s+(?:by\s+)?(?:an?\s+|the\s+|its\s+)?"
    r"(?P<b>[A-Za-z]+)(?:\s+(?P<b2>[A-Za-z]+))?\b"
)
_KEY_WORDS = frozenset(["id", "key", "name", "slug", "uuid", "number"])
"""Key words an object's alternative keys end in (`issueId`, `issueKey`); an owner is part of a key, not another."""
_SETS_DEFAULTS = compiled(r"defaults?|settings?|preferences?|config", re.IGNORECASE)


def _root_groups(tool: Tool) -> bool:
    """Whether the prose asks for one of several root arguments (a wrapper's fields are not the root's)."""
    top = {n for n, _ in arguments(tool)}
    return any(set(g) <= top for g in argument_groups(tool))


def _wrapper(tool: Tool) -> dict[str, Any] | None:
    """The tool's one argument, when it is an object that declares properties (CircleCI's `params`), inline or as
    the model its `$ref` names (pydantic's `params: {"$ref": "#/$defs/VMResizeInput"}`)."""
    from mcptest.checks.lint.shapes import resolve  # shapes reads this module's `walk`

    args = list(arguments(tool))
    sub = resolve(args[0][1], tool.input_schema) if len(args) == 1 else None
    return sub if isinstance(sub, dict) and isinstance(sub.get("properties"), dict) and sub["properties"] else None


def sch_001_no_required_list(tool: Tool) -> Iterator[Hit]:
    """An object declares `properties` but no `required` list, and some property is plainly needed.

    What it flags: an object schema in the input (the root, an array's items, a required nested object, an anyOf branch)
    with non-empty `properties`, no `required` array, and at least one property that does not read as optional. A
    property reads as optional when it has a `default`, is described as optional ("Optional: ...", "Omit to check all",
    "defaults to 10") or as having another source ("can also be set with the IDB_UDID env var"), is a boolean, or is a
    modifier of the call: a paging, sorting or output control by name (limit, offset, cursor, page, sort, order,
    direction, format, output, context, timeout, verbose) or a filter by description ("API group to filter by", "If
    true, only ...", "an entry matches if it contains any of them", "Match against the request URL", "Scope run to array
    of workspaces"). An object whose every property reads as optional is all-optional by design (a cursor and a limit;
    "omitted = unchanged" updates), and a root whose description asks for "A or B" is SCH-009's finding (a `required`
    list cannot say that). A nested object is an option group, left alone, when its name says so (options, config,
    settings, params, filters, style, layout) or its description does ("Style configuration for the chart"); else, when
    its parent does not require it, unless it reads as one value: a wrapper of a single field, or up to three numbers
    (latitude and longitude, width and height), whose parts go together and are flagged; fields of mixed types, or more
    than three, are independent settings. A definition (`$defs/X`) is judged where the input uses it: an option group
    when every property referencing it is one. Of the rest, it flags only an object whose need is plain: a plain field
    with at most one option beside it (the `sql` of a query tool), an object beside those that read as optional (a
    `params` object carrying every argument), or a value of up to three numbers. Which of several fields a call needs is
    the author's knowledge (a git tool's `branch`, `path` and `mode` may each be left out; a REST call's `query` object
    holds optional filters; a plain field beside two or more options, `depth` beside a defaulted `path`, `remote` and
    `prune`, is one more option), so such an object is left alone; a nested object (an array's items, a field) with no
    required list is flagged only where its fields make one value (two or three numbers) or one calls itself required:
    whether a `body`'s, an `auth`'s or a sort item's lone field must be sent is the author's knowledge (the groups
    labelled by hand dismissed 19 such findings and kept one, a latitude-and-longitude location); and it is left alone
    except at the root of a tool that gets, updates or
    deletes one existing object (`get_models`, `delete_deployments`; its first sentence does not speak of a list,
    history or search) with an argument that is that object's key (`model_owner`, `model_name`, `deployment_id`, a bare
    `id`) not described as optional or as needed only in some calls: without it the call has no target (the REST path
    `/models/{model_owner}/{model_name}` such tools are generated from cannot be built). A continuation token
    ("Continuation token to get the next page") is paging, like a cursor. A root argument the tool description says a
    call may leave out ("If no date is provided, ...", "`query` is optional") reads as optional, and so does a time zone
    or locale (a control of the answer, like its format).
    A property whose own description calls it required ("(required)", "Required. ...") is flagged whatever else
    the object holds: the prose and the schema disagree.
    Worth acting on: when an argument the tool cannot work without is left optional.
    Why it matters: without `required` every argument is optional, so the agent cannot tell what it must send
    and the server has to reject incomplete calls itself.
    Example: `{"type": "object", "properties": {"city": {"type": "string"}}}`
    Fix: `"required": ["city"]` (an empty list `[]` states that all are optional on purpose).
    """
    root = tool.input_schema
    for node in walk(root):
        props = node.schema.get("properties")
        if not props or isinstance(node.schema.get("required"), list) or not isinstance(props, dict):
            continue
        if _all_defaulted(props) or _optional_by_design(props) or (not node.path and _root_groups(tool)):
            continue
        if not node.path and _said_omittable(tool, props):
            continue  # "If no date is provided, get the number of days in the current month"
        if not node.path and _listing(tool) and not any(isinstance(p, dict) and _is_object(p) for p in props.values()):
            continue  # every argument of a listing narrows it: a call with none lists everything
        plain = _plainly_needed(props) if not node.path else _one_value(props)
        needed = _said_required(props) or (  # a property its own description calls required needs no more
            not _optional_group(root, node, props) and (plain or (not node.path and _target_key(tool)))
        )
        if not needed:
            continue
        yield Hit(f"{node.where}: properties but no required list", "Add a required list.", node.pointer)


_ACTS_ON_ONE = frozenset(
    [
        "get",
        "read",
        "fetch",
        "describe",
        "show",
        "view",
        "update",
        "patch",
        "edit",
        "delete",
        "remove",
        "cancel",
        "download",
        "retrieve",
    ]
)
_KEY_PARTS = _KEY_WORDS | {"owner"}


def _target_key(tool: Tool) -> bool:
    """Whether a top-level argument names the key of the one existing object the tool acts on: its name says it
    gets, updates or deletes one (`get_models`, `delete_models_versions`) and an argument is that object's key
    (`model_owner`, `model_name`, `version_id`, `deploymentName`; a bare `id`). A call without it has no target:
    the REST path such tools are generated from (`/models/{model_owner}/{model_name}`) cannot be built."""
    parts = normalized(tool.name).split()
    first = next(iter(sentences(tool.description)), "")
    if len(parts) < 2 or parts[0] not in _ACTS_ON_ONE or _MANY.search(first):
        return False
    nouns = {p[:-1] if p.endswith("s") and len(p) > 3 else p for p in parts[1:]}
    for name, schema in arguments(tool):
        words = normalized(name).split()
        is_key = words == ["id"] or (len(words) == 2 and words[0] in nouns and words[1] in _KEY_PARTS)
        if is_key and not _reads_optional(name, schema) and not _CONDITIONAL_NEED.search(description_of(schema)):
            return True
    return False


_MANY_WORDS = "list|lists|history|all|available"
_MANY = compiled(rf"\b(?:{_MANY_WORDS}|recent|search|find)\b", re.IGNORECASE)
"""A first sentence that says the tool returns many objects: its arguments filter them, none is a target's key."""
_CONDITIONAL_NEED = compiled(r"\brequired (?:when|if|unless)\b|\bor\b", re.IGNORECASE)
"""A key described as needed only in some calls ("Required when not using a URL"): SCH-009's question."""


_SAID_REQUIRED = compiled(r"\(\s*required\s*\)|^\W{0,4}required\W{0,4}[.:]|[.;]\s*required\.?\s*$", re.IGNORECASE)
"""A description that calls its property required: "(required)", "Required. Names of ...", "... Required." (not
"required for 'create'", "Required if issue_key is not given": needed in some calls only, SCH-009's groups)."""


def _said_required(props: dict[str, Any]) -> bool:
    """Whether a property's own description says it is required."""
    return any(isinstance(p, dict) and _SAID_REQUIRED.search(description_of(p)) for p in props.values())


def _plainly_needed(props: dict[str, Any]) -> bool:
    """Whether the fields of an object without `required` are plainly needed: a plain field with at most one option
    beside it (sending the object, or calling the tool, means sending it: the one `sql` of a query tool), an object
    beside any that read as
    optional (the one `params` object that carries every argument), or up to three numbers that make one value
    (latitude and longitude). Of several other fields, which ones a call needs is the author's knowledge: a git
    tool's `branch`, `path` and `mode` may each be left out, and a plain field beside two or more options (`depth`
    beside a defaulted `path`, `remote` and `prune`) is one more option."""
    values = [p for p in props.values() if isinstance(p, dict)]
    rest = [p for n, p in props.items() if isinstance(p, dict) and not _reads_optional(n, p)]
    if len(rest) == 1:
        only = rest[0]
        if _is_object(only):
            return bool(only.get("properties"))  # an empty `params: {}` carries nothing
        return len(values) <= 2  # beside two or more options, a lone plain field is one more option left unsaid
    return _one_value(props)


def _one_value(props: dict[str, Any]) -> bool:
    """Whether an object's fields are two or three numbers that make one value (latitude and longitude)."""
    values = [p for p in props.values() if isinstance(p, dict)]
    return 1 < len(values) <= 3 and {_kind(p) for p in values} == {"number"}


def _listing(tool: Tool) -> bool:
    """Whether the tool lists a collection: its name starts with `list` (`list_tags`, `listDocuments`), or its first
    sentence says it gives many ("Get available services", "Returns all ...", "a list of"). Its plain
    arguments (page, search, a tag id, `name__icontains`) narrow the list; an object argument (a `params` bag)
    is the call's input, and is judged as usual."""
    verb = (normalized(tool.name).split() or [""])[0]
    if verb in ("list", "search", "find", "query"):
        return verb == "list"  # a search's query is what it runs on, however many matches come back
    first = next(iter(sentences(tool.description)), "")
    return _MANY_RESULTS.search(first) is not None  # "Get available services and their children"


_MANY_RESULTS = compiled(rf"\b(?:{_MANY_WORDS})\b", re.IGNORECASE)
"""A first sentence that says many things come back: the tool lists them, whatever its name."""


_MODIFIER_WORDS = frozenset(
    [
        "limit",
        "offset",
        "cursor",
        "page",
        "pages",
        "size",
        "sort",
        "order",
        "ordering",
        "direction",
        "format",
        "output",
        "context",
        "timeout",
        "verbose",
        "timezone",
        "tz",
        "locale",
    ]
)
"""The last word of an argument's name that marks a control of the call (paging, sorting, output, the time zone or
locale it answers in), not its subject."""
_MODIFIER_DESC = compiled(
    r"\bfilter|\bpaginat|\bnext page\b|\bif (?:true|set|provided|given|specified)\b|\bwhether\b"
    r"|\bonly (?:show|return|include|list)|\bmaximum number\b|\bhow many\b|\bmatch(?:es|ed|ing)? (?:against|if)\b"
    r"|\bcontinuation\b"
    r"|\b(?:scope|restrict|narrow|limit)s? (?:the |this )?(?:run|search|query|results?|listing|lookup)? ?to\b",
    re.IGNORECASE,
)
_GROUP_WORDS = frozenset(
    [
        "options",
        "option",
        "config",
        "configuration",
        "settings",
        "preferences",
        "params",
        "parameters",
        "filters",
        "opts",
        "style",
        "styles",
        "layout",
        "appearance",
        "formatting",
    ]
)
"""The last word of a nested object's name that marks a group of independent options."""


def _reads_optional(name: str, prop: Any) -> bool:
    """Whether an argument reads as optional: defaulted, described so, a boolean, or a modifier of the call."""
    if not isinstance(prop, dict):
        return True
    if "default" in prop or _OPTIONAL.search(description_of(prop)) or types_of(prop) == {"boolean"}:
        return True
    if _LOOKUP_SUFFIX.search(name):
        return True  # `name__icontains`, `created__date__gte`: a Django-style field lookup is a filter
    last = (normalized(name).split() or [""])[-1]
    return last in _MODIFIER_WORDS or _MODIFIER_DESC.search(description_of(prop)) is not None


def _said_omittable(tool: Tool, props: dict[str, Any]) -> bool:
    """Whether every root argument that does not read as optional is one the tool description says a call may leave
    out ("If no date is provided, ...", "If `path` is omitted, ...", "`query` is optional")."""
    rest = [n for n, p in props.items() if not _reads_optional(n, p)]
    text = tool.description
    return bool(rest) and all(
        re.search(
            rf"\bif (?:no|the)?\s*`?{re.escape(n)}`?\s+(?:is\s+|are\s+)?(?:not\s+)?(?:provided|given|specified|passed|"
            rf"omitted|set)\b|`?\b{re.escape(n)}\b`?\s+(?:is|are)\s+optional\b",
            text,
            re.IGNORECASE,
        )
        for n in rest
    )


_LOOKUP_SUFFIX = compiled(r"__(?:i?exact|i?contains|i?startswith|i?endswith|gte?|lte?|in|isnull|range|regex)$")


def _optional_group(root: dict[str, Any], node: Node, props: dict[str, Any]) -> bool:
    """Whether an object with no `required` list needs none: every property reads as optional, or it is a nested
    option group (see SCH-001). A definition (`$defs/X`) is judged where the input uses it: it is an option group
    when every property that references it is one."""
    if all(_reads_optional(n, p) for n, p in props.items()):
        return True
    if _SETTINGS_DESC.search(description_of(node.schema)):
        return True  # "Style configuration for the chart": the object says what it is ("Optional center point"
        # says the object may be left out, not its parts)
    if len(node.path) == 2 and node.path[0] in ("$defs", "definitions"):
        users = [n for n in walk(root) if ref_path(n.schema.get("$ref")) == node.path]
        owners = [(_owning_property(n.path), n.schema) for n in users]
        return bool(owners) and all(
            owner is not None and _option_group_at(root, owner, ref, props) for owner, ref in owners
        )
    owner = _owning_property(node.path)
    return owner is not None and _option_group_at(root, owner, node.schema, props)


def _option_group_at(
    root: dict[str, Any], owner: tuple[tuple[str | int, ...], str], schema: dict[str, Any], props: dict[str, Any]
) -> bool:
    """Whether the object property `owner` (its parent's path and its name), of `schema` with `props`, is a group
    of independent options rather than one value whose parts go together."""
    parent_path, name = owner
    if (normalized(name).split() or [""])[-1] in _GROUP_WORDS:
        return True  # named as a group (options, settings, style, layout): its parts are set one by one
    if _SETTINGS_DESC.search(description_of(schema)):
        return True
    parent = resolve_path(root, parent_path)
    if isinstance(parent, dict) and isinstance(parent.get("required"), list) and name in parent["required"]:
        return False  # a needed object: its fields are needed unless they say otherwise
    kinds = {_kind(p) for p in props.values()}
    if len(kinds) > 1:
        return True  # fields of mixed types (a string and a list): independent settings
    if len(props) == 1:
        return False  # a wrapper of one field: sending the object means sending its field
    return kinds != {"number"} or len(props) > 3  # only a few numbers (lat/lng, width/height) make one value


_SETTINGS_DESC = compiled(r"\b(?:configuration|settings|options|preferences)\b", re.IGNORECASE)
"""An object described as a bundle of settings ("Style configuration for the chart")."""


def _kind(prop: Any) -> str:
    types = types_of(prop) if isinstance(prop, dict) else set()
    types = {"number" if t == "integer" else t for t in types} - {"null"}
    return ",".join(sorted(types)) or "any"


def _owning_property(path: tuple[str | int, ...]) -> tuple[tuple[str | int, ...], str] | None:
    """For a node that is an object property (or a union branch of one): the path of the object holding that
    property and its name; None for the root and for array items."""
    end = len(path)
    while end >= 2 and path[end - 2] in _BRANCHES:
        end -= 2
    if end >= 2 and path[end - 2] == "properties":
        return path[: end - 2], str(path[end - 1])
    return None


def resolve_path(root: Any, path: tuple[str | int, ...]) -> Any:
    """The value at `path` (keys and list indexes) inside `root`, or None."""
    node = root
    for part in path:
        found = (isinstance(node, dict) and part in node) or (
            isinstance(node, list) and isinstance(part, int) and part < len(node)
        )
        if not found:
            return None
        node = node[part]  # type: ignore[index]
    return node


def sch_009_argument_group_not_in_schema(tool: Tool) -> Iterator[Hit]:
    """The description asks for one of several arguments, and the schema does not say so.

    What it flags: a tool whose description, or an argument's, names two or more of its arguments as alternatives
    ("either 'content' or 'content_file' must be provided", "exactly one of project_key or issue_key", "Required if
    issue_key is not given", "Provide card_refs OR query") while none of them is in `required` and the input schema has
    no `anyOf`/`oneOf` at its root; and, with no prose at all, two or more top-level arguments that are keys of one
    object named their own ways (`issueId` and `issueKey`, `projectId` and `projectKey`, `repoId` and `repoName`; a
    person's id and email, `subscriberId` and `email`, outside a listing), none required, outside a tool that sets
    defaults or settings and outside one of several operations behind a selector enum (`action: listRoles | getRole`:
    the keys serve some operations only): a call names the object by one of them; and two optional arguments the tool
    description offers as the ways to make the call by a word of each one's name ("status by URL or ID": `assembly_url`,
    `assembly_id`; "a comment to a task or project": `task_id`, `project_id`), each word naming exactly one argument. A
    "required if/when" whose condition is another argument being set ("Required if end_date is set", "Required when
    votes is enabled") states a dependency, not a choice (neither argument is needed), and is left alone; a negative one
    ("if issue_key is not given", "not required if ref is given", "when omitting `path`") makes one of the two
    necessary. When the tool's one argument is an object wrapping all the others (`params`, inline or a `$ref` to a
    pydantic model), its fields are the arguments, its `required` and `anyOf` the schema's say. In hard-wrapped prose a
    line that ends on its "or" is read on into the next ("Either client_id or" / "buyer_name is required"), and, when
    no group is found so, any line that ends on a word and goes on in lower case (a docstring's "Pass trades either
    inline" / "as 'transactions' or as a file path in 'csv_path'"). A description that asks for any one of the
    filters ("At least one search parameter (other than limit) must be provided") makes one group of every optional
    argument but those it excepts and the paging and output controls. Reported once per group.
    Worth acting on: always when the server rejects a call without one of them; a `required` list cannot say
    "A or B", so the fix is an `anyOf` (at least one) or `oneOf` (exactly one) of required sets.
    Why it matters: a client validating against the schema lets the call through with neither argument, and the
    agent learns the rule from the server's error; with both, it may not learn which one won.
    Example: `content` and `content_file` both optional, "Either 'content' or 'content_file' must be provided".
    Fix: `"oneOf": [{"required": ["content"]}, {"required": ["content_file"]}]` at the input schema's root.
    """
    schema = tool.input_schema
    wrapper = _wrapper(tool)
    if any(isinstance(s.get(k), list) for s in (schema, wrapper or {}) for k in ("anyOf", "oneOf")):
        return
    req = set(required(tool)) | set((wrapper or {}).get("required") or ())
    keys = set(_key_pairs(tool)) if not wrapper else set()
    for group in argument_groups(tool):
        if not req & set(group):
            names = ", ".join(group)
            said = (
                f"{names} are keys of one object, and a call names it by one of them"
                if group in keys
                else f"the description asks for one of {names}"
            )
            yield Hit(
                f"{said}; the schema requires none of them",
                'Add "anyOf" (or "oneOf") of required sets: ' + ", ".join(f'{{"required": ["{n}"]}}' for n in group),
                pointer("inputSchema"),
            )


def sch_002_additional_properties_open(tool: Tool) -> Iterator[Hit]:
    """`additionalProperties` is not `false`.

    What it flags: any object schema in the input that declares at least one property and whose
    `additionalProperties` is absent or anything but `false`. An object without properties (a tool that takes
    no arguments, `properties: {}`, or a free-form map) has no argument name to misspell and is left alone, and so
    is a member of an `allOf`: each member sees only its own properties, so `false` on one would reject the
    fields the others declare (closing a composition takes `unevaluatedProperties: false` on the whole, which
    draft-07 clients lack); on the labelled real catalogs all 8 such findings were dismissed. A nested record whose
    every field is required (`{longitude, latitude}`, an edit's `{oldText, newText}`) is left alone too: a
    misspelled field fails the call as missing (the groups labelled since held_out_10 dismissed 61 of 62 such
    findings; PRINCIPLE.md's fourteenth-round decision); the tool's own arguments, where an invented optional
    argument is what slips through, are flagged all the same. A definition of one of MCP's own models
    (`$defs/CallToolResult`, `$defs/TextContent`: what a framework adds for a parameter typed with one) is the
    protocol's, open by design, and left alone.
    Worth acting on: on every object whose fields the agent fills and one with optional fields, where a
    misspelled name is dropped without an error; a free-form map (no `properties`) is never flagged.
    Why it matters: an open object accepts misspelled or invented argument names silently; the agent's typo
    (`citty`) is dropped instead of rejected, and the call does something other than intended.
    Example: `{"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}`
    Fix: add `"additionalProperties": false`.
    """
    for node in walk(tool.input_schema):
        if (
            _is_object(node.schema)
            and node.schema.get("properties")
            and node.schema.get("additionalProperties") is not False
            and not (len(node.path) >= 2 and node.path[-2] == "allOf")
            and not (node.path and _all_required(node.schema))
            and not (len(node.path) == 2 and node.path[0] in ("$defs", "definitions") and node.path[1] in MCP_MODELS)
        ):
            yield Hit(
                f"{node.where}: additionalProperties is not false", "Add additionalProperties: false.", node.pointer
            )


def _all_required(schema: dict[str, Any]) -> bool:
    """Whether every property an object declares is required: a misspelled field then fails the call as missing."""
    required = schema.get("required")
    return isinstance(required, list) and set(schema["properties"]) <= set(required)


def sch_003_untyped_property(tool: Tool) -> Iterator[Hit]:
    """A property declares neither `type` nor `enum`.

    What it flags: a property, at any depth, with no `type` and no `enum`. A property that declares `const`,
    a `$ref`, or `anyOf`/`oneOf`/`allOf` branches counts as typed; each branch is then checked in turn.
    Worth acting on: when the value has one kind the server expects (a string, an object of known fields); where
    any JSON value is accepted on purpose, a description saying so is the fix, not a type. It is critical on a
    required property, which the agent must fill by guessing its kind; on an optional one, which it can leave out,
    it is a warning (an any-JSON `value` of a flag variation, an `items` keyword in a schema the user writes).
    Why it matters: an untyped property accepts anything, so the agent has to guess between a string, a
    number and an object; it is the first cause of validation loops (see a string `priority` sent to an
    integer field).
    Example: `"properties": {"priority": {"description": "How urgent"}}`
    Fix: `"priority": {"type": "integer", "minimum": 1, "maximum": 5, "description": "How urgent"}`
    """
    nodes = walk(tool.input_schema)
    at: dict[tuple[str | int, ...], dict[str, Any]] = {}
    for node in nodes:
        if node.is_property and not any(key in node.schema for key in _TYPED_BY):
            at = at or {n.path: n.schema for n in nodes}  # only a tool with an untyped property needs the index
            lower = None if _required_at(node.path, at) else Severity.WARNING
            yield Hit(f"{node.where}: neither type nor enum", _DECLARE, node.pointer, severity=lower)


_DECLARE = "Declare a type (or an enum)."


def _required_at(path: tuple[str | int, ...], at: dict[tuple[str | int, ...], dict[str, Any]]) -> bool:
    """Whether the property a path leads to (or a union branch of it) is in its object's `required` list."""
    for i in range(len(path) - 1, 0, -1):
        if path[i - 1] == "properties":
            required = at.get(path[: i - 1], {}).get("required")
            return isinstance(required, list) and path[i] in required
    return False


def sch_008_unresolved_ref(tool: Tool) -> Iterator[Hit]:
    """A `$ref` that never resolves: it points nowhere, outside the tool, or round a cycle of bare references.

    What it flags: each `$ref` in the input schema that is not a local JSON pointer (`#/$defs/X`, `#/properties/a`)
    to a schema that exists, or whose chain of references comes back to itself before reaching a schema (`A ->
    B -> A`), that cycle reported once with every place on it. A recursive schema whose reference sits inside
    properties or items (a tree node) is fine.
    Worth acting on: always; no client can validate a call against it, and the agent sees a type it cannot fill.
    Why it matters: clients resolve `$ref` locally (they do not fetch URLs); a dangling one leaves the argument
    untyped, or makes the client reject the whole tool.
    Example: `"owner": {"$ref": "#/$defs/User"}` with no `$defs.User`.
    Fix: add the definition under `$defs`, or inline the schema.
    """
    root = tool.input_schema
    cycles: dict[frozenset[str], list[Node]] = {}
    for node in walk(root):
        ref = node.schema.get("$ref")
        if not isinstance(ref, str):
            continue
        problem, chain = _ref_problem(ref, root)
        if chain:  # one cycle, one finding: every reference on it, wherever it sits, is a place it affects
            cycles.setdefault(frozenset(chain), []).append(node)
        elif problem:
            yield Hit(f"{node.where}: $ref {ref!r} {problem}", _REF_FIX, node.pointer)
    for refs, nodes in cycles.items():
        loop = " -> ".join(sorted(refs))
        yield Hit(
            f"{nodes[0].where}: $ref goes round a cycle of references ({loop}) and never reaches a schema",
            _REF_FIX,
            nodes[0].pointer,
            tuple(n.pointer for n in nodes) if len(nodes) > 1 else (),
        )


_REF_FIX = "Point it at a schema in this tool's $defs."


def _ref_problem(ref: str, root: dict[str, Any]) -> tuple[str | None, list[str]]:
    """What is wrong with a reference, and (for a cycle) the references on the cycle."""
    seen: list[str] = []
    while True:
        if not ref.startswith("#"):
            return "points outside the tool's schema (clients do not fetch it)", []
        if ref in seen:
            return "goes round a cycle of references", seen[seen.index(ref) :]
        seen.append(ref)
        target = resolve_pointer(root, ref[1:])
        if not isinstance(target, dict):
            return "points at nothing", []
        nxt = target.get("$ref")
        if not isinstance(nxt, str):
            return None, []
        ref = nxt


def resolve_pointer(root: Any, pointer_text: str) -> Any:
    """The value a JSON pointer (RFC 6901, without the leading `#`) names in `root`, or None."""
    node = root
    for raw in pointer_text.split("/")[1:] if pointer_text else []:
        part = raw.replace("~1", "/").replace("~0", "~")
        if isinstance(node, dict) and part in node:
            node = node[part]
        elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
            node = node[int(part)]
        else:
            return None
    return node


def sch_011_unreferenced_definition(tool: Tool) -> Iterator[Hit]:
    """The input schema carries `$defs` (or `definitions`) that no `$ref` a call can reach points at.

    What it flags: each tool whose input schema has definitions that no reference reaches from its properties
    (directly or through another reached definition), reported once per tool naming every such definition. The
    other schema rules lint only what a call can reach: a definition nobody uses is not linted entry by entry;
    when several tools ship the same unused block, the catalog reports it once, listing the tools.
    Worth acting on: always; the block is dead weight (a server that pastes one shared `$defs` block into every
    tool makes each tool pay for it), and the fix is to drop it, or to reference what was meant to be used.
    Why it matters: every definition is sent to the agent with the tool and costs context tokens on every turn;
    an unused one says nothing about the call and invites the agent to fill fields the tool never reads.
    Example: `{"properties": {"q": {"type": "string"}}, "$defs": {"Filter": {...}}}` with no `$ref` to Filter.
    Fix: remove the unused definitions (generate each tool's schema with only the definitions it references).
    """
    root = tool.input_schema
    defs = definitions(root)
    if not defs:
        return
    reached = {node.path for node in walk(root)}
    unused = [path for path, _ in defs if path not in reached]
    if unused:
        names = ", ".join(name for _, name in unused)
        where = [pointer("inputSchema", *path) for path in unused]
        yield Hit(
            f"{len(unused)} of {len(defs)} definitions are never referenced: {names}",
            "Drop the definitions no $ref uses.",
            where[0],
            tuple(where) if len(where) > 1 else (),
        )
