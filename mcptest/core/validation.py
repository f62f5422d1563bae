"""Validate plain YAML data with a pydantic model; map every error back to `file:line:col`."""

from __future__ import annotations

import re
import types
from collections.abc import Mapping, Sequence
from inspect import isclass
from typing import Annotated, Any, TypeVar, Union, get_args, get_origin

from pydantic import BaseModel, ValidationError

from mcptest.core.errors import Problem, UserError, did_you_mean, where
from mcptest.core.yaml_source import Loc, SourceDoc

M = TypeVar("M", bound=BaseModel)
_MODEL_TYPE = re.compile(r"a valid dictionary or instance of \w+")


def validate(model: type[M], doc: SourceDoc, data: Any = None, base: Loc = ()) -> M:
    """Validate `data` (default: the whole document) as `model`, or raise a UserError listing every problem."""
    try:
        return model.model_validate(doc.data if data is None else data)
    except ValidationError as exc:
        raise UserError(problems_from(model, exc, doc, base)) from None


def problems_from(model: type[BaseModel], exc: ValidationError, doc: SourceDoc, base: Loc = ()) -> list[Problem]:
    """One Problem per pydantic error, located in the YAML and phrased for a user."""
    data = _at(doc.data, base)
    problems = []
    for err in one_per_value(data, exc.errors(include_url=False)):
        loc = tuple(err["loc"])
        path = (*base, *_data_path(data, loc, keep_last=True))
        kind = err["type"]
        if kind == "extra_forbidden":
            key = str(loc[-1])
            allowed = _allowed_keys(model, loc[:-1])
            missing = _missing_required(model, loc[:-1], _at(data, path[len(base) : -1]))
            message = _unknown(key, allowed, model, loc, missing)
            problems.append(doc.problem(path, f"{where(path[:-1])}: {message}", at_key=True))
        elif kind == "missing":
            problems.append(doc.problem(path[:-1], f"{where(path[:-1])}: missing required key '{loc[-1]}'"))
        else:
            problems.append(doc.problem(path, f"{where(path)}: {_message(err)}"))
    return sorted(set(problems))


def _unknown(key: str, allowed: list[str], model: type[BaseModel], loc: Loc, missing: list[str]) -> str:
    if getattr(_model_at(model, loc[:-1]), "UNKNOWN_KEY_IS", None) == "matcher":
        return f"unknown matcher '{key}'{did_you_mean(key, allowed)}; matchers are {', '.join(allowed)}"
    # A misspelt required key is the likeliest reading of an unknown key beside a missing one.
    hint = did_you_mean(key, missing) or did_you_mean(key, allowed)
    return f"unknown key '{key}'{hint or ('; allowed keys: ' + ', '.join(allowed) if allowed else '')}"


def _message(err: Any) -> str:
    msg: str = err["msg"]
    for prefix in ("Value error, ", "Assertion failed, "):
        if msg.startswith(prefix):
            return msg[len(prefix) :]
    msg = msg[0].lower() + msg[1:]
    if err["type"].endswith("_type") or err["type"].endswith("_parsing"):
        msg += f", got {_show(err.get('input'))}"
    return msg


def _show(value: Any) -> str:
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    if value is None:
        return "nothing (null)"
    return f"{type(value).__name__} {value!r}"


def _at(data: Any, loc: Loc) -> Any:
    for el in loc:
        data = data[el]
    return data


def _data_path(data: Any, loc: Loc, keep_last: bool = False) -> Loc:
    """The pydantic loc without union tags: only the steps that exist in the data (plus a missing last key)."""
    out: list[str | int] = []
    for i, el in enumerate(loc):
        if _has(data, el):
            data = data[el]
            out.append(el)
        elif keep_last and i == len(loc) - 1:
            out.append(el)
    return tuple(out)


def one_per_value(data: Any, errors: list[Any]) -> list[Any]:
    """The errors with each union's reduced to one per bad value.

    Pydantic reports a value that fits no member of a union once per member. Only the members that got furthest
    into the value are kept (`{ env: 5 }` is a bad EnvRef, not a bad string), and what they say about the same
    place is merged: `input should be a valid integer or a valid number, got bool True`.
    """
    kept: list[Any] = []
    groups: dict[Loc, dict[Any, list[Any]]] = {}
    for err in errors:
        loc = tuple(err["loc"])
        fork = _last_tag(data, loc[:-1] if err["type"] == "missing" else loc)
        if fork is None:
            kept.append(err)
        else:
            groups.setdefault(loc[:fork], {}).setdefault(loc[fork], []).append(err)
    for members in groups.values():
        if len(members) == 1:  # one member named by its tag (a discriminated union): every error is its own
            kept += next(iter(members.values()))
            continue
        reach = {m: max(len(_data_path(data, tuple(e["loc"]))) for e in errs) for m, errs in members.items()}
        best = [e for m, errs in members.items() if reach[m] == max(reach.values()) for e in errs]
        kept += _merged(data, best)
    return kept


