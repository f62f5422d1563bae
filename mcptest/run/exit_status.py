"""The exit code of a finished `mcptest run`, from its result (the codes are `mcptest.core.exit_codes.ExitCode`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from mcptest.core.exit_codes import ExitCode

if TYPE_CHECKING:
    from mcptest.run.runner import RunResult


def run_exit_code(result: RunResult) -> ExitCode:
    """POLICY if `--max-cost` capped the run, else OK if ok, NOT_READY if only late servers failed, else FAILED."""
    if result.capped:  # the summary says ok: false (capped), so the JSON verdict and the exit code agree
        return ExitCode.POLICY
    if result.report.ok:
        return ExitCode.OK
    return ExitCode.NOT_READY if result.not_ready else ExitCode.FAILED
