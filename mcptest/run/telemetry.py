"""The run as OpenTelemetry spans: a sink fed the finished run, exported through the official SDK.

Spans follow the OpenTelemetry GenAI and MCP semantic conventions (docs/telemetry.md has the mapping): a span for
the run, one per result row and one per gate block; each agent run its own trace (`invoke_agent`), with a
`chat {model}` span per model turn and an MCP client span `tools/call {tool}` per tool call, built from the
recorded run and marked `mcptest.replayed` when it was not run live. Contents (prompt, answer, arguments,
results, the catalog) only when asked for, always with the run's secrets masked.

While the run runs, `LiveTelemetry` is the sessions' request hook (`mcptest.server.tracing`): every MCP request
a tool, resource or prompt test sends gets its own client span, timed as it ran, under its test's span, and its
trace context goes to the server in the request's `params._meta`; so do the tool calls of a live agent run, under
its `invoke_agent` span (the ids chosen at its first request), whose other spans are built at the end around them.
A run that exports nothing installs no hook.

The SDK is imported only here and only when an export was asked for. Exporting never changes a verdict: the
spans are sent once, at the end, bounded by `FLUSH_S`; a failure is one warning.
"""

from __future__ import annotations

import contextlib
import json
import random
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from contextvars import ContextVar
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any

from mcptest import __version__
from mcptest.core.redact import redact_data
from mcptest.records.report import Report, Status, TestResult
from mcptest.records.trace import Trace
from mcptest.server.tracing import AgentRunScope, RequestInfo, current_agent_run

if TYPE_CHECKING:
    from opentelemetry.sdk.trace import ReadableSpan
    from opentelemetry.trace import Span, Tracer

FLUSH_S = 2.0
"""The longest an export may delay the end of a run."""
PROTOCOLS = ("http/protobuf",)
SCOPE = "mcptest"


@dataclass
class AgentRunSet:
    """The runs of one agent test as the run judged them, and how they came about."""

    test: str
    model: str | None
    mode: str
    """`recorded` (trace files, inline calls), `replay` (a cassette), `record` or `scripted` (run now)."""
    traces: list[Trace] = field(default_factory=list)
    scopes: list[AgentRunScope] = field(default_factory=list)
    """Of live runs, each run's tracing scope (parallel to `traces`): its live request spans; else empty."""

    @property
    def replayed(self) -> bool:
        """Built from recorded data rather than observed as it ran."""
        return self.mode in ("recorded", "replay")


@dataclass
class ExportTarget:
    """Where the spans go: an OTLP/HTTP endpoint (URL of the traces path), an OTLP JSON file, or both."""

    endpoint: str | None = None
    file: str | None = None
    content: bool = False
    headers: dict[str, str] = field(default_factory=dict)


def export_target(
    endpoint: str | None, file: str | None, content: bool, environ: Mapping[str, str]
) -> ExportTarget | None:
    """The export `mcptest run` was asked for: the flags, else the standard `OTEL_EXPORTER_OTLP_*` variables.

    Raises ValueError (a usage problem) for a protocol this exporter does not speak."""
    if environ.get("OTEL_SDK_DISABLED", "").lower() == "true" and endpoint is None and file is None:
        return None
    url = endpoint
    if url is not None:
        url = url.rstrip("/") + "/v1/traces" if not url.rstrip("/").endswith("/v1/traces") else url
    elif environ.get("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"):
        url = environ["OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"]
    elif environ.get("OTEL_EXPORTER_OTLP_ENDPOINT"):
        url = environ["OTEL_EXPORTER_OTLP_ENDPOINT"].rstrip("/") + "/v1/traces"
    if url is None and file is None:
        return None
    if url is not None:
        protocol = environ.get("OTEL_EXPORTER_OTLP_TRACES_PROTOCOL") or environ.get(
            "OTEL_EXPORTER_OTLP_PROTOCOL", "http/protobuf"
        )
        if protocol not in PROTOCOLS:
            raise ValueError(
                f"OTEL_EXPORTER_OTLP_PROTOCOL={protocol!r}: mcptest exports OTLP over {', '.join(PROTOCOLS)} "
                "(set it to http/protobuf, or point a collector's OTLP/HTTP receiver at the run)"
            )
    return ExportTarget(endpoint=url, file=file, content=content)


