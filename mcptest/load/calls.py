"""How a virtual user makes each test's call: on the lean path (`server/lean.py`: hand-written JSON-RPC on a
keep-alive connection of the session the SDK opened) when the server and the test allow it, through the SDK's
session otherwise. Everything a call needs besides its answer is done once per user: the listing of the tools
(their outputSchema, compiled once), of the resources and prompts (an unknown name), the request's bytes."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mcptest.run.call_tests import CallTest
    from mcptest.server.session import CallOutcome, SessionPool

Call = Callable[[], Awaitable["CallOutcome"]]


async def prepare(test: CallTest, pool: SessionPool, lean: dict[str, Any], sdk_only: bool = False) -> Call:
    """The call a user makes for `test`, ready to repeat. Raises ServerUnavailable or UnknownName when the test
    cannot be called at all; `lean` holds the user's lean connection per server (opened here when needed)."""
    from mcptest.run.call_tests import known, make_call, wire_request
    from mcptest.server.lean import LeanHttp, Request, unsuited
    from mcptest.server.tasks import task_support
    from mcptest.suite.models import HttpServer, ToolTest

    session = await pool.get(test.server)
    await known(test, session)
    schema, name = None, ""
    if isinstance(test, ToolTest):
        name = test.tool
        listed = {t.get("name"): t for t in await session.list_tools()}
        tool = listed.get(test.tool)
        if test.task or (test.task is None and task_support(tool) == "required"):
            sdk_only = True  # a task's polling is the SDK's
        schema = (tool or {}).get("outputSchema")
    if sdk_only or unsuited(session.config) is not None:
        return lambda: make_call(test, session)
    if test.server not in lean:
        assert isinstance(session.config, HttpServer)
        lean[test.server] = LeanHttp(session.name, session.config, session.session_id)
    connection = lean[test.server]
    method, params = wire_request(test)
    request = Request.stamped(session, method, params)
    if schema is None:
        return lambda: connection.call(request)
    from mcptest.core.json_schema import validator
    from mcptest.run.call_tests import schema_findings

    try:
        checker = validator(schema)
    except Exception:  # a broken schema: the findings say so on each answer, as on the SDK path
        checker = None

    async def checked() -> CallOutcome:
        outcome = await connection.call(request)
        if outcome.result is not None:
            outcome.findings = schema_findings(name, schema, outcome.result, checker)
        return outcome

    return checked
