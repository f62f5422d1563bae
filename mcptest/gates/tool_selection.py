"""The pass^k tool-selection floor (`tool_selection:`): how often N runs pick the expected tool, within budget."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

from mcptest.core.figures import shown
from mcptest.core.stats import median, rate
from mcptest.expect.failure import AssertionFailure
from mcptest.gates.outcome import GateContext, GateOutcome, Number, breach, failure_lines, judged, runs, status
from mcptest.records.trace import Trace
from mcptest.suite.blocks.tool_selection import ToolSelectionConfig

BLOCK = "tool_selection"
DEFAULT_GATE = ()


@dataclass(frozen=True)
class Run:
    """One run against the floor."""

    selected: bool
    tokens: int | None
    called: list[str]
    budget: int | None

    @property
    def over_budget(self) -> bool:
        """The run used more tokens than the budget allows."""
        return self.budget is not None and self.tokens is not None and self.tokens > self.budget

    @property
    def unmetered(self) -> bool:
        """A budget is set but the run recorded no token usage, so it cannot be checked."""
        return self.budget is not None and self.tokens is None

    @property
    def passed(self) -> bool:
        """pass^k counts the run: it selected the tool and stayed within the budget."""
        return self.selected and not self.over_budget and not self.unmetered


def score_run(trace: Trace, config: ToolSelectionConfig) -> Run:
    """Did the run call the expected tool (by bare name or qualified id), and how many tokens did it use?"""
    want = config.expected_tool
    selected = any(want in (c.name, c.id) for c in trace.tool_calls)
    tokens = trace.tokens.total if trace.tokens else None
    return Run(selected, tokens, list(dict.fromkeys(c.name for c in trace.tool_calls)), config.max_total_tokens)


def evaluate(traces: Sequence[Trace], config: ToolSelectionConfig, context: GateContext) -> GateOutcome:
    """The pass^k tool-selection floor (spec 000, "Pass^k tool selection").

    A run selects the tool when any call's name (or qualified id) equals `expected_tool`. Over N runs:
    selection rate = selected / N; pass^k = (runs that selected AND used at most `max_total_tokens`) / N, the
    headline; tokens = the median and the max of the runs' `tokens.total`. The floor passes when the
    `tool_selection.selection_rate` target >= 100 * `min_selection_rate` AND every run stayed within the budget when
    one is set: one run over the cap fails the floor even at 100% selection, and so does a run that recorded no
    token usage. The spec fixes no rounding for these rates, so they are exact percents (`mcptest.core.stats.rate`:
    159 of 200 is 79.5, never 80), the very numbers the floor and `expect:` compare. Targets:
    `tool_selection.selection_rate`,
    `tool_selection.pass_k`, `tool_selection.selected`, `tool_selection.runs`, `tool_selection.tokens_median`,
    `tool_selection.tokens_max` (absent when no run recorded tokens). No default gate: the floor is the gate.
    """
    scored = [score_run(t, config) for t in runs(traces)]
    n, selected = len(scored), sum(r.selected for r in scored)
    targets: dict[str, Number] = {
        "tool_selection.selection_rate": rate(selected, n),
        "tool_selection.pass_k": rate(sum(r.passed for r in scored), n),
        "tool_selection.selected": selected,
        "tool_selection.runs": n,
    }
    metered = [r.tokens for r in scored if r.tokens is not None]
    undefined = {}
    if metered:
        targets["tool_selection.tokens_median"] = _number(median(metered))
        targets["tool_selection.tokens_max"] = max(metered)
    else:
        undefined = {
            k: "no run recorded token usage" for k in ("tool_selection.tokens_median", "tool_selection.tokens_max")
        }
    rows = [
        {"run": i, "selected": r.selected, "tokens": r.tokens, "over_budget": r.over_budget, "called": r.called}
        for i, r in enumerate(scored, 1)
    ]
    breaches = floor_breaches(scored, config, context.label, targets)
    outcome = judged(
        BLOCK,
        targets,
        config,
        DEFAULT_GATE,
        undefined=undefined,
        breaches=breaches,
        # The counts behind the rate targets, so `report --compare` can test a change exactly.
        detail={
            "runs": rows,
            "passes": {
                "tool_selection.selection_rate": selected,
                "tool_selection.pass_k": sum(r.passed for r in scored),
            },
        },
    )
    outcome.lines = [summary_line(outcome, context.label), *outcome.breaches, *run_lines(scored, config, breaches)]
    outcome.lines += failure_lines(outcome)
    return outcome


def floor_breaches(
    scored: Sequence[Run], config: ToolSelectionConfig, label: str, targets: dict[str, Number]
) -> list[AssertionFailure]:
    """One structured failure per failed condition, its message the `FLOOR ...` line (empty when the floor holds)."""
    n, selected = len(scored), sum(r.selected for r in scored)
    out = []
    actual, floor = targets["tool_selection.selection_rate"], floor_percent(config.min_selection_rate)
    if actual < floor:
        out.append(
            breach(
                "tool_selection.selection_rate",
                ">=",
                floor,
                actual,
                f"FLOOR {label}: selection rate {shown(actual, [floor])}% is below the {floor}% floor "
                f"({selected} of {n} runs selected `{config.expected_tool}`)",
                config=config,
                key="min_selection_rate",
            )
        )
    over = [r for r in scored if r.over_budget]
    if over:
        worst = max(r.tokens or 0 for r in over)
        out.append(
            breach(
                "tool_selection.tokens_max",
                "<=",
                config.max_total_tokens,
                worst,
                f"FLOOR {label}: {len(over)} of {n} runs exceeded the {config.max_total_tokens}-token budget "
                f"(worst run {worst} tokens)",
                config=config,
                key="max_total_tokens",
            )
        )
    unmetered = sum(r.unmetered for r in scored)
    if unmetered:
        out.append(
            breach(
                "tool_selection.tokens_max",
                "<=",
                config.max_total_tokens,
                None,
                f"FLOOR {label}: {unmetered} of {n} runs recorded no token usage, so the "
                f"{config.max_total_tokens}-token budget cannot be checked",
                config=config,
                key="max_total_tokens",
            )
        )
    return out


def run_lines(scored: Sequence[Run], config: ToolSelectionConfig, breaches: Sequence[object]) -> list[str]:
    """`  run 7: did not select `get_weather`, called search`: every run pass^k missed, when the floor failed."""
    if not breaches:
        return []
    out = []
    for i, r in enumerate(scored, 1):
        why = []
        if not r.selected:
            why.append(f"did not select `{config.expected_tool}`, called {', '.join(r.called) or 'no tool'}")
        if r.over_budget:
            why.append(f"{r.tokens} tokens, over budget")
        if r.unmetered:
            why.append("no token usage recorded")
        if why:
            out.append(f"  run {i}: {'; '.join(why)}")
    return out


def summary_line(outcome: GateOutcome, label: str) -> str:
    """`tool-selection floor [PASS] weather selection: selection 9/10 (90%), pass^k 90%, tokens 1520 median / ...`."""
    t = outcome.targets
    tokens = (
        f"tokens {t['tool_selection.tokens_median']} median / {t['tool_selection.tokens_max']} max"
        if "tool_selection.tokens_max" in t
        else "tokens n/a"
    )
    return (
        f"tool-selection floor {status(outcome)} {label}: selection {t['tool_selection.selected']}/"
        f"{t['tool_selection.runs']} ({shown(t['tool_selection.selection_rate'])}%), pass^k "
        f"{shown(t['tool_selection.pass_k'])}%, "
        f"{tokens}"
    )


def _number(value: float) -> Number:
    return int(value) if value.is_integer() else value


def floor_percent(rate_: float) -> Number:
    """`min_selection_rate` as the percent the floor compares: 0.8 -> 80, 0.795 -> 79.5 (decimal, no float error)."""
    exact = Decimal(repr(rate_)) * 100
    return int(exact) if exact == exact.to_integral_value() else float(exact)
