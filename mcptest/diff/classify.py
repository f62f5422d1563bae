"""Compare two catalogs entry by entry: what was removed, renamed, added or changed, and how much it matters."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from mcptest.diff.model import Change, Counts, DiffReport, Impact
from mcptest.diff.schemas import input_changes, output_changes
from mcptest.records.entries import KINDS, Entry, Surface

HINT_DEFAULTS = {"readOnlyHint": False, "destructiveHint": True, "idempotentHint": False, "openWorldHint": True}
"""MCP's defaults for an absent annotation hint."""

_RISKIER = {"readOnlyHint": False, "destructiveHint": True, "idempotentHint": False, "openWorldHint": True}
"""The value of each hint that asks a client for more care: moving to it is risky."""

_SPACE = re.compile(r"\s+")


def diff(old: Surface, new: Surface) -> DiffReport:
    """Every change from `old` to `new`, breaking first; server names count only when both sides have them."""
    if not (old.named and new.named):
        old, new = old.unnamed(), new.unnamed()
    changes: list[Change] = []
    for kind in KINDS:
        changes += _diff_kind(old.of_kind(kind), new.of_kind(kind), kind)
    changes.sort(key=lambda c: -c.impact.rank)
    counts = Counts(**{i.value: sum(c.impact is i for c in changes) for i in Impact})
    return DiffReport(old=old.source, new=new.source, counts=counts, changes=changes)


def _diff_kind(old: list[Entry], new: list[Entry], kind: str) -> list[Change]:
    before = {(e.server, e.key): e for e in old}
    after = {(e.server, e.key): e for e in new}
    removed = [e for k, e in before.items() if k not in after]
    added = [e for k, e in after.items() if k not in before]
    pairs = [(before[k], after[k]) for k in before if k in after]
    renames = _renames(removed, added)
    out = []
    for a, b in renames:
        came = list(_entry_changes(a, b))
        also = "; ".join(f"{c.message.split(': ', 1)[-1]} ({c.impact.value})" for c in came)
        msg = f"{a.label} renamed to '{b.key}'" + (f", and {also}" if came else " (nothing else changed)")
        out += [_change(Impact.BREAKING, "renamed", a, msg, new_name=b.key), *came]
    renamed_old = {id(a) for a, _ in renames}
    renamed_new = {id(b) for _, b in renames}
    for e in removed:
        if id(e) not in renamed_old:
            out.append(_change(Impact.BREAKING, "removed", e, f"{e.label} removed"))
    for e in added:
        if id(e) not in renamed_new:
            out.append(_change(Impact.COMPATIBLE, "added", e, f"{e.label} added"))
    for a, b in pairs:
        out += list(_entry_changes(a, b))
    return out


def _renames(removed: list[Entry], added: list[Entry]) -> list[tuple[Entry, Entry]]:
    """Pairs (old, new) that are one entry renamed (`similarity.rename_score`), the most alike first."""
    from mcptest.diff.similarity import rename_score

    scored = []
    for a in removed:
        for b in added:
            score = rename_score(a, b) if a.server == b.server else None
            if score is not None:
                scored.append((score, a, b))
    scored.sort(key=lambda s: -s[0])
    taken: set[int] = set()
    pairs = []
    for _, a, b in scored:
        if id(a) not in taken and id(b) not in taken:
            taken |= {id(a), id(b)}
            pairs.append((a, b))
    return pairs


def _entry_changes(a: Entry, b: Entry) -> Iterator[Change]:
    if a.raw == b.raw:
        return
    if _SPACE.sub(" ", a.description).strip() != _SPACE.sub(" ", b.description).strip():
        msg = f"{a.label}: description rewritten"
        yield _change(
            Impact.RISKY, "description_rewritten", a, msg, "/description", old=a.description, new=b.description
        )
    for key in ("title", "name", "mimeType"):
        if key != _identity_key(a) and a.raw.get(key) != b.raw.get(key):
            old, new = a.raw.get(key), b.raw.get(key)
            yield _change(Impact.RISKY, f"{key}_changed", a, f"{a.label}: {key} changed", f"/{key}", old=old, new=new)
    yield from _annotation_changes(a, b)
    if a.kind == "tool":
        yield from _execution_changes(a, b)
        yield from _tool_schema_changes(a, b)
    elif a.kind == "prompt":
        old, new = _arguments_schema(a.raw.get("arguments")), _arguments_schema(b.raw.get("arguments"))
        for c in input_changes(old, new, ()):
            yield _change(Impact(c.severity), c.code, a, f"{a.label}: {c.message}", "/arguments")


