"""Coverage of a run: feed the agent runs into the tally, read each server's catalog through the run's sessions
(or the catalog a replayed run recorded), measure, and judge the suite's `coverage:` gates."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mcptest.records.coverage import Coverage, GateSpec, ServerCoverage, Tally, measure
from mcptest.run.call_tests import offers

if TYPE_CHECKING:
    from mcptest.server.session import SessionPool
    from mcptest.suite.models import Suite


async def measure_run(pool: SessionPool, tally: Tally, suite: Suite, counted: int, in_suite: int) -> Coverage | None:
    """The run's coverage section: every server the run reached something of, and every server a `coverage:` gate
    names (opened for its catalog if no test used it); None when there is neither. `counted` of the suite's
    `in_suite` tool, resource, prompt and agent tests ran."""
    gated = [g.server for g in suite.coverage]
    names = sorted(set(tally.servers()) | set(gated))
    if not names:
        return None
    servers: list[ServerCoverage] = []
    notes: list[str] = []
    for name in names:
        if pool.is_open(name) or name in gated:
            measured, note = await listed_coverage(pool, tally, name)
            if measured is not None:
                servers.append(measured)
                continue
            notes.append(note)
        recorded = tally.measure_listed(name)
        if recorded is not None:
            servers.append(recorded)
        elif not pool.is_open(name) and name not in gated:
            notes.append(f"server '{name}': no session listed its catalog and the agent runs recorded none")
    specs = [GateSpec(server=g.server, file=suite.file, line=g._line, expect=g.expect) for g in suite.coverage]
    return Coverage(servers=servers, gates=specs, counted=counted, not_counted=in_suite - counted, notes=sorted(notes))


async def listed_coverage(pool: SessionPool, tally: Tally, name: str) -> tuple[ServerCoverage | None, str]:
    """The server's coverage over its live listings, or why they could not be read (a run's servers; the Python
    API's `Server.coverage`)."""
    from mcptest.core.errors import UserError
    from mcptest.server.session import ServerUnavailable

    try:
        session = await pool.get(name)
        tools = await session.list_tools()
        resources: list[dict[str, Any]] = []
        templates: list[dict[str, Any]] = []
        prompts: list[dict[str, Any]] = []
        if offers(session, "resources"):
            resources = await session.listing("resources/list", "resources")
            templates = await session.listing("resources/templates/list", "resourceTemplates")
        if offers(session, "prompts"):
            prompts = await session.listing("prompts/list", "prompts")
    except ServerUnavailable as exc:
        return None, f"server '{name}': its catalog could not be read for coverage: {exc.message}"
    except UserError as exc:
        return None, f"server '{name}': its catalog could not be read for coverage: {exc}"
    return measure(name, tally, tools=tools, resources=resources, templates=templates, prompts=prompts), ""
