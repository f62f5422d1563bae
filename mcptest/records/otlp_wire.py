"""The OTLP JSON shapes `otlp` decodes a JSON line into (msgspec Structs): only the fields the mapping reads.

A line decodes straight into these typed objects, so the fields the mapping never reads (span kinds, scopes, events,
links, dropped counts...) are skipped in the decoder rather than built as dicts. The types are the common, well-formed
shape only (`UNSET` tells a key that is absent from one that is null): a line of any other shape fails to decode and
`otlp` reads it again with its checked reading, which accepts what it always accepted and locates what is wrong.
The objects are acyclic and short-lived, so they are not tracked by the cyclic garbage collector (`gc=False`). This
module imports msgspec, so it is imported only when a file is read.
"""

from __future__ import annotations

from typing import Any

import msgspec
from msgspec import UNSET, Struct, UnsetType


class AnyValue(Struct, gc=False):
    stringValue: str | UnsetType = UNSET  # the OTLP JSON names
    intValue: str | int | UnsetType = UNSET
    doubleValue: Any = UNSET
    boolValue: Any = UNSET
    arrayValue: Any = UNSET
    kvlistValue: Any = UNSET
    bytesValue: Any = UNSET


class KeyValue(Struct, gc=False):
    key: str
    value: AnyValue | None = None


class Status(Struct, gc=False):
    code: int | str | None = None


class Span(Struct, gc=False):
    traceId: str
    spanId: str
    parentSpanId: str | None = None
    name: str = ""
    startTimeUnixNano: int = 0  # a string of digits in OTLP JSON: the lax decoder converts it (in C)
    endTimeUnixNano: int = 0
    attributes: list[KeyValue] | None = None
    status: Status | None = None


class ScopeSpans(Struct, gc=False):
    spans: list[Span] | None = None


class Resource(Struct, gc=False):
    attributes: list[KeyValue] | None = None


class ResourceSpans(Struct, gc=False):
    resource: Resource | None = None
    scopeSpans: list[ScopeSpans] | None | UnsetType = UNSET
    instrumentationLibrarySpans: list[ScopeSpans] | None | UnsetType = UNSET


class Request(Struct, gc=False):
    resourceSpans: list[ResourceSpans] | None


class SpanRecord(Struct, gc=False):
    """A span as the mapping reads it: ids lowered, the attributes it reads unwrapped, its kind (tool, llm, agent
    or None). A Struct, not a class with `__slots__`, because its `__init__` runs in C: 200,000 spans in the
    benchmark file, each built in a third of the time."""

    trace_id: str
    span_id: str
    parent: str
    name: str
    start: int
    end: int
    attrs: dict[str, Any]
    error: bool
    resource: dict[str, Any]
    kind: str | None


decode_request = msgspec.json.Decoder(Request, strict=False).decode
"""A JSON line as a `Request`; a msgspec `DecodeError` (a ValueError) for any other shape or for bad JSON. Lax
(`strict=False`) so that the timestamps, strings of digits, arrive as integers; a string that is no number still
fails, and the checked reading then says where."""

decode = msgspec.json.Decoder().decode
"""Any JSON text as Python values (arguments and results); a `DecodeError` (a ValueError) for what it refuses."""

__all__ = ["UNSET", "AnyValue", "KeyValue", "Request", "SpanRecord", "decode", "decode_request"]
