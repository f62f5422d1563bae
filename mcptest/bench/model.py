"""The model selector: a real model picks the tool, through anything that satisfies `Picker`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

from mcptest.bench.selector import ScoringSelector
from mcptest.records.catalog import Catalog, Tool

if TYPE_CHECKING:
    import numpy as np


class Picker(Protocol):
    """Shows a model the catalog and the request; returns the tool it called (None when it called none)."""

    def pick(self, query: str, catalog: Catalog) -> str | None:
        """The name of the tool the model picked for `query` given `catalog`."""
        ...


class ModelSelector(ScoringSelector):
    """score(q, t) = 1 when the picker chose t for q, else 0; a name not in the catalog picks nothing.

    A model sees the whole catalog, so any edit can move any pick: `rescore` asks again for every intent
    (intents × (mutations + 1) picks in all). The CLI's picker is `recording.RecordedPicker`: every pick is
    read from the cassette, recorded beforehand by asking the model only for the questions it lacks.
    """

    def __init__(self, picker: Picker, model: str) -> None:
        self._picker = picker
        self.name = f"model:{model}"

    def baseline(self, tools: Sequence[Tool], queries: Sequence[str]) -> np.ndarray:
        """One pick per query on the catalog as given."""
        self._tools, self._queries = list(tools), list(queries)
        return self._picks(self._tools)

    def rescore(self, index: int, tool: Tool) -> tuple[np.ndarray, np.ndarray]:
        """Every intent, picked again on the catalog with tool `index` replaced."""
        import numpy as np

        tools = [*self._tools[:index], tool, *self._tools[index + 1 :]]
        return np.arange(len(self._queries)), self._picks(tools)

    def _picks(self, tools: list[Tool]) -> np.ndarray:
        import numpy as np

        catalog = Catalog(tuple(tools))
        names = {t.name: i for i, t in enumerate(tools)}
        scores = np.zeros((len(self._queries), len(tools)))
        for row, query in enumerate(self._queries):
            picked = self._picker.pick(query, catalog)
            if picked in names:
                scores[row, names[picked]] = 1.0
        return scores
