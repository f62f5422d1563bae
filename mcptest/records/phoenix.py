"""Agent runs from an Arize Phoenix project: `phoenix://host:port/project?start=...&end=...` in `traces:`.

The spans come through Phoenix's REST API (`GET /v1/projects/{project}/spans/otlpv1`: a project's spans as OTLP
JSON, newest first, a page of up to 1,000 at a time, filtered by start time) and are mapped as an OTLP file's are
(records/otlp.py): GenAI and OpenInference spans, one run per trace id or per `group_by` attribute.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any
from urllib.parse import parse_qsl, quote, urlencode, urlsplit

from mcptest.core.errors import Problem, UserError
from mcptest.records.otlp import OtlpImport, runs_of_requests

SCHEME = "phoenix://"
PAGE = 1000
MAX_SPANS = 1_000_000
TIMEOUT_S = 30.0
_LAST = re.compile(r"^(\d+(?:\.\d+)?)([smhd])$")
_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400}
_SPAN_KEYS = {
    "trace_id": "traceId",
    "span_id": "spanId",
    "parent_span_id": "parentSpanId",
    "start_time_unix_nano": "startTimeUnixNano",
    "end_time_unix_nano": "endTimeUnixNano",
}
_CAMEL = ("stringValue", "intValue", "doubleValue", "boolValue", "arrayValue", "kvlistValue", "bytesValue")
_VALUE_KEYS = {**{k: k for k in _CAMEL}, **{re.sub("([A-Z])", r"_\1", k).lower(): k for k in _CAMEL}}
"""An attribute value's key, in either spelling (Phoenix answers with protobuf's names: `string_value`)."""


@dataclass(frozen=True)
class PhoenixSource:
    """Where the spans are: Phoenix's base URL, the project (name or id), and the start-time window."""

    url: str
    base: str
    project: str
    start: datetime | None = None
    end: datetime | None = None


def is_phoenix(source: object) -> bool:
    """Whether a `traces:` entry names a Phoenix project rather than a file."""
    return isinstance(source, str) and source.startswith(SCHEME)


def parse_source(url: str, now: datetime | None = None) -> PhoenixSource:
    """`phoenix://host:port/project` with an optional window: `?start=ISO&end=ISO` (UTC unless the time says
    otherwise), or `?last=30m` (s, m, h, d back from now)."""
    parts = urlsplit(url)
    project = parts.path.strip("/")
    if parts.scheme != "phoenix" or not parts.netloc or not project or "/" in project:
        raise _problem(url, "expected phoenix://host:port/project (e.g. phoenix://localhost:6006/default)")
    params = dict(parse_qsl(parts.query, keep_blank_values=True))
    unknown = sorted(set(params) - {"start", "end", "last"})
    if unknown:
        raise _problem(url, f"unknown parameter {unknown[0]!r}: the window is start=ISO, end=ISO or last=30m")
    if "last" in params and ("start" in params or "end" in params):
        raise _problem(url, "give the window as last= or as start=/end=, not both")
    start, end = _time(url, params, "start"), _time(url, params, "end")
    if "last" in params:
        found = _LAST.match(params["last"])
        if found is None:
            raise _problem(url, f"last={params['last']!r}: expected a number and a unit, e.g. last=90s, 30m, 2h, 7d")
        start = (now or datetime.now(UTC)) - timedelta(seconds=float(found[1]) * _UNITS[found[2]])
    if start is not None and end is not None and end <= start:
        raise _problem(url, "the window ends before it starts (end= must be after start=)")
    return PhoenixSource(url, f"http://{parts.netloc}", project, start, end)


def load_phoenix(
    url: str, group_by: str | None = None, environ: Mapping[str, str] | None = None, now: datetime | None = None
) -> OtlpImport:
    """The agent runs of a Phoenix project's spans in the window, mapped as an OTLP file's (`load_otlp`).

    `PHOENIX_API_KEY` in `environ`, when set, is sent as a bearer token (a Phoenix with authentication on)."""
    source = parse_source(url, now)
    key = (os.environ if environ is None else environ).get("PHOENIX_API_KEY")
    headers = {"Accept": "application/json", **({"Authorization": f"Bearer {key}"} if key else {})}
    # Phoenix answers newest row first and keeps times to the microsecond: spans it stored in the same microsecond
    # (the calls of a recorded run, laid out nanoseconds apart) keep the order they reached it in.
    spans = list(_spans(source, headers))
    spans.reverse()
    spans.sort(key=_start)
    request = {"resourceSpans": [{"resource": {}, "scopeSpans": [{"spans": spans}]}]}
    return runs_of_requests([request], url, group_by, nothing=_window_words(source))


