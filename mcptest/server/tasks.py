"""Tool calls run as tasks, as MCP 2025-11-25 defines them (`execution.taskSupport`, `tasks/*`).

A task-augmented `tools/call` answers at once with a `CreateTaskResult`; the client then follows the task's status
(`tasks/get`, polled at the server's `pollInterval`, plus any `notifications/tasks/status` it sends), fetches the
result with `tasks/result` once the task is done or needs input, and cancels it (`tasks/cancel`) when the time runs
out. The SDK (2.3) knows tasks only as types: it validates every `tools/call` answer as a `CallToolResult` and drops
unknown notifications, so the create request goes out through the session's raw sender and the status notifications
arrive through a client extension.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import anyio

TASK_SUPPORT = ("forbidden", "optional", "required")
"""The values of a tool's `execution.taskSupport`; absent means `forbidden`."""
TERMINAL = frozenset({"completed", "failed", "cancelled"})
"""Statuses a task never leaves."""
TASK_TTL_MS = 60_000
"""The retention mcptest asks for when it creates a task (the server may choose another)."""
_POLL_DEFAULT_S = 0.5
_POLL_BOUNDS_S = (0.01, 5.0)
_CANCEL_BUDGET_S = 5.0
_STATUS_KEYS = ("status", "statusMessage")

Send = Callable[[str, dict[str, Any]], Awaitable[dict[str, Any]]]
"""Sends one request (method, params) and returns the wire result; raises on a protocol error or timeout."""


def task_support(tool: dict[str, Any] | None) -> str:
    """A listed tool's `execution.taskSupport`: `forbidden` when absent (the spec's default) or unreadable."""
    execution = (tool or {}).get("execution")
    value = execution.get("taskSupport") if isinstance(execution, dict) else None
    return value if value in TASK_SUPPORT else "forbidden"


def runs_tool_tasks(capabilities: dict[str, Any]) -> bool:
    """Whether the server declared `tasks.requests.tools.call`, without which no tool may be called as a task."""
    tasks = capabilities.get("tasks")
    requests = tasks.get("requests") if isinstance(tasks, dict) else None
    tools = requests.get("tools") if isinstance(requests, dict) else None
    return isinstance(tools, dict) and isinstance(tools.get("call"), dict)


@dataclass
class TaskRun:
    """What mcptest saw of one task: every status it reported, by poll or notification, in arrival order."""

    task_id: str = ""
    history: list[dict[str, Any]] = field(default_factory=list)
    polls: int = 0
    notifications: int = 0
    cancelled: bool = False
    """mcptest sent `tasks/cancel` (the task ran out of time)."""

    def saw(self, task: dict[str, Any], via: str) -> None:
        """Record a task state from `via` (`created`, `poll`, `notification`, `cancel`, `result`)."""
        entry = {k: task[k] for k in _STATUS_KEYS if isinstance(task.get(k), str)}
        entry["via"] = via
        self.history.append(entry)

    @property
    def status(self) -> str | None:
        """The last status reported."""
        return self.history[-1].get("status") if self.history else None

    def target(self) -> dict[str, Any]:
        """The `task` assertion target: its id, last status and message, distinct statuses in order, full history."""
        statuses: list[str] = []
        for entry in self.history:
            status = entry.get("status")
            if status and (not statuses or statuses[-1] != status):
                statuses.append(status)
        last = self.history[-1] if self.history else {}
        return {
            "taskId": self.task_id,
            "status": last.get("status"),
            "statusMessage": last.get("statusMessage"),
            "statuses": statuses,
            "history": self.history,
            "polls": self.polls,
            "notifications": self.notifications,
            "cancelled": self.cancelled,
        }


class TaskNotes:
    """`notifications/tasks/status` params by task id, filled by the session's client extension."""

    def __init__(self) -> None:
        self._by_task: dict[str, list[dict[str, Any]]] = {}
        self._listeners: dict[str, TaskRun] = {}

    async def on_status(self, params: Any) -> None:
        """The extension's handler: route one status notification to the run following its task."""
        wire = params.model_dump(mode="json", by_alias=True, exclude_none=True)
        task_id = str(wire.get("taskId", ""))
        run = self._listeners.get(task_id)
        if run is None:  # it may arrive before the create result names the task
            self._by_task.setdefault(task_id, []).append(wire)
            return
        run.notifications += 1
        run.saw(wire, "notification")

    def follow(self, run: TaskRun) -> None:
        """Route this task's notifications to `run`, those that came early first."""
        for wire in self._by_task.pop(run.task_id, []):
            run.notifications += 1
            run.saw(wire, "notification")
        self._listeners[run.task_id] = run

    def forget(self, run: TaskRun) -> None:
        """Stop routing notifications to `run`."""
        self._listeners.pop(run.task_id, None)


