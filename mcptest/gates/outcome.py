"""What every gate shares: the context a gate runs in, and the GateOutcome it returns."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from mcptest.core.figures import plural
from mcptest.expect.assertions import Assertion, TargetMissing, check
from mcptest.expect.failure import AssertionFailure
from mcptest.suite.blocks.gate import GateConfig

Number = int | float
__all__ = ["plural"]  # re-exported: gates count things in their lines


@dataclass(frozen=True)
class GateContext:
    """What a gate may need beyond its own block: the row label, the sibling classes, the prompt."""

    label: str = ""
    classes: Sequence[Any] | None = field(default=None)
    prompt: str | None = None


class GateOutcome(BaseModel):
    """One gate block scored over a test's runs: targets, verdict, detail and the report lines."""

    model_config = ConfigDict(extra="forbid")

    block: str = Field(description="The YAML key of the block, e.g. `equal_function_sets`.")
    passed: bool = Field(description="No assertion failed and no built-in floor was breached.")
    targets: dict[str, Number] = Field(description='Every defined target, e.g. `{"tool_selection.f1": 50}`.')
    undefined: dict[str, str] = Field(
        default_factory=dict, description="Targets that are absent on this run, with why (never a division by zero)."
    )
    default_gate: list[str] = Field(
        default_factory=list,
        description="The default assertions that were applied, e.g. `tool_selection.f1 >= 50` (empty when `expect:` "
        "was given or the block has no default).",
    )
    failures: list[AssertionFailure] = Field(
        default_factory=list, description="Every breach, as a structured failure: assertions and built-in floors."
    )
    breaches: list[str] = Field(
        default_factory=list, description="Built-in floor conditions that failed, in words (each is also a failure)."
    )
    detail: dict[str, Any] = Field(default_factory=dict, description="Per-block figures and per-run rows.")
    lines: list[str] = Field(default_factory=list, description="The report lines, as the console prints them.")

    def value(self, target: str) -> Number:
        """The value of a target, or TargetMissing saying why it has none."""
        return lookup(self.block, self.targets, self.undefined)(target)


def lookup(block: str, targets: dict[str, Number], undefined: dict[str, str]) -> Callable[[str], Number]:
    """A resolver for `mcptest.expect.assertions.check` over one block's targets."""

    def resolve(target: str) -> Number:
        if target in targets:
            return targets[target]
        if target in undefined:
            raise TargetMissing(f"{target} is undefined: {undefined[target]}")
        known = ", ".join(sorted([*targets, *undefined]))
        raise TargetMissing(f"{target} is not a target of {block} (its targets: {known})")

    return resolve


def default(target: str, op: str, value: Number) -> Assertion:
    """A default-gate assertion such as `tool_selection.f1 >= 50`."""
    return Assertion.model_validate({"target": target, "matcher": {op: value}})


def breach(
    target: str, op: str, expected: Any, actual: Any, words: str, *, config: GateConfig | None = None, key: str = ""
) -> AssertionFailure:
    """A built-in floor that failed, as a structured failure: `words` is its `FLOOR ...` line; it points at the
    block's `key` (e.g. `min_selection_rate`) when the suite wrote one."""
    line, col = config._at.get(key, (None, None)) if config is not None else (None, None)
    return AssertionFailure(
        target=target, matcher=op, expected=expected, actual=actual, message=words, line=line, col=col
    )


def judged(
    block: str,
    targets: dict[str, Number],
    config: GateConfig,
    defaults: Sequence[Assertion],
    *,
    undefined: dict[str, str] | None = None,
    breaches: Sequence[str | AssertionFailure] = (),
    detail: dict[str, Any] | None = None,
) -> GateOutcome:
    """Apply `expect:` (or the defaults when it is omitted or empty) and build the outcome, lines still empty.

    Every breach becomes a failure too (a bare string is a failure of the block itself), so a failed gate never
    has an empty `failures`; failures without a place of their own (defaults, floors) point at the block.
    """
    undefined = undefined or {}
    applied = list(defaults) if not config.expect else []
    floors = [b if isinstance(b, AssertionFailure) else breach(block, "floor", None, None, b) for b in breaches]
    failures = check(config.expect or applied, lookup(block, targets, undefined)) + floors
    line, col = config._pos or (None, None)
    failures = [f if f.line is not None else f.model_copy(update={"line": line, "col": col}) for f in failures]
    return GateOutcome(
        block=block,
        passed=not failures,
        targets=targets,
        undefined=undefined,
        default_gate=[gate_text(a) for a in applied],
        failures=failures,
        breaches=[f.message for f in floors],
        detail=detail or {},
    )


def status(outcome: GateOutcome) -> str:
    """`[PASS]` or `[FAIL]`."""
    return "[PASS]" if outcome.passed else "[FAIL]"


def failure_lines(outcome: GateOutcome) -> list[str]:
    """One indented line per failed assertion (floors print their own lines): `  tool_selection.f1: 50 is not >= 80`."""
    floors = set(outcome.breaches)
    return [f"  {f.target}: {f.message}{at(f)}" for f in outcome.failures if f.message not in floors]


def at(failure: AssertionFailure) -> str:
    """` (line 13:9)` where the failed assertion is written, or nothing when it has no place."""
    return f" (line {failure.line}:{failure.col})" if failure.line is not None else ""


def gate_text(assertion: Assertion) -> str:
    """An assertion as a short formula: `tool_selection.f1 >= 50`."""
    return f"{assertion.target} {assertion.matcher.kind} {assertion.matcher.expected}"


def runs(traces: Sequence[Any]) -> Sequence[Any]:
    """The traces of a test's runs; a gate over zero runs is a bug in the caller, not a vacuous pass."""
    if not traces:
        raise ValueError("a gate needs at least one run")
    return traces
