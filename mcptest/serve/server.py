"""The served tools and resources on the SDK's `MCPServer`, over stdio. This module imports the SDK at its top: only
`serve()` (called by `mcptest serve`) imports it, so no other command pays for it."""

from __future__ import annotations

import inspect
import math
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import anyio
import anyio.to_thread
from mcp.server.context import CallNext, HandlerResult, ServerRequestContext
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.server.mcpserver.resources import FunctionResource
from mcp.server.mcpserver.tools import Tool
from mcp.server.mcpserver.utilities.func_metadata import ArgModelBase
from mcp.shared.exceptions import MCPError
from mcp.types import INVALID_PARAMS, ToolAnnotations
from pydantic import ConfigDict, Field

from mcptest import __version__
from mcptest.core.errors import UserError
from mcptest.records.report import TestResult
from mcptest.serve import tools
from mcptest.serve.models import DiffOutcome, LintOutcome, RuleDoc, RunOutcome, ScanOutcome, TestList, Validation
from mcptest.serve.paths import OutsideRoot
from mcptest.serve.tools import DiffFailOn, LintFailOn

CHECKOUT = Path(__file__).resolve().parent.parent.parent
"""The repository root when mcptest runs from a checkout (site-packages when installed)."""


def docs_dir(checkout: Path = CHECKOUT, prefix: Path | None = None) -> Path:
    """Where the documentation pages served as resources are: a checkout's `docs/`, else the copy an installed wheel
    put in `<prefix>/share/mcptest/docs` (pyproject's data-files; prefix: this Python's `sys.prefix`)."""
    prefix = Path(sys.prefix) if prefix is None else prefix
    return checkout / "docs" if (checkout / "docs").is_dir() else prefix / "share" / "mcptest" / "docs"


INSTRUCTIONS = (
    "mcptest tests MCP servers and the agents that use them. Paths are relative to the root this server was started "
    "in; files outside it are refused. Loop: validate_suite (fix each file:line:col problem), list_tests, run_suite "
    "(read agent_report: each failure's place, expected/received and a rerun filter), fix the server or the suite, "
    "run_suite again. lint_server and security_scan judge a server's tool descriptions; explain_rule says what a "
    "finding's rule means. Resources: mcptest://schema/suite (the suite's JSON Schema) and mcptest://docs/PAGE."
)

READ_ONLY = ToolAnnotations(readOnlyHint=True, destructiveHint=False, idempotentHint=True, openWorldHint=False)
"""Reads files under the root and nothing else."""
STARTS_SERVERS = ToolAnnotations(readOnlyHint=True, destructiveHint=False, idempotentHint=True, openWorldHint=True)
"""Starts the servers a suite defines to list them; changes no file."""
RUNS = ToolAnnotations(readOnlyHint=False, destructiveHint=False, idempotentHint=False, openWorldHint=True)
"""Runs the suite's tests against its servers: the servers' tools are called, with whatever effects they have."""

SuiteArg = Annotated[str, Field(description="The suite file (YAML), relative to the root, e.g. mcptest.yml.")]
FilterArg = Annotated[
    str | None,
    Field(
        description="Only tests whose name contains this text, or matches re:REGEX (RE2); omit for all. "
        "E.g. weather, or re:^weather for a city$ for exactly one test."
    ),
]
TagsArg = Annotated[list[str] | None, Field(description="Only tests with one of these tags; omit for all.")]


def _failed(exc: UserError | OutsideRoot) -> ToolError:
    """A user mistake as the tool's error text: one `file:line:col: what is wrong` line per problem."""
    return ToolError(str(exc))


