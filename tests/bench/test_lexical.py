"""The lexical selector: keys, the documented formula, ties, and exact local re-scoring."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

from mcptest.bench import load_spec
from mcptest.bench.lexical import LexicalSelector, tool_weights
from mcptest.bench.selector import judge
from mcptest.bench.terms import stem, terms
from mcptest.records.catalog import Tool
from tests.bench.conftest import EXAMPLE, tool


def test_names_and_prose_normalise_to_the_same_keys() -> None:
    assert (
        terms("getCurrentTime")
        == terms("get_current_time")
        == terms("Get the current time")
        == [
            "get",
            "current",
            "tim",
        ]
    )


def test_inflections_share_a_key_and_short_words_are_left_alone() -> None:
    assert {stem(w) for w in ("files", "file")} == {"fil"}
    assert {stem(w) for w in ("create", "created", "creating", "creates")} == {"creat"}
    assert {stem(w) for w in ("commit", "commits", "committed")} == {"commit"}
    assert {stem(w) for w in ("directory", "directories")} == {"directory"}
    assert [stem(w) for w in ("status", "analysis", "pass", "pull", "use")] == [
        "status",
        "analysis",
        "pass",
        "pull",
        "use",
    ]


def test_name_keys_weigh_two_and_description_keys_one() -> None:
    weights = tool_weights(Tool(tool("read_file", "Read a file from disk.")))
    assert weights == {"read": 3.0, "fil": 3.0, "disk": 1.0}


def test_scores_follow_the_documented_formula() -> None:
    tools = [Tool(tool("read_file", "Read a file from disk.")), Tool(tool("write_file", "Write text to a file."))]
    scores = LexicalSelector().baseline(tools, ["read the text file"])
    n = 2
    idf = {"read": math.log1p(n / 1), "fil": math.log1p(n / 2), "text": math.log1p(n / 1)}
    expected = [idf["fil"] * 3 + idf["read"] * 3, idf["fil"] * 3 + idf["text"] * 1]
    assert scores[0].tolist() == pytest.approx(expected, rel=1e-12)


def test_a_query_with_no_shared_word_picks_nothing() -> None:
    tools = [Tool(tool("read_file", "Read a file."))]
    outcome = judge(LexicalSelector().baseline(tools, ["the weather in Paris", "what is it"]), np.ones((2, 1), bool))
    assert outcome.correct.tolist() == [False, False]
    assert outcome.picks.tolist() == [-1, -1]


def test_a_tie_at_the_top_is_a_miss_unless_every_tied_tool_is_gold() -> None:
    twins = [Tool(tool("alpha", "Send an email.")), Tool(tool("beta", "Send an email.")), Tool(tool("gamma", "Sum."))]
    scores = LexicalSelector().baseline(twins, ["send an email"] * 3)
    gold = np.array([[True, False, False], [False, True, False], [True, True, False]])
    outcome = judge(scores, gold)
    assert outcome.correct.tolist() == [False, False, True]
    assert outcome.picks.tolist() == [0, 0, 0]  # the first tied tool in catalog order is reported
    assert outcome.tied.tolist() == [2, 2, 2]


def test_the_outcome_does_not_depend_on_the_order_tools_are_listed_in() -> None:
    bench = load_spec(EXAMPLE / "bench.yml")
    tools = list(bench.catalog.tools)
    queries = [i.query for i in bench.intents]
    gold = np.array([[t.name in i.gold for t in tools] for i in bench.intents])
    forward = judge(LexicalSelector().baseline(tools, queries), gold).correct
    backward = judge(LexicalSelector().baseline(tools[::-1], queries), gold[:, ::-1]).correct
    assert forward.tolist() == backward.tolist()


def _check_rescore_matches_scratch(tools: list[Tool], queries: list[str], index: int, edited: Tool) -> None:
    selector = LexicalSelector()
    before = selector.baseline(tools, queries)
    rows, new = selector.rescore(index, edited)
    scratch = LexicalSelector().baseline([*tools[:index], edited, *tools[index + 1 :]], queries)
    expected = before.copy()
    expected[rows] = new
    assert np.array_equal(expected, scratch)  # bit for bit, not approximately


def test_rescoring_one_mutation_equals_scoring_the_mutated_catalog_from_scratch() -> None:
    bench = load_spec(EXAMPLE / "bench.yml")
    tools, queries = list(bench.catalog.tools), [i.query for i in bench.intents]
    for mut in bench.mutations:
        index = [t.name for t in tools].index(mut.tool)
        _check_rescore_matches_scratch(tools, queries, index, mut.apply(tools[index]))


def test_rescoring_matches_from_scratch_on_random_catalogs_and_edits() -> None:
    rng = random.Random(7)
    words = [
        "read",
        "write",
        "file",
        "list",
        "branch",
        "commit",
        "time",
        "zone",
        "search",
        "image",
        "send",
        "mail",
        "sum",
        "log",
        "tree",
        "move",
    ]
    for _ in range(40):
        tools = [Tool(tool(f"t{i}_{rng.choice(words)}", " ".join(rng.sample(words, 5)))) for i in range(12)]
        queries = [" ".join(rng.sample(words, 3)) for _ in range(30)]
        index = rng.randrange(12)
        edit = rng.choice([" ".join(rng.sample(words, 2)), "", tools[index].description[:7]])
        _check_rescore_matches_scratch(tools, queries, index, Tool({**tools[index].raw, "description": edit}))


def test_an_edit_that_changes_no_key_rescores_nothing() -> None:
    tools = [Tool(tool("read_file", "Read a file."))]
    selector = LexicalSelector()
    selector.baseline(tools, ["read it"])
    rows, scores = selector.rescore(0, Tool(tool("read_file", "Reads the files!")))
    assert len(rows) == 0 and scores.shape == (0, 1)
