"""The four description mutations: each takes one tool and returns it with an edited description."""

from __future__ import annotations

import re
from enum import StrEnum

from mcptest.bench.terms import word_key
from mcptest.records.catalog import Tool

GENERIC_DESCRIPTION = "A general-purpose helper utility."
"""What `genericize` puts in place of a description: grammatical, no action verb, no domain word, no return shape."""

_WORD = re.compile(r"[A-Za-z]+")
_SPACES = re.compile(r"[ \t]{2,}")
_SPACE_BEFORE_PUNCT = re.compile(r"[ \t]+([,.;:!?)])")


class MutationKind(StrEnum):
    """What a mutation does to the tool's description."""

    BLANK = "blank"
    """Remove the description entirely."""
    GENERICIZE = "genericize"
    """Replace it with a contentless phrase (`GENERIC_DESCRIPTION`)."""
    TRUNCATE = "truncate"
    """Keep only the first `chars` characters."""
    DROP_KEYWORD = "drop_keyword"
    """Remove every occurrence of the content word `word` (and its inflections)."""


def blank(tool: Tool) -> Tool:
    """The tool without a `description` key."""
    return Tool({k: v for k, v in tool.raw.items() if k != "description"})


def genericize(tool: Tool) -> Tool:
    """The tool with `GENERIC_DESCRIPTION` as its description."""
    return Tool({**tool.raw, "description": GENERIC_DESCRIPTION})


def truncate(tool: Tool, chars: int) -> Tool:
    """The tool with only the first `chars` characters of its description (unchanged when already shorter)."""
    return Tool({**tool.raw, "description": tool.description[:chars]})


def drop_keyword(tool: Tool, word: str) -> Tool:
    """The tool with every word removed whose matching key equals `word`'s (so `Forecasts` goes with `forecast`).

    Matching on the selector's key (see `terms.stem`) rather than on the exact spelling is what "remove a keyword"
    means to a reader: the concept leaves the text, not one of its spellings. Leftover double spaces and spaces
    before punctuation are tidied so the text stays readable.
    """
    key = word_key(word)
    text = _WORD.sub(lambda m: "" if word_key(m.group(0)) == key else m.group(0), tool.description)
    text = _SPACE_BEFORE_PUNCT.sub(r"\1", _SPACES.sub(" ", text)).strip().lstrip(",;: ")
    return Tool({**tool.raw, "description": text})


def occurrences(tool: Tool, word: str) -> int:
    """How many words of the description `drop_keyword` would remove."""
    key = word_key(word)
    return sum(1 for w in _WORD.findall(tool.description) if word_key(w) == key)
