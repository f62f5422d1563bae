"""Agent runs from OpenTelemetry: OTLP JSON files (the collector's file exporter) mapped onto the one Trace.

Two conventions are read: the OpenTelemetry GenAI and MCP semantic conventions (`gen_ai.operation.name`
`execute_tool` / `chat` / `invoke_agent`, `gen_ai.tool.name`, `gen_ai.tool.call.arguments`/`result`,
`gen_ai.usage.*`, `gen_ai.input.messages`/`output.messages`, `mcp.method.name`) and OpenInference
(`openinference.span.kind` TOOL/LLM/AGENT, `tool.name`, `input.value`/`output.value`, `llm.token_count.*`,
`llm.input_messages`/`llm.output_messages`). The mapping is documented in docs/telemetry.md.

A file holds one JSON document (an `ExportTraceServiceRequest`) or JSON lines of them (what the collector's file
exporter writes). JSON lines are read line by line, keeping only the attributes the mapping reads, so memory
follows the runs kept, not the file's size. Spans of no known convention, orphan spans and spans whose clock is
skewed are skipped and counted by reason.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from itertools import chain
from operator import attrgetter
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from pydantic import BaseModel

from mcptest.core import json_source
from mcptest.core.errors import Problem, UserError
from mcptest.core.yaml_source import Loc, parse, read_text
from mcptest.records.trace import TRACE_FORMAT_VERSION, TokenUsage, ToolCall, Trace, qualified_id

if TYPE_CHECKING:
    from mcptest.records.otlp_wire import SpanRecord as _Span

_M = TypeVar("_M", bound=BaseModel)

SKIP_UNKNOWN = "no GenAI, OpenInference or MCP attributes"
SKIP_OTHER = "a convention span that is no tool call, model call or agent run"
SKIP_ORPHAN = "orphan: its parent span is not in the file"
SKIP_SKEW = "clock skew: it ends before it starts, or starts before its parent"
SKIP_NESTED = "a tool span inside another tool span (the same call)"
SKIP_UNGROUPED = "its trace has no `group_by` attribute"
SKIP_TEST = "a request of an mcptest tool, resource or prompt test (no agent run)"

# What each trace field is called when a gate needs it and the source did not supply it.
FIELD_ARGS = "tool call arguments"
FIELD_RESULTS = "tool call results"
FIELD_CATALOG = "catalog (the tools the model was shown)"
FIELD_TOKENS = "token usage"
FIELD_ANSWER = "final answer"
FIELD_PROMPT = "prompt"

GATE_NEEDS: dict[str, tuple[str, ...]] = {
    "distractors": (FIELD_CATALOG,),
    "token_efficiency": (FIELD_CATALOG, FIELD_TOKENS),
    "calls": (FIELD_CATALOG, FIELD_ARGS),
    "orchestration": (FIELD_ARGS,),
    "workflow": (FIELD_ARGS, FIELD_RESULTS),
    "stability": (FIELD_ARGS, FIELD_RESULTS),
    "narrative": (FIELD_ANSWER, FIELD_RESULTS),
    "discovery": (FIELD_PROMPT,),
}
"""The trace fields each gate reads that an imported trace may lack (the other gates read names and order only)."""

_TOOL_OPS = {"execute_tool"}
_LLM_OPS = {"chat", "text_completion", "generate_content"}
_AGENT_OPS = {"invoke_agent", "create_agent"}
_KEEP_PREFIXES = ("gen_ai.", "openinference.", "mcp.", "mcptest.", "tool.", "input.", "output.", "llm.", "error.")
_MAX_VALUE_DEPTH = 64


@dataclass
class OtlpImport:
    """What a file gave: the runs, what they lack, and the spans skipped by reason."""

    traces: list[Trace]
    missing: set[str] = field(default_factory=set)
    skipped: dict[str, int] = field(default_factory=dict)

    def gate_problems(self, gates: Iterable[str], source: str) -> list[str]:
        """One message per declared gate that reads a field these runs lack (never a silent 0)."""
        return [
            f"gate `{g}` needs the {f}, which the OpenTelemetry spans in {source} do not carry"
            for g in gates
            for f in GATE_NEEDS.get(g, ())
            if f in self.missing
        ]

    def skipped_note(self, source: str) -> str | None:
        """`N spans skipped (reason: n; ...)`, or None when every span was used."""
        if not self.skipped:
            return None
        reasons = "; ".join(f"{reason}: {n}" for reason, n in sorted(self.skipped.items()))
        return f"{source}: {sum(self.skipped.values())} OpenTelemetry spans skipped ({reasons})"


class _Bad(Exception):
    def __init__(self, loc: Loc, message: str) -> None:
        super().__init__(message)
        self.loc = loc
        self.message = message


def is_otlp(path: str | Path) -> bool:
    """Whether a JSON file holds OTLP traces (an `ExportTraceServiceRequest`) rather than mcptest traces."""
    try:
        with open(path, "rb") as f:
            head = f.read(65536)
    except OSError:
        return False
    return head.lstrip()[:1] == b"{" and b'"resourceSpans"' in head


def load_otlp(path: str | Path, group_by: str | None = None) -> OtlpImport:
    """The agent runs of an OTLP JSON file: one per trace id, or per value of the `group_by` attribute.

    The cyclic garbage collector is paused meanwhile (`_collector_paused`): the load builds millions of acyclic
    objects, and its full passes over them more than doubled the time of a 200,000-span file (benchmarks/otel.py)."""
    _use_fast_parsers()
    with _collector_paused():
        return _load(path, group_by)


@contextmanager
def _collector_paused() -> Iterator[None]:
    """Pause the cyclic GC while runs are built, then hand what was built straight to its oldest generation.

    Objects made while it is paused wait in the youngest generation: once it resumes, the next young collection would
    walk them all (700,000 containers for 10,000 runs: 150,000 calls, each a model, its dict, its fields-set and its
    content list), the next middle one again, each freeing nothing. `gc.freeze()` then `gc.unfreeze()` moves every
    tracked object to the oldest generation without a walk: nothing stays frozen, all is collectable as before, and
    only a full collection (which any program holding them pays in time) walks them. A command that paused the GC
    itself (the CLI's `loading`, which then freezes what it loaded) decides alone, as does a caller that froze
    objects (unfreezing would hand them back to the collector)."""
    import gc

    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        if gc.get_freeze_count() == 0:
            gc.freeze()
            gc.unfreeze()
        gc.enable()


class _Late(Exception):
    """A span arrived for a run already built: the line index was wrong (see `_last_lines`)."""


def _load(path: str | Path, group_by: str | None) -> OtlpImport:
    # JSON lines without group_by: each run is built (and its spans let go) at the last line naming its trace id,
    # so memory holds the runs and the spans of the unfinished ones, not every span of the file.
    name = str(path)
    last = _last_lines(path) if group_by is None else None
    try:
        return _build(name, _read(path, name, group_by), group_by, last)
    except _Late:  # an index a line's odd formatting fooled: read again, holding every span to the end
        return _build(name, _read(path, name, group_by), group_by, None)


def runs_of_requests(
    requests: Iterable[Any], source: str, group_by: str | None = None, nothing: str = "no spans"
) -> OtlpImport:
    """The agent runs of OTLP `ExportTraceServiceRequest` objects already parsed (a backend's answers, in the order
    the runs should come out), mapped as a file's are; `nothing` says why there may be no span at all."""

    def batches() -> Iterator[tuple[int | None, list[_Span]]]:
        for data in requests:
            try:
                yield None, list(_request(data, group_by))
            except _Bad as bad:
                where = "".join(f"[{k}]" if isinstance(k, int) else f".{k}" for k in bad.loc).lstrip(".")
                message = f"{where or '(top level)'}: {bad.message} (not OTLP spans)"
                raise UserError([Problem(source, 0, 0, message)]) from None

    _use_fast_parsers()
    with _collector_paused():
        return _build(source, batches(), group_by, None, nothing)


_TRACE_ID = re.compile(rb'"traceId"\s*:\s*"([^"\\]*)"')


def _last_lines(path: str | Path) -> dict[str, int] | None:
    """The last line naming each trace id, from a scan of the raw bytes (no JSON parse); None for a file that is
    not JSON lines. A line's first id by `search`; when the line holds `"traceId"` no more often than that very
    `"traceId":"<id>"` (two counts in C), it is the line's only id, else one `findall` gives them all (most lines
    hold one trace: half the time of a `findall` on each). A line the scan misreads (a key written with an escape)
    is caught when its span arrives late (`_Late`)."""
    last: dict[str, int] = {}
    search, find_ids = _TRACE_ID.search, _TRACE_ID.findall
    with open(path, "rb") as f:
        lines = _lines(f)
        first = next(lines, b"")
        if not first.rstrip().endswith(b"}"):
            return None  # a pretty-printed document: read whole
        for lineno, line in enumerate(chain((first,), lines), 1):
            found = search(line)
            if found is None:
                continue
            ids = (found[1],) if line.count(b'"traceId"') == line.count(found[0]) else set(find_ids(line))
            for trace_id in ids:
                last[trace_id.decode("ascii", "replace").lower()] = lineno
    return last


_NO_SPANS = "the file holds no spans"


def _build(
    name: str,
    batches: Iterable[tuple[int | None, list[_Span]]],
    group_by: str | None,
    last: dict[str, int] | None,
    nothing: str = _NO_SPANS,
) -> OtlpImport:
    pending: dict[str, dict[str, _Span]] = {}
    order: dict[str, int] = {}  # each run where its trace id first appeared: the runs come out in that order
    built: dict[str, Trace | None] = {}
    skipped: dict[str, int] = {}
    missing: set[str] = set()
    groups: dict[str, list[list[_Span]]] = {}

    def finish(trace_id: str) -> None:
        by_id = pending.pop(trace_id)
        if group_by is None:
            built[trace_id] = _trace(_ordered(_usable(by_id, skipped)), missing)
            return
        found = next((s.attrs.get(group_by) for s in by_id.values() if s.attrs.get(group_by) is not None), None)
        found = found if found is not None else next(iter(by_id.values())).resource.get(group_by)
        if found is None:
            skipped[SKIP_UNGROUPED] = skipped.get(SKIP_UNGROUPED, 0) + len(by_id)
            return
        groups.setdefault(str(found), []).append(_usable(by_id, skipped))

    for lineno, batch in batches:
        current, spans = None, {}
        for span in batch:
            trace_id = span.trace_id
            if trace_id is not current:  # the spans of a typed line share one id object: looked up once
                if trace_id in built:
                    raise _Late
                current, found = trace_id, pending.get(trace_id)
                if found is None:
                    found = pending[trace_id] = {}
                    order.setdefault(trace_id, len(order))
                spans = found
            spans[span.span_id] = span
        if last is not None and lineno is not None:
            for trace_id in [t for t in pending if last.get(t, 0) <= lineno]:
                finish(trace_id)
    for trace_id in list(pending):
        finish(trace_id)
    if group_by is None:
        traces = [t for _, t in sorted((order[k], t) for k, t in built.items() if t is not None)]
    else:
        traces = [t for parts in groups.values() if (t := _trace(_ordered(s for p in parts for s in p), missing))]
    if not traces:
        reasons = "; ".join(f"{r}: {n}" for r, n in sorted(skipped.items())) or nothing
        line = 1 if nothing == _NO_SPANS else 0  # a file: its first line; a backend: no line to point at
        raise UserError([Problem(name, line, line, f"no agent run found in the OpenTelemetry spans ({reasons})")])
    return OtlpImport(traces, missing, skipped)


def _ordered(spans: Iterable[_Span]) -> list[_Span]:
    return sorted(spans, key=_START_END)


_START_END = attrgetter("start", "end")


def _read(path: str | Path, name: str, group_by: str | None) -> Iterator[tuple[int | None, list[_Span]]]:
    """The spans of each line (its number), or of the one document (None)."""
    keep = group_by
    with open(path, "rb") as f:
        lines = _lines(f)
        first = next(lines, b"")
        batch = _typed(first, keep)
        if batch is None:
            try:
                data = _line(first)
            except (ValueError, RecursionError):
                data = None
            if not isinstance(data, dict):  # one (pretty-printed) document: read whole, bounded by read_text's limit
                f.close()
                text = read_text(path)
                doc_data = json_source.loads(text, name, "JSON syntax error in the OTLP file")
                try:
                    yield None, list(_request(doc_data, keep))
                except _Bad as bad:
                    raise UserError([_located(text, name, bad, 1)]) from None
                return
            batch = _checked_line(first, data, name, 1, keep)
        yield 1, batch
        for lineno, line in enumerate(lines, 2):
            if line.isspace():  # a blank line (isspace stops early; strip copied)
                continue
            batch = _typed(line, keep)
            if batch is None:
                batch = _checked_line(line, _parsed(line, name, lineno), name, lineno, keep)
            yield lineno, batch


_CHUNK = 1 << 20


def _lines(f: Any) -> Iterator[bytes]:
    """The lines of a binary file, each with its `\\n` as `readline` gives them, cut from 1 MiB reads by `find`: a
    third of the time of `readline`, which looks for the newline byte by byte (both passes over a 104 MB file). A
    line longer than a read is joined from its pieces once (memory: the line, as with `readline`)."""
    pieces: list[bytes] = []
    while chunk := f.read(_CHUNK):
        find = chunk.find
        end = find(b"\n")
        if end < 0:
            pieces.append(chunk)
            continue
        start = 0
        if pieces:
            pieces.append(chunk[: end + 1])
            yield b"".join(pieces)
            pieces = []
            start = end + 1
            end = find(b"\n", start)
        while end >= 0:
            yield chunk[start : end + 1]
            start = end + 1
            end = find(b"\n", start)
        if start < len(chunk):
            pieces.append(chunk[start:])
    if pieces:
        yield b"".join(pieces)


def _checked_line(line: bytes, data: Any, name: str, lineno: int, keep: str | None) -> list[_Span]:
    try:
        return list(_request(data, keep))
    except _Bad as bad:
        raise UserError([_located(line.decode("utf-8", "replace"), name, bad, lineno)]) from None


def _parsed(line: bytes, name: str, lineno: int) -> Any:
    """A line's JSON value, or the error at its place in the file."""
    try:
        return _line(line)
    except (ValueError, RecursionError):
        text = line.decode("utf-8", "replace")
        try:
            json_source.loads(text, name, "JSON syntax error in the OTLP file")
        except UserError as exc:
            raise UserError([Problem(name, p.line + lineno - 1, p.col, p.message) for p in exc.problems]) from None
        raise UserError([Problem(name, lineno, 1, "not UTF-8 JSON")]) from None


def _typed(line: bytes, keep: str | None) -> list[_Span] | None:
    """The spans of a JSON line of the common well-formed shape, decoded into the typed `otlp_wire` objects (the
    fields the mapping never reads skipped by the decoder, not built as dicts): 2-3 times as fast as parsing it into
    dicts and reading those. None for any other line (bad JSON, another shape, a value `_span` would not take as
    is), which the checked reading then reads as it always has, or locates what is wrong."""
    new_span, genai_kinds = _new_span, _GENAI_KINDS
    try:
        request = _decode_request(line)
        out = []
        raw_trace, trace = "", ""  # the spans of a line share a trace id: lowered (and hashed) once
        for rs in request.resourceSpans or ():
            resource = rs.resource
            res_attrs = _typed_attributes(resource.attributes, keep) if resource and resource.attributes else {}
            scopes = rs.scopeSpans if rs.scopeSpans is not _UNSET else rs.instrumentationLibrarySpans
            if scopes is _UNSET or scopes is None:
                continue
            for ss in scopes:
                for sp in ss.spans or ():
                    trace_id, span_id, parent, status = sp.traceId, sp.spanId, sp.parentSpanId, sp.status
                    if not trace_id or not span_id:
                        return None
                    if trace_id != raw_trace:
                        raw_trace, trace = trace_id, trace_id.lower()
                    attrs = _typed_attributes(sp.attributes, keep) if sp.attributes else {}
                    op = attrs.get("gen_ai.operation.name")  # `_classify`, inline: this runs for every span
                    out.append(
                        new_span(
                            trace,
                            span_id.lower(),
                            parent.lower() if parent else "",
                            sp.name,
                            sp.startTimeUnixNano,
                            sp.endTimeUnixNano,
                            attrs,
                            status is not None and status.code in _ERROR_CODES,
                            res_attrs,
                            genai_kinds.get(op) if type(op) is str else _classify(attrs),
                        )
                    )
        return out
    except (ValueError, TypeError, KeyError, AttributeError, RecursionError, _Bad):
        return None


def _typed_attributes(kvs: list[Any], keep: str | None) -> dict[str, Any]:
    out: dict[str, Any] = {}
    kept, unset = _KEPT, _UNSET
    for kv in kvs:
        key = kv.key
        wanted = kept.get(key)
        if wanted is None:
            wanted = _kept(key)
        if wanted or key == keep:
            v = kv.value
            if v is None:
                out[key] = None
            elif (text := v.stringValue) is not unset:
                out[key] = text
            elif (number := v.intValue) is not unset:
                out[key] = int(number)
            else:
                out[key] = _other_value(v)
    return out


def _kept(key: str) -> bool:
    """Whether the mapping reads attribute `key` (`_KEEP_PREFIXES`), remembered: keys repeat from span to span."""
    wanted = key.startswith(_KEEP_PREFIXES)
    if len(_KEPT) < 4096:  # a file of ever-new keys stops adding them
        _KEPT[key] = wanted
    return wanted


def _other_value(v: Any) -> Any:
    """A typed value that is no string or integer, read as the checked reading reads it."""
    return _value({f: x for f in _OTHER_VALUES if (x := getattr(v, f)) is not _UNSET}, (), 0)


_KEPT: dict[str, bool] = {}
_OTHER_VALUES = ("doubleValue", "boolValue", "arrayValue", "kvlistValue", "bytesValue")


def _line(line: bytes) -> Any:
    """A JSON line's value: msgspec's parse; what msgspec refuses and the stdlib takes (NaN, infinities, lone surrogate
    escapes) by `json.loads`, whose errors then say what is wrong."""
    try:
        return _fast_loads(line)
    except ValueError:
        return json.loads(line.decode("utf-8"))


def _located(text: str, name: str, bad: _Bad, lineno: int) -> Problem:
    where = "".join(f"[{k}]" if isinstance(k, int) else f".{k}" for k in bad.loc).lstrip(".") or "(top level)"
    message = f"{where}: {bad.message} (not an OTLP ExportTraceServiceRequest)"
    try:
        line, col = parse(text, name).value_pos(bad.loc)
    except (UserError, KeyError, IndexError, TypeError):
        line, col = 1, 1
    return Problem(name, line + lineno - 1, col, message)


def _list(obj: dict[str, Any], key: str, loc: Loc) -> list[Any]:
    value = obj.get(key)
    if value is None:
        return []
    if not isinstance(value, list):
        raise _Bad((*loc, key), f"`{key}` must be an array")
    return value


def _request(data: Any, keep: str | None) -> Iterator[_Span]:
    if not isinstance(data, dict) or "resourceSpans" not in data:
        raise _Bad((), "expected an object with `resourceSpans`")
    for i, rs in enumerate(_list(data, "resourceSpans", ())):
        loc: Loc = ("resourceSpans", i)
        if not isinstance(rs, dict):
            raise _Bad(loc, "a resourceSpans entry must be an object")
        resource = rs.get("resource") or {}
        if not isinstance(resource, dict):
            raise _Bad((*loc, "resource"), "`resource` must be an object")
        res_attrs = _attributes(resource, (*loc, "resource"), keep)
        scopes = rs.get("scopeSpans", rs.get("instrumentationLibrarySpans"))
        scope_key = "scopeSpans" if "scopeSpans" in rs else "instrumentationLibrarySpans"
        if scopes is not None and not isinstance(scopes, list):
            raise _Bad((*loc, scope_key), f"`{scope_key}` must be an array")
        for j, ss in enumerate(scopes or []):
            sloc: Loc = (*loc, scope_key, j)
            if not isinstance(ss, dict):
                raise _Bad(sloc, "a scopeSpans entry must be an object")
            for k, raw in enumerate(_list(ss, "spans", sloc)):
                yield _span(raw, sloc, k, res_attrs, keep)


def _hex_id(raw: dict[str, Any], key: str, loc: Loc, required: bool) -> str:
    value = raw.get(key)
    if value in (None, "") and not required:
        return ""
    if not isinstance(value, str) or not value:
        raise _Bad((*loc, key), f"`{key}` must be a non-empty hex string")
    return value.lower()


def _nanos(raw: dict[str, Any], key: str, loc: Loc) -> int:
    value = raw.get(key, 0)
    try:
        return int(value)
    except (TypeError, ValueError):
        raise _Bad(
            (*loc, key), f"`{key}` must be nanoseconds since the epoch (an integer or a string of digits)"
        ) from None


def _span(raw: Any, sloc: Loc, k: int, res_attrs: dict[str, Any], keep: str | None) -> _Span:
    """Span `k` of a scope; the common well-formed shape read without the checks or a location (200,000 spans in the
    benchmark file), anything else by `_checked_span`, which says where it is wrong."""
    try:
        trace_id, span_id, parent = raw["traceId"], raw["spanId"], raw.get("parentSpanId")
        parent = "" if parent is None else parent
        name = raw.get("name", "")
        if (
            type(trace_id) is str and trace_id and type(span_id) is str and span_id and type(parent) is str
            and type(name) is str
        ):  # fmt: skip
            status = raw.get("status")
            error = status.get("code") in _ERROR_CODES if status else False
            start, end = int(raw.get("startTimeUnixNano", 0)), int(raw.get("endTimeUnixNano", 0))
            attrs: dict[str, Any] = {}
            for kv in raw.get("attributes") or ():
                key = kv["key"]
                if key.startswith(_KEEP_PREFIXES) or key == keep:  # a key that is no string raises here
                    v = kv["value"]
                    if "stringValue" in v:
                        attrs[key] = v["stringValue"]
                    elif "intValue" in v:
                        attrs[key] = int(v["intValue"])
                    else:
                        attrs[key] = _value(v, (), 0)
            return _new_span(
                trace_id.lower(), span_id.lower(), parent.lower(), name, start, end, attrs, error, res_attrs,
                _classify(attrs),
            )  # fmt: skip
    except (KeyError, TypeError, AttributeError, ValueError, _Bad):
        pass
    return _checked_span(raw, (*sloc, "spans", k), res_attrs, keep)


_ERROR_CODES = (2, "STATUS_CODE_ERROR")
_NO_STATUS: dict[str, Any] = {}


def _checked_span(raw: Any, loc: Loc, res_attrs: dict[str, Any], keep: str | None) -> _Span:
    if not isinstance(raw, dict):
        raise _Bad(loc, "a span must be an object")
    name = raw.get("name", "")
    if not isinstance(name, str):
        raise _Bad((*loc, "name"), "`name` must be a string")
    status = raw.get("status") or {}
    if not isinstance(status, dict):
        raise _Bad((*loc, "status"), "`status` must be an object")
    attrs = _attributes(raw, loc, keep)
    return _new_span(
        _hex_id(raw, "traceId", loc, True),
        _hex_id(raw, "spanId", loc, True),
        _hex_id(raw, "parentSpanId", loc, False),
        name,
        _nanos(raw, "startTimeUnixNano", loc),
        _nanos(raw, "endTimeUnixNano", loc),
        attrs,
        status.get("code") in (2, "STATUS_CODE_ERROR"),
        res_attrs,
        _classify(attrs),
    )


def _attributes(obj: dict[str, Any], loc: Loc, keep: str | None) -> dict[str, Any]:
    """The attributes the mapping reads (`_KEEP_PREFIXES`, and `keep`), their values unwrapped."""
    attrs = obj.get("attributes")
    if attrs is None:
        return {}
    out: dict[str, Any] = {}
    try:  # the common shapes, unchecked; anything odd goes to the checked reading below, which says where
        for kv in attrs:
            key = kv["key"]
            if key.startswith(_KEEP_PREFIXES) or key == keep:  # a key that is no string raises here
                v = kv["value"]
                if "stringValue" in v:
                    out[key] = v["stringValue"]
                elif "intValue" in v:
                    out[key] = int(v["intValue"])
                else:
                    out[key] = _value(v, (), 0)
        return out
    except (TypeError, KeyError, AttributeError, ValueError, _Bad):
        return _checked_attributes(attrs, loc, keep)


def _checked_attributes(attrs: Any, loc: Loc, keep: str | None) -> dict[str, Any]:
    if not isinstance(attrs, list):
        raise _Bad((*loc, "attributes"), "`attributes` must be an array of {key, value}")
    out: dict[str, Any] = {}
    for i, kv in enumerate(attrs):
        if not isinstance(kv, dict) or not isinstance(kv.get("key"), str):
            raise _Bad((*loc, "attributes", i), "an attribute must be an object with a string `key`")
        key = kv["key"]
        if key == keep or key.startswith(_KEEP_PREFIXES):
            out[key] = _value(kv.get("value"), (*loc, "attributes", i, "value"), 0)
    return out


def _value(v: Any, loc: Loc, depth: int) -> Any:
    if v is None:
        return None
    if not isinstance(v, dict):
        raise _Bad(loc, "an attribute value must be an object such as {stringValue: ...}")
    if depth > _MAX_VALUE_DEPTH:
        raise _Bad(loc, f"attribute values nest deeper than {_MAX_VALUE_DEPTH} levels")
    if "stringValue" in v:
        return v["stringValue"]
    if "intValue" in v:
        try:
            return int(v["intValue"])
        except (TypeError, ValueError):
            raise _Bad((*loc, "intValue"), "`intValue` must be an integer") from None
    if "doubleValue" in v:
        return v["doubleValue"]
    if "boolValue" in v:
        return v["boolValue"]
    if "arrayValue" in v:
        values = _listed(v, "arrayValue", loc)
        return [_value(x, (*loc, "arrayValue", "values", i), depth + 1) for i, x in enumerate(values)]
    if "kvlistValue" in v:
        values = _listed(v, "kvlistValue", loc)
        out = {}
        for i, kv in enumerate(values):
            at = (*loc, "kvlistValue", "values", i)
            if not isinstance(kv, dict):
                raise _Bad(at, "a `kvlistValue` entry must be an object such as {key: ..., value: {...}}")
            out[kv.get("key")] = _value(kv.get("value"), at, depth + 1)
        return out
    if "bytesValue" in v:
        return v["bytesValue"]
    return None


def _listed(v: dict[str, Any], kind: str, loc: Loc) -> list[Any]:
    """The `values` list of an `arrayValue` or `kvlistValue` (`{values: [...]}` in the OTLP JSON mapping)."""
    holder = v[kind] or {}
    values = holder.get("values") if isinstance(holder, dict) else None
    if not isinstance(holder, dict) or not isinstance(values, list | None):
        raise _Bad((*loc, kind), f"`{kind}` must be an object such as {{values: [...]}}")
    return values or []


def _classify(a: dict[str, Any]) -> str | None:
    """A span's kind: its GenAI operation when it names one (a backend may add an OpenInference kind beside it, as
    Phoenix does, which never overrides it), else its OpenInference kind, else an MCP `tools/call`. A kind that is
    no string (an array or map value) names none (looking one up raised `TypeError`, a traceback)."""
    op = a.get("gen_ai.operation.name")
    if op is not None:
        return _GENAI_KINDS.get(op) if type(op) is str else None
    oi = a.get("openinference.span.kind")
    if oi is None:
        return "tool" if a.get("mcp.method.name") == "tools/call" else None
    if "mcptest.test.name" in a or "mcptest.suite" in a:  # mcptest's run, test and gate spans, given a kind by
        return None  # a backend (Phoenix makes a span with `gen_ai.request.model` an LLM span)
    return _OI_KINDS.get(oi) if type(oi) is str else None


_OI_KINDS = {"TOOL": "tool", "LLM": "llm", "AGENT": "agent"}
_GENAI_KINDS = {
    **dict.fromkeys(_TOOL_OPS, "tool"),
    **dict.fromkeys(_LLM_OPS, "llm"),
    **dict.fromkeys(_AGENT_OPS, "agent"),
}


def _usable(by_id: dict[str, _Span], skipped: dict[str, int]) -> list[_Span]:
    """The spans of one trace the mapping reads; the others counted in `skipped` by reason."""

    def skip(reason: str) -> None:
        skipped[reason] = skipped.get(reason, 0) + 1

    out = []
    for span in by_id.values():
        kind = span.kind
        parent = by_id.get(span.parent) if span.parent else None
        if kind is None:
            known = any(k.startswith(("gen_ai.", "openinference.", "mcp.", "mcptest.")) for k in span.attrs)
            skip(SKIP_OTHER if known else SKIP_UNKNOWN)
        elif span.parent and parent is None:
            skip(SKIP_ORPHAN)
        elif span.end < span.start or (parent is not None and span.start < parent.start):
            skip(SKIP_SKEW)
        elif (
            kind == "tool"
            and parent is not None
            and (parent.kind == "tool" or parent.parent)
            and _inside_tool(parent, by_id)
        ):  # (a parent that is no tool span and has no parent of its own: not inside one, no walk)
            skip(SKIP_NESTED)
        elif parent is not None and "mcptest.test.kind" in parent.attrs:  # an exported run's own test requests
            skip(SKIP_TEST)
        else:
            out.append(span)
    return out


def _inside_tool(parent: _Span | None, by_id: dict[str, _Span]) -> bool:
    """Whether `parent` or one of its ancestors is a tool span."""
    seen = 0
    while parent is not None and seen < 1000:
        if parent.kind == "tool":
            return True
        parent = by_id.get(parent.parent) if parent.parent else None
        seen += 1
    return False


_JSON_START = frozenset('{["-0123456789tfn')


def _json_or_text(value: Any) -> Any:
    if isinstance(value, str) and value[:1] in _JSON_START:
        return _loads(value, value)
    return value


_fast_loads: Callable[[str | bytes], Any] = json.loads
"""The JSON parser of the hot path: msgspec's once `load_otlp` has run (`_use_fast_parsers`)."""


def _no_typed_decoder(line: bytes) -> Any:
    raise ValueError("the typed decoder is set by _use_fast_parsers")


_decode_request: Callable[[bytes], Any] = _no_typed_decoder
_new_span: Callable[..., _Span] = _no_typed_decoder
_UNSET: Any = object()


def _use_fast_parsers() -> None:
    """Parse with msgspec from now on: it is imported when a file is loaded, so start-up and `validate` never pay."""
    global _fast_loads, _decode_request, _new_span, _UNSET
    from mcptest.records import otlp_wire

    _fast_loads, _decode_request, _UNSET = otlp_wire.decode, otlp_wire.decode_request, otlp_wire.UNSET
    _new_span = otlp_wire.SpanRecord


def _loads(text: str, otherwise: Any) -> Any:
    """`json.loads(text)`, else `otherwise`: msgspec first (150,000 argument strings in the benchmark file); the
    stdlib settles any text msgspec refuses (NaN, infinities, lone surrogates)."""
    try:
        return _fast_loads(text)
    except ValueError:
        pass
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        return otherwise


def _messages_text(value: Any, role: str) -> str | None:
    """The text parts of the last `role` message of GenAI `gen_ai.*.messages` (a JSON string or a list)."""
    messages = _json_or_text(value)
    if not isinstance(messages, list):
        return None
    for message in reversed(messages):
        if isinstance(message, dict) and message.get("role") == role:
            parts = message.get("parts")
            if isinstance(parts, list):
                texts = [str(p.get("content", "")) for p in parts if isinstance(p, dict) and p.get("type") == "text"]
                if texts:
                    return "".join(texts)
            if isinstance(message.get("content"), str):
                return str(message["content"])
    return None


def _oi_messages(attrs: dict[str, Any], prefix: str, role: str) -> str | None:
    """The content of the last `role` message of OpenInference's flattened `llm.input_messages.N.message.*`."""
    found = None
    i = 0
    while f"{prefix}.{i}.message.role" in attrs:
        if attrs[f"{prefix}.{i}.message.role"] == role:
            content = attrs.get(f"{prefix}.{i}.message.content")
            if isinstance(content, str) and content:
                found = content
        i += 1
    return found


def _plain(attrs: dict[str, Any], key: str) -> str | None:
    value = attrs.get(f"{key}.value")
    if not isinstance(value, str) or attrs.get(f"{key}.mime_type") == "application/json":
        return None
    return value


def _prompt(span: _Span) -> str | None:
    a = span.attrs
    if (
        "gen_ai.input.messages" not in a
        and "llm.input_messages.0.message.role" not in a
        and (span.kind != "agent" or "input.value" not in a)
    ):
        return None  # none of the attributes below (a model call's usual case: 5 calls a run in the benchmark file)
    return (
        _messages_text(a.get("gen_ai.input.messages"), "user")
        or _oi_messages(a, "llm.input_messages", "user")
        or (_plain(a, "input") if span.kind == "agent" else None)
    )


def _answer(span: _Span) -> str | None:
    a = span.attrs
    if (
        "gen_ai.output.messages" not in a
        and "llm.output_messages.0.message.role" not in a
        and (span.kind != "agent" or "output.value" not in a)
    ):
        return None  # none of the attributes below
    return (
        _messages_text(a.get("gen_ai.output.messages"), "assistant")
        or _oi_messages(a, "llm.output_messages", "assistant")
        or (_plain(a, "output") if span.kind == "agent" else None)
    )


def _result(raw: Any) -> tuple[list[dict[str, Any]], dict[str, Any] | None, bool]:
    """The content blocks, structured content and error flag of a tool span's result attribute."""
    value = _json_or_text(raw)
    if isinstance(value, dict) and isinstance(value.get("content"), list):
        structured = value.get("structuredContent")
        return value["content"], structured if isinstance(structured, dict) else None, value.get("isError") is True
    if isinstance(value, str):
        return [{"type": "text", "text": value}], None, False
    text = raw if isinstance(raw, str) else json.dumps(raw, ensure_ascii=False)
    return [{"type": "text", "text": text}], value if isinstance(value, dict) else None, False


def _call(span: _Span, missing: set[str]) -> ToolCall:
    """The tool call of a tool span. Its fields are of the model's types by construction, except a server or content
    blocks read as given: when those are too, the call is built unvalidated, as `model_construct` builds one (its
    `__dict__` in field order), with only the fields the span gave marked as set (validation marks every field given,
    plus `id`: a set of 5+ names takes 728 bytes, of 4 or fewer 216, so 150,000 calls held 75 MB less).
    `model_construct` itself looks every default up on each call: it took longer than validating, and 3 times as
    long as this (benchmarks/otel.py). A call of other types is validated as any trace is. The common case (plain
    text arguments and result) is read inline: this runs once per tool call (150,000 in the benchmark file)."""
    attrs = span.attrs
    get = attrs.get
    name = get("gen_ai.tool.name") or get("tool.name")
    if not name and span.name.startswith("tools/call "):
        name = span.name[len("tools/call ") :]
    if type(name) is not str:
        name = str(name or "")
    server = get("mcptest.server")
    flags = 0 if server is None else _SERVER  # which fields the span gave: `_GIVEN` turns it into the fields-set
    args: Any = {}
    unparseable = False
    raw_args = attrs["gen_ai.tool.call.arguments"] if "gen_ai.tool.call.arguments" in attrs else get("input.value")
    if raw_args is None:  # (present, even null, `gen_ai.tool.call.arguments` wins over `input.value`)
        missing.add(FIELD_ARGS)
    else:
        args = raw_args
        if type(raw_args) is str and raw_args[:1] in _JSON_START:
            try:
                args = _fast_loads(raw_args)
            except ValueError:
                args = _loads(raw_args, raw_args)
        flags |= _ARGS
        if not isinstance(args, dict) and isinstance(raw_args, str):
            unparseable = True
            flags |= _UNPARSEABLE
    raw = attrs["gen_ai.tool.call.result"] if "gen_ai.tool.call.result" in attrs else get("output.value")
    erred = span.error or get("error.type") is not None
    content: list[Any] = []
    structured = None
    plain = False  # content known to be dicts
    if raw is None:
        missing.add(FIELD_RESULTS)
    else:
        if type(raw) is str and raw[:1] not in _JSON_START:  # plain text, the common result
            content = [{"type": "text", "text": raw}]
            plain = True
        else:
            content, structured, result_error = _result(raw)
            erred = erred or result_error
            if structured is not None:
                flags |= _STRUCTURED
        flags |= _CONTENT
    if erred:
        flags |= _ERROR
    latency = None
    if span.end > span.start:  # an instant span: no latency recorded
        latency = (span.end - span.start) / 1e6
        flags |= _LATENCY
    unknown = get("mcptest.unknown_tool") is True
    if unknown:
        flags |= _UNKNOWN
    values = {
        "server": server,
        "name": name,
        "id": qualified_id(server, name),
        "args": args,
        "content": content,
        "structured_content": structured,
        "is_error": erred,
        "latency_ms": latency,
        "unknown_tool": unknown,
        "unparseable_arguments": unparseable,
    }
    given = _GIVEN[flags]
    if (server is None or type(server) is str) and (plain or all(type(block) is dict for block in content)):
        return _unvalidated(ToolCall, values, set(given))
    return ToolCall.model_validate({k: v for k, v in values.items() if k in given})


_SERVER, _ARGS, _UNPARSEABLE, _CONTENT, _STRUCTURED, _ERROR, _LATENCY, _UNKNOWN = (1 << k for k in range(8))
_FLAG_FIELDS = (
    "server", "args", "unparseable_arguments", "content", "structured_content", "is_error", "latency_ms",
    "unknown_tool",
)  # fmt: skip
_GIVEN = [frozenset({"name", *(f for k, f in enumerate(_FLAG_FIELDS) if flags >> k & 1)}) for flags in range(1 << 8)]
"""The fields a call's span gave, by the bits `_call` sets: copied into each call's fields-set (a set of its own,
as validation would make), without adding names one by one."""


_ABSENT: Any = object()


def _unvalidated(cls: type[_M], values: dict[str, Any], fields_set: set[str]) -> _M:
    """An instance of model `cls` as `model_construct` builds one (`values` holds every field, in field order;
    `fields_set` names those given), without its lookup of every default on each call."""
    made = cls.__new__(cls)
    _set_dict(made, values)
    _set_fields_set(made, fields_set)
    _set_extra(made, None)
    _set_private(made, None)
    return made


def _slot_setter(name: str) -> Callable[[Any, Any], None]:
    """The `__set__` of pydantic's slot `name` (`BaseModel` holds it for every model): what `object.__setattr__(obj,
    name, value)` ends up calling, without its lookup of the name (half its time; 4 per call, 150,000 calls)."""
    setter: Callable[[Any, Any], None] = vars(BaseModel)[name].__set__
    return setter


_set_dict, _set_fields_set, _set_extra, _set_private = (
    _slot_setter(n) for n in ("__dict__", "__pydantic_fields_set__", "__pydantic_extra__", "__pydantic_private__")
)


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else None


def _usage(span: _Span) -> tuple[int | None, int | None]:
    a = span.attrs
    inp = _int(a.get("gen_ai.usage.input_tokens", a.get("llm.token_count.prompt")))
    out = _int(a.get("gen_ai.usage.output_tokens", a.get("llm.token_count.completion")))
    return inp, out


def _trace(spans: list[_Span], missing: set[str]) -> Trace | None:
    """One run from its spans (in start order): None when they hold no tool call, model call or agent run."""
    if not spans:
        return None
    kinds: dict[str | None, list[_Span]] = {"agent": [], "llm": [], "tool": []}
    for span in spans:
        kinds[span.kind].append(span)
    agents, llms, tools = kinds["agent"], kinds["llm"], kinds["tool"]
    root = agents[0] if agents else None
    fields: dict[str, Any] = {}
    model = None
    for span in agents or llms:  # the agent's model, else the first model call's (as `[*agents, *llms]` read it)
        if model := _model(span):
            break
    else:
        model = next((m for s in llms if (m := _model(s))), None) if agents else None
    fields["model"] = model
    fields["prompt"] = (_prompt(root) if root else None) or next((p for s in llms if (p := _prompt(s))), None)
    fields["final_response"] = (_answer(root) if root else None) or next(
        (t for s in reversed(llms) if (t := _answer(s))), None
    )
    inp, out = _usage(root) if root else (None, None)
    if inp is None and out is None and llms:  # the model calls' usage summed (one pass: 4 calls a run, 10,000 runs)
        given = False
        inp = out = 0
        for span in llms:
            i, o = _usage(span)
            if i is not None:
                inp, given = inp + i, True
            if o is not None:
                out, given = out + o, True
        if not given:
            inp = out = None
    total = _int(root.attrs.get("mcptest.usage.total_tokens")) if root else None
    if inp is not None or out is not None or total is not None:
        fields["tokens"] = {"input": inp, "output": out, **({"total": total} if total is not None else {})}
    turns = _int(root.attrs.get("mcptest.turns")) if root else None
    fields["turns"] = turns if turns is not None else (len(llms) or None)
    if root is not None:
        for key, target in (("mcptest.catalog", "catalog"), ("mcptest.user_turns", "user_turns")):
            if isinstance(root.attrs.get(key), str):
                fields[target] = _json_or_text(root.attrs[key])
        if isinstance(root.attrs.get("mcptest.cost_usd"), int | float):
            fields["cost_usd"] = root.attrs["mcptest.cost_usd"]
        if isinstance(root.attrs.get("mcptest.error"), str):
            fields["error"] = root.attrs["mcptest.error"]
    if fields.get("catalog") is None:
        fields["catalog"] = _definitions(spans)
    for value, name in ((fields.get("catalog"), FIELD_CATALOG), (fields.get("tokens"), FIELD_TOKENS)):
        if value is None:
            missing.add(name)
    if fields["final_response"] is None:
        missing.add(FIELD_ANSWER)
    if fields["prompt"] is None:
        missing.add(FIELD_PROMPT)
    try:
        calls = [_call(s, missing) for s in tools]
        if fields["catalog"] is None and fields.keys() <= _PLAIN_FIELDS:
            return _plain_trace(fields, calls)
        trace = Trace.model_validate(fields)
        trace.tool_calls = calls
    except ValueError as exc:
        raise UserError([Problem("mcptest", 0, 0, f"an OpenTelemetry run does not map onto a trace: {exc}")]) from None
    return trace


_PLAIN_FIELDS = frozenset({"model", "prompt", "final_response", "tokens", "turns", "catalog", "error"})


def _plain_trace(fields: dict[str, Any], calls: list[ToolCall]) -> Trace:
    """The trace of `fields` that are of the model's types by construction (strings, counts `_int` checked, no
    catalog, user turns or cost), built unvalidated as `_call` builds a call; only its token usage is validated
    (it defaults `total`). Validation cost 20-30 µs a run, most of the rest of a run's building."""
    tokens = fields.get("tokens")
    values = {
        "format_version": TRACE_FORMAT_VERSION,
        "model": fields["model"],
        "prompt": fields["prompt"],
        "tool_calls": calls,
        "final_response": fields["final_response"],
        "turns": fields["turns"],
        "tokens": None if tokens is None else _usage_of(tokens),
        "cost_usd": None,
        "catalog": None,
        "error": fields.get("error"),
        "judgements": None,
        "user_turns": None,
    }
    return _unvalidated(Trace, values, {*fields, "tool_calls"})


def _usage_of(tokens: dict[str, Any]) -> TokenUsage:
    """The token usage of counts `_int` checked (non-negative integers or None), built as validation builds it (its
    `total` defaulted to input + output, and marked as given, as `_default_total` adds it) but unvalidated."""
    if "total" in tokens:
        return TokenUsage.model_validate(tokens)
    inp, out = tokens["input"], tokens["output"]
    values = {"input": inp, "output": out, "cached": None, "reasoning": None, "total": (inp or 0) + (out or 0)}
    return _unvalidated(TokenUsage, values, {"input", "output", "total"})


def _definitions(spans: list[_Span]) -> list[dict[str, Any]] | None:
    """The catalog from GenAI `gen_ai.tool.definitions` (or OpenInference `llm.tools.N.tool.json_schema`)."""
    for span in spans:
        if "gen_ai.tool.definitions" not in span.attrs and "llm.tools.0.tool.json_schema" not in span.attrs:
            continue
        defs = _json_or_text(span.attrs.get("gen_ai.tool.definitions"))
        if isinstance(defs, list) and defs:
            return [{"tool": _mcp_tool(d)} for d in defs if isinstance(d, dict) and _mcp_tool(d).get("name")]
        oi = []
        i = 0
        while isinstance(span.attrs.get(f"llm.tools.{i}.tool.json_schema"), str):
            oi.append(_json_or_text(span.attrs[f"llm.tools.{i}.tool.json_schema"]))
            i += 1
        if oi:
            return [{"tool": _mcp_tool(d)} for d in oi if isinstance(d, dict) and _mcp_tool(d).get("name")]
    return None


def _model(span: _Span) -> str | None:
    a = span.attrs
    found = a.get("gen_ai.request.model") or a.get("gen_ai.response.model") or a.get("llm.model_name")
    return found if isinstance(found, str) else None


def _mcp_tool(d: dict[str, Any]) -> dict[str, Any]:
    """An MCP tool from a definition in OpenAI's function form or MCP's own."""
    inner = d.get("function")
    fn: dict[str, Any] = inner if isinstance(inner, dict) else d
    tool: dict[str, Any] = {"name": fn.get("name")}
    if isinstance(fn.get("description"), str):
        tool["description"] = fn["description"]
    schema = fn.get("inputSchema", fn.get("parameters"))
    if isinstance(schema, dict):
        tool["inputSchema"] = schema
    return tool
