"""Token efficiency (`token_efficiency:`): selection F1 alongside what each correct selection cost."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from mcptest.checks.lint.surface import surface_parts
from mcptest.core.tokens import count_tokens
from mcptest.gates import outcome as gate
from mcptest.gates.equal_function_sets import score
from mcptest.gates.outcome import GateContext, GateOutcome, Number, default, judged, runs
from mcptest.records.catalog import Tool
from mcptest.records.trace import CatalogTool, Trace
from mcptest.suite.blocks.token_efficiency import TokenEfficiencyConfig

BLOCK = "token_efficiency"
DEFAULT_GATE = (default("token_efficiency.f1", ">=", 50),)
GRADES = ((90, "A"), (80, "B"), (70, "C"), (60, "D"))


@lru_cache(maxsize=8192)
def _tokens(name: str, description: str, schema_json: str) -> int:
    return count_tokens(name) + count_tokens(description) + count_tokens(schema_json)


def tool_tokens(tool: CatalogTool) -> int:
    """tokens(name) + tokens(description) + tokens(compact inputSchema JSON), counted as `mcptest doctor` counts a
    catalog (`mcptest.checks.lint.surface`), and cached per tool text so an unchanged tool is encoded once per
    process."""
    return _tokens(*surface_parts(Tool(tool.tool)))


def surface_tokens(catalog: Sequence[CatalogTool]) -> int:
    """The tool-surface tokens of the catalog a model was shown: the sum over its tools."""
    return sum(tool_tokens(t) for t in catalog)


def grade(f1: int) -> str:
    """A at 90, B at 80, C at 70, D at 60, F below."""
    return next((letter for floor, letter in GRADES if f1 >= floor), "F")


def evaluate(traces: Sequence[Trace], config: TokenEfficiencyConfig, context: GateContext) -> GateOutcome:
    """Selection F1 with the per-correct price of the tool surface (spec 000 and 004, "Token efficiency").

    `token_efficiency.f1` is the equal_function_sets F1 over these classes (micro-averaged over runs).
    `token_efficiency.correct_selections` = TP pooled over runs. `token_efficiency.tool_surface_tokens` = the
    cl100k_base tokens of the catalog the model saw (per tool: name + description + compact `inputSchema` JSON,
    distractors included), the largest over runs. The catalog is recorded in the trace, so this fires on replay too.
    `token_efficiency.tokens_per_correct` = (the surface tokens summed over runs, each run paying for its catalog
    once) / correct_selections, so it does not shrink as `runs:` grows. `token_efficiency.cost` = the dollars summed
    over runs (only when every run is priced); `token_efficiency.cost_per_correct` = cost / correct_selections.
    Undefined figures are absent, never a division by zero: per-correct figures with no correct selection, the
    surface without a recorded catalog, cost_per_correct on a free run. The grade (A >= 90, B >= 80, C >= 70,
    D >= 60, else F) is printed, not a target. Default gate: `token_efficiency.f1 >= 50`.
    """
    selection = score(config.classes, runs(traces))
    f1, correct = selection.percents()[2], selection.tp
    targets: dict[str, Number] = {"token_efficiency.f1": f1, "token_efficiency.correct_selections": correct}
    undefined: dict[str, str] = {}
    surfaces = [surface_tokens(t.catalog) for t in traces if t.catalog is not None]
    if len(surfaces) == len(traces):
        targets["token_efficiency.tool_surface_tokens"] = max(surfaces)
        _per_correct(targets, undefined, "token_efficiency.tokens_per_correct", sum(surfaces), correct, 2)
    else:
        why = "no tool catalog was recorded in the trace"
        undefined |= {"token_efficiency.tool_surface_tokens": why, "token_efficiency.tokens_per_correct": why}
    costs = [t.cost_usd for t in traces]
    if all(c is not None for c in costs):
        cost = round(sum(c for c in costs if c is not None), 6)
        targets["token_efficiency.cost"] = cost
        if cost == 0:
            undefined["token_efficiency.cost_per_correct"] = "the run was free"
        else:
            _per_correct(targets, undefined, "token_efficiency.cost_per_correct", cost, correct, 6)
    else:
        why = "the run's cost is unknown (unpriced or key-free provider)"
        undefined |= {"token_efficiency.cost": why, "token_efficiency.cost_per_correct": why}
    detail: dict[str, object] = {"grade": grade(f1)}
    catalogs = [t.catalog for t in traces if t.catalog is not None]
    if catalogs:  # per tool, for the largest catalog a run saw: what the HTML report charts
        widest = catalogs[surfaces.index(max(surfaces))]
        detail["tool_tokens"] = {".".join(filter(None, (t.server, t.tool["name"]))): tool_tokens(t) for t in widest}
    outcome = judged(BLOCK, targets, config, DEFAULT_GATE, undefined=undefined, detail=detail)
    outcome.lines = [summary_line(outcome, context.label), *gate.failure_lines(outcome)]
    return outcome


def _per_correct(
    targets: dict[str, Number], undefined: dict[str, str], key: str, total: float, correct: int, digits: int
) -> None:
    if correct:
        targets[key] = round(total / correct, digits)
    else:
        undefined[key] = "nothing was selected correctly"


def summary_line(outcome: GateOutcome, label: str) -> str:
    """`token efficiency [PASS] label: grade A, F1 100, 812 tool-surface tokens, 2 correct, 406 tokens per correct`."""
    t = outcome.targets
    parts = [f"grade {outcome.detail['grade']}", f"F1 {t['token_efficiency.f1']}"]
    if "token_efficiency.tool_surface_tokens" in t:
        parts.append(f"{t['token_efficiency.tool_surface_tokens']} tool-surface tokens")
    parts.append(f"{t['token_efficiency.correct_selections']} correct")
    if "token_efficiency.tokens_per_correct" in t:
        parts.append(f"{_show(t['token_efficiency.tokens_per_correct'])} tokens per correct")
    if "token_efficiency.cost" in t:
        parts.append(f"cost ${t['token_efficiency.cost']:.4f}")
    if "token_efficiency.cost_per_correct" in t:
        parts.append(f"${t['token_efficiency.cost_per_correct']:.4f} per correct")
    return f"token efficiency {gate.status(outcome)} {label}: {', '.join(parts)}"


def _show(value: Number) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)