def _last_tag(data: Any, loc: Loc) -> int | None:
    """The index of the last step of `loc` that names a union member rather than a key or index of the data."""
    last = None
    for i, el in enumerate(loc):
        if _has(data, el):
            data = data[el]
        else:
            last = i
    return last


def _merged(data: Any, errors: list[Any]) -> list[Any]:
    by_place: dict[Loc, list[Any]] = {}
    for err in errors:
        by_place.setdefault(_data_path(data, tuple(err["loc"])), []).append(err)
    out = []
    for place, found in by_place.items():
        same = [e if e["type"] == "missing" else {**e, "loc": place} for e in found]  # no member tag in the path
        typed = [e for e in same if e["msg"].startswith("Input should be ")]
        if len(typed) < 2 or len(typed) != len(same):
            out += same
            continue
        wants = dict.fromkeys(_MODEL_TYPE.sub("a mapping", e["msg"][len("Input should be ") :]) for e in typed)
        out.append({**typed[0], "msg": "Input should be " + " or ".join(wants)})
    return out


def _has(data: Any, el: str | int) -> bool:
    if isinstance(data, Mapping):
        return el in data
    return isinstance(data, list) and isinstance(el, int) and 0 <= el < len(data)


def _allowed_keys(model: type[BaseModel], loc: Loc) -> list[str]:
    found = _model_at(model, loc)
    if found is None:
        return []
    return [f.alias or name for name, f in found.model_fields.items()]


def _missing_required(model: type[BaseModel], loc: Loc, data: Any) -> list[str]:
    found = _model_at(model, loc)
    if found is None or not isinstance(data, Mapping):
        return []
    names = [f.alias or n for n, f in found.model_fields.items() if f.is_required()]
    return [n for n in names if n not in data]


def _strip(tp: Any) -> Any:
    while get_origin(tp) is Annotated:
        tp = get_args(tp)[0]
    return tp


def _model_at(tp: Any, loc: Loc) -> type[BaseModel] | None:
    """Walk a type along a pydantic error loc (which names union members by tag) to the model there."""
    for el in loc:
        tp = _strip(tp)
        origin = get_origin(tp)
        if origin in (Union, types.UnionType):
            tp = _union_member(tp, el)
            if tp is None:
                return None
            if not isinstance(tp, tuple):
                continue
            tp = tp[0]
        if isclass(tp) and issubclass(tp, BaseModel):
            field = next((f for n, f in tp.model_fields.items() if el in (n, f.alias)), None)
            if field is None:
                return None
            tp = field.annotation
        elif origin in (list, Sequence, tuple):
            tp = get_args(tp)[0]
        elif origin in (dict, Mapping):
            tp = get_args(tp)[1]
        else:
            return None
    tp = _strip(tp)
    if get_origin(tp) in (Union, types.UnionType):
        models = [m for m, _ in _members(tp) if isclass(m) and issubclass(m, BaseModel)]
        tp = models[0] if len(models) == 1 else None
    return tp if isclass(tp) and issubclass(tp, BaseModel) else None


def _members(tp: Any) -> list[tuple[Any, list[str]]]:
    """Union members, nested unions flattened, each with its discriminator tags."""
    out = []
    for member in get_args(_strip(tp)):
        tags = [a.tag for a in getattr(member, "__metadata__", ()) if hasattr(a, "tag")]
        base = _strip(member)
        if get_origin(base) in (Union, types.UnionType):
            out += _members(base)
        elif base is not type(None):
            out.append((base, tags))
    return out


def _union_member(tp: Any, el: Any) -> Any:
    """The member named by a tag (consumes the loc step), or `(member,)` whose field `el` is (does not)."""
    members = _members(tp)
    for base, tags in members:
        if el in tags or getattr(base, "__name__", None) == el:
            return base
    for base, _ in members:
        if isclass(base) and issubclass(base, BaseModel) and el in _fields(base):
            return (base,)
    if len(members) == 1:
        return (members[0][0],)
    return None


def _fields(model: type[BaseModel]) -> set[str]:
    return {n for n in model.model_fields} | {f.alias for f in model.model_fields.values() if f.alias}
