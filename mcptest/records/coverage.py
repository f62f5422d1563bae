"""Coverage: what a run reached of each server's catalog, and the Report's `coverage` section.

Two halves, both pure:

- `Tally` counts what a run did, call by call. Every kind of run that calls a server feeds it through one of
  four methods: `tool_call(server, tool, args, is_error=...)`, `resource_read(server, uri, template=None)`,
  `prompt_get(server, name, args)`, and `trace(trace)` for an agent run (live or replayed).
- `measure(server, tally, tools=..., resources=..., templates=..., prompts=...)` lays a tally over one server's
  catalog (wire-form listings) and gives its `ServerCoverage`: per-item detail and figures (integer percents
  rounded half up by `core.stats.percent`, with the exact counts beside them). `merge_coverage` unions the
  detail of shard reports and recounts, so a merged figure is exact (never an average).

Figures are recounted from the detail (`figures_of`), so a saved report can be merged and re-gated.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict, Field, field_serializer

from mcptest.core.stats import percent
from mcptest.expect.assertions import Assertion, check, resolve

if TYPE_CHECKING:
    from mcptest.records.report import GateReport
    from mcptest.records.trace import Trace

FIGURES = ("tools", "tools_succeeding", "tools_failing", "arguments", "required_arguments", "enums", "resources",
           "templates", "prompts")  # fmt: skip
"""The figures of a server, in the order they are shown; each is the gate target `coverage.NAME`."""

_LONGEST_VALUE = 200
"""Values longer than this (as JSON) are not kept for enum matching: no enum value is that long in practice."""


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Figure(_Model):
    """One coverage figure: `covered` of `total`, and the integer percent (null when the catalog has none)."""

    percent: int | None = Field(description="round-half-up percent of covered/total; null when total is 0.")
    covered: int
    total: int


class ArgumentCoverage(_Model):
    """One property of a tool's inputSchema."""

    required: bool = Field(False, description="Listed in the schema's `required`.")
    supplied: bool = Field(False, description="Some counted call gave it a value.")
    enum: list[Any] | None = Field(None, description="The property's `enum` (or its array items' `enum`), if any.")
    enum_sent: list[Any] = Field(default_factory=list, description="The enum values some counted call sent.")


class ToolCoverage(_Model):
    """One tool of the catalog: whether it was called, seen succeeding and failing, and its arguments."""

    succeeded: bool = Field(False, description="Some counted call returned a result without `isError`.")
    failed: bool = Field(False, description="Some counted call returned a result with `isError: true`.")
    arguments: dict[str, ArgumentCoverage] = Field(default_factory=dict, description="Per inputSchema property.")

    @property
    def called(self) -> bool:
        """The tool was called and answered (with or without isError)."""
        return self.succeeded or self.failed


class PromptCoverage(_Model):
    """One prompt of the catalog: rendered with arguments, without, or never."""

    arguments: int = Field(0, description="How many arguments the prompt declares.")
    with_arguments: bool = Field(False, description="Rendered with at least one argument.")
    without_arguments: bool = Field(False, description="Rendered with no argument.")

    @property
    def rendered(self) -> bool:
        """Rendered at all."""
        return self.with_arguments or self.without_arguments


class ServerCoverage(_Model):
    """What a run reached of one server's catalog."""

    server: str
    figures: dict[str, Figure] = Field(description="Per figure name (`tools`, `arguments`, ...).")
    tools: dict[str, ToolCoverage] = Field(default_factory=dict)
    resources: dict[str, bool] = Field(default_factory=dict, description="Static resource URI -> read.")
    templates: dict[str, bool] = Field(default_factory=dict, description="Resource template -> filled and read.")
    prompts: dict[str, PromptCoverage] = Field(default_factory=dict)
    unlisted: list[str] = Field(
        default_factory=list, description="Tools called that the catalog does not list (not counted in the figures)."
    )

    def targets(self) -> dict[str, int | None]:
        """The gate targets `coverage.NAME` -> percent."""
        return {f"coverage.{name}": f.percent for name, f in self.figures.items()}

    def missing(self) -> dict[str, list[str]]:
        """What was never reached, per figure name (only the non-empty ones)."""
        tools = self.tools.items()
        found = {
            "tools": [n for n, t in tools if not t.called],
            "tools_succeeding": [n for n, t in tools if not t.succeeded],
            "tools_failing": [n for n, t in tools if not t.failed],
            "arguments": [f"{n}.{a}" for n, t in tools for a, c in t.arguments.items() if not c.supplied],
            "required_arguments": [
                f"{n}.{a}" for n, t in tools for a, c in t.arguments.items() if c.required and not c.supplied
            ],
            "enums": [
                f"{n}.{a}={_text(v)}"
                for n, t in tools
                for a, c in t.arguments.items()
                for v in c.enum or []
                if not _among(v, c.enum_sent)
            ],
            "resources": [u for u, read in self.resources.items() if not read],
            "templates": [u for u, filled in self.templates.items() if not filled],
            "prompts": [n for n, p in self.prompts.items() if not p.rendered],
        }
        return {k: v for k, v in found.items() if v}


