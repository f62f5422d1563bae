"""What judges decided about one text: each juror's score and reason, and the verdict of the judge or jury."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from mcptest.expect.judge_spec import TOLERANCE, Criterion, JudgeSpec, JurySpec


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class CriterionScore(_Model):
    """One criterion as a judge scored it."""

    name: str
    weight: float = Field(description="The criterion's normalised weight (the weights sum to 1).")
    score: float = Field(description="The judge's score for this criterion, 0 to 1.")
    reason: str = Field(description="The judge's one-sentence reason.")


class JurorVerdict(_Model):
    """One judge model's answer about one text."""

    model: str = Field(description="The judge model.")
    score: float | None = Field(
        None,
        description="0 to 1: the weight-normalised mean of the criteria, else the judge's own score; "
        "null when the judge never answered with valid JSON.",
    )
    passed: bool = Field(description="`score` is at least the threshold (within 1e-9).")
    said_pass: bool | None = Field(None, description="The judge's own `pass` (shown; the threshold decides).")
    reason: str = Field(description="The judge's one-sentence reason, or why its answer could not be used.")
    criteria: list[CriterionScore] = Field(default_factory=list, description="Per-criterion scores, when given.")
    error: bool = Field(False, description="The answer was not valid JSON of the asked form, twice.")


class Judgement(_Model):
    """A `judge` or `jury` assertion's verdict on one run: the score, the reason, and every juror's answer."""

    expect: int = Field(description="The assertion's index in the test's `expect:`.")
    target: str = Field(description="The target whose text was judged.")
    kind: Literal["judge", "jury"]
    passed: bool = Field(description="The judge passed the text; for a jury, the quorum was met.")
    score: float | None = Field(
        None, description="The judge's score; for a jury, the share of jurors that passed it (0 to 1)."
    )
    threshold: float = Field(description="The score each judge needed.")
    quorum: float | None = Field(None, description="The share of jurors needed (juries only).")
    reason: str = Field(description="Why, in words: the judge's reason, or the jury's count and each juror's.")
    jurors: list[JurorVerdict] = Field(default_factory=list, description="Every judge model's answer, in order.")


def weighted(criteria: Sequence[Criterion], scores: dict[str, float]) -> tuple[float, list[float]]:
    """The overall score Σ wᵢ·sᵢ / Σ wᵢ and the normalised weights wᵢ / Σ w (the weights need not sum to 1)."""
    total = sum(c.weight for c in criteria)
    weights = [c.weight / total for c in criteria]
    return sum(w * scores[c.name] for w, c in zip(weights, criteria, strict=True)), weights


def at_least(value: float, floor: float) -> bool:
    """`value >= floor` with a tolerance of 1e-9, so 0.7000000000000001 and 0.6999999999999999 both reach 0.7."""
    return value >= floor - TOLERANCE


def decide(expect: int, target: str, spec: JudgeSpec | JurySpec, jurors: list[JurorVerdict]) -> Judgement:
    """A judge passes when its score reaches the threshold; a jury when the share of passing jurors reaches quorum."""
    if isinstance(spec, JudgeSpec):
        (only,) = jurors
        return Judgement(
            expect=expect,
            target=target,
            kind="judge",
            passed=only.passed,
            score=only.score,
            threshold=spec.threshold,
            reason=only.reason,
            jurors=jurors,
        )
    share = sum(j.passed for j in jurors) / len(jurors)
    each = "; ".join(f"{j.model} {_score(j.score)}: {j.reason}" for j in jurors)
    count = f"{sum(j.passed for j in jurors)} of {len(jurors)} jurors scored at least {spec.threshold:g}"
    return Judgement(
        expect=expect,
        target=target,
        kind="jury",
        passed=at_least(share, spec.quorum),
        score=share,
        threshold=spec.threshold,
        quorum=spec.quorum,
        reason=f"{count} (quorum {spec.quorum:g}): {each}",
        jurors=jurors,
    )


def failure(judgement: Judgement) -> str | None:
    """None when the verdict passed; otherwise why, with the score and the reason."""
    if judgement.passed:
        return None
    if judgement.kind == "jury":
        return f"the jury did not reach its quorum: {judgement.reason}"
    (juror,) = judgement.jurors
    if juror.error:
        return f"judge {juror.model} gave no usable verdict: {juror.reason}"
    return f"judge {juror.model} scored {_score(juror.score)} < threshold {judgement.threshold:g}: {juror.reason}"


def _score(score: float | None) -> str:
    return "no score" if score is None else f"{score:.3g}"
