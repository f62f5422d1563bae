"""The gate blocks as a suite writes them: one config model per block under an agent test.

The scoring of each block lives in `mcptest.gates` (one module per gate, one registry); what a suite file may say
lives here, so loading or validating a suite builds these models without importing any gate's scoring code.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, field_validator, model_validator

from mcptest.expect.assertions import Assertion, Matcher, parse_path


class GateConfig(BaseModel):
    """A gate block under an agent test; unknown keys are errors."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    expect: list[Assertion] | None = Field(
        None,
        description='Assertions over this block\'s targets, e.g. `- tool_selection.f1: { ">=": 80 }` or '
        "`{ target: ..., matcher: { schema: { minimum: 80 } } }`. Omitted or empty: the block's default gate applies.",
    )
    _pos: tuple[int, int] | None = PrivateAttr(None)
    _at: dict[str, tuple[int, int]] = PrivateAttr(default_factory=dict)


class FunctionClass(BaseModel):
    """A named group of interchangeable tools: calling any member reaches the capability."""

    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1, description="The capability, e.g. `search`.")
    members: list[str] = Field(
        min_length=1,
        description="Tool ids: `server.tool` matches that server's tool only; a bare `tool` matches it on any server.",
    )


class EqualFunctionSetsConfig(GateConfig):
    """`equal_function_sets:` — score the calls against classes of interchangeable tools (MSC-Bench)."""

    classes: list[FunctionClass] = Field(description="The capabilities the scenario needs; may be empty.")

    @field_validator("classes")
    @classmethod
    def _unique(cls, classes: list[FunctionClass]) -> list[FunctionClass]:
        names = [c.name for c in classes]
        twice = sorted({n for n in names if names.count(n) > 1})
        if twice:
            raise ValueError(f"class names must be unique; repeated: {', '.join(twice)}")
        return classes


class ToolSelectionConfig(GateConfig):
    """`tool_selection:` — a floor on the selection rate and an optional per-run token budget."""

    expected_tool: str = Field(
        min_length=1, description="The tool the model should call: a bare name, or `server.tool` for one server's."
    )
    min_selection_rate: float = Field(
        ge=0, le=1, description="The minimum fraction of runs (0.0 to 1.0) that select it."
    )
    max_total_tokens: int | None = Field(
        None, gt=0, description="A per-run cap on the conversation's total tokens; omit it for no token budget."
    )


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


class DiscoveryConfig(GateConfig):
    """`discovery:` — declare an intent-only scenario, judged against the `equal_function_sets:` classes."""

    name_free: bool = Field(
        False,
        description="The prompt names no tools and no servers, so the tool path is judged against equal-function "
        "classes (floor `tool_selection.recall`) rather than a named tool. Absent: false.",
    )


class OrchestrationConfig(GateConfig):
    """`orchestration:` — five integer-percent diagnostics of how the agent worked; classes come from the test's
    `equal_function_sets:` (or `token_efficiency:`) block. No default gate: assert what matters in `expect:`."""


class TokenEfficiencyConfig(GateConfig):
    """`token_efficiency:` — the equal_function_sets classes, scored with the price of the tool surface."""

    classes: list[FunctionClass] = Field(min_length=1, description="The capabilities the scenario needs (non-empty).")


class CallsConfig(GateConfig):
    """`calls:` — judge every recorded call against the schema the model was shown (the trace's catalog)."""

    constraints: dict[str, dict[str, Any]] = Field(
        default_factory=dict,
        description="Extra JSON Schema per tool that arguments must also satisfy, e.g. "
        "`create_test_set_bulk: { properties: { tests: { minItems: 1 } } }`.",
    )
    discovery_tools: list[str] | None = Field(
        None,
        description="Tools whose identical re-call is redundant. Default: tools annotated `readOnlyHint: true`, "
        "else names starting list_/get_/search_/find_/read_/describe_/fetch_/query_.",
    )
    min_loop: int = Field(2, ge=2, description="Failed calls in a row to one tool that make a validation loop.")


