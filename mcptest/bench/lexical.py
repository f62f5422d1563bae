"""The lexical selector: the tool whose name and description best overlap the request, idf-weighted."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from mcptest.bench.terms import term_set
from mcptest.catalog import Tool

if TYPE_CHECKING:
    import numpy as np

NAME_WEIGHT = 2.0
DESCRIPTION_WEIGHT = 1.0


def tool_weights(tool: Tool) -> dict[str, float]:
    """w(k, t) = 2·[k in K(name)] + 1·[k in K(description)] for every key k the tool's text has."""
    name, desc = term_set(tool.name), term_set(tool.description)
    return {k: NAME_WEIGHT * (k in name) + DESCRIPTION_WEIGHT * (k in desc) for k in name | desc}


class LexicalSelector:
    """score(q, t) = Σ_{k ∈ K(q)} idf(k) · w(k, t),  idf(k) = ln(1 + N / df(k)),  w as in `tool_weights`.

    K(x) is the set of matching keys of a text (`terms.terms`: camelCase/snake_case split, lowercase, stop words
    dropped, light stemming), N the number of tools and df(k) how many tools have k in their name or description.
    This is the spec's proxy, "the tool whose name and description best overlap the request", with four choices:

    - Sets, not counts: saying a word twice does not make a tool more relevant.
    - idf: a word most tools share ("file" on a filesystem server) tells them apart less than a rare one;
      ln(1 + N/df) stays positive when every tool has the word, so sharing it still beats lacking it.
    - The name counts double: it is the identifier the model must emit and what routers index first; without the
      weight, long descriptions would drown it.
    - No length normalisation: removing words can then only lower the edited tool's score, so every drop a
      mutation causes is due to the words it removed (BM25's length term would raise the weight of what is left).
    Ties and the no-overlap case are settled by `selector.judge`. Deterministic: no randomness, no model.

    Re-scoring after one tool changes is exact and local: only keys whose weight in that tool changed move
    (their df, idf and the tool's own weight), so only the intents containing such a key, and only the tools
    having such a key, are re-summed, in the same order as a full run: bit-identical to a run from scratch.
    """

    name = "lexical"

    def baseline(self, tools: Sequence[Tool], queries: Sequence[str]) -> np.ndarray:
        """Scores of every tool for every query (read-only); keeps the index `rescore` updates."""
        import numpy as np

        keys = [sorted(term_set(q)) for q in queries]
        self._vocab = {k: j for j, k in enumerate(sorted({k for ks in keys for k in ks}))}
        null = len(self._vocab)  # a zero row, so a query with no key sums to zeros
        rows = [[self._vocab[k] for k in ks] or [null] for ks in keys]
        self._lens = np.array([len(r) for r in rows])
        self._ptr = np.concatenate([[0], np.cumsum(self._lens)[:-1]])
        self._flat = np.array([j for r in rows for j in r], dtype=np.intp)
        # weights are 0..3: one byte each, so (keys x tools) stays small at thousands of tools
        self._weights = np.zeros((null + 1, len(tools)), dtype=np.int8)
        for t, tool in enumerate(tools):
            self._weights[:, t] = self._column(tool)
        self._df = (self._weights > 0).sum(axis=1)
        self._n = len(tools)
        self._idfs = self._idf(self._df)
        self._intents_of = _postings(rows, null)
        self._scores = self._sum(np.arange(len(rows)), np.arange(self._n))
        self._scores.flags.writeable = False  # shared with the caller, who must copy before editing
        return self._scores

    def rescore(self, index: int, tool: Tool) -> tuple[np.ndarray, np.ndarray]:
        """The intents that contain a key whose weight in tool `index` changed, re-scored."""
        import numpy as np

        column = self._column(tool)
        changed = np.flatnonzero(column != self._weights[:, index])
        if not len(changed):
            return np.arange(0), np.zeros((0, self._n))
        df = self._df[changed] + (column[changed] > 0) - (self._weights[changed, index] > 0)
        saved = self._weights[changed, index].copy(), self._idfs[changed].copy()
        self._weights[changed, index] = column[changed]
        self._idfs[changed] = self._idf(df)
        try:
            rows = np.unique(np.concatenate([self._intents_of[j] for j in changed]))
            columns = np.union1d(np.flatnonzero((self._weights[changed] > 0).any(axis=0)), [index])
            if len(columns) == self._n:  # every column moves: nothing of the old rows is kept
                return rows, self._sum(rows, columns)
            scores = self._scores[rows]
            self._sum(rows, columns, into=scores)
            return rows, scores
        finally:
            self._weights[changed, index], self._idfs[changed] = saved

    def _column(self, tool: Tool) -> np.ndarray:
        import numpy as np

        column = np.zeros(len(self._vocab) + 1, dtype=np.int8)
        for key, weight in tool_weights(tool).items():
            if key in self._vocab:
                column[self._vocab[key]] = weight
        return column

    def _idf(self, df: np.ndarray) -> np.ndarray:
        import numpy as np

        return np.log1p(self._n / np.maximum(df, 1))

    def _sum(self, rows: np.ndarray, columns: np.ndarray, into: np.ndarray | None = None) -> np.ndarray:
        """Σ over each row's keys of idf·w for the given tool columns, in key order (np.add.reduceat).

        Worked in blocks of rows, so the gathered (keys x tools) terms stay a few MB whatever the catalog's size.
        With `into` (rows x all tools), the sums are written into its `columns` and it is returned."""
        import numpy as np

        out = np.zeros((len(rows), len(columns))) if into is None else into
        step = max(1, BLOCK_TERMS // max(1, len(columns) * int(self._lens.max(initial=1))))
        for start in range(0, len(rows), step):
            block = rows[start : start + step]
            lens = self._lens[block]
            offsets = np.concatenate([[0], np.cumsum(lens)[:-1]])
            index = np.repeat(self._ptr[block] - offsets, lens) + np.arange(lens.sum())
            keys = self._flat[index]
            terms = self._weights[np.ix_(keys, columns)] * self._idfs[keys][:, None]
            sums = np.add.reduceat(terms, offsets, axis=0)
            if into is None:
                out[start : start + len(block)] = sums
            else:
                out[start : start + len(block), columns] = sums
        return out


BLOCK_TERMS = 1 << 20
"""How many idf·w terms `_sum` gathers at once (8 MiB of float64)."""


def _postings(rows: list[list[int]], null: int) -> list[np.ndarray]:
    """For each key id, the intents whose query has it."""
    import numpy as np

    found: list[list[int]] = [[] for _ in range(null + 1)]
    for i, row in enumerate(rows):
        for j in row:
            found[j].append(i)
    return [np.array(f, dtype=np.intp) for f in found]
