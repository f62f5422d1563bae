"""Merge the reports of `mcptest run --shard K/N` into the report of the whole run."""

from __future__ import annotations

from collections.abc import Sequence

from mcptest.errors import Problem, UserError
from mcptest.report.model import Report, TestResult, summarize

KIND_ORDER = {"tool": 0, "quality": 1}
"""A run reports tool tests, then `tool_quality:` blocks, then agent tests, each group in file order."""


def merge_reports(reports: Sequence[tuple[str, Report]]) -> Report:
    """One report from shard reports of the same suite: results and gates in the order an unsharded run gives them,
    the summary recounted, the earliest start and the longest shard's wall time (shards run side by side)."""
    if not reports:
        raise UserError([Problem("report merge", 0, 0, "no reports to merge: pass the shard reports")])
    first_path, first = reports[0]
    for path, other in reports[1:]:
        if other.suite != first.suite:
            raise UserError(
                [Problem(path, 0, 0, f"ran suite {other.suite!r}, but {first_path} ran {first.suite!r}: not shards")]
            )
    results = sorted((r for _, rep in reports for r in rep.results), key=_order)
    gates = sorted((g for _, rep in reports for g in rep.gates), key=lambda g: (g.file, g.line))
    return Report(
        mcptest_version=first.mcptest_version,
        suite=first.suite,
        started_at=min(rep.started_at for _, rep in reports),
        duration_ms=max(rep.duration_ms for _, rep in reports),
        results=results,
        gates=gates,
        summary=summarize(results),
    )


def _order(result: TestResult) -> tuple[int, str, int]:
    # sorted() is stable: the rows of one agent test (its runs and models) keep the order their shard gave them
    return KIND_ORDER.get(result.kind, 2), result.file, result.line
