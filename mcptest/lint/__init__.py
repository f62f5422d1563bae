"""Tool-description quality: the DESC and SCH lint rules, TDQS scores, smells and tool-surface tokens."""

from mcptest.lint.engine import QualityReport, ToolReport, assess, lint_tool
from mcptest.lint.findings import Finding, Rule, Severity
from mcptest.lint.registry import RULES, get_rule, select_rules

__all__ = [
    "RULES",
    "Finding",
    "QualityReport",
    "Rule",
    "Severity",
    "ToolReport",
    "assess",
    "get_rule",
    "lint_tool",
    "select_rules",
]