class GateSpec(_Model):
    """A suite's `coverage:` entry, kept in the report so `report merge` judges it again on the merged figures."""

    server: str
    file: str
    line: int
    expect: list[Assertion] = Field(description="The entry's assertions, as the suite writes them.")

    @field_serializer("expect")
    def _as_written(self, expect: list[Assertion]) -> list[dict[str, Any]]:
        return [a.model_dump(mode="json", by_alias=True, exclude_none=True) for a in expect]


class Coverage(_Model):
    """The Report's `coverage` section: per server, what the run reached of its catalog."""

    servers: list[ServerCoverage] = Field(default_factory=list)
    gates: list[GateSpec] = Field(
        default_factory=list, description="The suite's `coverage:` gates, judged into the report's `gates`."
    )
    counted: int = Field(0, description="Tool, resource, prompt and agent tests that ran: what they reached counts.")
    not_counted: int = Field(
        0,
        description="Tests of the suite that did not run (filtered out, sharded away, stopped by -x, skipped): "
        "what they would have reached is not counted.",
    )
    notes: list[str] = Field(default_factory=list, description="Servers whose catalog could not be read, ...")

    def server(self, name: str) -> ServerCoverage | None:
        """The coverage of server `name`, if measured."""
        return next((s for s in self.servers if s.server == name), None)


@dataclass
class _ToolSeen:
    succeeded: bool = False
    failed: bool = False
    values: dict[str, set[str]] = field(default_factory=dict)
    """Argument name -> the values sent (canonical JSON; array arguments also element by element)."""


