"""The `workflow:` block: the order of the successful calls and the ids that flow between them."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from mcptest.suite.blocks.gate import GateConfig


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
