"""The kinds of test a run makes before its agent tests, as one table: per suite model, the report fields that
say what a test is and the function that runs it. A new kind of test is a module in `run/` and a row here."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from mcptest.run.call_tests import CallTest, call_fields, run_call_test
from mcptest.run.security import run_security_block, security_fields
from mcptest.suite.blocks.conformance import ConformanceBlock
from mcptest.suite.blocks.fuzz import FuzzBlock
from mcptest.suite.blocks.security import SecurityBlock
from mcptest.suite.blocks.tool_quality import ToolQualityBlock
from mcptest.suite.models import ToolTest
from mcptest.suite.primitives import PromptTest, ResourceTest

if TYPE_CHECKING:
    from mcptest.records.coverage import Tally
    from mcptest.records.report import TestResult
    from mcptest.server.session import SessionPool
    from mcptest.suite.models import Suite

Test = CallTest | ToolQualityBlock | SecurityBlock | FuzzBlock | ConformanceBlock


@dataclass(frozen=True)
class Kind:
    """How one kind of test is reported and run."""

    fields: Callable[[Any, str], dict[str, Any]]
    """The report fields of a test of this kind in a suite file: name, kind, what it calls, where it is written."""
    run: Callable[[Any, SessionPool, Suite], Awaitable[tuple[TestResult, bool]]]
    """Run one test: its row, and whether it failed only because its server never came up."""
    counted: Callable[[Any, SessionPool, Suite, Tally], Awaitable[tuple[TestResult, bool]]] | None = None
    """For a kind that calls a server: run one test, feeding what it reached into the run's coverage tally."""


def _quality_fields(block: ToolQualityBlock, file: str) -> dict[str, Any]:
    from mcptest.run.tool_quality import quality_fields  # the lint rules load only for a suite with this block

    return quality_fields(block, file)


async def _run_quality(block: ToolQualityBlock, pool: SessionPool, suite: Suite) -> tuple[TestResult, bool]:
    from mcptest.run.tool_quality import run_quality_block

    return await run_quality_block(block, pool, suite)


def _fuzz_fields(block: FuzzBlock, file: str) -> dict[str, Any]:
    return dict(name=block.name, kind="fuzz", file=file, line=block._line, tags=block.tags, server=block.server)


async def _run_fuzz(block: FuzzBlock, pool: SessionPool, suite: Suite) -> tuple[TestResult, bool]:
    from mcptest.run.fuzz import run_fuzz_block  # the fuzzer loads only for a suite with this block

    return await run_fuzz_block(block, _fuzz_fields(block, suite.file), suite)


async def _count_fuzz(block: FuzzBlock, pool: SessionPool, suite: Suite, tally: Tally) -> tuple[TestResult, bool]:
    from mcptest.run.fuzz import run_fuzz_block

    return await run_fuzz_block(block, _fuzz_fields(block, suite.file), suite, tally)


def _conformance_fields(block: ConformanceBlock, file: str) -> dict[str, Any]:
    return dict(name=block.name, kind="conformance", file=file, line=block._line, tags=block.tags, server=block.server)


async def _run_conformance(block: ConformanceBlock, pool: SessionPool, suite: Suite) -> tuple[TestResult, bool]:
    from mcptest.run.conformance import run_conformance_block  # the checks load only for a suite with this block

    return await run_conformance_block(block, _conformance_fields(block, suite.file), suite)


async def _count_conformance(
    block: ConformanceBlock, pool: SessionPool, suite: Suite, tally: Tally
) -> tuple[TestResult, bool]:
    from mcptest.run.conformance import run_conformance_block

    return await run_conformance_block(block, _conformance_fields(block, suite.file), suite, tally)


KINDS: dict[type, Kind] = {
    ToolTest: Kind(call_fields, run_call_test, run_call_test),
    ResourceTest: Kind(call_fields, run_call_test, run_call_test),
    PromptTest: Kind(call_fields, run_call_test, run_call_test),
    ToolQualityBlock: Kind(_quality_fields, _run_quality),
    SecurityBlock: Kind(security_fields, run_security_block),
    FuzzBlock: Kind(_fuzz_fields, _run_fuzz, _count_fuzz),
    ConformanceBlock: Kind(_conformance_fields, _run_conformance, _count_conformance),
}


def report_fields(test: Test, file: str) -> dict[str, Any]:
    """The report fields of a test: what a row of it says before it runs (`--list` reads its kind)."""
    return KINDS[type(test)].fields(test, file)


async def run_test(test: Test, pool: SessionPool, suite: Suite, tally: Tally | None = None) -> tuple[TestResult, bool]:
    """Run one test of any kind in the table; a kind that calls a server feeds `tally`, when given."""
    kind = KINDS[type(test)]
    if tally is not None and kind.counted is not None:
        return await kind.counted(test, pool, suite, tally)
    return await kind.run(test, pool, suite)