_TEST_SPAN: ContextVar[Any] = ContextVar("mcptest_test_span", default=None)
"""The OpenTelemetry context of the test whose requests are being sent (each test runs in its own task)."""


class LiveTelemetry:
    """The run's tracer from its start: the request hook of its sessions, then the builder of the other spans.

    The run's and each test's span ids are chosen when the run and the test start, so the request spans made
    meanwhile are their children; the run and test spans themselves are built at the end, from the report,
    with those ids.
    """

    def __init__(self, target: ExportTarget) -> None:
        # The OpenTelemetry API only: the mcp SDK has imported it already.
        from opentelemetry import trace
        from opentelemetry.trace import NonRecordingSpan, SpanContext, SpanKind, TraceFlags

        self.target = target
        self.secrets: set[str] = set()
        """The run's secrets, masked in any content a span carries (set by the runner once it knows them)."""
        self.ids = _PresetIds()
        self.collected = _Collector()
        # What each request and test uses, looked up once (a `from ... import` in a function costs each call).
        self._start_span: Any = self._first_start_span  # the tracer's own once the SDK is ready
        self._client = SpanKind.CLIENT
        self._in_context = trace.set_span_in_context
        self._span_context = SpanContext
        self._non_recording = NonRecordingSpan
        self._sampled = TraceFlags(TraceFlags.SAMPLED)
        self.trace_id = self.ids.generate_trace_id()
        self.run_span_id = self.ids.generate_span_id()
        self.test_span_ids: dict[str, int] = {}
        self.test_times: dict[str, tuple[int, int]] = {}
        """When each test ran (ns since the epoch), for its span: the report has durations only."""
        self._provider: Any = None
        self._tracer: Any = None
        self._failed: BaseException | None = None
        # The SDK (importing it is most of a run's export cost, ~25 ms of CPU) is imported and its provider made on
        # a thread of its own, while the run starts its servers and waits on them; the first span waits for it.
        self._preparing: threading.Thread | None = threading.Thread(
            target=self._prepare, name="mcptest-otel-sdk", daemon=True
        )
        self._preparing.start()

    def _prepare(self) -> None:
        """Import the SDK and make the tracer provider (on the preparing thread)."""
        try:
            from opentelemetry.sdk.resources import Resource
            from opentelemetry.sdk.trace import TracerProvider

            provider = TracerProvider(
                resource=Resource.create({"service.name": "mcptest", "service.version": __version__}),
                id_generator=self.ids,  # type: ignore[arg-type]  # duck-typed: the SDK is imported only here, lazily
            )
            provider.add_span_processor(self.collected)  # type: ignore[arg-type]
            self._tracer = provider.get_tracer(SCOPE, __version__)
            self._provider = provider
        except BaseException as exc:  # raised where the SDK is first needed
            self._failed = exc

    def _ready(self) -> None:
        """Wait for the SDK (`_prepare`): at the first span, then at no cost."""
        if self._preparing is not None:
            self._preparing.join()
            self._preparing = None
            if self._failed is not None:
                raise self._failed
            self._start_span = self._tracer.start_span

    def _first_start_span(self, *args: Any, **kwargs: Any) -> Any:
        self._ready()
        return self._start_span(*args, **kwargs)

    @property
    def provider(self) -> Any:
        """The SDK's tracer provider, whose span processor is `collected`."""
        self._ready()
        return self._provider

    @property
    def tracer(self) -> Tracer:
        """The SDK's tracer of mcptest's spans."""
        self._ready()
        return self._tracer  # type: ignore[no-any-return]

    @contextlib.contextmanager
    def test(self, name: str) -> Iterator[None]:
        """The requests sent meanwhile (in this task) belong to test `name`."""
        span_id = self.test_span_ids.setdefault(name, self.ids.generate_span_id())
        parent = self._span_context(self.trace_id, span_id, is_remote=False, trace_flags=self._sampled)
        token = _TEST_SPAN.set(self._in_context(self._non_recording(parent)))
        start = time.time_ns()
        try:
            yield
        finally:
            _TEST_SPAN.reset(token)
            self.test_times.setdefault(name, (start, time.time_ns()))

    def begin(self, request: RequestInfo) -> tuple[Any, dict[str, str]]:
        """A client span for the request (`{mcp.method.name} {target}`), and its W3C trace context to send."""
        parent = _TEST_SPAN.get()
        scope = current_agent_run() if parent is None else None
        if parent is None:
            if scope is None:  # outside any test or agent run (the coverage listings at the end)
                return None, {}
            parent = self._agent_parent(scope)
        params, method = request.params, request.method
        name = params.get("name") if method in ("tools/call", "prompts/get") else None

        attrs: dict[str, Any] = {
            "mcp.method.name": method,
            "mcptest.server": request.server,
            "network.transport": request.transport,
        }
        if request.request_id is not None:
            attrs["jsonrpc.request.id"] = str(request.request_id)
        if request.session_id is not None:
            attrs["mcp.session.id"] = request.session_id
        if request.protocol_version is not None:
            attrs["mcp.protocol.version"] = request.protocol_version
        if method == "tools/call":
            attrs["gen_ai.operation.name"] = "execute_tool"
            if isinstance(name, str):
                attrs["gen_ai.tool.name"] = name
            if self.target.content and "arguments" in params:
                attrs["gen_ai.tool.call.arguments"] = _masked(params["arguments"], self.secrets)
        elif method == "prompts/get" and isinstance(name, str):
            attrs["gen_ai.prompt.name"] = name
        if isinstance(uri := params.get("uri"), str):
            attrs["mcp.resource.uri"] = uri
        span_name = f"{method} {name}" if isinstance(name, str) else method
        span = self._start_span(span_name, context=parent, kind=self._client, attributes=attrs)
        if scope is not None and method == "tools/call" and isinstance(name, str):
            scope.called.append((request.server, name, span.start_time or time.time_ns()))  # type: ignore[attr-defined]
        return span, _trace_context(span.get_span_context())

    def _agent_parent(self, scope: AgentRunScope) -> Any:
        """The context of the live agent run's root span (`invoke_agent`, built at the end with these ids): each
        run is its own trace, as the GenAI conventions have it."""
        from opentelemetry import trace
        from opentelemetry.trace import NonRecordingSpan, SpanContext, TraceFlags

        if scope.ids is None:
            scope.ids = (self.ids.generate_trace_id(), self.ids.generate_span_id())
        trace_id, span_id = scope.ids
        root = SpanContext(trace_id, span_id, is_remote=False, trace_flags=TraceFlags(TraceFlags.SAMPLED))
        return trace.set_span_in_context(NonRecordingSpan(root))

    def end(self, token: Any, result: Any, error: BaseException | None) -> None:
        """End the request's span: `error.type` is the JSON-RPC error code, `tool_error` for an `isError` result."""
        if token is None:
            return
        span: Span = token
        if error is not None or (isinstance(result, dict) and result.get("isError") is True):
            from opentelemetry.trace import StatusCode
        if error is not None:
            code = getattr(getattr(error, "error", None), "code", None)
            kind = str(code) if isinstance(code, int) else type(error).__qualname__
            span.set_attribute("error.type", kind)
            if isinstance(code, int):
                span.set_attribute("rpc.response.status_code", kind)
            span.set_status(StatusCode.ERROR, str(error)[:200])
        elif isinstance(result, dict) and result.get("isError") is True:
            span.set_attribute("error.type", "tool_error")
            span.set_status(StatusCode.ERROR)
        has_result = isinstance(result, dict) and ("content" in result or "structuredContent" in result)
        if error is None and self.target.content and has_result:
            span.set_attribute("gen_ai.tool.call.result", _masked(result, self.secrets))
        span.end()


