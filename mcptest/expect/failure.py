"""The failure record a check produces: one assertion that did not hold, as reports store it."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

MOST_SHOWN = 20_000
"""The characters of an `actual` value a failure keeps (a server's 50 MB answer is not copied into the report)."""


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

    @field_validator("actual")
    @classmethod
    def _bounded(cls, value: Any) -> Any:
        return clipped(value)

    def text(self) -> str:
        """One line: `target matcher expected: message`, or the message alone for a floor stated in words."""
        if self.matcher == "floor":
            return self.message
        from mcptest.expect.assertions import show

        return f"{self.target} {self.matcher} {show(self.expected, 200)}: {self.message}"


def clipped(value: Any, most: int = MOST_SHOWN) -> Any:
    """`value` with its strings and lists cut once `most` characters are spent, each cut saying how much it left out.

    The walk costs at most about `most` steps whatever the size of the value.
    """
    left = most

    def walk(item: Any) -> Any:
        nonlocal left
        if isinstance(item, str):
            if len(item) <= left:
                left -= len(item)
                return item
            kept, left = item[: max(left, 0)], 0
            return f"{kept}… [{len(item) - len(kept):,} more characters cut]"
        if isinstance(item, (list, dict)):
            pairs = item.items() if isinstance(item, dict) else enumerate(item)
            out: list[tuple[Any, Any]] = []
            for index, (key, inner) in enumerate(pairs):
                if left <= 0:
                    out.append(("…", f"[{len(item) - index:,} more items cut]"))
                    break
                left -= len(key) if isinstance(key, str) else 0
                out.append((key, walk(inner)))
            if isinstance(item, dict):
                return dict(out)
            return [v if k != "…" else f"… {v}" for k, v in out]
        left -= 8
        return item

    return walk(value)
