"""mcptest from Python: a connected server, the suite's matchers as assertions, and the trace gates as functions.

Used by the pytest plugin's `mcp_server` fixture, and usable on its own (see docs/python-api.md).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from contextlib import ExitStack
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from anyio.from_thread import BlockingPortal

    from mcptest.gates.outcome import GateOutcome
    from mcptest.records.coverage import ServerCoverage
    from mcptest.records.trace import Trace
    from mcptest.server.session import CallOutcome, ServerConfig, ServerSession
    from mcptest.suite.models import Suite


class MatchFailed(AssertionError):
    """An `assert_that` that did not hold; the message is mcptest's failure text."""


def assert_that(value: Any, target: str | None = None, **matcher: Any) -> None:
    """Check one matcher of the suite format on `value` (or on the `target` path inside it).

    `assert_that(outcome, "result.content[0].text", contains="Paris")`, `assert_that(7, **{">=": 5})`; a
    `CallOutcome` is read from the roots a tool test's targets start from (`result`, `error`, `duration_ms`, `logs`,
    `progress`, `sampling_requests`, `elicitation_requests`), exactly as a suite reads them; and as a suite's
    test fails, a call during which the server asked for sampling or elicitation that went unanswered fails any
    assertion on it, saying what was asked.
    """
    from mcptest.expect.assertions import Assertion, check

    if len(matcher) != 1:
        raise TypeError(f"assert_that takes exactly one matcher keyword, got {sorted(matcher) or 'none'}")
    ((kind, expected),) = matcher.items()
    unanswered = getattr(getattr(value, "capture", None), "unanswered", None)
    if unanswered:  # as a suite's call test fails: the server asked for something the client could not give
        raise MatchFailed("; ".join(unanswered))
    assertion = Assertion.model_validate({"target": target or "value", "matcher": {kind.replace("_", "-"): expected}})
    failures = check([assertion], _reader(value, target))
    if failures:
        f = failures[0]
        raise MatchFailed(f"{f.target} {f.matcher} {f.expected!r}: {f.message}")


def _reader(value: Any, target: str | None) -> Callable[[str], Any]:
    """How `assert_that` reads its target: in a `CallOutcome` as a suite's call test does, else as a plain tree."""
    from mcptest.expect.assertions import resolve
    from mcptest.run.targets import lookup
    from mcptest.server.session import CallOutcome

    if not target:
        return lambda _: value
    if isinstance(value, CallOutcome):
        return lookup(value)
    return lambda path: resolve(value, path)


def run_gate(block: str, traces: Sequence[Trace] | str | Path, config: Mapping[str, Any] | None = None) -> GateOutcome:
    """Score recorded runs with one gate block, as a suite's agent test would: `run_gate("tool_selection",
    "traces/weather.json", {"expected_tools": ["weather.get_weather"]})`; `traces` may also be an OTLP JSON file or
    a Phoenix project (`"phoenix://localhost:6006/default?last=1h"`). The outcome has `.targets`, `.status`
    and `.failures`, judged against the block's `expect:` in `config` or its default gate."""
    from mcptest.core.errors import Problem, UserError
    from mcptest.gates import GATES, evaluate_blocks
    from mcptest.records.otlp import is_otlp, load_otlp
    from mcptest.records.phoenix import is_phoenix, load_phoenix
    from mcptest.records.trace import load_traces

    gate = next((g for g in GATES if g.name == block), None)
    if gate is None:
        raise KeyError(f"unknown gate block {block!r}; blocks are {', '.join(g.name for g in GATES)}")
    if isinstance(traces, str | Path) and (is_phoenix(traces) or is_otlp(traces)):  # OpenTelemetry spans
        imported = load_phoenix(str(traces)) if is_phoenix(traces) else load_otlp(traces)
        if lacking := imported.gate_problems([block], str(traces)):
            raise UserError([Problem(str(traces), 0, 0, m) for m in lacking])
        runs = imported.traces
    else:
        runs = load_traces(traces) if isinstance(traces, str | Path) else list(traces)
    (outcome,) = evaluate_blocks({block: gate.config.model_validate(dict(config or {}))}, runs)
    return outcome