def build(root: Path) -> MCPServer:
    """The server: seven tools over the suites and catalogs under `root`, the docs and the suite schema."""
    server = MCPServer("mcptest", title="mcptest", version=__version__, instructions=INSTRUCTIONS, log_level="WARNING")

    def validate_suite(suite: SuiteArg) -> Validation:
        """Check a suite file without running anything: its keys, types, servers, matchers and env vars.

        Returns ok with counts per kind of test, or every problem as `file:line:col: what is wrong (and the fix)`.
        Use it after each edit of a suite, before run_suite."""
        try:
            return tools.validate_suite(root, suite)
        except OutsideRoot as exc:
            raise _failed(exc) from None

    def list_tests(suite: SuiteArg, filter: FilterArg = None, tags: TagsArg = None) -> TestList:
        """List a suite's tests in run order (kind, name, file:line) without running them.

        Use it to find the exact name to pass as run_suite's filter. A suite with problems is an error listing
        them; validate_suite gives them as structured data."""
        try:
            return tools.list_tests(root, suite, filter, tags)
        except (UserError, OutsideRoot) as exc:
            raise _failed(exc) from None

    async def run_suite(
        suite: SuiteArg,
        ctx: Context,
        filter: FilterArg = None,
        tags: TagsArg = None,
        fail_fast: Annotated[bool, Field(description="Start no test after the first failure.")] = False,
    ) -> RunOutcome:
        """Run a suite's tests against the servers the suite defines, and report.

        Returns the verdict and counts, agent_report (each failure's file:line, expected and received, and the
        command that re-runs only it) and the whole JSON report. Sends a progress notification per finished test
        when the call carries a progress token. Cassettes are replayed, never recorded; snapshots never updated."""
        try:
            loaded, chosen = tools.load_for_run(root, suite, filter, tags)
        except (UserError, OutsideRoot) as exc:
            raise _failed(exc) from None
        from mcptest.run.runner import select

        calls = len(select(loaded, chosen))  # tool, resource, prompt and block tests; agent runs are counted apart
        send, receive = anyio.create_memory_object_stream[tuple[int, int | None, str]](max_buffer_size=math.inf)
        agents = any(chosen.matches(a) for a in loaded.agents)  # their runs' count is known once they start
        done = [0]

        def finished(result: TestResult) -> None:
            if result.kind != "agent":  # an agent test's rows come after its runs, already counted
                done[0] += 1
                total = None if agents else calls
                send.send_nowait((done[0], total, f"{result.name}: {result.status.value}"))

        def agent_runs(runs_done: int, runs_total: int, label: str) -> None:
            send.send_nowait((calls + runs_done, calls + runs_total, f"agent run {runs_done}/{runs_total}: {label}"))

        async def forward() -> None:
            sent = 0  # progress only ever increases (the spec's rule), so a repeated figure is not sent
            async with receive:
                async for progress, total, message in receive:
                    if progress > sent:
                        sent = progress
                        await ctx.report_progress(progress, total, message)

        async with anyio.create_task_group() as group:
            group.start_soon(forward)
            try:
                outcome = await tools.run_suite(loaded, chosen, fail_fast, finished, agent_runs)
            except UserError as exc:  # a pinned server that cannot be listed
                raise _failed(exc) from None
            finally:
                send.close()
        return outcome

    async def lint_server(
        suite: Annotated[
            str | None, Field(description="A suite whose servers are started and listed (relative to the root).")
        ] = None,
        server: Annotated[str | None, Field(description="Only this server of the suite.")] = None,
        catalog: Annotated[
            str | None,
            Field(description="Instead of a suite: a saved catalog file (tools/list JSON) to lint, e.g. catalog.json."),
        ] = None,
        fail_on: Annotated[LintFailOn, Field(description="The severity that fails: critical by default.")] = "critical",
        strict: Annotated[bool, Field(description="Also run the pedantic rules.")] = False,
    ) -> LintOutcome:
        """Lint a server's tool descriptions and input schemas with the DESC and SCH rules (doctor's lint).

        Give a suite (its servers are started as the suite says) or a saved catalog. Each finding names its rule;
        explain_rule says what the rule wants. ok is false when a finding reaches fail_on or a server fails."""
        try:
            return await anyio.to_thread.run_sync(
                lambda: tools.lint_server(root, suite, server, catalog, fail_on, strict)
            )
        except (UserError, OutsideRoot) as exc:
            raise _failed(exc) from None

    async def security_scan(
        suite: Annotated[
            str | None, Field(description="A suite whose servers are started and listed (relative to the root).")
        ] = None,
        server: Annotated[str | None, Field(description="Only this server of the suite.")] = None,
        catalogs: Annotated[
            list[str] | None, Field(description="Instead of a suite: saved catalogs or cassettes, scanned together.")
        ] = None,
        fail_on: Annotated[LintFailOn, Field(description="The severity that fails: critical by default.")] = "critical",
    ) -> ScanOutcome:
        """Scan what servers tell the model (tools, resources, prompts) with the SEC rules: poisoning, shadowing,
        exfiltration, hidden text and secrets. Give a suite or saved catalogs; ok is false at fail_on."""
        try:
            return await anyio.to_thread.run_sync(lambda: tools.security_scan(root, suite, server, catalogs, fail_on))
        except (UserError, OutsideRoot) as exc:
            raise _failed(exc) from None

    async def diff_catalogs(
        old: Annotated[str, Field(description="The old catalog: a saved snapshot or cassette under the root.")],
        new: Annotated[str | None, Field(description="The new catalog file; or omit it and give suite.")] = None,
        suite: Annotated[
            str | None, Field(description="Instead of new: a suite whose one server (or `server`) is listed live.")
        ] = None,
        server: Annotated[str | None, Field(description="The suite's server to list.")] = None,
        fail_on: Annotated[DiffFailOn, Field(description="The impact that fails: breaking by default.")] = "breaking",
    ) -> DiffOutcome:
        """Classify every change between two catalogs (breaking, risky, compatible), as `mcptest diff`.

        ok is false when a change reaches fail_on. Use it before releasing a server to see what clients will
        notice."""
        try:
            return await anyio.to_thread.run_sync(lambda: tools.diff_catalogs(root, old, new, suite, server, fail_on))
        except (UserError, OutsideRoot) as exc:
            raise _failed(exc) from None

    def explain_rule(
        code: Annotated[str, Field(description="A lint or security rule code from a finding, e.g. DESC-009, SEC-001.")],
    ) -> RuleDoc:
        """Explain one lint (DESC, SCH) or security (SEC) rule: what it flags, why it matters, how to fix it."""
        try:
            return tools.explain_rule(code)
        except UserError as exc:
            raise _failed(exc) from None

    served: list[tuple[Callable[..., Any], ToolAnnotations]] = [
        (validate_suite, READ_ONLY),
        (list_tests, READ_ONLY),
        (run_suite, RUNS),
        (lint_server, STARTS_SERVERS),
        (security_scan, STARTS_SERVERS),
        (diff_catalogs, STARTS_SERVERS),
        (explain_rule, READ_ONLY),
    ]
    closed = [
        _closed(Tool.from_function(fn, description=inspect.cleandoc(fn.__doc__ or ""), annotations=hints,
                                   structured_output=True))
        for fn, hints in served
    ]  # fmt: skip
    server = MCPServer(
        "mcptest",
        title="mcptest",
        version=__version__,
        instructions=INSTRUCTIONS,
        log_level="WARNING",
        tools=closed,
        middleware=[resource_not_found_code],
    )
    _resources(server)
    return server


