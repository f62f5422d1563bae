"""The `trajectory:` block: the expected calls (`Step`: tool and argument matchers) and the mode."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from mcptest.expect.assertions import Matcher, parse_path
from mcptest.suite.blocks.gate import GateConfig


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
