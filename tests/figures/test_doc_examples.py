"""Issue 12: every console example in docs/ tagged `<!-- doc-example: CMD (stream) -->` is what CMD prints.

A tagged fenced block is compared with the command's real output: each line of the block must appear in it, in
order; a `...` line stands for lines the doc leaves out. Tag an example and it can never drift again.
"""

from __future__ import annotations

import re
import shlex

import pytest

from tests.conftest import ROOT, run_cli

# What legitimately varies between two runs, so a doc can show one run's figures: wall times and temp paths.
VARIES = (
    (re.compile(r"\b\d+(?:\.\d+)?\s?(?:ms|s)\b"), "<time>"),
    (re.compile(r"(?:/private)?/(?:tmp|var/folders)/[^\s'\"]*"), "<tmp>"),
)
TAG = re.compile(r"<!-- doc-example: (?P<cmd>.+?) \((?P<stream>stdout|stderr)\) -->\n```[^\n]*\n(?P<body>.*?)```", re.S)


def normalised(line: str) -> str:
    for pattern, placeholder in VARIES:
        line = pattern.sub(placeholder, line)
    return line.rstrip()


def examples() -> list[tuple[str, str, str, str]]:
    """(doc file, command, stream, block) for every tagged example in docs/."""
    found = []
    for doc in sorted((ROOT / "docs").glob("*.md")):
        for m in TAG.finditer(doc.read_text(encoding="utf-8")):
            found.append((doc.name, m["cmd"], m["stream"], m["body"]))
    return found


# The docs whose console examples a committed example, fixture or corpus case produces. The examples left untagged
# elsewhere show a hypothetical suite or file that nothing committed produces (a typo'd spec, an edited prompt).
PRODUCIBLE = {
    "gates.md",
    "matchers.md",
    "mock-server.md",
    "quality.md",
    "reports.md",
    "suite-format.md",
    "tool-bench.md",
    "validation-loops.md",
}


def test_the_docs_tag_their_console_examples() -> None:
    tagged = {doc for doc, *_ in examples()}
    assert any(doc == "gates.md" for doc, *_ in examples())
    assert tagged >= PRODUCIBLE, f"these docs lost their tagged examples: {sorted(PRODUCIBLE - tagged)}"


@pytest.mark.parametrize(("doc", "command", "stream", "block"), examples(), ids=lambda v: str(v)[:40])
def test_every_tagged_doc_example_is_what_mcptest_prints(doc: str, command: str, stream: str, block: str) -> None:
    words = shlex.split(command)
    env = dict(w.split("=", 1) for w in words if re.match(r"^[A-Z_]+=", w))
    argv = [w for w in words if not re.match(r"^[A-Z_]+=", w)]
    assert argv[0] == "mcptest", f"{doc}: a doc example runs mcptest, not {argv[0]}"
    ran = run_cli(*argv[1:], env=env, cwd=ROOT, timeout=120)
    printed = [normalised(p) for p in (ran.stdout if stream == "stdout" else ran.stderr).splitlines()]
    at = 0
    for line in map(normalised, block.splitlines()):
        if line.strip() == "...":
            continue
        assert line in printed[at:], f"{doc}: `{command}` no longer prints (after line {at}):\n{line}"
        at = printed.index(line, at) + 1
