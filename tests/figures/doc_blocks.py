"""The console blocks of docs/*.md and the tag above each: what `test_doc_examples` runs and guards."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from tests.conftest import ROOT

# Fences that show a terminal; yaml, json, python and sh blocks are files or scripts, not console output.
CONSOLE_INFO = {"", "text", "console"}
FENCE = re.compile(r"^```(?P<info>[^\n`]*)\n(?P<body>.*?)^```[ \t]*$", re.S | re.M)
TAG = re.compile(r"<!-- (?P<kind>doc-example|doc-calls|illustrative): (?P<text>.*?) ?-->\s*\Z", re.S)
# A line a user types: optional NAME=value prefixes, then `mcptest` alone or followed by an argument or a comment
# (`mcptest compare: ...` and `mcptest: no cassette` are output, not commands).
COMMAND = re.compile(r"^(?:[A-Z_]+=\S*\s+)*mcptest(?:\s+(?:#|[^\s:]+(?:\s|$))|\s*$)")


@dataclass(frozen=True)
class Tag:
    kind: str
    text: str


@dataclass(frozen=True)
class Block:
    doc: str
    line: int
    info: str
    body: str
    tag: Tag | None

    def __repr__(self) -> str:  # pytest ids and failure messages name where the block is
        return f"{self.doc}:{self.line}"


@cache
def console_blocks() -> tuple[Block, ...]:
    """Every fenced block of docs/*.md whose info string is empty, `text` or `console`, with the tag above it."""
    found = []
    for doc in sorted((ROOT / "docs").glob("*.md")):
        text = doc.read_text(encoding="utf-8")
        for m in FENCE.finditer(text):
            if m["info"].strip() not in CONSOLE_INFO:
                continue
            before = text[: m.start()]
            comment = before[before.rfind("<!--") :] if before.rstrip().endswith("-->") else ""
            tag = TAG.match(comment)
            found.append(
                Block(
                    doc.name,
                    before.count("\n") + 1,
                    m["info"].strip(),
                    m["body"],
                    Tag(tag["kind"], tag["text"].strip()) if tag else None,
                )
            )
    return tuple(found)


def is_command_listing(body: str) -> bool:
    """A block of commands to type (a synopsis), not of output: every line runs mcptest or continues one."""
    lines = [line for line in body.splitlines() if line.strip()]
    return (
        bool(lines)
        and COMMAND.match(lines[0]) is not None
        and all(COMMAND.match(line) or line[:1].isspace() for line in lines)
    )
