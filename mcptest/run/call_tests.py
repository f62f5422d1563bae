"""Tool, resource and prompt tests: the one call each makes, the protocol checks on its result, and the judging of
its outcome against the test's `expect:`."""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from mcptest.expect.assertions import check, show
from mcptest.expect.failure import AssertionFailure
from mcptest.records.report import Status, TestResult
from mcptest.run.rows import elapsed_ms, failed_row
from mcptest.run.targets import lookup, target_root
from mcptest.server.primitives import prompt_request, read_request, unknown_prompt, unknown_resource
from mcptest.server.session import CallOutcome, EndlessPages, ServerSession, ServerUnavailable
from mcptest.suite.models import ToolTest
from mcptest.suite.primitives import PromptTest, ResourceTest, string_args

if TYPE_CHECKING:
    from mcptest.records.coverage import Tally
    from mcptest.server.session import SessionPool
    from mcptest.suite.models import Suite

CallTest = ToolTest | ResourceTest | PromptTest


class UnknownName(Exception):
    """The test names a resource or prompt the server does not list."""


def call_fields(test: CallTest, file: str) -> dict[str, Any]:
    """The report fields that say what the test is and what it calls."""
    what = CALLS[type(test)][0](test)
    return dict(name=test.name, server=test.server, file=file, line=test._line, tags=test.tags, **what)


async def run_call_test(
    test: CallTest, pool: SessionPool, suite: Suite, tally: Tally | None = None
) -> tuple[TestResult, bool]:
    """Make the test's one call (or a latency test's many) and judge the outcome, counting each call into `tally`
    when the server answered it with a result; the flag: the server never came up."""
    start = time.perf_counter()
    base = call_fields(test, suite.file)
    try:
        session = await pool.get(test.server)
    except ServerUnavailable as exc:
        return failed_row(base, start, exc.message, exc.stderr), "no handshake within" in exc.message
    start = time.perf_counter()  # the server's start-up is the run's cost, not this test's
    figures = None

    async def call() -> CallOutcome:
        """One call of the test; every call answered with a result counts (a latency test's repeats each do)."""
        outcome = await make_call(test, session)
        if tally is not None and outcome.result is not None:
            count_call(tally, test, outcome.result)
        return outcome

    try:
        if test.latency is None:
            outcome = await call()
        else:
            from mcptest.run.latency import measure

            def answer_failed(outcome: CallOutcome) -> bool:
                failures, error = judge(test, outcome, per_answer=True)
                return bool(failures or error)

            outcome, figures = await measure(test.latency, call, answer_failed, session)
    except (UnknownName, ServerUnavailable) as exc:
        return failed_row(base, start, str(exc), getattr(exc, "stderr", "")), False
    failures, error = judge(test, outcome, figures.model_dump(exclude={"histogram"}) if figures else None)
    failed = bool(failures or error)
    # after a timeout, listing would reconnect for a mere hint (and an unknown tool is answered, not waited on)
    if failed and not session.stale and (unlisted := await unlisted_tool(test, session)):
        error = f"{error}; {unlisted}" if error else unlisted
    return TestResult(
        **base,
        status=Status.FAILED if failed else Status.PASSED,
        duration_ms=elapsed_ms(start),
        failures=failures,
        error=error,
        stderr=(session.stderr_tail() or None) if outcome.error and error else None,
        latency=figures,
    ), False


def count_call(tally: Tally, test: CallTest, result: dict[str, Any]) -> None:
    """Feed one answered call of a test into the run's coverage tally."""
    if isinstance(test, ToolTest):
        tally.tool_call(test.server, test.tool, test.args, is_error=result.get("isError") is True)
    elif isinstance(test, ResourceTest):
        tally.resource_read(test.server, test.resolved_uri, test.template)
    else:
        tally.prompt_get(test.server, test.prompt, test.args)


async def make_call(test: CallTest, session: ServerSession) -> CallOutcome:
    """Make the test's call; a resource or prompt the server does not list raises UnknownName."""
    return await CALLS[type(test)][1](test, session)


async def call_tool(session: ServerSession, tool: str, args: dict[str, Any], task: bool | None = None) -> CallOutcome:
    """Call a tool (as a task when `task` or its `execution.taskSupport` says so), and check its structuredContent
    against the outputSchema the server lists for it."""
    outcome = await session.call_tool(tool, args, task)
    if outcome.result is not None:
        outcome.findings = await output_findings(session, tool, outcome.result)
    return outcome


async def output_findings(session: ServerSession, tool: str, wire: dict[str, Any]) -> list[str]:
    """Protocol violations of a tool's result: structuredContent missing or breaking the declared outputSchema."""
    if wire.get("isError"):
        return []
    try:
        tools = {t["name"]: t for t in await session.list_tools()}
    except EndlessPages as exc:  # a listing that never ends is the server's fault, not a reason to pass quietly
        return [f"the outputSchema of '{tool}' cannot be checked: {exc.message}"]
    except ServerUnavailable:
        return []
    return schema_findings(tool, tools.get(tool, {}).get("outputSchema"), wire)


def schema_findings(tool: str, schema: Any, wire: dict[str, Any], checker: Any = None) -> list[str]:
    """What breaks the tool's outputSchema in a result (none when it declares none or the result is an error);
    `checker`: the schema's validator, built once by a caller that checks many results."""
    if schema is None or wire.get("isError"):
        return []
    if "structuredContent" not in wire:
        return [f"tool '{tool}' declares an outputSchema but returned no structuredContent"]
    from mcptest.core.json_schema import validator

    try:
        errors = list((checker or validator(schema)).iter_errors(wire["structuredContent"]))
    except Exception as exc:  # RecursionError, an unresolvable $ref: the server's schema is broken
        return [f"the outputSchema of '{tool}' cannot be checked: {type(exc).__name__}: {str(exc)[:200]}"]
    if not errors:
        return []
    err = min(errors, key=lambda e: len(e.path))
    at = "/".join(map(str, err.path)) or "(root)"
    from mcptest.core.schema_text import error_text

    return [f"structuredContent does not match the outputSchema of '{tool}' at {at}: {error_text(err)}"]