class _PresetIds:
    """Random ids, except the next ones asked for when preset (the run's and tests' spans, chosen early). Random ids
    are drawn as the SDK's `RandomIdGenerator` draws them (any but the invalid 0), without importing the SDK: the
    run's and tests' ids are chosen before it is ready."""

    def __init__(self) -> None:
        self.next_trace: list[int] = []
        self.next_span: list[int] = []

    def generate_trace_id(self) -> int:
        if self.next_trace:
            return self.next_trace.pop()
        while not (trace_id := random.getrandbits(128)):
            pass
        return trace_id

    def generate_span_id(self) -> int:
        if self.next_span:
            return self.next_span.pop()
        while not (span_id := random.getrandbits(64)):
            pass
        return span_id

    def is_trace_id_random(self) -> bool:
        """Its random ids are uniformly random, as the SDK's are."""
        return True


def _trace_context(ctx: Any) -> dict[str, str]:
    """The W3C trace context of a span, as the SDK's `TraceContextTextMapPropagator().inject` writes it (the same
    `traceparent`, and `tracestate` when the span has one; nothing for an invalid one, such as a disabled SDK's),
    without its per-call context and setter machinery."""
    if not ctx.is_valid:
        return {}
    carrier = {"traceparent": f"00-{ctx.trace_id:032x}-{ctx.span_id:016x}-{ctx.trace_flags:02x}"}
    if ctx.trace_state:
        carrier["tracestate"] = ctx.trace_state.to_header()
    return carrier


