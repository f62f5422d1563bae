"""The lexical selector's index: the matching keys of every request, every tool's weight on each, idf, and the
exact sums of idf·w that make a score."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING

from mcptest.bench.terms import term_set
from mcptest.records.catalog import Tool

if TYPE_CHECKING:
    import numpy as np

NAME_WEIGHT = 2.0
DESCRIPTION_WEIGHT = 1.0
MAX_WEIGHT = NAME_WEIGHT + DESCRIPTION_WEIGHT


def tool_weights(tool: Tool) -> dict[str, float]:
    """w(k, t) = 2·[k in K(name)] + 1·[k in K(description)] for every key k the tool's text has."""
    name, desc = term_set(tool.name), term_set(tool.description)
    return {k: NAME_WEIGHT * (k in name) + DESCRIPTION_WEIGHT * (k in desc) for k in name | desc}


class KeyIndex:
    """Requests as sorted key ids, tools as one-byte weights (keys x tools), df, idf and the postings of each key.

    Every score is summed the same way (`sums`, `pair_sums`: numpy's reduceat over the request's keys in key
    order), so a score computed alone, in a row, or after an edit is bit-identical to the same score in a run from
    scratch: the selector's bounds decide what to compute, never what a score is.
    """

    def __init__(self, tools: Sequence[Tool], queries: Sequence[str]) -> None:
        import numpy as np

        keys = [sorted(term_set(q)) for q in queries]
        self._vocab = {k: j for j, k in enumerate(sorted({k for ks in keys for k in ks}))}
        null = len(self._vocab)  # a zero row, so a query with no key sums to zeros
        rows = [[self._vocab[k] for k in ks] or [null] for ks in keys]
        self.lens = np.array([len(r) for r in rows], dtype=np.intp)
        self._ptr = np.concatenate([[0], np.cumsum(self.lens)[:-1]]).astype(np.intp)
        self._flat = np.array([j for r in rows for j in r], dtype=np.intp)
        # weights are 0..3: one byte each, so (keys x tools) stays small at thousands of tools
        self.weights = np.zeros((null + 1, len(tools)), dtype=np.int8)
        for t, tool in enumerate(tools):
            self.weights[:, t] = self.column(tool)
        self.df = (self.weights > 0).sum(axis=1)
        self.n = len(tools)
        self.idfs = self.idf(self.df)
        self.intents_of = _postings(rows, null)

    def rows_with(self, keys: np.ndarray) -> np.ndarray:
        """The sorted intents whose query has one of `keys`."""
        import numpy as np

        found = np.zeros(len(self.lens), dtype=bool)
        for key in keys.tolist():
            found[self.intents_of[key]] = True
        return np.flatnonzero(found)

    @contextmanager
    def edited(self, index: int, tool: Tool) -> Iterator[tuple[np.ndarray, np.ndarray, np.ndarray]]:
        """Tool `index` replaced by `tool` while the block runs: its weights, and the idf and df of every key whose
        df moved. Yields the keys whose weight in the tool changed, how far each one's idf moved, and how far the
        tool's own term (weight x idf) for each moved."""
        import numpy as np

        column = self.column(tool)
        changed = np.flatnonzero(column != self.weights[:, index])
        df = self.df[changed] + (column[changed] > 0) - (self.weights[changed, index] > 0)
        saved = self.weights[changed, index].copy(), self.idfs[changed].copy(), self.df[changed].copy()
        self.weights[changed, index], self.df[changed] = column[changed], df
        self.idfs[changed] = self.idf(df)
        try:
            yield (
                changed,
                self.idfs[changed] - saved[1],
                column[changed] * self.idfs[changed] - saved[0] * saved[1],
            )
        finally:
            self.weights[changed, index], self.idfs[changed], self.df[changed] = saved

    def column(self, tool: Tool) -> np.ndarray:
        import numpy as np

        column = np.zeros(len(self._vocab) + 1, dtype=np.int8)
        for key, weight in tool_weights(tool).items():
            if key in self._vocab:
                column[self._vocab[key]] = weight
        return column

    def idf(self, df: np.ndarray) -> np.ndarray:
        import numpy as np

        return np.log1p(self.n / np.maximum(df, 1))

    def sums(self, rows: np.ndarray, columns: np.ndarray, into: np.ndarray | None = None) -> np.ndarray:
        """Σ over each row's keys of idf·w for the given tool columns, in key order (np.add.reduceat).

        Worked in blocks of rows, so the gathered (keys x tools) terms stay a few MB whatever the catalog's size.
        With `into` (rows x all tools), the sums are written into its `columns` and it is returned."""
        import numpy as np

        out = np.zeros((len(rows), len(columns))) if into is None else into
        step = max(1, BLOCK_TERMS // max(1, len(columns) * int(self.lens.max(initial=1))))
        for start in range(0, len(rows), step):
            block = rows[start : start + step]
            lens = self.lens[block]
            offsets = np.concatenate([[0], np.cumsum(lens)[:-1]])
            keys = self._flat[_spans(self._ptr[block], lens)]
            terms = self.weights[np.ix_(keys, columns)] * self.idfs[keys][:, None]
            sums = np.add.reduceat(terms, offsets, axis=0)
            if into is None:
                out[start : start + len(block)] = sums
            else:
                out[start : start + len(block), columns] = sums
        return out

    def pair_sums(self, rows: np.ndarray, tools: np.ndarray) -> np.ndarray:
        """score(rows[p], tools[p]) for each pair p, summed exactly as `_sum` sums it (reduceat over the same
        terms: a one-column reduction is the same float operations, in the same order)."""
        import numpy as np

        if not len(rows):
            return np.zeros(0)
        lens, keys, weights = self._pair_terms(rows, tools)
        return np.add.reduceat(weights * self.idfs[keys], np.cumsum(lens) - lens)

    def patterns(self, rows: np.ndarray, tools: np.ndarray) -> np.ndarray:
        """For each pair, a number equal for two tools exactly when they weigh every key of the row's request alike
        (2 bits per key; past 31 keys, the tool's own number, so such a tool is alone in its class)."""
        import numpy as np

        if not len(rows):
            return np.zeros(0, np.int64)
        lens, _, weights = self._pair_terms(rows, tools)
        starts = np.cumsum(lens) - lens
        position = np.arange(len(weights)) - np.repeat(starts, lens)
        code = np.add.reduceat(weights.astype(np.int64) << np.minimum(2 * position, 62), starts)
        return np.where(lens > 31, -1 - tools, code)

    def _pair_terms(self, rows: np.ndarray, tools: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Per pair its number of keys; then, pair after pair, its keys and the tool's weight on each."""
        import numpy as np

        lens = self.lens[rows]
        keys = self._flat[_spans(self._ptr[rows], lens)]
        return lens, keys, self.weights[keys, np.repeat(tools, lens)]

    def whole_rows(self, rows: np.ndarray) -> Iterator[tuple[np.ndarray, np.ndarray]]:
        """Exact scores of every tool for the given rows, a block of rows at a time (bounded memory)."""
        import numpy as np

        step = max(1, BLOCK_TERMS // max(1, self.n))
        for start in range(0, len(rows), step):
            part = rows[start : start + step]
            yield part, self.sums(part, np.arange(self.n))

    def approximate(self) -> Iterator[tuple[slice, np.ndarray]]:
        """Blocks of rows with float32 scores of every tool: sparse (query x key) idf times dense (key x tool)
        weights. Only good for ranking: the shortlist's scores are then computed exactly."""
        import numpy as np
        from scipy.sparse import csr_matrix

        rows, keys = len(self.lens), len(self.weights)
        indptr = np.concatenate([self._ptr, [len(self._flat)]])
        queries = csr_matrix((self.idfs[self._flat].astype(np.float32), self._flat, indptr), shape=(rows, keys))
        weights = self.weights.astype(np.float32)
        step = max(1, BLOCK_TERMS // max(1, self.n))
        for start in range(0, rows, step):
            yield slice(start, start + step), np.asarray(queries[start : start + step] @ weights)


BLOCK_TERMS = 1 << 20
"""How many idf·w terms `_sum` gathers at once (8 MiB of float64)."""


def _spans(starts: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """The indices starts[0] .. starts[0]+lengths[0]-1, then starts[1] .., one run per pair, concatenated."""
    import numpy as np

    offsets = np.cumsum(lengths) - lengths
    return np.repeat(starts - offsets, lengths) + np.arange(int(lengths.sum()))


def _postings(rows: list[list[int]], null: int) -> list[np.ndarray]:
    """For each key id, the intents whose query has it."""
    import numpy as np

    found: list[list[int]] = [[] for _ in range(null + 1)]
    for i, row in enumerate(rows):
        for j in row:
            found[j].append(i)
    return [np.array(f, dtype=np.intp) for f in found]
