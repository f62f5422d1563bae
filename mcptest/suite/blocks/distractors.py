"""The `distractors:` block: how many distractor tools to inject, from where, and the correct tools."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from mcptest.suite.blocks.gate import GateConfig


class DistractorSource(BaseModel):
    """Where the distractors come from."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    from_: Literal["catalog", "near_duplicate"] = Field(
        alias="from",
        description="`catalog`: the bundled plausible-but-irrelevant tools; `near_duplicate`: look-alikes of `of:`.",
    )
    of: list[str] | None = Field(
        None, description="For `near_duplicate` (required there): the real tools to derive look-alike names from."
    )

    @model_validator(mode="after")
    def _of_fits(self) -> DistractorSource:
        if self.from_ == "near_duplicate" and not self.of:
            raise ValueError("`from: near_duplicate` needs a non-empty `of:` list of the tools to imitate")
        if self.from_ == "catalog" and self.of is not None:
            raise ValueError("`of:` only applies to `from: near_duplicate`")
        return self


class DistractorsConfig(GateConfig):
    """`distractors:` — inject N distractor tools and score whether the agent still chose the correct ones."""

    count: int = Field(ge=0, description="How many distractors to inject; 0 is the no-noise baseline.")
    source: DistractorSource = Field(description="`{ from: catalog }` or `{ from: near_duplicate, of: [...] }`.")
    correct: list[str] = Field(description="The correct tool ids (`server.tool`, or a bare name for any server).")
    complexity: Literal["serial", "parallel"] | None = Field(
        None, description="Descriptive tag that stratifies reporting; it does not change the math."
    )

    @model_validator(mode="after")
    def _enough(self) -> DistractorsConfig:
        from mcptest.records.distractor_tools import bundled_tools  # only a suite with this block reads the catalog

        size = len(bundled_tools())
        if self.source.from_ == "catalog" and self.count > size:
            raise ValueError(f"count {self.count} is more than the {size} tools of the bundled distractor catalog")
        return self