def _masked(value: Any, secrets: set[str]) -> str:
    masked = redact_data(value, secrets)
    return masked if isinstance(masked, str) else json.dumps(masked, ensure_ascii=False)


def export_run(report: Report, agent_runs: Sequence[AgentRunSet], live: LiveTelemetry, secrets: set[str]) -> str | None:
    """Send the run's spans (the requests' already made, the rest built now); None when every destination took
    them, else the one warning to print."""
    target = live.target
    _Builder(live, target.content, secrets).run(report, agent_runs)
    live.provider.shutdown()
    collected = live.collected
    problems = []
    if target.file is not None:
        try:
            write_otlp_json(collected.spans, target.file)
        except OSError as exc:
            problems.append(f"could not write {target.file}: {exc.strerror or exc}")
    if target.endpoint is not None and (failed := _send(collected.spans, target)) is not None:
        problems.append(failed)
    return f"OpenTelemetry export: {'; '.join(problems)} (the run's verdict is unchanged)" if problems else None


class _Collector:
    """The provider's span processor: it keeps each ended span (a sampled one, as the SDK's processors do), so they
    are encoded once, at the end. The SDK's SimpleSpanProcessor in front of an exporter that kept them did the
    same, plus a context attach and detach and a metrics record per span."""

    def __init__(self) -> None:
        self.spans: list[ReadableSpan] = []

    def on_start(self, span: Any, parent_context: Any = None) -> None:
        """Nothing to do when a span starts."""

    def _on_ending(self, span: Any) -> None:
        """Nothing to do as a span ends (the SDK's processors have this hook too)."""

    def on_end(self, span: ReadableSpan) -> None:
        if span.context and span.context.trace_flags.sampled:
            self.spans.append(span)

    def shutdown(self) -> None:
        """Nothing to release."""

    def force_flush(self, timeout_millis: int = 30000) -> bool:
        """Nothing is buffered."""
        return True


