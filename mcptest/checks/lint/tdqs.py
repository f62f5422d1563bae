"""TDQS: the Tool Description Quality Score, a deterministic 0..1 score per tool (the mean of six heuristics)."""

from __future__ import annotations

from collections.abc import Callable

from mcptest.checks.lint.annotation_rules import HINTS
from mcptest.checks.lint.text import (
    LONG_CHARS,
    arguments,
    description_of,
    has_common_verb,
    mentions_return,
    normalized,
    positional_phrases,
)
from mcptest.records.catalog import Tool

FULL_CHARS = 40
"""A description this long or longer earns the full presence-and-length score."""


def description_length(tool: Tool) -> float:
    """Presence and length: 0 when empty or only the tool's name again, else min(1, chars / 40).

    A 20-character description (DESC-001's floor) scores 0.5; 40 characters and up score 1.
    """
    text = tool.description.strip()
    if not text or normalized(text) == normalized(tool.name):
        return 0.0
    return min(1.0, len(text) / FULL_CHARS)


def parameter_docs(tool: Tool) -> float:
    """Parameter documentation: documented arguments / arguments (1 when the tool takes no arguments).

    An argument is documented when its schema has a non-empty `description`.
    """
    args = list(arguments(tool))
    if not args:
        return 1.0
    return sum(1 for _, schema in args if description_of(schema)) / len(args)


def conciseness(tool: Tool) -> float:
    """Conciseness: 1 up to 500 characters, then max(0, 1 - (chars - 500) / 1000), so 1,500 characters score 0."""
    chars = len(tool.description.strip())
    return 1.0 if chars <= LONG_CHARS else max(0.0, 1.0 - (chars - LONG_CHARS) / 1000)


def return_format(tool: Tool) -> float:
    """Return format: 1 when the tool declares an `outputSchema` or its description mentions a return/output/result
    word (DESC-010's keywords), else 0."""
    return 1.0 if tool.output_schema is not None or mentions_return(tool.description) else 0.0


def annotation_hints(tool: Tool) -> float:
    """Annotations: 0 without an `annotations` object; else 0.5 + 0.125 per hint (of readOnlyHint,
    destructiveHint, idempotentHint, openWorldHint) that holds a boolean, so all four score 1."""
    if tool.annotations is None:
        return 0.0
    return 0.5 + 0.125 * sum(1 for hint in HINTS if isinstance(tool.annotations.get(hint), bool))


def purpose(tool: Tool) -> float:
    """Purpose (the sixth heuristic): 0.5 when the description names an action verb + 0.5 when it is
    self-contained (no positional phrase such as "see above"); 0 when the description is empty.

    Why this one: agents and tool routers choose by the action a tool performs and read each description
    alone, in a flat catalog whose order is not guaranteed (DESC-004 and DESC-005 are the lint side of it).
    """
    text = tool.description.strip()
    if not text:
        return 0.0
    return 0.5 * has_common_verb(text) + 0.5 * (not positional_phrases(text))


HEURISTICS: tuple[Callable[[Tool], float], ...] = (
    description_length,
    parameter_docs,
    conciseness,
    return_format,
    annotation_hints,
    purpose,
)
"""The six heuristics, in report order; each maps a tool to 0..1."""


def heuristics(tool: Tool) -> dict[str, float]:
    """Each heuristic's value for `tool`, by name, rounded to 4 decimals."""
    return {h.__name__: round(h(tool), 4) for h in HEURISTICS}


def mean(values: dict[str, float]) -> float:
    """The TDQS of a tool from its heuristic values: their plain mean, rounded to 4 decimals."""
    return round(sum(values.values()) / len(values), 4)


def score(tool: Tool) -> float:
    """The tool's TDQS, 0..1: the mean of the six heuristics."""
    return mean(heuristics(tool))
