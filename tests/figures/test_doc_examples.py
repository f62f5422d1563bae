"""Issue 12: every console example in docs/ is what mcptest prints, so a doc can never drift.

Two tags, each on the line above a fenced block:

- `<!-- doc-example: CMD (stdout|stderr) -->`: CMD is run (`NAME=value` prefixes set the environment,
  `cd DIR && ` sets the working directory, from the repository root) and the block compared with that stream.
- `<!-- doc-calls: SERVER-CMD` then one `TOOL {json args}` line per call, then `-->`: the server is started
  through mcptest's own session, each tool called, and the block compared with the text the results carry.

A block is compared line by line: each line must appear in the output, in order; a `...` line stands for lines
the doc leaves out. A console block that nothing produces (a live model, a made-up file) says so with
`<!-- illustrative: why -->`, and `test_every_console_block_is_tagged_or_marked_illustrative` keeps it that way.
"""

from __future__ import annotations

import json
import re
import shlex

import anyio
import pytest

from mcptest.server.session import SessionPool
from mcptest.suite.models import StdioServer
from tests.conftest import ROOT, run_cli
from tests.figures.doc_blocks import Block, console_blocks, is_command_listing

# What legitimately varies between two runs, so a doc can show one run's figures: wall times and temp paths.
VARIES = (
    (re.compile(r"\b\d+(?:\.\d+)?\s?(?:ms|s)\b"), "<time>"),
    (re.compile(r"(?:/private)?/(?:tmp|var/folders)/[^\s'\"]*"), "<tmp>"),
)
ENV_WORD = re.compile(r"^[A-Z_]+=")


def normalised(line: str) -> str:
    for pattern, placeholder in VARIES:
        line = pattern.sub(placeholder, line)
    return line.rstrip()


def tagged(kind: str) -> list[Block]:
    return [b for b in console_blocks() if b.tag is not None and b.tag.kind == kind]


# The docs whose console examples a committed example, fixture or corpus case produces: each must keep at least one
# tagged example, so removing a tag (or a doc's last producible example) fails instead of drifting silently.
PRODUCIBLE = {
    "cassettes.md",
    "gates.md",
    "matchers.md",
    "mock-server.md",
    "quality.md",
    "reports.md",
    "resources-and-prompts.md",
    "suite-format.md",
    "tool-bench.md",
    "validation-loops.md",
}


def test_the_docs_tag_their_console_examples() -> None:
    docs = {b.doc for b in console_blocks() if b.tag is not None and b.tag.kind != "illustrative"}
    assert docs >= PRODUCIBLE, f"these docs lost their tagged examples: {sorted(PRODUCIBLE - docs)}"


def test_every_console_block_is_tagged_or_marked_illustrative() -> None:
    """A fenced block with no language, `text` or `console` shows a terminal: it lists mcptest commands only, or
    it is produced by a tag above it, or it says why nothing can produce it (`<!-- illustrative: why -->`)."""
    bare = [f"{b.doc}:{b.line}" for b in console_blocks() if b.tag is None and not is_command_listing(b.body)]
    assert not bare, (
        "console blocks with no `<!-- doc-example: CMD (stdout|stderr) -->`, `<!-- doc-calls: ... -->` or "
        f"`<!-- illustrative: why -->` above them: {bare}"
    )


def test_an_illustrative_mark_gives_its_reason() -> None:
    empty = [f"{b.doc}:{b.line}" for b in tagged("illustrative") if len(b.tag.text.split()) < 3]  # type: ignore[union-attr]
    assert not empty, f"say why nothing can produce these examples: {empty}"


def assert_shows(block: Block, printed: list[str], what: str) -> None:
    printed = [normalised(p) for p in printed]
    at = 0
    for line in map(normalised, block.body.splitlines()):
        if line.strip() == "...":
            continue
        assert line in printed[at:], f"{block.doc}:{block.line}: {what} no longer prints (after line {at}):\n{line}"
        at = printed.index(line, at) + 1


@pytest.mark.parametrize("block", tagged("doc-example"), ids=lambda b: f"{b.doc}:{b.line}")
def test_every_tagged_doc_example_is_what_mcptest_prints(block: Block) -> None:
    command, stream = re.fullmatch(r"(.+) \((stdout|stderr)\)", block.tag.text).groups()  # type: ignore[union-attr]
    words = shlex.split(command)
    cwd = ROOT
    if words[0] == "cd":
        assert words[2] == "&&", f"{block.doc}:{block.line}: write `cd DIR && mcptest ...`"
        cwd, words = ROOT / words[1], words[3:]
    env = dict(w.split("=", 1) for w in words if ENV_WORD.match(w))
    argv = [w for w in words if not ENV_WORD.match(w)]
    assert argv[0] == "mcptest", f"{block.doc}:{block.line}: a doc example runs mcptest, not {argv[0]}"
    ran = run_cli(*argv[1:], env=env, cwd=cwd, timeout=120)
    assert_shows(block, (ran.stdout if stream == "stdout" else ran.stderr).splitlines(), f"`{command}`")


@pytest.mark.parametrize("block", tagged("doc-calls"), ids=lambda b: f"{b.doc}:{b.line}")
def test_every_tagged_tool_result_is_what_the_server_answers(block: Block) -> None:
    server, *calls = block.tag.text.splitlines()  # type: ignore[union-attr]
    assert calls, f"{block.doc}:{block.line}: name at least one `TOOL {{json args}}` call under the server command"

    async def answers() -> list[str]:
        texts: list[str] = []
        with anyio.fail_after(60):
            async with SessionPool({"doc": StdioServer(command=shlex.split(server))}, base_dir=ROOT) as pool:
                session = await pool.get("doc")
                for call in calls:
                    tool, _, args = call.strip().partition(" ")
                    outcome = await session.call_tool(tool, json.loads(args or "{}"))
                    assert outcome.result is not None, f"{block.doc}:{block.line}: {call}: {outcome.error}"
                    texts += [c["text"] for c in outcome.result.get("content", []) if c.get("type") == "text"]
        return texts

    printed = [line for text in anyio.run(answers) for line in text.splitlines()]
    assert_shows(block, printed, f"`{server}`")
