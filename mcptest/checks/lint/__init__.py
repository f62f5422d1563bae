"""Tool-description quality: the DESC and SCH lint rules, TDQS scores, smells and tool-surface tokens.

The names below load on first use, so importing one light module of the package (the `tool_quality:` block
model a suite needs) does not pay for every rule.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

_EXPORTS = {
    "QualityReport": "mcptest.checks.lint.engine",
    "ToolReport": "mcptest.checks.lint.engine",
    "assess": "mcptest.checks.lint.engine",
    "lint_tool": "mcptest.checks.lint.engine",
    "lint_tools": "mcptest.checks.lint.engine",
    "Finding": "mcptest.checks.findings",
    "Rule": "mcptest.checks.findings",
    "Severity": "mcptest.checks.findings",
    "RULES": "mcptest.checks.lint.registry",
    "get_rule": "mcptest.checks.lint.registry",
    "select_rules": "mcptest.checks.lint.registry",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    if name in _EXPORTS:
        return getattr(import_module(_EXPORTS[name]), name)
    raise AttributeError(f"module 'mcptest.checks.lint' has no attribute {name!r}")
