"""The `security:` gate: list the block's servers through the run's sessions, scan them together, check the block."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from mcptest.expect.assertions import check, resolve
from mcptest.records.report import Status, TestResult
from mcptest.run.rows import elapsed_ms, failed_row
from mcptest.suite.blocks.security import SecurityBlock

if TYPE_CHECKING:
    from mcptest.server.session import SessionPool
    from mcptest.suite.models import Suite


def security_fields(block: SecurityBlock, file: str) -> dict[str, Any]:
    """The report fields that say what the block is."""
    return dict(name=block.name, kind="security", file=file, line=block._line, tags=block.tags)


async def run_security_block(block: SecurityBlock, pool: SessionPool, suite: Suite) -> tuple[TestResult, bool]:
    """Scan the block's servers (all of the suite's when it names none); the flag says a server never came up."""
    from mcptest.checks.security.engine import scan
    from mcptest.checks.security.registry import select_sec_rules
    from mcptest.core.errors import UserError
    from mcptest.records.entries import from_catalog
    from mcptest.server.session import ServerUnavailable

    start = time.perf_counter()
    base = security_fields(block, suite.file)
    surfaces = []
    for name in block.servers or list(suite.servers):
        try:
            session = await pool.get(name)
            catalog = await session.catalog()
        except ServerUnavailable as exc:
            return failed_row(base, start, exc.message, exc.stderr), "no handshake within" in exc.message
        except UserError as exc:
            return failed_row(base, start, f"server '{name}': the tools/list is malformed: {exc}", ""), False
        surfaces.append(from_catalog(catalog, f"server '{name}'", name))
    report = scan(surfaces, select_sec_rules(block.select, block.ignore))
    targets = report.summary()
    failures = check(block.assertions, lambda path: resolve(targets, path))
    figures = {k: v for k, v in targets.items() if isinstance(v, int)}
    if failures and report.flagged:  # say which findings, not only how many
        found = "; ".join(f"{f.finding.rule} {f.entry.label} ({f.source}): {f.finding.message}" for f in report.flagged)
        failures[0] = failures[0].model_copy(update={"message": f"{failures[0].message}: {found}"})
    status = Status.FAILED if failures else Status.PASSED
    return TestResult(**base, status=status, duration_ms=elapsed_ms(start), failures=failures, targets=figures), False
