"""The failure record a check produces: one assertion that did not hold, as reports store it."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field


class AssertionFailure(BaseModel):
    """One assertion that did not hold."""

    model_config = ConfigDict(extra="forbid")

    target: str = Field(description="The target path, e.g. `result.content[0].text`.")
    matcher: str = Field(description="The matcher kind, e.g. `contains`.")
    expected: Any = Field(description="The expected value as written in the suite.")
    actual: Any = Field(description="The value found at the target (null when the target was absent).")
    message: str = Field(description="Why it failed, in words.")
    line: int | None = Field(
        None, description="The 1-based line of the assertion (or of the gate block, for a default gate or a floor)."
    )
    col: int | None = Field(None, description="The 1-based column of that assertion or block.")

    def text(self) -> str:
        """One line: `target matcher expected: message`, or the message alone for a floor stated in words."""
        if self.matcher == "floor":
            return self.message
        from mcptest.expect.assertions import show

        return f"{self.target} {self.matcher} {show(self.expected, 200)}: {self.message}"
