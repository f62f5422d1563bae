"""The `mcptest diff` report: a versioned pydantic model (`schema/diff.v1.json`), rendered as text, JSON or Markdown."""

from __future__ import annotations

from enum import StrEnum
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

DIFF_FORMAT_VERSION: Literal["1"] = "1"
FAIL_ON = ("breaking", "risky", "never")
"""The `--fail-on` thresholds of `mcptest diff`."""


class Impact(StrEnum):
    """How a change affects the callers and the model that read the catalog."""

    BREAKING = "breaking"
    """A caller written against the old catalog can fail: something removed or renamed, an input narrowed, an
    output field gone."""
    RISKY = "risky"
    """Callers still work, but the model may behave differently: a description rewritten, a safety hint relaxed."""
    COMPATIBLE = "compatible"
    """Nothing that worked stops working: something added, an input widened."""

    @property
    def rank(self) -> int:
        """2 for breaking, 1 for risky, 0 for compatible: for `--fail-on` comparisons."""
        return ("compatible", "risky", "breaking").index(self.value)


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Change(_Model):
    """One change between the old and the new catalog."""

    impact: Impact = Field(description="breaking, risky or compatible.")
    code: str = Field(description="What changed, a stable slug: `removed`, `renamed`, `type_narrowed`, ...")
    kind: str = Field(description="tool, resource, resource_template or prompt.")
    name: str = Field(description="The entry's name (or URI) in the old catalog; in the new one when added.")
    new_name: str | None = Field(None, description="For `renamed`: the name in the new catalog.")
    server: str | None = Field(None, description="The server that lists it, when the catalog names one.")
    pointer: str | None = Field(None, description="A JSON pointer into the entry, e.g. `/inputSchema/properties/q`.")
    message: str = Field(description="The change in words.")
    old: Any = Field(None, description="The old value, for text changes (descriptions).")
    new: Any = Field(None, description="The new value, for text changes (descriptions).")


class Counts(_Model):
    """How many changes of each impact."""

    breaking: int = 0
    risky: int = 0
    compatible: int = 0


class ToolShift(_Model):
    """How often one tool is picked correctly for its intents, on the old catalog and on the new one."""

    tool: str = Field(description="The tool (its new name when renamed).")
    intents: int = Field(description="Intents whose gold includes this tool.")
    before: float = Field(description="Fraction of those intents picked correctly on the old catalog.")
    after: float = Field(description="Fraction picked correctly on the new catalog.")
    lost: int = Field(description="Intents correct before and wrong after.")
    gained: int = Field(description="Intents wrong before and correct after.")
    p_value: float = Field(description="Two-sided exact McNemar p-value over those intents.")
    significant: bool = Field(description="p_value < 0.05.")


class SelectionEffect(_Model):
    """What the change does to tool selection: tool-bench's selector run over the same intents on both catalogs."""

    intents: str = Field(description="The intents file.")
    selector: str = Field(description="The selector that picked (tool-bench's lexical selector).")
    before: float = Field(description="Accuracy over every intent on the old catalog.")
    after: float = Field(description="Accuracy over every intent on the new catalog.")
    p_value: float = Field(description="Two-sided exact McNemar p-value over every intent.")
    significant: bool = Field(description="p_value < 0.05.")
    tools: list[ToolShift] = Field(description="Per gold tool, the tools whose selection moved first.")


class DiffReport(_Model):
    """Every change between two catalogs, classified."""

    format_version: Literal["1"] = Field(DIFF_FORMAT_VERSION, description="The diff report format version.")
    old: str = Field(description="Where the old catalog came from.")
    new: str = Field(description="Where the new catalog came from.")
    counts: Counts
    changes: list[Change] = Field(description="Breaking first, then risky, then compatible; by entry within each.")
    selection: SelectionEffect | None = Field(None, description="With `--intents`: the effect on tool selection.")

    def worst(self) -> Impact | None:
        """The highest impact among the changes (None when the catalogs are the same)."""
        return max((c.impact for c in self.changes), key=lambda i: i.rank, default=None)

    def fails(self, fail_on: str) -> bool:
        """Whether a change reaches `fail_on` (breaking or risky; never with `never`)."""
        worst = self.worst()
        return fail_on != "never" and worst is not None and worst.rank >= Impact(fail_on).rank
