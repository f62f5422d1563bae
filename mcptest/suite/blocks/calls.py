"""The `calls:` block: extra per-tool argument schemas, the discovery tools, the validation-loop length."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from mcptest.suite.blocks.gate import GateConfig


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
