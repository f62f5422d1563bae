"""The MCP wiring: a low-level SDK `Server` whose handlers serve a MockSpec over stdio, with `--fault` applied."""

from __future__ import annotations

import sys
from typing import Any

import anyio
from mcp import types
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel import Server
from mcp.shared.exceptions import MCPError
from pydantic import ValidationError

from mcptest.core.errors import Problem, UserError, where
from mcptest.core.figures import plural
from mcptest.mock.answers import Answers, BadArguments, NotFound
from mcptest.mock.asking import ask_client
from mcptest.mock.faults import Fault, FaultState, crash
from mcptest.mock.spec import MockSpec
from mcptest.mock.tasks import capability, serves_tasks, task_lifespan
from mcptest.mock.wire import wire

Ctx = ServerRequestContext[Any, Any]


def build(spec: MockSpec, fault: Fault) -> Server[Any]:
    """A low-level server with handlers only for the primitives the spec declares."""
    answers, state = Answers(spec), FaultState(fault)
    handlers: dict[str, Any] = {}
    if spec.tools is not None:
        tools = types.ListToolsResult(tools=_parse(types.Tool, [t.listing for t in spec.tools], spec.source))

        async def list_tools(ctx: Ctx, params: types.PaginatedRequestParams | None) -> types.ListToolsResult:
            return tools

        async def call_tool(
            ctx: Ctx, params: types.CallToolRequestParams
        ) -> types.CallToolResult | types.InputRequiredResult:
            await _apply_fault(state)
            asks = answers.tools[params.name].asks if params.name in answers.tools else None
            asked = await ask_client(ctx, asks, params) if asks else None
            if isinstance(asked, types.InputRequiredResult):
                return asked
            try:
                return types.CallToolResult.model_validate(answers.call_tool(params.name, params.arguments, asked))
            except NotFound as exc:
                raise MCPError(types.INVALID_PARAMS, str(exc)) from None

        handlers.update(on_list_tools=list_tools, on_call_tool=call_tool)
    if spec.resources is not None or spec.resource_templates is not None:
        handlers.update(_resource_handlers(answers, spec))
    if spec.prompts is not None:
        handlers.update(_prompt_handlers(answers, spec))
    if serves_tasks(spec):
        handlers["lifespan"] = lambda _server: task_lifespan(spec)
    server = Server(spec.name, version=spec.version, instructions=spec.instructions, **handlers)
    # The SDK's one default middleware opens an OpenTelemetry span per request, a no-op until an exporter is
    # installed, which the mock never does; dropping it (the SDK's documented opt-out) saves ~6% of a call's CPU.
    server.middleware.clear()
    if serves_tasks(spec):
        server.middleware.append(_tasks)
    return server


async def _tasks(ctx: Ctx, call_next: Any) -> Any:
    """Task-augmented calls and `tasks/*`, served by the connection's TaskStore (`mock.tasks`)."""
    return await ctx.lifespan_context.middleware(ctx, call_next)


async def _apply_fault(state: FaultState) -> None:
    action = state.next_call()
    if action.delay is None:
        await anyio.sleep_forever()
    elif action.delay:
        await anyio.sleep(action.delay)
    if action.crash:
        crash(state.crash_line())
    if action.fail:
        raise MCPError(types.INTERNAL_ERROR, state.message())


def _resource_handlers(answers: Answers, spec: MockSpec) -> dict[str, Any]:
    listing = [r.listing for r in spec.resources or []]
    result = types.ListResourcesResult(resources=_parse(types.Resource, listing, spec.source))

    async def list_resources(ctx: Ctx, params: types.PaginatedRequestParams | None) -> types.ListResourcesResult:
        return result

    async def read_resource(ctx: Ctx, params: types.ReadResourceRequestParams) -> types.ReadResourceResult:
        try:
            return types.ReadResourceResult.model_validate(answers.read_resource(str(params.uri)))
        except NotFound as exc:
            raise MCPError(types.INVALID_PARAMS, str(exc)) from None

    handlers = {"on_list_resources": list_resources, "on_read_resource": read_resource}
    if spec.resource_templates is not None:
        templates = types.ListResourceTemplatesResult(
            resource_templates=_parse(types.ResourceTemplate, spec.resource_templates, spec.source)
        )

        async def list_templates(
            ctx: Ctx, params: types.PaginatedRequestParams | None
        ) -> types.ListResourceTemplatesResult:
            return templates

        handlers["on_list_resource_templates"] = list_templates
    return handlers


def _prompt_handlers(answers: Answers, spec: MockSpec) -> dict[str, Any]:
    listing = [p.listing for p in spec.prompts or []]
    result = types.ListPromptsResult(prompts=_parse(types.Prompt, listing, spec.source))

    async def list_prompts(ctx: Ctx, params: types.PaginatedRequestParams | None) -> types.ListPromptsResult:
        return result

    async def get_prompt(ctx: Ctx, params: types.GetPromptRequestParams) -> types.GetPromptResult:
        try:
            return types.GetPromptResult.model_validate(answers.get_prompt(params.name, params.arguments))
        except (NotFound, BadArguments) as exc:
            raise MCPError(types.INVALID_PARAMS, str(exc)) from None

    return {"on_list_prompts": list_prompts, "on_get_prompt": get_prompt}


def _parse(model: Any, items: list[dict[str, Any]], source: str) -> list[Any]:
    """Wire dicts as SDK models; a snapshot entry the SDK rejects is the user's mistake, not a crash."""
    out, problems = [], []
    kind = model.__name__.lower() + "s"
    for i, item in enumerate(items):
        try:
            out.append(model.model_validate(item))
        except ValidationError as exc:
            for err in exc.errors(include_url=False):
                at = where((f"{kind}[{i}]", *err["loc"]))
                problems.append(Problem(source, 0, 0, f"{at}: {err['msg'][0].lower()}{err['msg'][1:]}"))
    if problems:
        raise UserError(problems)
    return out


async def serve(server: Server[Any], tasks: bool = False) -> None:
    """Serve over stdin/stdout until stdin closes.

    With `tasks`, only the 2025-11-25 handshake is served (the protocol version that defines tasks; a client that
    probes for 2026-07-28 falls back to it) and the `tasks` capability is declared.
    """
    from mcp.server.runner import serve_loop

    options = server.create_initialization_options()
    async with wire() as (read_stream, write_stream):
        if not tasks:
            await server.run(read_stream, write_stream, options)
            return
        options.capabilities.tasks = capability()
        async with server.lifespan(server) as state:
            await serve_loop(server, read_stream, write_stream, lifespan_state=state, init_options=options)


def run(spec: MockSpec, fault: Fault) -> None:
    """Build the server, log one line to stderr, and serve until the client goes away."""
    server = build(spec, fault)
    counts = ", ".join(plural(len(items), kind) for kind, items in _primitives(spec) if items is not None)
    print(f"mcptest mock: serving {spec.name} ({counts or 'nothing'}); fault: {fault}", file=sys.stderr)
    anyio.run(serve, server, serves_tasks(spec))


def _primitives(spec: MockSpec) -> list[tuple[str, list[Any] | None]]:
    return [("tool", spec.tools), ("resource", spec.resources), ("prompt", spec.prompts)]