@dataclass
class Tally:
    """What a run did, call by call, before any catalog is read. Cheap to feed: sets and dicts only."""

    tools: dict[tuple[str, str], _ToolSeen] = field(default_factory=dict)
    resources: dict[str, set[str]] = field(default_factory=dict)
    """Server -> URIs read."""
    templates: dict[str, set[str]] = field(default_factory=dict)
    """Server -> templates a test filled by name."""
    prompts: dict[tuple[str, str], set[bool]] = field(default_factory=dict)
    """(server, prompt) -> whether each rendering had arguments."""
    trace_catalogs: dict[str, dict[str, dict[str, Any]]] = field(default_factory=dict)
    """Server -> tool name -> tool definition, from catalogs seen outside the run's sessions: the ones agent traces
    recorded (for replayed runs), and the listing of a server a fuzz or conformance block started on its own."""
    listings: dict[str, dict[str, list[dict[str, Any]]]] = field(default_factory=dict)
    """Server -> `resources`, `templates`, `prompts` -> the items a run of another kind listed through its own
    connection (a conformance block's): what coverage is measured over when no session of the run listed them."""

    def tool_call(self, server: str, tool: str, args: Any, *, is_error: bool) -> None:
        """A call the server answered with a result (`is_error`: the result's `isError`). A request the server
        refused (a protocol error, a timeout) is not a call it accepted: do not feed it."""
        seen = self.tools.setdefault((server, tool), _ToolSeen())
        if is_error:
            seen.failed = True
        else:
            seen.succeeded = True
        if not isinstance(args, Mapping):
            return
        for name, value in args.items():
            kept = seen.values.setdefault(str(name), set())
            for item in [value, *value] if isinstance(value, list) else [value]:
                key = _key(item)
                if key is not None:
                    kept.add(key)

    def resource_read(self, server: str, uri: str, template: str | None = None) -> None:
        """A resource read that returned contents; `template`: the template the test filled, if it named one."""
        self.resources.setdefault(server, set()).add(uri)
        if template is not None:
            self.templates.setdefault(server, set()).add(template)

    def prompt_get(self, server: str, name: str, args: Mapping[str, Any] | None) -> None:
        """A prompt rendered (a result came back), with or without arguments."""
        self.prompts.setdefault((server, name), set()).add(bool(args))

    def trace(self, trace: Trace) -> None:
        """An agent run: only the calls the server accepted count (a known tool, with arguments that parsed, and
        no error: the trace cannot tell an isError result from a refused request). Calls with no server are left
        out. The run's recorded catalog stands in for a server no session listed (a replayed run)."""
        for tool in trace.real_catalog:
            if tool.server:
                self.trace_catalogs.setdefault(tool.server, {}).setdefault(tool.name, tool.tool)
        for call in trace.tool_calls:
            if call.server and not (call.unknown_tool or call.unparseable_arguments or call.is_error):
                self.tool_call(call.server, call.name, call.args, is_error=False)

    def listed(
        self,
        server: str,
        tools: Iterable[Mapping[str, Any]],
        *,
        resources: Iterable[Mapping[str, Any]] = (),
        templates: Iterable[Mapping[str, Any]] = (),
        prompts: Iterable[Mapping[str, Any]] = (),
    ) -> None:
        """A server's catalog as a run of another kind listed it through its own connection (a fuzz or conformance
        block's server process): coverage is measured over it when no session of the run listed the server."""
        for tool in tools:
            self.trace_catalogs.setdefault(server, {}).setdefault(str(tool.get("name")), dict(tool))
        for kind, items in (("resources", resources), ("templates", templates), ("prompts", prompts)):
            kept = self.listings.setdefault(server, {}).setdefault(kind, [])
            kept += [dict(item) for item in items if dict(item) not in kept]

    def measure_listed(self, server: str) -> ServerCoverage | None:
        """The server's coverage over the catalog runs of other kinds listed or agent traces recorded (see
        `listed`); None when there is none."""
        tools = self.trace_catalogs.get(server, {})
        lists = self.listings.get(server, {})
        if not tools and not any(lists.values()):
            return None
        return measure(
            server,
            self,
            tools=list(tools.values()),
            resources=lists.get("resources", []),
            templates=lists.get("templates", []),
            prompts=lists.get("prompts", []),
        )

    def servers(self) -> list[str]:
        """Every server the tally saw something of, sorted."""
        names = {s for s, _ in self.tools} | set(self.resources) | {s for s, _ in self.prompts}
        return sorted(names | set(self.templates) | set(self.trace_catalogs) | set(self.listings))


def measure(
    server: str,
    tally: Tally,
    *,
    tools: Sequence[Mapping[str, Any]] = (),
    resources: Sequence[Mapping[str, Any]] = (),
    templates: Sequence[Mapping[str, Any]] = (),
    prompts: Sequence[Mapping[str, Any]] = (),
) -> ServerCoverage:
    """Lay the tally over one server's catalog (wire-form `tools/list`, `resources/list`,
    `resources/templates/list` and `prompts/list` items)."""
    from mcptest.core.uri_template import matches

    tool_rows: dict[str, ToolCoverage] = {}
    for tool in tools:
        name = tool.get("name")
        if not isinstance(name, str):
            continue
        seen = tally.tools.get((server, name), _ToolSeen())
        tool_rows[name] = ToolCoverage(
            succeeded=seen.succeeded, failed=seen.failed, arguments=_arguments(tool.get("inputSchema"), seen)
        )
    listed = set(tool_rows)
    unlisted = sorted(t for s, t in tally.tools if s == server and t not in listed)
    read = tally.resources.get(server, set())
    filled = tally.templates.get(server, set())
    uris = [r["uri"] for r in resources if isinstance(r.get("uri"), str)]
    patterns = [t["uriTemplate"] for t in templates if isinstance(t.get("uriTemplate"), str)]
    static = set(uris)
    prompt_rows = {}
    for prompt in prompts:
        name = prompt.get("name")
        if isinstance(name, str):
            kinds = tally.prompts.get((server, name), set())
            declared = prompt.get("arguments")
            prompt_rows[name] = PromptCoverage(
                arguments=len(declared) if isinstance(declared, list) else 0,
                with_arguments=True in kinds,
                without_arguments=False in kinds,
            )
    return _recounted(
        ServerCoverage(
            server=server,
            figures={},
            tools=tool_rows,
            resources={u: u in read for u in uris},
            templates={p: p in filled or any(u not in static and _fits(matches, p, u) for u in read) for p in patterns},
            prompts=prompt_rows,
            unlisted=unlisted,
        )
    )


