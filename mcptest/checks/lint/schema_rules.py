"""SCH rules: strict input-schema lint, recursing into nested objects, arrays, anyOf/oneOf/allOf and $defs."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from mcptest.checks.findings import Hit, pointer
from mcptest.checks.lint.text import arguments, description_of, required, sentences, types_of
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
    """Every sub-schema of `schema`, depth first; anyOf/oneOf/allOf branches inherit property-ness."""
    global _last
    if _last[0] is not schema:  # the four SCH rules run back to back on one tool: walk its schema once
        _last = (schema, _walk(schema))
    return _last[1]


_last: tuple[Any, list[Node]] = (None, [])


def _walk(root: Any) -> list[Node]:
    out: list[Node] = []
    stack: list[tuple[Any, tuple[str | int, ...], bool]] = [(root, (), False)]
    while stack:
        schema, path, is_property = stack.pop()
        if not isinstance(schema, dict):
            continue
        out.append(Node(path, schema, is_property))
        children: list[tuple[Any, tuple[str | int, ...], bool]] = []
        props = schema.get("properties")
        children += [(sub, (*path, "properties", n), True) for n, sub in _items(props)]
        children += [(schema.get(k), (*path, k), False) for k in ("items", "additionalProperties")]
        for key in ("prefixItems", *_BRANCHES):
            branch = is_property and key in _BRANCHES
            children += [(sub, (*path, key, i), branch) for i, sub in enumerate(_list(schema.get(key)))]
        for key in ("$defs", "definitions"):
            children += [(sub, (*path, key, n), False) for n, sub in _items(schema.get(key))]
        stack.extend(reversed(children))
    return out


def _items(value: Any) -> list[tuple[str, Any]]:
    return list(value.items()) if isinstance(value, dict) else []


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _is_object(schema: dict[str, Any]) -> bool:
    return "object" in types_of(schema) or isinstance(schema.get("properties"), dict)


def _all_defaulted(props: Any) -> bool:
    return isinstance(props, dict) and all(isinstance(p, dict) and "default" in p for p in props.values())


_OPTIONAL = re.compile(
    r"\boptional\b|\bomit|\bif (?:not|omitted|absent|empty)\b|\bleave (?:it )?(?:empty|blank|out)\b"
    r"|\bdefaults? (?:to|is)\b|\(default",
    re.IGNORECASE,
)
"""An argument described as optional on purpose ("Optional: ...", "Omit to check all", "defaults to 10")."""
_GROUP_CUE = re.compile(
    r"\beither\b|\b(?:exactly|at least) one of\b|\bone of\b|\brequired (?:if|when|unless)\b"
    r"|\bmust be (?:provided|given|supplied|specified|set)\b|\bis required\b",
    re.IGNORECASE,
)


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
    names = [n for n, _ in arguments(tool)]
    texts = [(None, tool.description)] + [(n, description_of(s)) for n, s in arguments(tool)]
    if len(names) < 2 or not any(_GROUP_CUE.search(text) for _, text in texts):
        return []
    groups: list[tuple[str, ...]] = []
    for own, text in texts:
        for sentence in sentences(text):
            if not _GROUP_CUE.search(sentence) or not re.search(
                r"\bor\b|\brequired (?:if|when|unless)\b", sentence, re.IGNORECASE
            ):
                continue
            named = [n for n in names if re.search(rf"(?<![\w-]){re.escape(n)}(?![\w-])", sentence)]
            named = ([own] if own and own not in named else []) + named
            group = tuple(sorted(set(named)))
            if len(group) >= 2 and group not in groups:
                groups.append(group)
    return groups


def sch_001_no_required_list(tool: Tool) -> Iterator[Hit]:
    """An object declares `properties` but no `required` list.

    What it flags: any object schema in the input (the root, a nested object, an array's items, an anyOf
    branch) with non-empty `properties` and no `required` array, unless every property declares a `default`:
    such an object is plainly all-optional, and a `required: []` would add nothing. It is silent, too, when every
    property has a default or is described as optional ("Optional: ...", "Omit to check all", "defaults to
    10": all-optional by design, a cursor and a limit, an "omitted = unchanged" update), and at the root of a tool
    whose description asks for "A or B" (a `required` list cannot say that: SCH-009 names the missing `anyOf`).
    Worth acting on: when an argument the tool cannot work without is left optional.
    Why it matters: without `required` every argument is optional, so the agent cannot tell what it must send
    and the server has to reject incomplete calls itself.
    Example: `{"type": "object", "properties": {"city": {"type": "string"}}}`
    Fix: `"required": ["city"]` (an empty list `[]` states that all are optional on purpose).
    """
    for node in walk(tool.input_schema):
        props = node.schema.get("properties")
        if not props or isinstance(node.schema.get("required"), list) or not isinstance(props, dict):
            continue
        if _all_defaulted(props) or _optional_by_design(props) or (not node.path and argument_groups(tool)):
            continue
        yield Hit(f"{node.where}: properties but no required list", "Add a required list.", node.pointer)


def sch_009_argument_group_not_in_schema(tool: Tool) -> Iterator[Hit]:
    """The description asks for one of several arguments, and the schema does not say so.

    What it flags: a tool whose description, or an argument's, names two or more of its arguments as
    alternatives ("either 'content' or 'content_file' must be provided", "exactly one of project_key or
    issue_key", "Required if issue_key is not given") while none of them is in `required` and the input schema
    has no `anyOf`/`oneOf` at its root. Reported once per group.
    Worth acting on: always when the server rejects a call without one of them; a `required` list cannot say
    "A or B", so the fix is an `anyOf` (at least one) or `oneOf` (exactly one) of required sets.
    Why it matters: a client validating against the schema lets the call through with neither argument, and the
    agent learns the rule from the server's error; with both, it may not learn which one won.
    Example: `content` and `content_file` both optional, "Either 'content' or 'content_file' must be provided".
    Fix: `"oneOf": [{"required": ["content"]}, {"required": ["content_file"]}]` at the input schema's root.
    """
    schema = tool.input_schema
    if any(isinstance(schema.get(k), list) for k in ("anyOf", "oneOf")):
        return
    req = set(required(tool))
    for group in argument_groups(tool):
        if not req & set(group):
            names = ", ".join(group)
            yield Hit(
                f"the description asks for one of {names}; the schema requires none of them",
                'Add "anyOf" (or "oneOf") of required sets: ' + ", ".join(f'{{"required": ["{n}"]}}' for n in group),
                pointer("inputSchema"),
            )


def sch_002_additional_properties_open(tool: Tool) -> Iterator[Hit]:
    """`additionalProperties` is not `false`.

    What it flags: any object schema in the input that declares at least one property and whose
    `additionalProperties` is absent or anything but `false`. An object without properties (a tool that takes
    no arguments, `properties: {}`, or a free-form map) has no argument name to misspell and is left alone.
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
        ):
            yield Hit(
                f"{node.where}: additionalProperties is not false", "Add additionalProperties: false.", node.pointer
            )


def sch_003_untyped_property(tool: Tool) -> Iterator[Hit]:
    """A property declares neither `type` nor `enum`.

    What it flags: a property, at any depth, with no `type` and no `enum`. A property that declares `const`,
    a `$ref`, or `anyOf`/`oneOf`/`allOf` branches counts as typed; each branch is then checked in turn.
    Why it matters: an untyped property accepts anything, so the agent has to guess between a string, a
    number and an object; it is the first cause of validation loops (see a string `priority` sent to an
    integer field).
    Example: `"properties": {"priority": {"description": "How urgent"}}`
    Fix: `"priority": {"type": "integer", "minimum": 1, "maximum": 5, "description": "How urgent"}`
    """
    for node in walk(tool.input_schema):
        if node.is_property and not any(key in node.schema for key in _TYPED_BY):
            yield Hit(f"{node.where}: neither type nor enum", "Declare a type (or an enum).", node.pointer)


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
