"""The targets a tool, resource or prompt test's assertions read, built from one call's outcome.

The runner, the Python API's `assert_that` and so the pytest plugin (whose suite items go through the runner and
whose `mcp_server` fixture goes through the Python API) all read a call through `call_targets` and `lookup`, so an
assertion passes and fails alike in a suite and in Python.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from mcptest.expect.assertions import TargetMissing, resolve
from mcptest.server.session import CallOutcome

UNNAMED_TARGETS = frozenset({"logs", "sampling_requests", "elicitation_requests"})
"""Targets filled by messages that do not say which request they belong to."""


def call_targets(outcome: CallOutcome, latency: dict[str, Any] | None = None) -> dict[str, Any]:
    """The roots an assertion on one call reads: its result or error, duration, what the server sent meanwhile, and
    (for a test with `latency:`) the figures of the call repeated."""
    return {
        "result": outcome.result,
        "error": outcome.error,
        "duration_ms": outcome.duration_ms,
        "logs": outcome.logs,
        "progress": outcome.progress,
        "sampling_requests": outcome.sampling_requests,
        "elicitation_requests": outcome.elicitation_requests,
        "task": outcome.task,
        "latency": latency,
    }


def lookup(outcome: CallOutcome, latency: dict[str, Any] | None = None) -> Callable[[str], Any]:
    """The `lookup` `expect.check` reads one call's target paths with; a path into a missing result says why."""
    targets = call_targets(outcome, latency)

    def read(path: str) -> Any:
        if target_root(path) == "result" and outcome.result is None:
            raise TargetMissing(f"there is no result: {outcome.error}")
        if target_root(path) == "task" and outcome.task is None:
            why = f": {outcome.error}" if outcome.error else " (set `task: true` on a task-optional tool)"
            raise TargetMissing(f"the call did not run as a task{why}")
        if target_root(path) == "latency" and latency is None:
            raise TargetMissing("the call was not measured: add `latency: { samples: N }` to the test")
        return resolve(targets, path)

    return read


def target_root(path: str) -> str:
    """The root a target path starts from: `logs` for `logs[0].data`."""
    return path.split(".")[0].split("[")[0]
