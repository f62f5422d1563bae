"""The tool-bench report: a versioned pydantic model, rendered by the CLI as text or JSON."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

BENCH_FORMAT_VERSION: Literal["1"] = "1"


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Accuracy(_Model):
    """Selection accuracy over the intents, with its 95% Wilson interval (one pick per intent: accuracy = F1)."""

    correct: int = Field(description="Intents whose pick was correct (every top-scoring tool is gold).")
    total: int = Field(description="Intents in the spec.")
    accuracy: float = Field(description="correct / total.")
    wilson_low: float = Field(description="Lower end of the 95% Wilson score interval.")
    wilson_high: float = Field(description="Upper end of the 95% Wilson score interval.")


class CatalogFigures(_Model):
    """The baseline catalog's description quality and cost."""

    tools: int = Field(description="How many tools the catalog has.")
    tdqs_mean: float = Field(description="Mean TDQS over the tools, 0..1.")
    tdqs_min: float = Field(description="The worst tool's TDQS, 0..1.")
    smells: dict[str, int] = Field(description="DESC findings per named smell.")
    smell_total: int = Field(description="Sum of `smells`.")
    whitespace_tokens: int = Field(description="The spec's estimate: whitespace-separated words of the surface.")
    cl100k_tokens: int = Field(description="Tool-surface tokens counted with cl100k_base, as `doctor` counts them.")


class IntentResult(_Model):
    """One intent on the baseline catalog."""

    query: str
    gold: list[str]
    picked: str | None = Field(description="The top-scoring tool (first in catalog order on a tie); null: no overlap.")
    tied: int = Field(description="How many tools share the top score (0 when nothing was picked).")
    correct: bool


class MutationResult(_Model):
    """One mutation, applied alone to the baseline catalog."""

    tool: str
    kind: Literal["blank", "genericize", "truncate", "drop_keyword"]
    chars: int | None = Field(None, description="For `truncate`: characters kept.")
    word: str | None = Field(None, description="For `drop_keyword`: the word removed.")
    accuracy: Accuracy = Field(description="Selection accuracy after the mutation.")
    drop: float = Field(description="Baseline accuracy minus accuracy after; negative when selection improved.")
    lost: list[int] = Field(description="Indices of intents correct before and wrong after.")
    gained: list[int] = Field(description="Indices of intents wrong before and correct after.")
    p_value: float = Field(description="Two-sided exact McNemar p-value on the per-intent outcomes.")
    significant: bool = Field(description="p_value < 0.05.")
    tdqs_before: float
    tdqs_after: float
    smells_introduced: dict[str, int] = Field(description="Smells with more findings after than before, by how many.")
    rules_introduced: list[str] = Field(description="DESC/SCH rule codes that fire after but not before.")
    tokens_removed: int = Field(description="cl100k_base surface tokens of the tool before minus after.")
    whitespace_tokens_removed: int = Field(description="The same in the whitespace estimate.")


class BenchReport(_Model):
    """The whole result of `mcptest tool-bench run`."""

    format_version: Literal["1"] = BENCH_FORMAT_VERSION
    spec: str = Field(description="The spec file as given on the command line.")
    selector: str = Field(description="`lexical`, `embedding` or `model:<id>`.")
    catalog: CatalogFigures
    baseline: Accuracy
    intents: list[IntentResult]
    mutations: list[MutationResult]
    max_drop: float | None = Field(description="The largest drop across mutations; null without mutations.")
    min_drop: float | None = Field(None, description="The `--min-drop` threshold, when given.")
    passed: bool | None = Field(None, description="max_drop >= min_drop; null without --min-drop.")
