"""DESC-014: a description that contradicts its schema, found only from explicit claims (required, optional, values)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache
from typing import Any

from mcptest.checks.findings import Hit, pointer
from mcptest.checks.lint.shapes import Prop, enum_values, properties
from mcptest.checks.lint.text import SELECTORS, description_of, nearest_name, prose_value_sets, sentences
from mcptest.core.re_cache import compiled
from mcptest.records.catalog import Tool

_CONDITION = compiled(r"\b(?:if|when|unless|only|for|with|except)\b", re.IGNORECASE)
_CONDITIONED = compiled(r"^\W*(?:[\w-]+\W+)?(?:if|when|unless|only|for|with|except)\b", re.IGNORECASE)
"""A condition right after "Required"/"Optional" ("Required for create", "Optional, only when ..."): the claim
holds for some calls. Further on, "for" or "with" belongs to the thing named ("Optional region code for search
results"), and the claim is whole."""
_NEGATION = compiled(r"\b(?:not|never|no|don't|avoid|instead\s+of|rather\s+than|except)\b", re.IGNORECASE)
_LEADING = compiled(r"^\W*(?:an?\s+)?(required|optional)\b(?P<rest>[^.;\n]*)", re.IGNORECASE)
_PAREN = r"\(\s*(required|optional)\s*\)"
_NOUN = r"(?:\s+(?:field|parameter|argument|param|array|list|object|value|input)s?)?"
_LIST = compiled(rf"\b(required|optional){_NOUN}\s*:\s*(?P<names>[^.;\n]+)", re.IGNORECASE)
_FIX = "Make the description and the schema agree."
_REQUIRED_LISTS = compiled(rf"\brequired{_NOUN}\s*:", re.IGNORECASE)
"""A "Required:" list. Several in one description are the lists of its operations (a multi-operation tool's
'1) getCostAndUsage ... Required: operation="getCostAndUsage", start_date'), each true only for its operation."""
_ITEM_SPLIT = compiled(r"\s*(?:,|\band\b|\bor\b)\s*", re.IGNORECASE)


def _own_claim(text: str) -> str | None:
    lower = text.lower()
    if "required" not in lower and "optional" not in lower:  # every claim names one: spare the regexes
        return None
    lead = _LEADING.match(text)
    if lead and not _CONDITIONED.match(lead.group("rest")):
        return lead.group(1).lower()
    paren = re.search(_PAREN, text, re.IGNORECASE)
    return paren.group(1).lower() if paren else None


def _tool_claims(text: str, names: set[str]) -> dict[str, str]:
    """What the tool description says of each top-level argument it names: `required` or `optional`."""
    claims: dict[str, str] = {}
    per_variant = len(_REQUIRED_LISTS.findall(text)) > 1
    for sentence in sentences(text):
        lower = sentence.lower()
        if "required" not in lower and "optional" not in lower:  # every claim names one: spare the regexes
            continue
        for listed in _LIST.finditer(sentence):
            if per_variant or "=" in listed.group("names"):
                continue  # one list per operation ('Required: operation="getCostForecast", metric'): conditional
            for item in (i.strip(" \"'`") for i in _ITEM_SPLIT.split(listed.group("names"))):
                if item in names:
                    claims[item] = listed.group(1).lower()
        for name in (n for n in names if n.lower() in lower):
            claim = _named_claim(sentence, name)
            if claim:
                claims[name] = claim
    return claims


def _per_operation(description: str, names: set[str]) -> bool:
    """Whether the tool is several operations behind one selector argument (`operation`, `action`, `command`,
    `mode`, `method`) whose description lists them one by one ("1. get_automation_event: ... Params: event_id
    (required)"): what each item calls required is required for that operation only."""
    return bool(names & SELECTORS) and len(_LIST_ITEM.findall(description)) >= 2


_LIST_ITEM = compiled(r"^\s*(?:\d+[.)]|[-*])\s+\S", re.MULTILINE)


def _named_claim(sentence: str, name: str) -> str | None:
    """The claim of `NAME (required)` or "the 'NAME' array is required" in a sentence, unless a condition follows."""
    quoted = rf"(?<![\w-])[\"'`]?{re.escape(name)}[\"'`]?"
    paren = re.search(rf"{quoted}\s*{_PAREN}", sentence, re.IGNORECASE)
    if paren:
        return paren.group(1).lower()
    said = re.search(rf"{quoted}{_NOUN}\s+(?:is|are)\s+(?:always\s+)?(required|optional)\b(.*)", sentence, re.I)
    return said.group(1).lower() if said and not _CONDITION.search(said.group(2)) else None


def _contradicts(claim: str | None, prop: Prop) -> bool:
    if claim == "required" and prop.schema.get("type") == "boolean" and prop.schema.get("default") is False:
        return False  # a gate ("confirm": "Required. Set after confirming with the user"): its value must be true
    return prop.required is not None and claim is not None and (claim == "required") != prop.required


def _claimed_sets(text: str) -> Iterator[tuple[tuple[int, int], list[str]]]:
    """The value sets `text` spells out, except those under a negation ('NOT "gte" or "lte"')."""
    for span, values in prose_value_sets(text):
        if not _NEGATION.search(text[max(0, span[0] - 25) : span[0]]):
            yield span, values


@lru_cache(maxsize=256)
def _sentence_sets(description: str) -> tuple[tuple[str, tuple[int, int], list[str]], ...]:
    """Each value set the tool description's sentences spell out, with its sentence: read once per tool, however
    many enum arguments ask."""
    return tuple(
        (sentence, span, values) for sentence in sentences(description) for span, values in _claimed_sets(sentence)
    )


def _outside(values: list[str], allowed: list[Any]) -> list[str]:
    """The values the enum lacks, when the set also names one it has (else it is about something else)."""
    known = {str(v).lower() for v in allowed}
    extra = [v for v in values if v.lower() not in known]
    return extra if len(extra) < len(values) else []


def desc_014_description_contradicts_schema(tool: Tool) -> Iterator[Hit]:
    """A description contradicts the input schema: required vs optional, or values outside the enum.

    What it flags: an explicit claim in prose that the schema contradicts, of two kinds.
    - required-ness: a property's own description that starts with "Required"/"Optional" (or "An optional ...";
      not followed right after, or after one word, by if/when/unless/only/for/with/except: "Required for create"
      is conditioned, "Optional region code for search results" is not) or contains "(required)"/"(optional)"; or a tool
      description that says "Required fields: a, b", "Optional parameters: c", "`a` (required)" or "the 'a'
      array is required" about a top-level argument; when the schema says the opposite. A property whose object
      declares no `required` list is left to SCH-001 (the schema makes no claim to contradict). A tool that is
      several operations behind a selector argument (`operation`, `action`, `command`, ...) whose description
      lists them one by one, or a description with one "Required:" list per operation ('Required:
      operation="getCostForecast", metric'), makes claims that hold for one operation each: not read. A boolean that
      defaults to false and is called required is a gate whose value must be true (`confirm`: "Required. Set after
      confirming the command with the user"), not a claim about its presence.
    - values: a property with an `enum` (or `const`, in a `$ref`, a nullable branch or array `items`) whose
      own description, or a tool-description phrase whose nearest argument name (same sentence) is this one,
      spells out a value set (as DESC-013 recognises them: "one of a, b", "allowed values: ...", "'a' or 'b'")
      that shares at least one value with the enum and names another outside it (case-insensitive). A set
      preceded by "not", "never", "no", "avoid", "instead of" ('NOT "gte" or "lte"') is a warning to the reader,
      not a claim.
    A claim of the tool description is reported at `/description` and, in `pointers`, at the property it
    contradicts: the two places one fix reconciles.
    Worth acting on: always; every call that follows one of the two is rejected by the other.
    Why it matters: the agent trusts the prose, the validator the schema, so every call that follows the
    description fails. Document 002's agent sent `score_type: "binary"` and looped on "'binary' is not one of
    ['numeric', 'categorical']". It is critical: the detection only fires on an explicit claim, so a finding
    is a defect in the catalog, never a matter of style.
    Example: `"score_type": {"enum": ["numeric", "categorical"], "description": "One of binary, numeric or
    categorical."}`
    Fix: make the two agree: correct the description, or the schema (`required`, the `enum`) if the prose is right.
    """
    root, names = tool.input_schema, {p.name for p in properties(tool.input_schema) if p.top_level}
    claims = {} if _per_operation(tool.description, names) else _tool_claims(tool.description, names)
    for prop in properties(root):
        at, own = pointer("inputSchema", *prop.path), description_of(prop.schema)
        said = [(at, _own_claim(own))] + ([(pointer("description"), claims.get(prop.name))] if prop.top_level else [])
        for where, claim in said:
            if _contradicts(claim, prop):
                schema_says = "required" if prop.required else "optional"
                both = (where, at) if where != at else ()  # the tool's claim and the property it contradicts
                message = f"{prop.name}: the description says {claim}, the schema has it {schema_says}"
                yield Hit(message, _FIX, where, both)
        yield from _value_hits(tool, prop, names, at, own)


def _value_hits(tool: Tool, prop: Prop, names: set[str], at: str, own: str) -> Iterator[Hit]:
    allowed = enum_values(prop.schema, tool.input_schema)
    if not allowed:
        return
    said = [(at, values) for _, values in _claimed_sets(own)]
    if prop.top_level:
        for sentence, span, values in _sentence_sets(tool.description):
            if nearest_name(sentence, span, names) == prop.name:
                said.append((pointer("description"), values))
    extra: dict[str, list[str]] = {}
    for where, values in said:
        extra.setdefault(where, [])
        extra[where] += [v for v in _outside(values, allowed) if v not in extra[where]]
    shown = ", ".join(str(v) for v in allowed)
    for where, named in extra.items():
        if named:
            message = f"{prop.name}: the description names {', '.join(named)}, outside the enum ({shown})"
            yield Hit(message, _FIX, where, (where, at) if where != at else ())
