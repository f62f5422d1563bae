"""The lexical selector's shortlist judging (outcomes, mutated) against judging every score from scratch.

`outcomes` and `mutated` never build the intents x tools matrix: they score a shortlist exactly and bound the
rest. These tests pin that the result is the same as `judge` on the full scores of the baseline and of each
mutated catalog scored from scratch, bit for bit, on random catalogs full of ties and shared words, with the
shortlist squeezed to one or two tools so that every fallback path runs too.
"""

from __future__ import annotations

import importlib.util
import json
import random
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

from mcptest.bench import lexical as lexical_module
from mcptest.bench import load_spec, run_bench, shortlist
from mcptest.bench.key_index import KeyIndex
from mcptest.bench.lexical import LexicalSelector
from mcptest.bench.selector import Gold, ScoringSelector, judge
from mcptest.records.catalog import Tool
from tests.bench.conftest import EXAMPLE, tool
from tests.conftest import ROOT

WORDS = "read write file list branch commit time zone search image send mail sum log tree move".split()  # noqa: SIM905


def _benchmark() -> ModuleType:
    """benchmarks/tool_bench.py, whose generator builds specs from real descriptions plus distinguishing words."""
    spec = importlib.util.spec_from_file_location("tool_bench", ROOT / "benchmarks" / "tool_bench.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class FromScratch(LexicalSelector):
    """The reference: `judge` on the dense baseline scores and on the dense re-scored rows."""

    outcomes = ScoringSelector.outcomes
    mutated = ScoringSelector.mutated


def _random_case(rng: random.Random) -> tuple[list[Tool], list[str], list[list[int]]]:
    """A catalog with twins (same text under another name) and shared words, so ties and plateaus are common;
    queries from empty to long (40 words, past the 31 keys a pattern number holds and the 8 terms where numpy's
    sums change order)."""
    n = rng.randint(1, 24)
    tools: list[Tool] = []
    for i in range(n):
        if tools and rng.random() < 0.3:
            twin = rng.choice(tools)
            tools.append(Tool({**twin.raw, "name": f"t{i}_{twin.name.split('_', 1)[1]}"}))
            continue
        words = rng.sample(WORDS, rng.randint(0, 6))
        tools.append(Tool(tool(f"t{i}_{rng.choice(WORDS)}", " ".join(words))))
    vocabulary = [*WORDS, "weather", "paris", "the"]
    sizes = [0, 1, 2, 3, 5, 9, 40]
    queries = [" ".join(rng.choices(vocabulary, k=rng.choice(sizes))) for _ in range(rng.randint(1, 40))]
    gold = [rng.sample(range(n), rng.randint(1, min(3, n))) for _ in queries]
    return tools, queries, gold


def _edit(rng: random.Random, tool: Tool) -> Tool:
    description = tool.description
    edits = [
        "",
        "A general-purpose helper utility.",
        description[: rng.randint(0, len(description))],
        " ".join(w for w in description.split() if rng.random() < 0.5),
        description,
        " ".join(rng.sample(WORDS, 3)),
    ]
    return Tool({**tool.raw, "description": rng.choice(edits)})


def _check(tools: list[Tool], queries: list[str], gold_lists: list[list[int]], rng: random.Random) -> None:
    gold = Gold(gold_lists, len(tools))
    dense = gold.dense(np.arange(len(queries)))
    fast, reference = LexicalSelector(), FromScratch()
    got, want = fast.outcomes(tools, queries, gold), reference.outcomes(tools, queries, gold)
    assert got.correct.tolist() == want.correct.tolist()
    assert got.picks.tolist() == want.picks.tolist()
    assert got.tied.tolist() == want.tied.tolist()
    for _ in range(4):
        index = rng.randrange(len(tools))
        edited = _edit(rng, tools[index])
        rows, correct = fast.mutated(index, edited)
        after = got.correct.copy()
        after[rows] = correct
        scratch = LexicalSelector().baseline([*tools[:index], edited, *tools[index + 1 :]], queries)
        assert after.tolist() == judge(scratch, dense).correct.tolist()


@pytest.mark.parametrize(("cut", "size", "rare"), [(0.25, 1024, 32), (0.0, 1, 32), (0.5, 2, 0), (1.0, 3, 1000)])
def test_shortlist_judging_equals_judging_every_score_from_scratch(
    monkeypatch: pytest.MonkeyPatch, cut: float, size: int, rare: int
) -> None:
    monkeypatch.setattr(shortlist, "CUT", cut)
    monkeypatch.setattr(shortlist, "SHORTLIST", size)
    monkeypatch.setattr(lexical_module, "RARE", rare)
    whole_rows, scored = KeyIndex.whole_rows, []

    def counted(self: KeyIndex, rows: np.ndarray):  # type: ignore[no-untyped-def]
        scored.append(len(rows))
        return whole_rows(self, rows)

    monkeypatch.setattr(KeyIndex, "whole_rows", counted)
    rng = random.Random(f"{cut}-{size}-{rare}")
    for _ in range(60):
        _check(*_random_case(rng), rng)
    assert sum(scored) > 0  # the cases reach the fallback: rows the shortlist cannot settle, scored whole


def test_a_pair_is_summed_exactly_as_its_row() -> None:
    rng = random.Random(3)
    tools, queries, _ = _random_case(rng)
    queries += [" ".join(rng.choices(WORDS, k=k)) for k in (8, 9, 17, 33, 60)]
    selector = LexicalSelector()
    scores = selector.baseline(tools, queries)
    rows, columns = np.divmod(np.arange(scores.size), scores.shape[1])
    assert np.array_equal(selector._keys.pair_sums(rows, columns), scores.ravel())  # bit for bit


def test_the_benchmark_spec_reports_exactly_what_judging_from_scratch_reports(tmp_path: Path) -> None:
    spec = tmp_path / "bench.json"
    spec.write_text(json.dumps(_benchmark().build_spec(150, 600, 24)), encoding="utf-8")
    bench = load_spec(spec)
    fast, reference = run_bench(bench, LexicalSelector()), run_bench(bench, FromScratch())
    assert fast.model_dump() == reference.model_dump()
    assert 0.5 < fast.baseline.accuracy < 1  # realistic: well above chance (1/150), not trivially perfect
    assert any(m.lost for m in fast.mutations)


def test_the_example_reports_exactly_what_judging_from_scratch_reports() -> None:
    bench = load_spec(EXAMPLE / "bench.yml")
    assert run_bench(bench, LexicalSelector()).model_dump() == run_bench(bench, FromScratch()).model_dump()


def test_the_shortlist_keeps_the_tools_near_the_top_and_bounds_the_rest() -> None:
    approx = np.array([[9.0, 8.0, 1.0, 0.0], [0.0, 0.0, 0.0, 0.0], [5.0, 5.0, 5.0, 4.0]], dtype=np.float32)
    rows, tools, floor = shortlist.shortlisted(approx.copy(), 2)
    assert list(zip(rows.tolist(), tools.tolist(), strict=True))[:2] == [(0, 0), (0, 1)]
    assert floor[0] == 1.0  # the best tool off the list
    assert 1 not in rows.tolist() and floor[1] == 0.0  # nothing overlaps: no candidate, and the rest score 0
    assert (rows == 2).sum() == 2 and floor[2] == 5.0  # three tied but room for two: the floor shows the third


def test_a_mutation_that_cannot_move_an_intent_leaves_it_out(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(lexical_module, "RARE", 0)  # bound every idf change (a four-tool catalog has only rare keys)
    tools = [Tool(tool(f"t{i}_{w}", f"{w} things and more")) for i, w in enumerate(["mail", "tree", "zone", "log"])]
    selector = LexicalSelector()
    selector.outcomes(tools, ["mail things", "tree things"], Gold([[0], [1]], 4))
    rows, correct = selector.mutated(3, Tool(tool("t3_log", "")))  # 'things' lost one holder: the idf moved
    assert rows.tolist() == [] and correct.tolist() == []
    rows, correct = selector.mutated(0, Tool(tool("t0_mail", "")))
    assert rows.tolist() == [0] and correct.tolist() == [True]  # its own name still picks it
