"""The comparison of two reports: the versioned delta document `mcptest report --compare --json` prints."""

from __future__ import annotations

from enum import StrEnum

from pydantic import BaseModel, ConfigDict, Field

from mcptest.records.report import Status

DELTA_FORMAT_VERSION = "1"

Number = float | int


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Verdict(StrEnum):
    """What one case's change means. Only `regression` makes `mcptest report --compare` exit 1."""

    UNCHANGED = "unchanged"
    """Same status and the same figures (wall time aside)."""
    CHANGED = "changed"
    """Same verdict-bearing status; some figure moved, or one run of a multi-run test flipped."""
    REGRESSION = "regression"
    """A flip to failed, or a rate figure that fell significantly."""
    IMPROVEMENT = "improvement"
    """A flip from failed to passed, or a rate figure that rose significantly."""
    NOISE = "noise"
    """A rate figure (or a flip resting on one) moved, but not significantly at the runs observed."""
    NEW = "new"
    """Only in the current report."""
    REMOVED = "removed"
    """Only in the baseline."""


class CaseKind(StrEnum):
    """What a case is."""

    TEST = "test"
    """One result row: a tool test, a quality block, or one run of an agent test."""
    RUNS = "runs"
    """All the runs of a multi-run agent test (per model), judged together on their pass count."""
    GATE = "gate"
    """One gate block of an agent test (per model), judged over its runs."""


class FailureKind(StrEnum):
    """What a failing case's history says about it (set when the run history is at hand)."""

    NEW = "new"
    """It did not fail in the baseline."""
    RECURRING = "recurring"
    """It failed in the baseline too."""
    FLAKY = "flaky"
    """Its flip rate over its last runs in the history is above the flaky threshold (`mcptest history flaky`)."""


class Figure(_Model):
    """One numeric figure of a case on both sides."""

    name: str = Field(description="`duration_ms`, a target name such as `tool_selection.pass_k`, or `pass_rate`.")
    baseline: Number | None = Field(description="The baseline's value (null when absent there).")
    current: Number | None = Field(description="The current value (null when absent there).")
    delta: Number | None = Field(description="current - baseline, when both are numbers.")


class RateTest(_Model):
    """A multi-run rate figure that moved, and whether the move is more than noise."""

    target: str = Field(description="The rate figure, e.g. `tool_selection.selection_rate`.")
    baseline_passes: int
    baseline_runs: int
    current_passes: int
    current_runs: int
    p_value: float = Field(description="Two-sided Fisher's exact test on the two pass counts.")
    significant: bool = Field(description="p_value < alpha.")
    runs_needed: int | None = Field(
        description="When not significant: about how many runs per report would tell a change this size from noise "
        "(two-sided alpha, 80% power; Fleiss with the Casagrande–Pike–Smith correction)."
    )
    note: str = Field(description="The finding in words.")


class CaseDelta(_Model):
    """One case matched (or not) across the two reports, identified by file, test, model, run and block."""

    kind: CaseKind
    file: str = Field(description="The suite file that defines the test.")
    test: str = Field(description="The test name.")
    model: str | None = Field(None, description="The model of an agent test.")
    run: int | None = Field(None, description="The 1-based run index of one run of a multi-run agent test.")
    block: str | None = Field(None, description="The gate block of a `gate` case.")
    line: int | None = Field(None, description="The test's line in `file` (the current report's, else the baseline's).")
    verdict: Verdict
    baseline_status: Status | None = Field(description="Null for a new case.")
    current_status: Status | None = Field(description="Null for a removed case.")
    figures: list[Figure] = Field(default_factory=list, description="Every numeric figure of the case.")
    rates: list[RateTest] = Field(default_factory=list, description="The rate figures that moved, tested.")
    note: str = Field("", description="Why the verdict, in words.")
    failure: FailureKind | None = Field(
        None,
        exclude_if=lambda v: v is None,
        description="For a case failing now: new, recurring or flaky (absent otherwise).",
    )

    @property
    def label(self) -> str:
        """`weather selection [gpt-5] #3` or `weather selection [gpt-5] · tool_selection`."""
        text = self.test + (f" [{self.model}]" if self.model else "") + (f" #{self.run}" if self.run else "")
        return text + (f" · {self.block}" if self.block else "") + (" (runs)" if self.kind == CaseKind.RUNS else "")


class Side(_Model):
    """What identifies one of the two reports."""

    suite: str
    started_at: str
    mcptest_version: str
    models: list[str] = Field(description="The models its agent tests ran.")


class Comparison(_Model):
    """The delta between a baseline report and a current one."""

    format_version: str = Field(default=DELTA_FORMAT_VERSION, description="Bumped on any incompatible change.")
    alpha: float = Field(description="The significance level of the rate tests.")
    baseline: Side
    current: Side
    suite_changed: bool = Field(description="The two reports ran different suite files.")
    models_added: list[str] = Field(default_factory=list)
    models_removed: list[str] = Field(default_factory=list)
    totals: dict[Verdict, int] = Field(description="How many cases got each verdict.")
    regressed: bool = Field(description="At least one case is a regression: `mcptest report` exits 1.")
    cases: list[CaseDelta] = Field(description="Every case: the current report's order, then the removed ones.")
