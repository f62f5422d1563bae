"""The `tool_quality:` gate: a catalog's TDQS scores, lint counts, smells and tokens as named targets."""

from __future__ import annotations

import re
import time
from typing import TYPE_CHECKING, Any

from mcptest.checks.lint.engine import QualityReport, assess
from mcptest.checks.lint.registry import configure, select_rules, selection_label
from mcptest.expect.assertions import TargetMissing, check, resolve
from mcptest.expect.failure import AssertionFailure
from mcptest.records.catalog import Catalog
from mcptest.records.report import Status, TestResult
from mcptest.run.rows import elapsed_ms, failed_row
from mcptest.suite.blocks.tool_quality import DEFAULT_GATE, TARGET_ROOTS, ToolQualityBlock, default_gate

if TYPE_CHECKING:
    from mcptest.server.session import SessionPool
    from mcptest.suite.models import Suite

_TOOL_TARGET = re.compile(r"""^tool\[(?:"(?P<dq>[^"]*)"|'(?P<sq>[^']*)')\]\.(?P<field>\w+)$""")

__all__ = ["DEFAULT_GATE", "TARGET_ROOTS", "ToolQualityBlock", "default_gate", "evaluate", "lookup", "quality_targets"]


def quality_targets(report: QualityReport) -> dict[str, Any]:
    """Every target value: the catalog summary, `tool` -> name -> {score, tokens, critical_count, ...}, and
    `rules` -> code -> how many findings that rule made (`rules["SCH-005"]`)."""
    tools: dict[str, Any] = {}
    for t in report.tools:
        per_tool = QualityReport((t,), report.rules)
        tools.setdefault(t.name, {"score": t.score, "tokens": t.tokens} | _counts(per_tool) | t.heuristics)
    per_rule = {code: 0 for code in report.rules}
    for finding in report.findings:
        if finding.rule in per_rule:
            per_rule[finding.rule] += 1
    return report.summary() | {"tool": tools, "rules": per_rule}


def lookup(targets: dict[str, Any], path: str) -> Any:
    """The value of a target path: `tool["name"].score` (any tool name) or a dotted path like `smells.verbose`."""
    m = _TOOL_TARGET.match(path)
    if m is None:
        return resolve(targets, path)
    name = m.group("dq") if m.group("dq") is not None else m.group("sq")
    if name not in targets["tool"]:
        raise TargetMissing(f"no tool named {name!r} in the catalog ({len(targets['tool'])} tools)")
    per_tool = targets["tool"][name]
    if m.group("field") not in per_tool:
        raise TargetMissing(f"tool[{name!r}].{m.group('field')} is absent (fields: {', '.join(per_tool)})")
    return per_tool[m.group("field")]


def evaluate(catalog: Catalog, block: ToolQualityBlock) -> tuple[dict[str, Any], list[AssertionFailure]]:
    """Score `catalog`, then check the block's assertions: the targets and every failed assertion (none = PASS).

    The counts are over the rules the block selects (`select`/`ignore`/`strict`; the default tier otherwise);
    every failure message names that selection.
    """
    chosen = select_rules(block.select or (), block.ignore or (), strict=block.strict)
    targets = quality_targets(assess(catalog, configure(chosen, server_managed=block.server_managed)))
    label = selection(block)
    failures = check(block.assertions, lambda path: lookup(targets, path))
    return targets, [f.model_copy(update={"message": f"{f.message} (rules: {label})"}) for f in failures]


def selection(block: ToolQualityBlock) -> str:
    """The rule selection a block's counts are over, as a report shows it: `default`, `strict; ignore SCH`, ..."""
    return selection_label(block.select or (), block.ignore or (), strict=block.strict)


def _counts(report: QualityReport) -> dict[str, int]:
    summary = report.summary()
    keys = ("critical_count", "warning_count", "schema_criticals", "schema_warnings", "smell_total")
    return {k: summary[k] for k in keys}


def quality_fields(block: ToolQualityBlock, file: str) -> dict[str, Any]:
    """The report fields that say what the block is."""
    return dict(name=block.name, server=block.server, file=file, line=block._line, tags=block.tags, kind="quality")


async def run_quality_block(block: ToolQualityBlock, pool: SessionPool, suite: Suite) -> tuple[TestResult, bool]:
    """Score the server's live catalog and check the block's gate (its default gate when `expect` is empty)."""
    from mcptest.core.errors import UserError
    from mcptest.server.session import ServerUnavailable

    start = time.perf_counter()
    base = quality_fields(block, suite.file)
    try:
        session = await pool.get(block.server)
        catalog = await session.catalog()
    except ServerUnavailable as exc:
        timed_out = "no handshake within" in exc.message
        return failed_row(base, start, exc.message, exc.stderr), timed_out
    except UserError as exc:
        return failed_row(base, start, f"the server's tools/list is malformed: {exc}", ""), False
    targets, failures = evaluate(catalog, block)
    figures: dict[str, float | int | None] = {
        k: v for k, v in targets.items() if isinstance(v, int | float) and not isinstance(v, bool)
    }
    status = Status.FAILED if failures else Status.PASSED
    result = TestResult(
        **base,
        status=status,
        duration_ms=elapsed_ms(start),
        failures=failures,
        targets=figures,
        selection=selection(block),
    )
    return result, False