def _tool_schema_changes(a: Entry, b: Entry) -> Iterator[Change]:
    old_in, new_in = a.raw.get("inputSchema") or {}, b.raw.get("inputSchema") or {}
    for c in input_changes(old_in, new_in, ("inputSchema",)):
        yield _change(Impact(c.severity), c.code, a, f"{a.label}: {c.message}", c.pointer)
    old_out, new_out = a.raw.get("outputSchema"), b.raw.get("outputSchema")
    if old_out is not None and new_out is None:
        yield _change(Impact.BREAKING, "output_schema_removed", a, f"{a.label}: outputSchema removed", "/outputSchema")
    elif old_out is None and new_out is not None:
        yield _change(Impact.COMPATIBLE, "output_schema_added", a, f"{a.label}: outputSchema added", "/outputSchema")
    elif isinstance(old_out, dict) and isinstance(new_out, dict):
        for c in output_changes(old_out, new_out, ("outputSchema",)):
            yield _change(Impact(c.severity), c.code, a, f"{a.label}: {c.message}", c.pointer)


def _annotation_changes(a: Entry, b: Entry) -> Iterator[Change]:
    old, new = a.raw.get("annotations") or {}, b.raw.get("annotations") or {}
    if old == new or not isinstance(old, dict) or not isinstance(new, dict):
        return
    for hint, default in HINT_DEFAULTS.items():
        before, after = old.get(hint, default), new.get(hint, default)
        if before == after:
            continue
        impact = Impact.RISKY if after == _RISKIER[hint] else Impact.COMPATIBLE
        msg = f"{a.label}: {hint} {_hint(old, hint)} → {_hint(new, hint)}"
        yield _change(impact, "annotation_changed", a, msg, f"/annotations/{hint}", old=before, new=after)


TASK_CALLS = {"forbidden": {"plain"}, "optional": {"plain", "task"}, "required": {"task"}}
"""How a client may call a tool under each `execution.taskSupport`: plainly, as a task, or either way."""


def _execution_changes(a: Entry, b: Entry) -> Iterator[Change]:
    """`execution.taskSupport` moved: breaking when a way of calling the tool that worked stops working
    (forbidden → required, optional → forbidden, ...), compatible when it only allows more (→ optional)."""
    before, after = _task_support(a.raw), _task_support(b.raw)
    if before == after:
        return
    lost = TASK_CALLS[before] - TASK_CALLS[after]
    impact = Impact.BREAKING if lost else Impact.COMPATIBLE
    why = {"plain": "plain calls now fail", "task": "task calls now fail"}
    reason = " and ".join(why[w] for w in sorted(lost)) or "both ways of calling it work"
    msg = f"{a.label}: taskSupport {before} → {after} ({reason})"
    yield _change(impact, "task_support_changed", a, msg, "/execution/taskSupport", old=before, new=after)


def _task_support(raw: dict[str, Any]) -> str:
    execution = raw.get("execution")
    value = execution.get("taskSupport") if isinstance(execution, dict) else None
    return value if value in TASK_CALLS else "forbidden"


def _arguments_schema(arguments: Any) -> dict[str, Any]:
    """A prompt's arguments as an object schema, so they are judged like a tool's input."""
    args = [x for x in arguments or () if isinstance(x, dict) and isinstance(x.get("name"), str)]
    props = {x["name"]: {k: v for k, v in x.items() if k == "description"} for x in args}
    return {"type": "object", "properties": props, "required": [x["name"] for x in args if x.get("required")]}


def _identity_key(e: Entry) -> str:
    return {"tool": "name", "prompt": "name", "resource": "uri", "resource_template": "uriTemplate"}[e.kind]


def _hint(annotations: dict[str, Any], hint: str) -> str:
    value = annotations.get(hint)
    return f"{HINT_DEFAULTS[hint]} (absent)".lower() if value is None else str(value).lower()


def _change(impact: Impact, code: str, e: Entry, message: str, at: str | None = None, **extra: Any) -> Change:
    return Change(
        impact=impact, code=code, kind=e.kind, name=e.key, server=e.server or None, pointer=at, message=message, **extra
    )
