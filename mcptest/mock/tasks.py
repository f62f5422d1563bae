"""Tools served as tasks (MCP 2025-11-25): `tools/call` with `task` creates one, `tasks/*` follow, fetch and cancel it.

A middleware in front of the SDK server's handlers, because the SDK (2.3) serves tasks only as types: it checks every
`tools/call` answer as a CallToolResult and has no `tasks/*` methods. The call itself still runs through the mock's
`tools/call` handler (faults included), in the background, and its answer is what `tasks/result` returns.
"""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, suppress
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import Any

import anyio
from mcp import types
from mcp.shared.exceptions import MCPError

from mcptest.mock.spec import MockSpec
from mcptest.server.tasks import TERMINAL, task_support

POLL_INTERVAL_MS = 100
"""The `pollInterval` the mock suggests."""
TTL_MS = 300_000
"""How long the mock keeps a task (it never deletes one before the connection ends)."""
RELATED_TASK = "io.modelcontextprotocol/related-task"


def serves_tasks(spec: MockSpec) -> bool:
    """Whether any tool may run as a task (then the mock speaks 2025-11-25, the version that defines tasks)."""
    return any(task_support(t.listing) != "forbidden" for t in spec.tools or ())


def capability() -> Any:
    """The server capability that lets clients call tools as tasks (and list and cancel them)."""
    import mcp_types

    return mcp_types.ServerTasksCapability(
        list=mcp_types.TasksListCapability(),
        cancel=mcp_types.TasksCancelCapability(),
        requests=mcp_types.ServerTasksRequestsCapability(tools=mcp_types.TasksToolsCapability(call={})),
    )


@dataclass
class _Task:
    state: dict[str, Any]
    done: anyio.Event = field(default_factory=anyio.Event)
    scope: anyio.CancelScope = field(default_factory=anyio.CancelScope)
    result: dict[str, Any] | None = None
    error: MCPError | None = None


class TaskStore:
    """The connection's tasks, and the task group their calls run in."""

    def __init__(self, spec: MockSpec, group: anyio.abc.TaskGroup) -> None:
        self._support = {t.name: task_support(t.listing) for t in spec.tools or ()}
        self._group = group
        self._tasks: dict[str, _Task] = {}

    async def middleware(self, ctx: Any, call_next: Any) -> Any:
        """Serve task-augmented `tools/call` and `tasks/*`; pass everything else on."""
        params = dict(ctx.params or {})
        if ctx.method == "tools/call":
            support = self._support.get(str(params.get("name")), "forbidden")
            if "task" in params:
                if support == "forbidden":
                    raise MCPError(types.METHOD_NOT_FOUND, f"Tool {params.get('name')} does not support tasks")
                return await self._create(ctx, call_next, params)
            if support == "required":
                message = f"Tool {params.get('name')} requires task augmentation (taskSupport: 'required')"
                raise MCPError(types.METHOD_NOT_FOUND, message)
        handler = {"tasks/get": self._get, "tasks/result": self._result, "tasks/cancel": self._cancel}.get(ctx.method)
        if handler is not None:
            return await handler(self._find(params.get("taskId")))
        if ctx.method == "tasks/list":
            return {"tasks": [t.state for t in self._tasks.values()]}
        return await call_next(ctx)

    async def _create(self, ctx: Any, call_next: Any, params: dict[str, Any]) -> dict[str, Any]:
        now = _now()
        state: dict[str, Any] = {
            "taskId": uuid.uuid4().hex,
            "status": "working",
            "statusMessage": "The call is running.",
        }
        state |= {"createdAt": now, "lastUpdatedAt": now, "ttl": TTL_MS, "pollInterval": POLL_INTERVAL_MS}
        task = _Task(state)
        self._tasks[state["taskId"]] = task
        plain = replace(ctx, params={k: v for k, v in params.items() if k != "task"})
        self._group.start_soon(self._run, task, ctx.session, call_next, plain)
        return {"task": dict(state)}

    async def _run(self, task: _Task, session: Any, call_next: Any, ctx: Any) -> None:
        with task.scope:
            try:
                result = await call_next(ctx)
                task.result = result if isinstance(result, dict) else _wire(result)
            except MCPError as exc:
                task.error = exc
        if task.state["status"] == "cancelled":
            task.done.set()
            return
        failed = task.error is not None or bool((task.result or {}).get("isError"))
        message = "The call failed." if failed else "The call finished."
        await self._move(task, session, "failed" if failed else "completed", message)
        task.done.set()

    async def _move(self, task: _Task, session: Any, status: str, message: str) -> None:
        import mcp_types

        task.state |= {"status": status, "statusMessage": message, "lastUpdatedAt": _now()}
        note = mcp_types.TaskStatusNotification(
            params=mcp_types.TaskStatusNotificationParams.model_validate(task.state)
        )
        with suppress(anyio.BrokenResourceError, anyio.ClosedResourceError):  # the client left
            await session.send_notification(note)

    def _find(self, task_id: Any) -> _Task:
        task = self._tasks.get(str(task_id))
        if task is None:
            raise MCPError(types.INVALID_PARAMS, f"Failed to retrieve task: Task not found ({task_id})")
        return task

    async def _get(self, task: _Task) -> dict[str, Any]:
        return dict(task.state)

    async def _result(self, task: _Task) -> dict[str, Any]:
        await task.done.wait()
        if task.error is not None:
            raise task.error
        if task.result is None:
            raise MCPError(types.INVALID_PARAMS, f"Task {task.state['taskId']} was cancelled: it has no result")
        meta = {**task.result.get("_meta", {}), RELATED_TASK: {"taskId": task.state["taskId"]}}
        return {**task.result, "_meta": meta}

    async def _cancel(self, task: _Task) -> dict[str, Any]:
        if task.state["status"] in TERMINAL:
            raise MCPError(types.INVALID_PARAMS, f"Task {task.state['taskId']} is already {task.state['status']}")
        task.state |= {"status": "cancelled", "statusMessage": "Cancelled by the client.", "lastUpdatedAt": _now()}
        task.scope.cancel()
        return dict(task.state)


@asynccontextmanager
async def task_lifespan(spec: MockSpec) -> AsyncIterator[TaskStore]:
    """A task store whose calls end with the connection."""
    async with anyio.create_task_group() as group:
        yield TaskStore(spec, group)
        group.cancel_scope.cancel()


def _wire(model: Any) -> dict[str, Any]:
    data: dict[str, Any] = model.model_dump(mode="json", by_alias=True, exclude_none=True)
    return data


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")
