"""docs/security.md stays in step with the SEC registry."""

from __future__ import annotations

from pathlib import Path

from mcptest.checks.security.registry import SEC_RULES
from mcptest.suite.blocks.security import TARGET_ROOTS

DOC = (Path(__file__).resolve().parents[2] / "docs" / "security.md").read_text(encoding="utf-8")


def test_the_rules_table_lists_every_rule_as_the_registry_does() -> None:
    for r in SEC_RULES:
        row = f"| {r.code} | {r.severity.value} | `{r.name}` | {r.summary} |"
        assert row in DOC, row


def test_every_security_block_target_is_documented() -> None:
    assert all(f"`{root}" in DOC for root in TARGET_ROOTS)
