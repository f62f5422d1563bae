"""The `conformance:` block of a suite: check that one server speaks MCP correctly (as `mcptest conformance` does);
the failed checks join the report as the row's failures. Light on purpose (the checks load only when it runs)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr


class ConformanceBlock(BaseModel):
    """One entry of the top-level `conformance:` list: probe a server and judge it with the conformance checks."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    name: str = Field(min_length=1, description="The row name in the report.")
    server: str = Field(description="The key of `servers:` to check (stdio or Streamable HTTP; started on its own).")
    protocol_version: Literal["2025-06-18", "2025-11-25", "2026-07-28"] | None = Field(
        None,
        description="The one protocol version to offer and check (one whose schema ships); default: every version "
        "the server speaks, each reported on its own.",
    )
    fail_on: Literal["must", "should"] = Field(
        "must", description="`must`: a failed MUST fails the row; `should`: a failed SHOULD too."
    )
    expected_failures: list[str] = Field(
        default_factory=list,
        description="Check ids known to fail: they do not fail the row; one that passes fails it as stale.",
    )
    timeout_s: float = Field(10.0, gt=0, description="Seconds for start-up and for each probe.")
    tags: list[str] = Field(default_factory=list, description="For `--tag` / `--skip-tag`.")
    _line: int = PrivateAttr(0)