def _send(spans: Sequence[ReadableSpan], target: ExportTarget) -> str | None:
    """POST the spans as OTLP/HTTP protobuf through the official exporter, bounded by FLUSH_S."""
    from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
    from opentelemetry.sdk.trace.export import SpanExportResult

    exporter = OTLPSpanExporter(endpoint=target.endpoint, timeout=FLUSH_S, headers=target.headers or None)
    outcome: list[Any] = []

    def send() -> None:
        try:
            outcome.append(exporter.export(spans))
        except Exception as exc:  # the exporter's own failure is a warning, never the run's
            outcome.append(exc)

    worker = threading.Thread(target=send, name="mcptest-otlp-export", daemon=True)
    worker.start()
    worker.join(FLUSH_S + 0.5)
    if not outcome:
        return f"{target.endpoint} did not answer within {FLUSH_S:g}s"
    if outcome[0] is SpanExportResult.SUCCESS:
        return None
    why = f": {outcome[0]}" if isinstance(outcome[0], Exception) else ""
    return f"{target.endpoint} did not take the spans{why}"


def otlp_json(spans: Sequence[ReadableSpan]) -> dict[str, Any]:
    """The spans as one ExportTraceServiceRequest in OTLP JSON (the protobuf JSON mapping with ids in hex, as the
    OTLP spec says for JSON), built straight from the SDK's spans: protobuf's MessageToDict over the official
    encoding took most of the export's CPU time (benchmarks/otel.py)."""
    by_resource: dict[int, tuple[Any, dict[tuple[str, str | None], list[dict[str, Any]]]]] = {}
    for span in spans:
        _, scopes = by_resource.setdefault(id(span.resource), (span.resource, {}))
        scope = span.instrumentation_scope
        key = (scope.name, scope.version) if scope is not None else ("", None)
        scopes.setdefault(key, []).append(_span_json(span))
    return {
        "resourceSpans": [
            {
                "resource": {"attributes": _attrs_json(resource.attributes)},
                "scopeSpans": [
                    {"scope": {"name": name, **({"version": version} if version else {})}, "spans": out}
                    for (name, version), out in scopes.items()
                ],
            }
            for resource, scopes in by_resource.values()
        ]
    }


def _span_json(span: ReadableSpan) -> dict[str, Any]:
    ctx = span.get_span_context()
    assert ctx is not None
    out: dict[str, Any] = {"traceId": f"{ctx.trace_id:032x}", "spanId": f"{ctx.span_id:016x}"}
    if span.parent is not None:
        out["parentSpanId"] = f"{span.parent.span_id:016x}"
    out["name"] = span.name
    kind = span.kind
    number = _KIND_NUMBERS.get(kind)  # an enum's `.value` is a Python-level property: looked up once a kind
    if number is None:
        number = _KIND_NUMBERS[kind] = kind.value + 1  # the SDK counts INTERNAL from 0, OTLP from 1 (0 is UNSPECIFIED)
    out["kind"] = number
    out["startTimeUnixNano"] = str(span.start_time)
    out["endTimeUnixNano"] = str(span.end_time)
    if span.attributes:
        out["attributes"] = _attrs_json(span.attributes)
    if span.events:
        out["events"] = [
            {"timeUnixNano": str(e.timestamp), "name": e.name, "attributes": _attrs_json(e.attributes or {})}
            for e in span.events
        ]
    if span.links:
        out["links"] = [
            {
                "traceId": f"{link.context.trace_id:032x}",
                "spanId": f"{link.context.span_id:016x}",
                **({"attributes": _attrs_json(link.attributes)} if link.attributes else {}),
            }
            for link in span.links
        ]
    status_code = span.status.status_code
    code = _CODE_NUMBERS.get(status_code)
    if code is None:
        code = _CODE_NUMBERS[status_code] = status_code.value
    out["status"] = {"code": code, **({"message": span.status.description} if span.status.description else {})}
    if not code:
        out["status"] = {}
    return out


_KIND_NUMBERS: dict[Any, int] = {}
_CODE_NUMBERS: dict[Any, int] = {}


def _attrs_json(attrs: Mapping[str, Any]) -> list[dict[str, Any]]:
    return [
        {"key": k, "value": {"stringValue": v} if type(v) is str else _any_value(v)}  # strings, most values: inline
        for k, v in attrs.items()
    ]