SEP_2164 = "2026-07-28"
"""The protocol version from which an unknown resource is -32602 (Invalid Params); before it the spec says -32002."""
RESOURCE_NOT_FOUND = -32002


async def resource_not_found_code(ctx: ServerRequestContext[Any, Any], call_next: CallNext) -> HandlerResult:
    """An unknown resource read under a protocol version before 2026-07-28 answers -32002 (Resource not found), as
    that version's spec says; the SDK answers -32602 for every version (SEP-2164's code, from 2026-07-28)."""
    try:
        return await call_next(ctx)
    except MCPError as exc:
        unknown = exc.code == INVALID_PARAMS and isinstance(exc.data, dict) and "uri" in exc.data  # not bad params
        if ctx.method == "resources/read" and unknown and ctx.protocol_version < SEP_2164:
            raise MCPError(RESOURCE_NOT_FOUND, exc.message, exc.data) from None
        raise


def _closed(tool: Tool) -> Tool:
    """The tool with its arguments closed: an unknown argument is refused (the SDK's argument model ignores it), and
    the inputSchema says so with `additionalProperties: false`."""
    base = tool.fn_metadata.arg_model
    config = ConfigDict(**{**base.model_config, "extra": "forbid"})  # type: ignore[typeddict-item]
    strict: type[ArgModelBase] = type(base.__name__, (base,), {"model_config": config, "__module__": base.__module__})
    tool.fn_metadata.arg_model = strict
    tool.parameters = strict.model_json_schema(by_alias=True)
    return tool


def _resources(server: MCPServer) -> None:
    """The suite's JSON Schema and every documentation page found beside the package."""
    import json

    def suite_schema() -> str:
        from mcptest.schemas import suite_schema as schema

        return json.dumps(schema(), indent=2)

    server.add_resource(
        FunctionResource.from_function(
            suite_schema,
            "mcptest://schema/suite",
            name="suite-schema",
            title="Suite JSON Schema",
            description="The JSON Schema of a suite file (mcptest.yml), for writing and checking suites.",
            mime_type="application/schema+json",
        )
    )
    docs = docs_dir()
    for page in sorted(docs.glob("*.md")) if docs.is_dir() else ():
        title = page.read_text(encoding="utf-8").partition("\n")[0].lstrip("# ").strip() or page.stem
        server.add_resource(
            FunctionResource.from_function(
                lambda page=page: page.read_text(encoding="utf-8"),
                f"mcptest://docs/{page.stem}",
                name=f"docs-{page.stem}",
                title=title,
                description=f"mcptest documentation: {title}.",
                mime_type="text/markdown",
            )
        )


def _warm() -> None:
    """Import what loading and listing a suite needs before the client's initialize, not in its first call."""
    import importlib

    for name in WARM:
        importlib.import_module(name)


WARM = (
    "mcptest.suite.loader", "mcptest.run.listing", "mcptest.run.runner", "mcptest.agent.plan",
    "mcptest.cassette.store", "mcptest.gates", "mcptest.core.json_schema", "mcptest.core.regexes",
    "mcptest.core.yaml_guard", "jsonschema", "ruamel.yaml", "re2",
)  # fmt: skip
"""What `list_tests` on a suite with tool and agent tests imports the first time (measured with sys.modules)."""


def serve(root: Path) -> None:
    """Serve over stdio until the client closes the stream, with `root` as the working directory."""
    import os

    from mcptest.server.session import quiet_sdk_logs

    os.chdir(root)
    quiet_sdk_logs(False)
    _warm()

    build(root).run("stdio")