def _spans(source: PhoenixSource, headers: dict[str, str]) -> Iterator[dict[str, Any]]:
    """Every span of the window, page after page, in OTLP JSON's camelCase form."""
    query: dict[str, str] = {"limit": str(PAGE)}
    if source.start is not None:
        query["start_time"] = source.start.isoformat()
    if source.end is not None:
        query["end_time"] = source.end.isoformat()
    path = f"{source.base}/v1/projects/{quote(source.project, safe='')}/spans/otlpv1"
    count = 0
    while True:
        page = _get(source, f"{path}?{urlencode(query)}", headers)
        data = page.get("data") if isinstance(page, dict) else None
        if not isinstance(data, list):
            raise _problem(source.url, f"{source.base} answered without a `data` list: is it Phoenix's REST API?")
        for raw in data:
            if isinstance(raw, dict):
                yield _camel(raw)
        count += len(data)
        if count > MAX_SPANS:
            raise _problem(source.url, f"more than {MAX_SPANS:,} spans: narrow the window (start=, end= or last=)")
        cursor = page.get("next_cursor")
        if not cursor:
            return
        query["cursor"] = str(cursor)


def _get(source: PhoenixSource, url: str, headers: dict[str, str]) -> Any:
    import urllib.error
    import urllib.request

    try:
        with urllib.request.urlopen(urllib.request.Request(url, headers=headers), timeout=TIMEOUT_S) as answer:
            body = answer.read()
    except urllib.error.HTTPError as exc:
        with exc:  # its connection
            detail = exc.read(300).decode("utf-8", "replace").strip()
        if exc.code == 404:
            raise _problem(source.url, _no_project(source, headers)) from None
        raise _problem(source.url, f"Phoenix at {source.base} answered {exc.code} {exc.reason}: {detail}") from None
    except (urllib.error.URLError, OSError) as exc:
        reason = getattr(exc, "reason", exc)
        raise _problem(
            source.url, f"cannot reach Phoenix at {source.base}: {reason} (is `phoenix serve` running?)"
        ) from None
    try:
        return json.loads(body)
    except ValueError:
        raise _problem(source.url, f"{source.base} answered something other than JSON: is it Phoenix?") from None


def _no_project(source: PhoenixSource, headers: dict[str, str]) -> str:
    """Phoenix has no such project: the message names the projects it has, when it lists them."""
    message = f"Phoenix at {source.base} has no project {source.project!r}"
    try:
        listed = _get(source, f"{source.base}/v1/projects?limit=100", headers)
        names = sorted(str(p.get("name")) for p in listed.get("data", []) if isinstance(p, dict))
    except (UserError, AttributeError, TypeError):
        return message
    return f"{message} (its projects: {', '.join(names)})" if names else message


def _start(span: dict[str, Any]) -> int:
    try:
        return int(span.get("startTimeUnixNano") or 0)
    except (TypeError, ValueError):
        return 0  # the mapping reports the span's bad time where it reads it


def _camel(raw: dict[str, Any]) -> dict[str, Any]:
    """A span of Phoenix's answer (protobuf field names, unset fields as null) in OTLP JSON's camelCase form."""
    span = {_SPAN_KEYS.get(k, k): v for k, v in raw.items() if v is not None}
    attributes = span.get("attributes")
    if isinstance(attributes, list):
        span["attributes"] = [
            {"key": kv.get("key"), "value": _value(kv.get("value"))} if isinstance(kv, dict) else kv
            for kv in attributes
        ]
    return span


def _value(v: Any) -> Any:
    if not isinstance(v, dict):
        return v
    for key, inner in v.items():
        camel = _VALUE_KEYS.get(key)
        if camel is None or inner is None:
            continue
        if camel == "arrayValue" and isinstance(inner, dict):
            return {camel: {"values": [_value(x) for x in inner.get("values") or []]}}
        if camel == "kvlistValue" and isinstance(inner, dict):
            values = inner.get("values") or []
            return {camel: {"values": [{"key": kv.get("key"), "value": _value(kv.get("value"))} for kv in values]}}
        return {camel: inner}
    return {}


def _time(url: str, params: dict[str, str], key: str) -> datetime | None:
    if key not in params:
        return None
    try:
        when = datetime.fromisoformat(params[key])
    except ValueError:
        raise _problem(url, f"{key}={params[key]!r}: expected an ISO 8601 time, e.g. 2026-11-27T09:00:00Z") from None
    return when if when.tzinfo is not None else when.replace(tzinfo=UTC)


def _window_words(source: PhoenixSource) -> str:
    start = source.start.isoformat() if source.start else "its first span"
    end = source.end.isoformat() if source.end else "now"
    return f"project {source.project!r} has no spans from {start} to {end}"


def _problem(url: str, message: str) -> UserError:
    return UserError([Problem(url, 0, 0, message)])
