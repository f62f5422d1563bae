"""Tool-description quality: the DESC and SCH lint rules, TDQS scores, smells and tool-surface tokens.

The names below load on first use, so importing one light module of the package (the `tool_quality:` block
model a suite needs) does not pay for every rule.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

_EXPORTS = {
    "QualityReport": "mcptest.lint.engine",
    "ToolReport": "mcptest.lint.engine",
    "assess": "mcptest.lint.engine",
    "lint_tool": "mcptest.lint.engine",
    "Finding": "mcptest.lint.findings",
    "Rule": "mcptest.lint.findings",
    "Severity": "mcptest.lint.findings",
    "RULES": "mcptest.lint.registry",
    "get_rule": "mcptest.lint.registry",
    "select_rules": "mcptest.lint.registry",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    if name in _EXPORTS:
        return getattr(import_module(_EXPORTS[name]), name)
    raise AttributeError(f"module 'mcptest.lint' has no attribute {name!r}")
