"""How a suite writes a judge: `{ judge: {rubric, threshold, model} }` and `{ jury: {..., quorum, jurors} }`."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, model_validator

TOLERANCE = 1e-9
"""Scores and quorums are compared with this slack: 0.7 is not exact in binary, and a weighted mean drifts."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Criterion(_Strict):
    """One thing the judge scores on its own, with a weight in the overall score."""

    name: str = Field(min_length=1, description="A short name, e.g. `accuracy`; the judge answers per name.")
    description: str = Field(min_length=1, description="What earns a high score on this criterion.")
    weight: float = Field(1.0, gt=0, description="Its share of the score, relative to the others' (normalised).")


class Juror(_Strict):
    """One model on a jury."""

    model: str = Field(min_length=1, description="The judge model id, e.g. `claude-haiku-4-5`.")
    provider: str | None = Field(None, description="`anthropic` or `openai`; default from the model id's prefix.")
    base_url: str | None = Field(None, pattern=r"^https?://", description="An Anthropic- or OpenAI-compatible URL.")


class _Graded(_Strict):
    rubric: str | None = Field(None, min_length=1, description="What a good text does, in words.")
    criteria: list[Criterion] | None = Field(
        None, min_length=1, description="Criteria scored one by one; the score is their weight-normalised mean."
    )
    threshold: float = Field(0.7, ge=0, le=1, description="The score (0 to 1) a text needs to pass.")

    @model_validator(mode="after")
    def _something_to_grade_by(self) -> _Graded:
        if self.rubric is None and self.criteria is None:
            raise ValueError("give the judge a `rubric:` (text) or `criteria:` (a list of {name, description})")
        names = [c.name for c in self.criteria or []]
        if len(set(names)) != len(names):
            raise ValueError("criterion names must be unique")
        return self


class JudgeSpec(_Graded):
    """`judge:` — one model grades the text; it passes when the score is at least `threshold`."""

    model: str = Field(min_length=1, description="The judge model id, e.g. `claude-haiku-4-5`.")
    provider: str | None = Field(None, description="`anthropic` or `openai`; default from the model id's prefix.")
    base_url: str | None = Field(None, pattern=r"^https?://", description="An Anthropic- or OpenAI-compatible URL.")

    def panel(self) -> list[Juror]:
        """The one judge."""
        return [Juror(model=self.model, provider=self.provider, base_url=self.base_url)]


class JurySpec(_Graded):
    """`jury:` — several models grade the text; it passes when at least `quorum` of them score `threshold` or more."""

    quorum: float = Field(0.5, gt=0, le=1, description="The share of jurors (0 to 1) that must pass the text.")
    jurors: list[Juror] = Field(min_length=1, description="The judge models, each asked the same question.")

    def panel(self) -> list[Juror]:
        """The jurors."""
        return list(self.jurors)


def panel(spec: JudgeSpec | JurySpec) -> list[Juror]:
    """The models asked, in order: the one judge, or the jurors."""
    if isinstance(spec, JudgeSpec):
        return [Juror(model=spec.model, provider=spec.provider, base_url=spec.base_url)]
    return list(spec.jurors)
