"""Merge the reports of `mcptest load --shard K/N` run on N machines side by side into the report of the whole load:
histograms add bucket by bucket, so the merged percentiles are those of every call of every shard; so do each second's
(the shards' seconds are aligned on each one's own start: they ran together)."""

from __future__ import annotations

from collections.abc import Sequence

from mcptest.core import latency as hist
from mcptest.core.errors import Problem, UserError
from mcptest.load.model import Generator, LoadReport, Operation


def merge_loads(reports: Sequence[tuple[str, LoadReport]]) -> LoadReport:
    """One report from shard reports of the same suite (throughput over the longest shard: they ran together)."""
    if not reports:
        raise UserError([Problem("report merge", 0, 0, "no reports to merge: pass the shard reports")])
    first_path, first = reports[0]
    for path, other in reports[1:]:
        if (
            other.suite != first.suite
            or [o.name for o in other.operations] != [o.name for o in first.operations]
            or other.profile != first.profile
        ):
            raise UserError(
                [Problem(path, 0, 0, f"loaded other tests or profile than {first_path}: not shards of one load")]
            )
    elapsed = max(r.elapsed_s for _, r in reports)
    operations = [_merged([r.operations[i] for _, r in reports], elapsed) for i in range(len(first.operations))]
    generators = [r.generator for _, r in reports]
    cores = sum(g.cores for g in generators)
    rates = [r.rate for _, r in reports]
    return LoadReport(
        mcptest_version=first.mcptest_version,
        suite=first.suite,
        started_at=min(r.started_at for _, r in reports),
        users=sum(r.users for _, r in reports),
        duration_s=first.duration_s,
        profile=first.profile,
        ramp_s=first.ramp_s,
        rate=None if any(r is None for r in rates) else sum(r for r in rates if r is not None),
        elapsed_s=elapsed,
        interrupted=any(r.interrupted for _, r in reports),
        capped=any(r.capped for _, r in reports),
        operations=operations,
        overall=_merged([r.overall for _, r in reports], elapsed),
        generator=Generator(
            processes=sum(g.processes for g in generators),
            cores=cores,
            cpu_percent=round(sum(g.cpu_percent * g.cores for g in generators) / max(cores, 1), 1),
            saturated=any(g.saturated for g in generators),
        ),
        warnings=[w for _, r in reports for w in r.warnings],
    )


def _merged(parts: list[Operation], elapsed: float) -> Operation:
    from mcptest.load.series import combine

    histogram = hist.merged([p.histogram for p in parts])
    errors: dict[str, int] = {}
    for p in parts:
        for kind, n in p.errors.items():
            errors[kind] = errors.get(kind, 0) + n
    count = sum(p.count for p in parts)
    return Operation(
        name=parts[0].name,
        kind=parts[0].kind,
        weight=parts[0].weight,
        count=count,
        errors=dict(sorted(errors.items())),
        throughput_rps=round(count / max(elapsed, 1e-9), 1),
        histogram=hist.encode(histogram),
        series=combine([p.series for p in parts]),
        **hist.figures(histogram),
    )


def is_load_report(path: str) -> bool:
    """Whether the file is a `mcptest load` report (a run report has `results`, a load report `operations`)."""
    import json

    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except (OSError, ValueError):
        return False
    return isinstance(data, dict) and "operations" in data and "generator" in data


def read_load_report(path: str) -> LoadReport:
    """A saved load report; a one-line UserError when it is not one."""
    from pathlib import Path

    from pydantic import ValidationError

    try:
        return LoadReport.model_validate_json(Path(path).read_bytes())
    except OSError as exc:
        raise UserError([Problem(path, 0, 0, f"cannot read: {exc.strerror}")]) from None
    except ValidationError as exc:
        first = exc.errors()[0]
        at = ".".join(map(str, first["loc"])) or "(top)"
        raise UserError([Problem(path, 0, 0, f"not a mcptest load report: {at}: {first['msg']}")]) from None