class IdFlow(BaseModel):
    """An argument that must carry an id an earlier call returned: `{ to: tool.arg, from: tool }`."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    to: str = Field(
        pattern=r"^[^.]+\.[^.]+$", description="`tool.argument`, e.g. `create_test_configuration.test_set_id`."
    )
    from_: str = Field(alias="from", description="The tool whose earlier result must contain the value.")


class WorkflowConfig(GateConfig):
    """`workflow:` — the order of the successful calls, and ids that must come from earlier results."""

    order: list[str] = Field(default_factory=list, description="Tool names in the order the scenario needs them.")
    match: Literal["subsequence", "strict", "subset"] = Field(
        "subsequence",
        description="subsequence: `order` appears in order, other calls may come between; strict: the successful "
        "calls to the listed tools (repeats collapsed) are exactly `order`; subset: each is called, in any order.",
    )
    ids: list[IdFlow] = Field(default_factory=list, description="Arguments that must carry an earlier call's id.")

    @field_validator("order")
    @classmethod
    def _no_repeats(cls, order: list[str]) -> list[str]:
        if len(set(order)) != len(order):
            raise ValueError("each tool appears once in `order`")
        return order


class Step(BaseModel):
    """One expected call: a tool id and matchers on some of its arguments (absent ones are not checked)."""

    model_config = ConfigDict(extra="forbid")

    tool: str = Field(min_length=1, description="`server.tool`, or a bare tool name that matches on any server.")
    args: dict[str, Matcher] = Field(
        default_factory=dict,
        description='Argument path -> matcher, e.g. `{ url: { regex: "^https://" } }`; a plain value means '
        "`{ exact: value }`; a path may go deeper (`filters.year`). Arguments not named are not checked.",
        json_schema_extra=lambda schema: schema.update(
            additionalProperties={"anyOf": [schema["additionalProperties"], {"not": {"type": "object"}}]}
        ),
    )

    @field_validator("args", mode="before")
    @classmethod
    def _plain_is_exact(cls, args: Any) -> Any:
        if not isinstance(args, dict):
            return args
        return {k: v if isinstance(v, dict | Matcher) else {"exact": v} for k, v in args.items()}

    @field_validator("args")
    @classmethod
    def _paths(cls, args: dict[str, Matcher]) -> dict[str, Matcher]:
        for path in args:
            parse_path(path)
        return args


class TrajectoryConfig(GateConfig):
    """`trajectory:` — pin the calls BFCL-style: tool, argument values and count, under one of four modes."""

    mode: Literal["strict", "subsequence", "subset", "unordered"] = Field(
        "strict",
        description="strict (default): exactly these calls in this order and no other call; subsequence: these "
        "calls in this order, others allowed between; subset: every step matched by its own call, any order, "
        "others allowed; unordered: exactly these calls, same count, any order.",
    )
    steps: list[Step] = Field(description="The expected calls, in order.")


class GoldenPathConfig(GateConfig):
    """`golden_path:` — the shortest path to the goal, and how far the run strayed from it."""

    calls: list[str] = Field(
        min_length=1, description="The golden calls in order: tool ids (`server.tool` or a bare name)."
    )


class ToolEdgesConfig(GateConfig):
    """`tool_edges:` — the tools a run may call and the ones it must never touch."""

    allowed: list[str] | None = Field(
        None, description="The tools the scenario may use (`server.tool` or bare); omit it to only police `restricted`."
    )
    restricted: list[str] = Field(default_factory=list, description="Tools no call may touch, e.g. `delete_document`.")

    @model_validator(mode="after")
    def _disjoint(self) -> ToolEdgesConfig:
        both = sorted(set(self.allowed or []) & set(self.restricted))
        if both:
            raise ValueError(f"a tool cannot be both allowed and restricted: {', '.join(both)}")
        if self.allowed is None and not self.restricted:
            raise ValueError("give `allowed:`, `restricted:` or both")
        return self


class StabilityConfig(GateConfig):
    """`stability:` — within-run stability sub-scores (thrash, failure loops, progress, recovery) and drift flags."""

    threshold: int = Field(
        50, ge=1, le=100, description="A run's sub-score below this raises a drift flag (default 50)."
    )


class NarrativeConfig(GateConfig):
    """`narrative:` — the final answer against the trace, rule-based: claims with no call, silent mutations."""

    verbs: list[str] | None = Field(
        None,
        min_length=1,
        description="The mutating verbs (base form) a claim starts with and a mutating tool name contains; "
        "default: create, update, delete, remove, send, write, post, insert, patch, publish, destroy, drop, add, "
        "edit, upload, merge, close, cancel, approve, revoke.",
    )


# Every block's YAML key and config model, in the order blocks are evaluated (the registry follows this order).
BLOCKS: dict[str, type[GateConfig]] = {
    "equal_function_sets": EqualFunctionSetsConfig,
    "tool_selection": ToolSelectionConfig,
    "distractors": DistractorsConfig,
    "discovery": DiscoveryConfig,
    "orchestration": OrchestrationConfig,
    "token_efficiency": TokenEfficiencyConfig,
    "calls": CallsConfig,
    "workflow": WorkflowConfig,
    "trajectory": TrajectoryConfig,
    "golden_path": GoldenPathConfig,
    "tool_edges": ToolEdgesConfig,
    "stability": StabilityConfig,
    "narrative": NarrativeConfig,
}


def blocks_of(test: BaseModel | Mapping[str, Any]) -> dict[str, GateConfig]:
    """The gate blocks a test declares, by YAML key: from a model's attributes or a mapping's keys."""
    get = test.get if isinstance(test, Mapping) else (lambda name: getattr(test, name, None))
    return {name: block for name in BLOCKS if (block := get(name)) is not None}


def classes_for(blocks: Mapping[str, GateConfig]) -> list[FunctionClass] | None:
    """The test's declared classes: `equal_function_sets:`, else `token_efficiency:`, else None."""
    for name in ("equal_function_sets", "token_efficiency"):
        block = blocks.get(name)
        if block is not None:
            return list(getattr(block, "classes"))  # noqa: B009 - both blocks carry `classes`
    return None


def block_problems(blocks: Mapping[str, GateConfig]) -> list[str]:
    """Mistakes across a test's blocks that no single block can see (for the suite loader to report)."""
    problems = []
    found = blocks.get("discovery")
    if isinstance(found, DiscoveryConfig) and found.name_free and classes_for(blocks) is None:
        problems.append("discovery.name_free: true needs an equal_function_sets: block to judge the tool path against")
    return problems
