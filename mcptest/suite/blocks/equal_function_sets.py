"""The `equal_function_sets:` block: classes of interchangeable tools."""

from __future__ import annotations

from pydantic import Field, field_validator

from mcptest.suite.blocks.gate import FunctionClass, GateConfig


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
