"""Merge the reports of `mcptest run --shard K/N` into the report of the whole run."""

from __future__ import annotations

from collections.abc import Sequence

from mcptest.core.errors import Problem, UserError
from mcptest.records.coverage import judge_coverage, merge_coverage
from mcptest.records.report import Report, TestResult, summarize

KIND_ORDER = {"tool": 0, "resource": 1, "prompt": 2, "quality": 3, "security": 4, "fuzz": 5}
"""The order `runner.select` runs tests in (then agent tests), each kind in file order."""


def merge_reports(reports: Sequence[tuple[str, Report]]) -> Report:
    """One report from shard reports of the same suite: results and gates in the order an unsharded run gives them,
    the summary recounted, the earliest start and the longest shard's wall time (shards run side by side); the
    coverage is the union of the shards' and its `coverage:` gates are judged on it."""
    if not reports:
        raise UserError([Problem("report merge", 0, 0, "no reports to merge: pass the shard reports")])
    first_path, first = reports[0]
    for path, other in reports[1:]:
        if other.suite != first.suite:
            raise UserError(
                [Problem(path, 0, 0, f"ran suite {other.suite!r}, but {first_path} ran {first.suite!r}: not shards")]
            )
    results = sorted((r for _, rep in reports for r in rep.results), key=_order)
    gates = sorted(
        (g for _, rep in reports for g in rep.gates if g.block != "coverage"), key=lambda g: (g.file, g.line)
    )
    coverage = merge_coverage(rep.coverage for _, rep in reports)
    gates += judge_coverage(coverage) if coverage is not None else []  # judged on the union, as a whole run does
    return Report(
        mcptest_version=first.mcptest_version,
        suite=first.suite,
        started_at=min(rep.started_at for _, rep in reports),
        duration_ms=max(rep.duration_ms for _, rep in reports),
        results=results,
        gates=gates,
        coverage=coverage,
        interrupted=any(rep.interrupted for _, rep in reports),
        summary=summarize(
            results,
            gates,
            capped=any(rep.summary.capped for _, rep in reports),
            interrupted=any(rep.interrupted for _, rep in reports),
            not_run=sum(rep.summary.not_run for _, rep in reports),
        ),
    )


def _order(result: TestResult) -> tuple[int, str, int]:
    # sorted() is stable: the rows of one agent test (its runs and models) keep the order their shard gave them
    return KIND_ORDER.get(result.kind, len(KIND_ORDER)), result.file, result.line