def _any_value(v: Any) -> dict[str, Any]:
    """An attribute value as an OTLP AnyValue in JSON (int64 as a string, as protobuf's JSON mapping writes it)."""
    if isinstance(v, bool):
        return {"boolValue": v}
    if isinstance(v, int):
        return {"intValue": str(v)}
    if isinstance(v, float):
        return {"doubleValue": v}
    if isinstance(v, str):
        return {"stringValue": v}
    if isinstance(v, bytes):
        import base64

        return {"bytesValue": base64.b64encode(v).decode()}
    return {"arrayValue": {"values": [_any_value(x) for x in v]}}


def write_otlp_json(spans: Sequence[ReadableSpan], path: str) -> None:
    """Write the spans as the collector's file exporter does (one JSON line), atomically."""
    from mcptest.core.atomic import atomic_write_text

    atomic_write_text(path, json.dumps(otlp_json(spans), ensure_ascii=False, separators=(",", ":")) + "\n")


def _nanos(moment: datetime) -> int:
    return int(moment.timestamp() * 1_000_000_000)


class _Builder:
    """Builds the spans of one finished run with their recorded times."""

    def __init__(self, live: LiveTelemetry, content: bool, secrets: set[str]) -> None:
        self.live = live
        self.tracer: Tracer = live.tracer
        self.content = content
        self.secrets = secrets

    def _text(self, value: Any) -> str:
        masked = redact_data(value, self.secrets)
        return masked if isinstance(masked, str) else json.dumps(masked, ensure_ascii=False, sort_keys=False)

    def run(self, report: Report, agent_runs: Sequence[AgentRunSet]) -> None:
        from opentelemetry import trace
        from opentelemetry.context import Context
        from opentelemetry.trace import SpanKind

        start = _nanos(datetime.fromisoformat(report.started_at))
        end = start + int(report.duration_ms * 1e6)
        s = report.summary
        attrs: dict[str, Any] = {
            "mcptest.suite": report.suite,
            "mcptest.ok": s.ok,
            "mcptest.tests.total": s.total,
            "mcptest.tests.passed": s.passed,
            "mcptest.tests.failed": s.failed,
            "mcptest.tests.skipped": s.skipped,
            "mcptest.gates.total": s.gates.total,
            "mcptest.gates.failed": s.gates.failed,
        }
        self.live.ids.next_trace.append(self.live.trace_id)
        self.live.ids.next_span.append(self.live.run_span_id)
        root = self.tracer.start_span(
            "mcptest run", context=Context(), kind=SpanKind.INTERNAL, start_time=start, attributes=attrs
        )
        _status(root, s.ok, "the run failed")
        ctx = trace.set_span_in_context(root)
        at = start
        by_test: dict[str, list[AgentRunSet]] = {}
        for runs in agent_runs:
            by_test.setdefault(runs.test, []).append(runs)
        test_spans: dict[str, Span] = {}
        for result in report.results:
            if result.name not in test_spans and (preset := self.live.test_span_ids.get(result.name)) is not None:
                self.live.ids.next_span.append(preset)  # the id its request spans already name as their parent
            span = self._test(result, ctx, at, self.live.test_times.get(result.name))
            test_spans.setdefault(result.name, span)
            at += int(result.duration_ms * 1e6)
        for gate in report.gates:
            g_attrs: dict[str, Any] = {
                "mcptest.test.name": gate.test,
                "mcptest.gate.block": gate.block,
                "mcptest.gate.status": gate.status.value,
                "mcptest.gate.runs": gate.runs,
                **({"gen_ai.request.model": gate.model} if gate.model else {}),
                **{f"mcptest.gate.{k}": v for k, v in gate.targets.items() if v is not None},
            }
            span = self.tracer.start_span(f"gate {gate.block}", context=ctx, start_time=end, attributes=g_attrs)
            _status(span, gate.status != Status.FAILED, f"gate {gate.block} failed")
            span.end(end_time=end)
        for runs in agent_runs:
            link = test_spans.get(runs.test)
            for i, t in enumerate(runs.traces):
                self._agent(runs, i, t, start, link)
        root.end(end_time=max(end, at))

    def _test(self, result: TestResult, ctx: Any, at: int, ran: tuple[int, int] | None) -> Span:
        attrs: dict[str, Any] = {
            "mcptest.test.name": result.name,
            "mcptest.test.kind": result.kind,
            "mcptest.test.status": result.status.value,
            "mcptest.test.file": result.file,
            "mcptest.test.line": result.line,
            **({"mcptest.server": result.server} if result.server else {}),
            **({"gen_ai.tool.name": result.tool} if result.tool else {}),
            **({"gen_ai.request.model": result.model} if result.model else {}),
            **({"mcptest.run.index": result.run} if result.run else {}),
            **{f"mcptest.target.{k}": v for k, v in result.targets.items() if v is not None},
        }
        if result.error:
            attrs["error.type"] = "mcptest.test_error"
        start, end = ran or (at, at + int(result.duration_ms * 1e6))  # as it ran, else laid out in report order
        span = self.tracer.start_span(f"test {result.name}", context=ctx, start_time=start, attributes=attrs)
        for j in result.judgements:
            self._evaluation(span, j.target, j.score, j.passed, j.reason, start)
        _status(span, result.status != Status.FAILED, (result.error or "assertions failed")[:200])
        span.end(end_time=end)
        return span

    def _evaluation(self, span: Span, name: str, score: float | None, passed: bool, reason: str, at: int) -> None:
        attrs: dict[str, Any] = {
            "gen_ai.evaluation.name": name,
            "gen_ai.evaluation.score.label": "pass" if passed else "fail",
        }
        if score is not None:
            attrs["gen_ai.evaluation.score.value"] = score
        if self.content:
            attrs["gen_ai.evaluation.explanation"] = self._text(reason)
        span.add_event("gen_ai.evaluation.result", attributes=attrs, timestamp=at)

    def _agent(self, runs: AgentRunSet, index: int, t: Trace, start: int, test_span: Span | None) -> None:
        from opentelemetry import trace
        from opentelemetry.context import Context
        from opentelemetry.trace import Link, SpanKind

        from mcptest.providers import provider_of

        model = t.model or runs.model
        provider = provider_of(model, None) if model else None
        attrs: dict[str, Any] = {
            "gen_ai.operation.name": "invoke_agent",
            "gen_ai.agent.name": runs.test,
            "mcptest.test.name": runs.test,
            "mcptest.run.index": index + 1,
            "mcptest.run.mode": runs.mode,
            "mcptest.replayed": runs.replayed,
            **({"gen_ai.request.model": model} if model else {}),
            **({"gen_ai.provider.name": provider} if provider else {}),
            **({"mcptest.turns": t.turns} if t.turns is not None else {}),
            **({"mcptest.cost_usd": t.cost_usd} if t.cost_usd is not None else {}),
            **({"mcptest.error": t.error} if t.error else {}),
        }
        if t.tokens is not None:
            attrs["mcptest.usage.total_tokens"] = t.tokens.total
            if t.tokens.input is not None:
                attrs["gen_ai.usage.input_tokens"] = t.tokens.input
            if t.tokens.output is not None:
                attrs["gen_ai.usage.output_tokens"] = t.tokens.output
        if self.content:
            if t.prompt is not None:
                attrs["gen_ai.input.messages"] = self._text([_message("user", t.prompt)])
            if t.final_response is not None:
                attrs["gen_ai.output.messages"] = self._text([_message("assistant", t.final_response)])
            if t.catalog is not None:
                attrs["mcptest.catalog"] = self._text([c.model_dump(mode="json") for c in t.catalog])
            if t.user_turns is not None:
                attrs["mcptest.user_turns"] = self._text([u.model_dump(mode="json") for u in t.user_turns])
        links = [Link(test_span.get_span_context())] if test_span is not None else []
        name = f"invoke_agent {runs.test}"
        scope = runs.scopes[index] if index < len(runs.scopes) else None
        if scope is not None:
            start = scope.started_ns
            if scope.ids is not None:  # the ids its live request spans already name as their trace and parent
                self.live.ids.next_trace.append(scope.ids[0])
                self.live.ids.next_span.append(scope.ids[1])
        root = self.tracer.start_span(
            name, context=Context(), kind=SpanKind.INTERNAL, start_time=start, attributes=attrs, links=links
        )
        ctx = trace.set_span_in_context(root)
        # A recorded run keeps the order of its calls, not when each model turn happened: the first model turn
        # comes first, then the calls in order, then the other turns, one microsecond a turn. A live run's calls
        # that reached a server already have their spans, timed as they ran; the others (an unknown tool, a call
        # the server could not be reached for) are built like a recorded run's, just after the live call before
        # them, so the calls keep their order.
        traced = list(scope.called) if scope is not None else []
        at = start
        turns = t.turns or 0
        at = self._chat(model, provider, ctx, at) if turns else at
        for call in t.tool_calls:
            key = (call.server or "", call.name)
            match = next((j for j, (server, tool, _) in enumerate(traced) if (server, tool) == key), None)
            if match is not None:
                at = max(at, traced.pop(match)[2] + 1)  # its live span is there
                continue
            at = self._call(call, ctx, at)
        for _ in range(turns - 1):
            at = self._chat(model, provider, ctx, at)
        for judgement in t.judgements or []:
            self._evaluation(root, judgement.target, judgement.score, judgement.passed, judgement.reason, at)
        _status(root, t.error is None, (t.error or "")[:200])
        root.end(end_time=max(at + 1000, scope.ended_ns if scope is not None else 0))

    def _chat(self, model: str | None, provider: str | None, ctx: Any, at: int) -> int:
        from opentelemetry.trace import SpanKind

        attrs = {
            "gen_ai.operation.name": "chat",
            **({"gen_ai.request.model": model} if model else {}),
            **({"gen_ai.provider.name": provider} if provider else {}),
        }
        name = f"chat {model}" if model else "chat"
        self.tracer.start_span(name, context=ctx, kind=SpanKind.CLIENT, start_time=at, attributes=attrs).end(
            end_time=at + 1000
        )
        return at + 1000

    def _call(self, call: Any, ctx: Any, at: int) -> int:
        from opentelemetry.trace import SpanKind

        attrs: dict[str, Any] = {
            "mcp.method.name": "tools/call",
            "gen_ai.operation.name": "execute_tool",
            "gen_ai.tool.name": call.name,
            **({"mcptest.server": call.server} if call.server else {}),
            **({"mcptest.unknown_tool": True} if call.unknown_tool else {}),
        }
        if call.is_error:
            attrs["error.type"] = "tool_error"
        if self.content:
            attrs["gen_ai.tool.call.arguments"] = (
                self._text(call.args) if not call.unparseable_arguments else self._text(str(call.args))
            )
            result: dict[str, Any] = {"content": call.content, "isError": call.is_error}
            if call.structured_content is not None:
                result["structuredContent"] = call.structured_content
            attrs["gen_ai.tool.call.result"] = self._text(result)
        span = self.tracer.start_span(
            f"tools/call {call.name}", context=ctx, kind=SpanKind.CLIENT, start_time=at, attributes=attrs
        )
        end = at + round(call.latency_ms * 1e6) if call.latency_ms is not None else at  # none recorded: 0
        _status(span, not call.is_error, "tool_error")
        span.end(end_time=end)
        return end


def _message(role: str, text: str) -> dict[str, Any]:
    return {"role": role, "parts": [{"type": "text", "content": text}]}


def _status(span: Span, ok: bool, why: str) -> None:
    if not ok:
        from opentelemetry.trace import Status as OtelStatus
        from opentelemetry.trace import StatusCode

        span.set_status(OtelStatus(StatusCode.ERROR, why))
