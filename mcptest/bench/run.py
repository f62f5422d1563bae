"""Run a tool-bench: score the baseline, apply each mutation alone, measure what moved."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from mcptest.bench.report import Accuracy, BenchReport, CatalogFigures, IntentResult, MutationResult
from mcptest.bench.selector import Gold, Outcomes, Selector
from mcptest.bench.significance import ALPHA, mcnemar_exact
from mcptest.bench.spec import Bench, Mutation
from mcptest.checks.lint import QualityReport, ToolReport, assess
from mcptest.checks.lint.registry import PASS_RULE
from mcptest.checks.lint.smells import smell_counts
from mcptest.core.stats import wilson_interval
from mcptest.records.catalog import Catalog, Tool

if TYPE_CHECKING:
    import numpy as np


def whitespace_tokens(tool: Tool) -> int:
    """The spec's estimate of a tool's cost: whitespace-separated words of its name, its description and its
    inputSchema as `json.dumps` writes it (with `, ` and `: `). Cheap and tokenizer-free, and it undercounts
    (cl100k_base splits words and punctuation further), which is why the report puts cl100k tokens beside it."""
    return len(f"{tool.name} {tool.description} {json.dumps(tool.input_schema)}".split())


def run_bench(bench: Bench, selector: Selector, min_drop: float | None = None) -> BenchReport:
    """The baseline figures, then one result per mutation (each applied alone to the baseline catalog)."""

    tools = bench.catalog.tools
    column = {t.name: j for j, t in enumerate(tools)}
    gold = Gold([[column[name] for name in intent.gold] for intent in bench.intents], len(tools))
    base = selector.outcomes(tools, [i.query for i in bench.intents], gold)
    quality = assess(bench.catalog)
    results = [_mutation(bench, selector, mut, column[mut.tool], base, quality) for mut in bench.mutations]
    max_drop = max((r.drop for r in results), default=None)
    passed = None if min_drop is None else max_drop is not None and max_drop >= min_drop
    return BenchReport(
        spec=bench.path,
        selector=selector.name,
        catalog=_catalog_figures(bench.catalog, quality),
        baseline=accuracy(base.correct),
        intents=[_intent(bench, i, base) for i in range(len(bench.intents))],
        mutations=results,
        max_drop=max_drop,
        min_drop=min_drop,
        passed=passed,
    )


def accuracy(correct: np.ndarray) -> Accuracy:
    """Accuracy = correct / total with its 95% Wilson interval (`stats.wilson_interval`)."""
    hits, total = int(correct.sum()), len(correct)
    low, high = wilson_interval(hits, total)
    if total and hits == total:  # the ends are exact: stats.wilson_interval gives 1 - 1e-16 here
        high = 1.0
    return Accuracy(
        correct=hits, total=total, accuracy=hits / total if total else 0.0, wilson_low=low, wilson_high=high
    )


def _mutation(
    bench: Bench, selector: Selector, mut: Mutation, index: int, base: Outcomes, quality: QualityReport
) -> MutationResult:
    import numpy as np

    before, edited = bench.catalog.tools[index], mut.apply(bench.catalog.tools[index])
    rows, correct = selector.mutated(index, edited)
    after = base.correct.copy()
    after[rows] = correct
    lost, gained = np.flatnonzero(base.correct & ~after), np.flatnonzero(~base.correct & after)
    old, new = quality.tools[index], assess(Catalog((edited,))).tools[0]
    p_value = mcnemar_exact(len(lost), len(gained))
    return MutationResult(
        **mut.model_dump(),
        accuracy=accuracy(after),
        drop=(int(base.correct.sum()) - int(after.sum())) / len(after),
        lost=lost.tolist(),
        gained=gained.tolist(),
        p_value=p_value,
        significant=p_value < ALPHA,
        tdqs_before=old.score,
        tdqs_after=new.score,
        smells_introduced=_more_smells(old, new),
        rules_introduced=sorted(_rules(new) - _rules(old)),
        tokens_removed=old.tokens - new.tokens,
        whitespace_tokens_removed=whitespace_tokens(before) - whitespace_tokens(edited),
    )


def _more_smells(old: ToolReport, new: ToolReport) -> dict[str, int]:
    before, after = smell_counts(old.findings), smell_counts(new.findings)
    return {smell: after[smell] - before[smell] for smell in after if after[smell] > before[smell]}


def _rules(report: ToolReport) -> set[str]:
    return {f.rule for f in report.findings if f.rule != PASS_RULE}


def _catalog_figures(catalog: Catalog, quality: QualityReport) -> CatalogFigures:
    summary = quality.summary()
    return CatalogFigures(
        tools=len(catalog.tools),
        tdqs_mean=quality.mean_score,
        tdqs_min=quality.min_score,
        smells=summary["smells"],
        smell_total=summary["smell_total"],
        whitespace_tokens=sum(whitespace_tokens(t) for t in catalog.tools),
        cl100k_tokens=quality.tokens,
    )


def _intent(bench: Bench, i: int, base: Outcomes) -> IntentResult:
    intent, pick = bench.intents[i], int(base.picks[i])
    return IntentResult(
        query=intent.query,
        gold=intent.gold,
        picked=bench.catalog.tools[pick].name if pick >= 0 else None,
        tied=int(base.tied[i]),
        correct=bool(base.correct[i]),
    )