def server_config(
    name: str,
    suite_path: Path | None,
    command: str | None,
    load: Callable[[Path], Suite],
    url: str | None = None,
    headers: Mapping[str, str] | None = None,
) -> tuple[ServerConfig, Path]:
    """The config of a server named in a suite (default `./mcptest.yml` or `./mcptest.yaml`), of a command, or of
    a Streamable HTTP `url` (with `headers`, e.g. `{"Authorization": "Bearer ..."}`), as the command line builds it."""
    from mcptest.core.errors import usage_error
    from mcptest.server.sources import resolve_sources
    from mcptest.suite.loader import find_suite

    if headers and not url:
        raise usage_error("headers= only applies with url=")
    if command or url:
        sent = [f"{key}: {value}" for key, value in (headers or {}).items()]
        sources = resolve_sources(None, None, None, command, url, sent)
        return sources.servers[0][1], Path(sources.base_dir)
    path = suite_path or Path(find_suite(None))
    suite = load(path)
    if name not in suite.servers:
        raise usage_error(f"{path}: no server named {name!r}; servers are {', '.join(suite.servers) or 'none'}")
    return suite.servers[name], Path(suite.file).parent


class Server:
    """A connected MCP server for tests written in Python; every call blocks until the server answers."""

    def __init__(self, name: str, config: ServerConfig, base: Path, portal: BlockingPortal, stack: ExitStack):
        from mcptest.records.coverage import Tally

        self.name = name
        self._config, self._base, self._portal, self._stack = config, base, portal, stack
        self._session: ServerSession | None = None
        self._pool: Any = None
        self._tally = Tally()  # what this object's calls reached, for `coverage()`

    def call_tool(self, tool: str, args: Mapping[str, Any] | None = None) -> CallOutcome:
        """`tools/call`: the result as the server sent it (`.result`, wire JSON), or `.error`, and what the server
        sent during the call (`.logs`, `.progress`, `.sampling_requests`, `.elicitation_requests`); `.findings` holds
        what breaks the tool's outputSchema, as a tool test reports it."""
        from mcptest.run.call_tests import call_tool

        session = self._open()
        outcome = self._portal.call(call_tool, session, tool, dict(args or {}))
        if outcome.result is not None:
            self._tally.tool_call(self.name, tool, dict(args or {}), is_error=outcome.result.get("isError") is True)
        return outcome

    def list_tools(self) -> list[dict[str, Any]]:
        """`tools/list`, every page, as wire JSON (the tools that can be read: see `mcptest tools` for the rest)."""
        return self._portal.call(self._open().list_tools)

    def read_resource(self, uri: str) -> CallOutcome:
        """`resources/read` of `uri`, as a resource test sends it: `.result` (`contents[i].text`, `.blob`, ...) or
        `.error`, with what the server sent meanwhile."""
        from mcp import types

        from mcptest.server.primitives import read_request

        outcome = self._portal.call(self._open().call, read_request(uri), types.ReadResourceResult)
        if outcome.result is not None:
            self._tally.resource_read(self.name, uri)
        return outcome

    def get_prompt(self, name: str, arguments: Mapping[str, Any] | None = None) -> CallOutcome:
        """`prompts/get` of `name`, as a prompt test sends it (each argument as a string): `.result` (`messages`,
        `description`) or `.error`."""
        from mcp import types

        from mcptest.server.primitives import prompt_request
        from mcptest.suite.primitives import string_args

        request = prompt_request(name, string_args(dict(arguments or {})))
        outcome = self._portal.call(self._open().call, request, types.GetPromptResult)
        if outcome.result is not None:
            self._tally.prompt_get(self.name, name, arguments)
        return outcome

    def list_resources(self) -> list[dict[str, Any]]:
        """`resources/list`, every page, as wire JSON."""
        return self._portal.call(self._open().listing, "resources/list", "resources")

    def list_resource_templates(self) -> list[dict[str, Any]]:
        """`resources/templates/list`, every page, as wire JSON (empty when the server implements none)."""
        return self._portal.call(self._open().listing, "resources/templates/list", "resourceTemplates")

    def list_prompts(self) -> list[dict[str, Any]]:
        """`prompts/list`, every page, as wire JSON."""
        return self._portal.call(self._open().listing, "prompts/list", "prompts")

    def coverage(self) -> ServerCoverage:
        """What the calls made through this object reached of the server's catalog, measured over its live listings
        as `mcptest run` measures a server (`.figures["tools"].percent`, `.missing()`, per-tool detail in `.tools`).
        Only calls answered with a result count (an `isError` result too); no suite ran, so nothing else does."""
        from mcptest.core.errors import usage_error
        from mcptest.run.coverage import listed_coverage

        self._open()
        measured, why = self._portal.call(listed_coverage, self._pool, self._tally, self.name)
        if measured is None:
            raise usage_error(why)
        return measured

    def _open(self) -> ServerSession:
        from mcptest.server.session import SessionPool

        if self._session is None:
            pool = SessionPool({self.name: self._config}, base_dir=self._base)
            self._pool = self._stack.enter_context(self._portal.wrap_async_context_manager(pool))
            self._session = self._portal.call(self._pool.get, self.name)
        return self._session
