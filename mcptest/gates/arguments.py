"""Argument checks of recorded calls against the tool's `inputSchema` from the trace's catalog, offline."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from mcptest.records.trace import ToolCall, Trace


@dataclass(frozen=True)
class Verdict:
    """One call judged: known tool, arguments valid, and the failures as (field, bad value, message)."""

    known: bool
    valid: bool
    problems: tuple[tuple[str, Any, str], ...] = ()

    @property
    def failed(self) -> bool:
        """Invalid arguments, or the server answered with an error."""
        return not self.valid


def schemas_of(trace: Trace) -> dict[str, dict[str, Any]]:
    """The input schema of every tool the model was shown, by qualified id and by bare name."""
    out: dict[str, dict[str, Any]] = {}
    for entry in trace.catalog or []:
        name = entry.tool.get("name")
        schema = entry.tool.get("inputSchema") or {"type": "object"}
        if isinstance(name, str):
            out.setdefault(name, schema)
            if entry.server:
                out[f"{entry.server}.{name}"] = schema
    return out


def judge_call(call: ToolCall, schemas: Mapping[str, dict[str, Any]], extra: Mapping[str, dict[str, Any]]) -> Verdict:
    """Validate one call: the tool must be in the catalog, its arguments must satisfy its schema (and `extra`)."""
    schema = schemas.get(call.id) or schemas.get(call.name)
    if call.unknown_tool or schema is None:
        return Verdict(known=False, valid=False, problems=(("", call.name, f"unknown tool '{call.name}'"),))
    if call.unparseable_arguments or not isinstance(call.args, dict):
        return Verdict(known=True, valid=False, problems=(("", call.args, "arguments are not a JSON object"),))
    constraint = extra.get(call.name) or extra.get(call.id)
    problems = _schema_problems(schema, call.args)
    if constraint is not None:
        problems += _schema_problems(constraint, call.args)
    if not problems and call.is_error:
        problems = [("", None, _error_text(call))]
    return Verdict(known=True, valid=not problems, problems=tuple(problems))


def _schema_problems(schema: dict[str, Any], args: dict[str, Any]) -> list[tuple[str, Any, str]]:
    validator = _validator(json.dumps(schema, sort_keys=True))
    try:
        errors = sorted(validator.iter_errors(args), key=lambda e: [str(p) for p in e.path])
    except Exception as exc:  # the server's schema recurses forever or refers outside itself
        return [("", args, f"the tool's inputSchema cannot be checked: {type(exc).__name__}: {str(exc)[:200]}")]
    out = []
    for error in errors:
        field = ".".join(str(p) for p in error.path)
        out.append((field, error.instance, error.message))
    return out


@lru_cache(maxsize=1024)
def _validator(schema_json: str) -> Any:
    from mcptest.core.json_schema import validator

    return validator(json.loads(schema_json))


def _error_text(call: ToolCall) -> str:
    texts = [c.get("text", "") for c in call.content if isinstance(c, dict) and c.get("type") == "text"]
    return " ".join(t.strip() for t in texts if t).splitlines()[0][:200] if any(texts) else "the tool returned an error"


def judge_run(trace: Trace, extra: Mapping[str, dict[str, Any]] | None = None) -> list[tuple[ToolCall, Verdict]]:
    """Every call of a run with its verdict."""
    schemas = schemas_of(trace)
    return [(call, judge_call(call, schemas, extra or {})) for call in trace.tool_calls]


def show_value(value: Any) -> str:
    """A bad value as the document's log shows it: `'High'`, `''`, `[]`, `3`."""
    if isinstance(value, str):
        return repr(value)
    return json.dumps(value, ensure_ascii=False)


def calls_of(traces: Sequence[Trace]) -> int:
    """How many calls the runs made."""
    return sum(len(t.tool_calls) for t in traces)