def judge(
    test: CallTest, outcome: CallOutcome, latency: dict[str, Any] | None = None, *, per_answer: bool = False
) -> tuple[list[AssertionFailure], str | None]:
    """The failed assertions and the non-assertion error of one call.

    A server request the suite gives no answer to fails the test, saying how to answer it. A protocol error fails
    the test unless an assertion targets `error`. An `isError` result fails a test that has no assertions; a test
    with assertions is judged by them alone. `latency`: the figures of a call measured many times, which the
    `latency.*` assertions read; `per_answer`: judge one of those calls, by every check but the latency ones.
    """
    assertions = test.assertions
    if per_answer:
        assertions = [a for a in assertions if target_root(a.target) != "latency"]
    if outcome.capture.unanswered:
        return [], "; ".join(outcome.capture.unanswered)
    if outcome.error and not any(target_root(a.target) == "error" for a in assertions):
        return [], outcome.error
    if not assertions and outcome.result and outcome.result.get("isError"):
        return [], f"the tool returned an error result: {show(_text(outcome.result))}"
    failures = [
        AssertionFailure(
            target="result.structuredContent",
            matcher="outputSchema",
            expected=None,
            actual=(outcome.result or {}).get("structuredContent"),
            message=finding,
        )
        for finding in outcome.findings
    ]
    failures += check(assertions, lookup(outcome, latency))
    budget = test.max_duration_ms
    if budget is not None and outcome.duration_ms > budget and not per_answer:
        line, col = test.max_duration_at or (None, None)
        failures.append(
            AssertionFailure(
                target="duration_ms",
                matcher="max_duration_ms",
                expected=budget,
                actual=outcome.duration_ms,
                message=f"took {outcome.duration_ms:.0f} ms, over the {budget:g} ms budget",
                line=line,
                col=col,
            )
        )
    return failures, None


async def unlisted_tool(test: CallTest, session: ServerSession) -> str:
    """Why a failed tool test may have called nothing: the server does not list its tool (a typo, a renamed tool).

    Only a hint beside the failure: a server may still serve a tool it does not list, so the call is made anyway.
    """
    if not isinstance(test, ToolTest):
        return ""
    try:
        names = [t["name"] for t in await session.list_tools()]
    except ServerUnavailable:
        return ""
    if test.tool in names:
        return ""
    from mcptest.core.errors import did_you_mean

    return f"server '{test.server}' lists no tool '{test.tool}' in tools/list{did_you_mean(test.tool, names)}"


async def _call_tool_test(test: ToolTest, session: ServerSession) -> CallOutcome:
    return await call_tool(session, test.tool, test.args, test.task)


async def known(test: CallTest, session: ServerSession) -> None:
    """Raise UnknownName when the test reads a resource or gets a prompt the server does not list (a session lists
    them once)."""
    if isinstance(test, ResourceTest):
        offered = offers(session, "resources")
        resources = await session.listing("resources/list", "resources") if offered else []
        templates = await session.listing("resources/templates/list", "resourceTemplates") if offered else []
        why = unknown_resource(test.resolved_uri, test.template, resources, templates)
    elif isinstance(test, PromptTest):
        prompts = await session.listing("prompts/list", "prompts") if offers(session, "prompts") else []
        why = unknown_prompt(test.prompt, prompts)
    else:
        return
    if why:
        raise UnknownName(f"server '{test.server}': {why}")


def wire_request(test: CallTest) -> tuple[str, dict[str, Any]]:
    """The JSON-RPC method and params of the test's call, as the SDK's request models dump them."""
    if isinstance(test, ToolTest):
        return "tools/call", {"name": test.tool, "arguments": test.args}
    if isinstance(test, ResourceTest):
        return "resources/read", {"uri": test.resolved_uri}
    args = string_args(test.args)
    return "prompts/get", {"name": test.prompt, **({"arguments": args} if args else {})}


async def _read_resource(test: ResourceTest, session: ServerSession) -> CallOutcome:
    from mcp import types

    await known(test, session)
    return await session.call(read_request(test.resolved_uri), types.ReadResourceResult)


async def _get_prompt(test: PromptTest, session: ServerSession) -> CallOutcome:
    from mcp import types

    await known(test, session)
    return await session.call(prompt_request(test.prompt, string_args(test.args)), types.GetPromptResult)


CALLS: dict[type, tuple[Callable[[Any], dict[str, Any]], Callable[[Any, ServerSession], Awaitable[CallOutcome]]]] = {
    ToolTest: (lambda t: {"kind": "tool", "tool": t.tool}, _call_tool_test),
    ResourceTest: (lambda t: {"kind": "resource", "resource": t.resolved_uri}, _read_resource),
    PromptTest: (lambda t: {"kind": "prompt", "prompt": t.prompt}, _get_prompt),
}
"""Per kind of call test: the report fields saying what it calls, and the call it makes."""


def _text(result: dict[str, Any]) -> str:
    texts = [c.get("text", "") for c in result.get("content", []) if isinstance(c, dict) and c.get("type") == "text"]
    return " ".join(texts) or "(no text content)"


def offers(session: ServerSession, primitive: str) -> bool:
    """Whether the handshake advertised the primitive (a server without it would answer 'method not found')."""
    return session.info is None or primitive in session.info.capabilities