def figures_of(cov: ServerCoverage) -> dict[str, Figure]:
    """Every figure recounted from the detail."""
    tools = list(cov.tools.values())
    args = [a for t in tools for a in t.arguments.values()]
    enum_pairs = [(v, a.enum_sent) for a in args for v in a.enum or []]
    pairs = {
        "tools": (sum(t.called for t in tools), len(tools)),
        "tools_succeeding": (sum(t.succeeded for t in tools), len(tools)),
        "tools_failing": (sum(t.failed for t in tools), len(tools)),
        "arguments": (sum(a.supplied for a in args), len(args)),
        "required_arguments": (sum(a.supplied for a in args if a.required), sum(a.required for a in args)),
        "enums": (sum(_among(v, sent) for v, sent in enum_pairs), len(enum_pairs)),
        "resources": (sum(cov.resources.values()), len(cov.resources)),
        "templates": (sum(cov.templates.values()), len(cov.templates)),
        "prompts": (sum(p.rendered for p in cov.prompts.values()), len(cov.prompts)),
    }
    return {name: Figure(percent=percent(n, d) if d else None, covered=n, total=d) for name, (n, d) in pairs.items()}


MOST_LISTED = 20
"""A failed coverage gate names at most this many missing items per figure."""


def judge_coverage(coverage: Coverage, sharded: bool = False) -> list[GateReport]:
    """One gate row per `coverage:` entry: its assertions over the server's figures; a failure names what is
    missing. In a shard (`sharded`) no verdict is given: `report merge` judges the union."""
    from mcptest.records.report import GateReport, Status

    rows = []
    for spec in coverage.gates:
        cov = coverage.server(spec.server)
        base = dict(test=f"coverage {spec.server}", block="coverage", file=spec.file, line=spec.line, runs=1)
        if sharded:
            lines = ["one shard reaches part of the catalog: `mcptest report merge` judges this gate"]
            rows.append(GateReport(**base, status=Status.SKIPPED, lines=lines))
            continue
        if cov is None:
            why = next((n for n in coverage.notes if f"'{spec.server}'" in n), f"server '{spec.server}' not measured")
            rows.append(GateReport(**base, status=Status.FAILED, lines=[why], failures=check(spec.expect, _absent)))
            continue
        figures = {"coverage": {name: f.percent for name, f in cov.figures.items()}}
        failures = check(spec.expect, functools.partial(resolve, figures))
        missing = cov.missing()
        for i, failure in enumerate(failures):
            items = missing.get(failure.target.removeprefix("coverage."), [])
            if items:
                more = f" and {len(items) - MOST_LISTED} more" if len(items) > MOST_LISTED else ""
                text = f"{failure.message}; not reached: {', '.join(items[:MOST_LISTED])}{more}"
                failures[i] = failure.model_copy(update={"message": text})
        lines = [summary_line(cov)]
        targets: dict[str, float | int | None] = dict(cov.targets())
        status = Status.FAILED if failures else Status.PASSED
        rows.append(GateReport(**base, status=status, failures=failures, lines=lines, targets=targets))
    return rows


def summary_line(cov: ServerCoverage) -> str:
    """`tools 80% (4/5), arguments 50% (6/12), ...`: the figures a catalog has, in order."""
    return (
        ", ".join(
            f"{name.replace('_', ' ')} {f.percent}% ({f.covered}/{f.total})"
            for name, f in cov.figures.items()
            if f.total
        )
        or "an empty catalog"
    )


def _absent(path: str) -> Any:
    from mcptest.expect.assertions import TargetMissing

    raise TargetMissing("the server's coverage was not measured")


