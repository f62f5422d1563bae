"""The model selector over a Picker: every pick is asked again on the edited catalog."""

from __future__ import annotations

from mcptest.bench.model import ModelSelector
from mcptest.bench.selector import judge
from mcptest.records.catalog import Catalog, Tool
from tests.bench.conftest import tool


class KeywordPicker:
    """A stand-in model: picks the first tool whose description contains a word of the request."""

    def __init__(self) -> None:
        self.asked: list[tuple[str, int]] = []

    def pick(self, query: str, catalog: Catalog) -> str | None:
        self.asked.append((query, len(catalog.tools)))
        words = set(query.lower().split())
        return next((t.name for t in catalog.tools if words & set(t.description.lower().split())), "made_up")


def test_picks_become_one_hot_scores_and_unknown_names_pick_nothing() -> None:
    import numpy as np

    tools = [Tool(tool("a", "weather forecast")), Tool(tool("b", "send email"))]
    selector = ModelSelector(KeywordPicker(), "scripted")
    scores = selector.baseline(tools, ["forecast please", "email bob", "dance"])
    assert scores.tolist() == [[1.0, 0.0], [0.0, 1.0], [0.0, 0.0]]
    assert judge(scores, np.array([[True, False], [False, True], [True, False]])).correct.tolist() == [
        True,
        True,
        False,
    ]
    assert selector.name == "model:scripted"


def test_rescore_asks_again_for_every_intent_on_the_edited_catalog() -> None:
    picker = KeywordPicker()
    tools = [Tool(tool("a", "weather forecast")), Tool(tool("b", "send email"))]
    selector = ModelSelector(picker, "scripted")
    selector.baseline(tools, ["forecast please", "email bob"])
    rows, scores = selector.rescore(0, Tool(tool("a")))
    assert rows.tolist() == [0, 1]
    assert scores.tolist() == [[0.0, 0.0], [0.0, 1.0]]
    assert len(picker.asked) == 4
