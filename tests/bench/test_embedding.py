"""The embedding selector: the wordllama model that ships in its wheel, loaded with no network.

Skipped when the `embedding` extra is not installed; CI installs `.[dev]` only, so CI skips these.
"""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest

from mcptest.bench import load_spec, run_bench
from mcptest.bench.embedding import EmbeddingSelector, tool_text
from mcptest.bench.lexical import LexicalSelector
from mcptest.bench.selector import judge
from mcptest.records.catalog import Tool
from tests.bench.conftest import EXAMPLE, tool
from tests.conftest import ROOT

pytest.importorskip("wordllama", reason="the embedding extra is not installed (pip install 'mcptest[embedding]')")


@pytest.fixture(scope="module")
def selector() -> EmbeddingSelector:
    return EmbeddingSelector()


def test_requests_match_descriptions_they_share_no_word_with(selector: EmbeddingSelector) -> None:
    tools = [
        Tool(tool("t1", "Records changes to the repository")),
        Tool(tool("t2", "Convert time between timezones")),
        Tool(tool("t3", "Send an email message")),
    ]
    queries = ["commit my work", "what hour is it in Tokyo", "mail alice a note"]
    gold = np.eye(3, dtype=bool)
    assert judge(selector.baseline(tools, queries), gold).correct.tolist() == [True, True, True]
    assert judge(LexicalSelector().baseline(tools, queries), gold).picks.tolist() == [-1, -1, -1]


def test_rescore_changes_only_the_edited_tools_column(selector: EmbeddingSelector) -> None:
    tools = [Tool(tool("t1", "Records changes to the repository")), Tool(tool("t2", "Convert time between timezones"))]
    before = selector.baseline(tools, ["commit my work", "what time is it in Tokyo"])
    rows, after = selector.rescore(0, Tool(tool("t1")))
    assert rows.tolist() == [0, 1]
    assert np.array_equal(after[:, 1], before[:, 1])
    assert not np.array_equal(after[:, 0], before[:, 0])


def test_the_tool_text_is_the_name_as_words_then_the_description() -> None:
    assert tool_text(Tool(tool("git_create_branch", "Creates a branch."))) == "git create branch. Creates a branch."


def test_the_example_runs_with_the_embedding_selector(selector: EmbeddingSelector) -> None:
    report = run_bench(load_spec(EXAMPLE / "bench.yml"), selector)
    assert report.selector == "embedding"
    assert report.baseline.correct == 28  # of 34; the lexical selector gets 24


def test_the_model_loads_with_the_network_refused() -> None:
    code = "from mcptest.bench.embedding import wordllama_embed; print(wordllama_embed()(['hello']).shape)"
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "HTTPS_PROXY": "http://127.0.0.1:9", "HTTP_PROXY": "http://127.0.0.1:9"}
    ran = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60, env=env)
    assert (ran.returncode, ran.stdout) == (0, "(1, 256)\n"), ran.stderr