def client_extension(notes: TaskNotes) -> Any:
    """A client extension that hands every `notifications/tasks/status` to `notes`."""
    import mcp_types
    from mcp.client.extension import ClientExtension, NotificationBinding

    class TaskStatus(ClientExtension):
        identifier = "io.github.mcptest/task-status"

        def notifications(self) -> list[NotificationBinding[Any]]:
            params = mcp_types.TaskStatusNotificationParams
            return [
                NotificationBinding(method="notifications/tasks/status", params_type=params, handler=notes.on_status)
            ]

    return TaskStatus()


class TaskFailed(Exception):
    """The task could not be created, followed or finished; the message says which and why."""


async def run_task(
    send: Send, params: dict[str, Any], notes: TaskNotes, run: TaskRun, timeout_s: float
) -> dict[str, Any]:
    """Call a tool as a task and return its `tasks/result` (a CallToolResult in wire form).

    Follows the spec's requestor loop: poll `tasks/get` until the task is terminal or `input_required`, then call
    `tasks/result` (which blocks until the task ends, while the server's input requests are answered) and keep
    polling meanwhile. Out of time, the task is cancelled with `tasks/cancel` and TaskFailed says so.
    A server that ignores the `task` field and answers with a plain result is returned as it is.
    """
    created = await send("tools/call", {**params, "task": {"ttl": TASK_TTL_MS}})
    task = created.get("task")
    if not isinstance(task, dict) or not isinstance(task.get("taskId"), str):
        if "content" in created:
            return created
        raise TaskFailed(f"the server answered a task-augmented call with neither a task nor a result: {created}")
    run.task_id = task["taskId"]
    run.saw(task, "created")
    notes.follow(run)
    try:
        with anyio.move_on_after(timeout_s) as scope:
            return await _follow(send, run, _interval(task))
        assert scope.cancelled_caught
        await _cancel(send, run)
        raise TaskFailed(f"task {run.task_id} did not finish within {timeout_s:g}s: {_cancel_text(run)}")
    finally:
        notes.forget(run)


async def _follow(send: Send, run: TaskRun, interval: float) -> dict[str, Any]:
    while run.status not in TERMINAL and run.status != "input_required":
        await anyio.sleep(interval)
        interval = _interval(await _poll(send, run))
    failure: Exception | None = None
    async with anyio.create_task_group() as group:

        async def keep_polling(interval: float) -> None:
            while run.status not in TERMINAL:
                await anyio.sleep(interval)
                try:
                    interval = _interval(await _poll(send, run))
                except Exception:  # the status is a side view: `tasks/result` below decides the outcome
                    return

        group.start_soon(keep_polling, interval)
        try:
            result = await send("tasks/result", {"taskId": run.task_id})
        except Exception as exc:  # raised after the poller stops, unwrapped from the task group
            failure = exc
        group.cancel_scope.cancel()
    if failure is not None:
        raise failure
    if run.status not in TERMINAL:  # the result came before a poll saw the end
        await _poll(send, run)
    return result


async def _poll(send: Send, run: TaskRun) -> dict[str, Any]:
    task = await send("tasks/get", {"taskId": run.task_id})
    run.polls += 1
    run.saw(task, "poll")
    return task


async def _cancel(send: Send, run: TaskRun) -> None:
    run.cancelled = True
    with anyio.move_on_after(_CANCEL_BUDGET_S, shield=True):
        try:
            run.saw(await send("tasks/cancel", {"taskId": run.task_id}), "cancel")
        except Exception as exc:  # the cancel is best effort; its failure is part of the message
            run.history.append({"via": "cancel", "error": str(exc)[:200]})


def _cancel_text(run: TaskRun) -> str:
    last = run.history[-1] if run.history else {}
    if last.get("via") != "cancel":
        return "mcptest sent tasks/cancel and got no answer"
    if "error" in last:
        return f"mcptest sent tasks/cancel, which failed: {last['error']}"
    return f"mcptest cancelled it (tasks/cancel answered status '{last.get('status')}')"


def _interval(task: dict[str, Any]) -> float:
    """The server's suggested `pollInterval` in seconds, kept within bounds; a default when it suggests none."""
    ms = task.get("pollInterval")
    if not isinstance(ms, int | float) or isinstance(ms, bool):
        return _POLL_DEFAULT_S
    low, high = _POLL_BOUNDS_S
    return min(max(ms / 1000, low), high)