def merge_coverage(sections: Iterable[Coverage | None]) -> Coverage | None:
    """The union of shard sections: an item is reached when any shard reached it; figures recounted exactly, and
    the tests not counted are those no shard ran."""
    present = [s for s in sections if s is not None]
    if not present:
        return None
    counted = sum(s.counted for s in present)
    not_counted = max(s.counted + s.not_counted for s in present) - counted
    by_server: dict[str, ServerCoverage] = {}
    for section in present:
        for cov in section.servers:
            have = by_server.get(cov.server)
            by_server[cov.server] = cov if have is None else _union(have, cov)
    notes = sorted({n for s in present for n in s.notes})  # one note per server, as a whole run sorts them
    servers = [_recounted(by_server[name]) for name in sorted(by_server)]
    gates = {(g.file, g.line, g.server): g for s in present for g in s.gates}
    return Coverage(servers=servers, gates=list(gates.values()), counted=counted, not_counted=not_counted, notes=notes)


def _union(a: ServerCoverage, b: ServerCoverage) -> ServerCoverage:
    tools = dict(a.tools)
    for name, t in b.tools.items():
        mine = tools.get(name)
        if mine is None:
            tools[name] = t
            continue
        args = dict(mine.arguments)
        for arg, c in t.arguments.items():
            have = args.get(arg)
            if have is None:
                args[arg] = c
                continue
            sent = [v for v in have.enum or [] if _among(v, have.enum_sent) or _among(v, c.enum_sent)]
            args[arg] = have.model_copy(update={"supplied": have.supplied or c.supplied, "enum_sent": sent})
        tools[name] = ToolCoverage(succeeded=mine.succeeded or t.succeeded, failed=mine.failed or t.failed,
                                   arguments=args)  # fmt: skip
    prompts = dict(a.prompts)
    for name, p in b.prompts.items():
        q = prompts.get(name)
        prompts[name] = p if q is None else q.model_copy(
            update={"with_arguments": q.with_arguments or p.with_arguments,
                    "without_arguments": q.without_arguments or p.without_arguments}
        )  # fmt: skip
    return ServerCoverage(
        server=a.server,
        figures={},
        tools=tools,
        resources={u: a.resources.get(u, False) or b.resources.get(u, False) for u in {**a.resources, **b.resources}},
        templates={u: a.templates.get(u, False) or b.templates.get(u, False) for u in {**a.templates, **b.templates}},
        prompts=prompts,
        unlisted=sorted(set(a.unlisted) | set(b.unlisted)),
    )


def _recounted(cov: ServerCoverage) -> ServerCoverage:
    cov.figures = figures_of(cov)
    return cov


def _arguments(schema: Any, seen: _ToolSeen) -> dict[str, ArgumentCoverage]:
    if not isinstance(schema, Mapping) or not isinstance(schema.get("properties"), Mapping):
        return {}
    required = schema.get("required")
    required = set(required) if isinstance(required, list) else set()
    rows = {}
    for name, prop in schema["properties"].items():
        enum = _enum_of(prop)
        sent = seen.values.get(name)
        rows[str(name)] = ArgumentCoverage(
            required=name in required,
            supplied=sent is not None,
            enum=enum,
            enum_sent=[v for v in enum or [] if sent and _key(v) in sent],
        )
    return rows


def _enum_of(prop: Any) -> list[Any] | None:
    if not isinstance(prop, Mapping):
        return None
    for where in (prop, prop.get("items")):
        if isinstance(where, Mapping) and isinstance(where.get("enum"), list) and where["enum"]:
            return list(where["enum"])
    return None


def _key(value: Any) -> str | None:
    """A value's canonical JSON, the key enum values are matched by (1 and 1.0 alike, true not 1)."""
    if isinstance(value, bool) or value is None or isinstance(value, str):
        text = json.dumps(value)
    elif isinstance(value, int | float):
        text = json.dumps(float(value))
    else:
        return None
    return text if len(text) <= _LONGEST_VALUE else None


def _among(value: Any, values: Sequence[Any]) -> bool:
    key = _key(value)
    return key is not None and any(_key(v) == key for v in values)


def _text(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def _fits(matches: Any, template: str, uri: str) -> bool:
    try:
        return bool(matches(template, uri))
    except ValueError:  # a template that is not RFC 6570: nothing fills it
        return False
