"""The lexical selector: the tool whose name and description best overlap the request, idf-weighted."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING

from mcptest.bench import shortlist
from mcptest.bench.selector import Gold, Outcomes, ScoringSelector, judge
from mcptest.bench.terms import term_set
from mcptest.catalog import Tool

if TYPE_CHECKING:
    import numpy as np

NAME_WEIGHT = 2.0
DESCRIPTION_WEIGHT = 1.0
MAX_WEIGHT = NAME_WEIGHT + DESCRIPTION_WEIGHT

RARE = 32
"""A key held by at most this many tools is rare: when an edit raises its idf, the tools holding it are scored
exactly instead of bounded (the idf of a rare key moves a lot, ln 2 from df 2 to 1)."""


def tool_weights(tool: Tool) -> dict[str, float]:
    """w(k, t) = 2·[k in K(name)] + 1·[k in K(description)] for every key k the tool's text has."""
    name, desc = term_set(tool.name), term_set(tool.description)
    return {k: NAME_WEIGHT * (k in name) + DESCRIPTION_WEIGHT * (k in desc) for k in name | desc}


class LexicalSelector(ScoringSelector):
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

    Every score is summed the same way (`_sum`, `_pair_sums`: numpy's reduceat over the query's keys in key order),
    so a score computed alone, in a row, or after an edit is bit-identical to the same score in a run from scratch.
    A mutation changes one tool, so only keys whose weight in that tool changed move (their df, idf and the tool's
    own weight): `rescore` re-sums only the intents containing such a key and the tools having one, and `mutated`
    judges those intents from their shortlist (`shortlist`), scoring a whole row only when bounds cannot settle it.
    """

    name = "lexical"

    def baseline(self, tools: Sequence[Tool], queries: Sequence[str]) -> np.ndarray:
        """Scores of every tool for every query (read-only); keeps the index `rescore` updates."""
        import numpy as np

        self._index(tools, queries)
        self._scores = self._sum(np.arange(len(queries)), np.arange(self._n))
        self._scores.flags.writeable = False  # shared with the caller, who must copy before editing
        return self._scores

    def rescore(self, index: int, tool: Tool) -> tuple[np.ndarray, np.ndarray]:
        """The intents that contain a key whose weight in tool `index` changed, re-scored."""
        import numpy as np

        with self._edited(index, tool) as (changed, _, _):
            if not len(changed):
                return np.arange(0), np.zeros((0, self._n))
            rows = self._rows_with(changed)
            columns = np.union1d(np.flatnonzero((self._weights[changed] > 0).any(axis=0)), [index])
            if len(columns) == self._n:  # every column moves: nothing of the old rows is kept
                return rows, self._sum(rows, columns)
            scores = self._scores[rows]
            self._sum(rows, columns, into=scores)
            return rows, scores

    def outcomes(self, tools: Sequence[Tool], queries: Sequence[str], gold: Gold) -> Outcomes:
        """Every intent judged from its shortlist (`shortlist`): the tools ranked near its top by a float32 product
        of sparse query keys and weights, a block of rows at a time, then scored exactly; whole rows only when
        the shortlist cannot settle them. Keeps the shortlists for `mutated`."""
        import numpy as np

        self._index(tools, queries)
        self._gold = gold
        blocks = [(at.start, *shortlist.shortlisted(approx, shortlist.SHORTLIST)) for at, approx in self._approximate()]
        group = np.concatenate([start + rows for start, rows, _, _ in blocks] or [np.zeros(0, np.intp)])
        pairs = np.concatenate([tools for _, _, tools, _ in blocks] or [np.zeros(0, np.intp)])
        floor = np.concatenate([floor for _, _, _, floor in blocks] or [np.zeros(0)])
        # float32 sums of n products err by under (n + 1)·2^-24 of the score; twice that covers the idf rounding
        floor *= 1 + (int(self._lens.max(initial=1)) + 2) * 2.0**-22
        exact, pattern, good = self._pair_sums(group, pairs), self._patterns(group, pairs), gold.has(group, pairs)
        self._shortlist = shortlist.Shortlist.of(group, pairs, self._n, floor, score=exact, pattern=pattern, gold=good)
        done = shortlist.settle(group, pairs, np.ones(len(pairs), np.intp), ~good, exact, floor)
        correct, picks, tied = done.correct, done.picks, done.tied
        for part, scores in self._whole_rows(np.flatnonzero(~done.settled)):
            whole = judge(scores, gold.dense(part))
            correct[part], picks[part], tied[part] = whole.correct, whole.picks, whole.tied
        return Outcomes(correct, picks, tied)

    def mutated(self, index: int, tool: Tool) -> tuple[np.ndarray, np.ndarray]:
        """The intents whose outcome the edit of tool `index` can have changed, judged again.

        Only intents containing a key whose weight in the tool changed can move. Of those, an intent whose top is
        one class of tools without the edited one, with a margin no bound on the edit's effects can close, keeps
        its outcome (`Shortlist.steady`); the rest are judged from the classes of their shortlists, the edited tool,
        and every tool holding a rare key whose idf rose (see `shortlist`)."""
        import numpy as np

        with self._edited(index, tool) as (changed, moved, gained):
            rows = self._rows_with(changed)
            up, down, gain, rare = (np.zeros(len(self._lens)) for _ in range(4))
            rare_keys = []
            for key, delta, more in zip(changed.tolist(), moved.tolist(), gained.tolist(), strict=True):
                posting = self._intents_of[key]
                gain[posting] += max(more, 0.0)
                if delta > 0 and self._df[key] <= RARE:  # score these exactly: a rare key's idf can move by ln 2
                    rare[posting], rare_keys = 1, [*rare_keys, key]
                elif delta > 0:
                    up[posting] += MAX_WEIGHT * delta
                elif delta < 0:
                    down[posting] -= MAX_WEIGHT * delta
            short = self._shortlist
            rows = rows[~short.steady(rows, index, self._n, up[rows], down[rows], gain[rows], rare[rows] > 0)]
            own = self._gold.has(rows, np.full(len(rows), index))
            # candidates: (position in rows, tool to score, tools it stands for, how many of them are not gold)
            found = [(np.arange(len(rows)), np.full(len(rows), index), np.ones(len(rows), np.intp), ~own)]
            for key in rare_keys:
                holders = np.flatnonzero(self._weights[key])
                holders = holders[holders != index]
                at = np.flatnonzero(np.isin(rows, self._intents_of[key], assume_unique=True))
                at, holders = np.repeat(at, len(holders)), np.tile(holders, len(at))
                found.append((at, holders, np.ones(len(at), np.intp), ~self._gold.has(rows[at], holders)))
            found.append(self._classes_left(rows, index, own, up[rows], down[rows]))
            group, first, size, wrong = (np.concatenate(column) for column in zip(*found, strict=True))
            exact = self._pair_sums(rows[group], first)
            done = shortlist.settle(group, first, size, wrong, exact, short.outside(rows, up[rows]))
            correct = done.correct
            for part, whole in self._whole_rows(rows[~done.settled]):
                correct[np.searchsorted(rows, part)] = judge(whole, self._gold.dense(part)).correct
            return rows, correct

    def _classes_left(
        self, rows: np.ndarray, index: int, own: np.ndarray, up: np.ndarray, down: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """The shortlisted classes of `rows` that can still reach the top, without the edited tool (which moves
        alone): (position in rows, a tool of the class to score, its size, how many not gold)."""
        import numpy as np

        short = self._shortlist
        group, cls = short.classes(rows)
        edited = cls == short.class_of(rows, index, self._n)[group]
        size, wrong = short.size[cls] - edited, short.wrong[cls] - (edited & ~own[group])
        tool = np.where(edited & (short.first[cls] == index), short.second[cls], short.first[cls])
        keep = size > 0
        group, cls, size, wrong, tool = group[keep], cls[keep], size[keep], wrong[keep], tool[keep]
        keep = shortlist.candidates(group, short.score[cls], len(rows), up, down)
        return group[keep], tool[keep], size[keep], wrong[keep]

    def _index(self, tools: Sequence[Tool], queries: Sequence[str]) -> None:
        import numpy as np

        keys = [sorted(term_set(q)) for q in queries]
        self._vocab = {k: j for j, k in enumerate(sorted({k for ks in keys for k in ks}))}
        null = len(self._vocab)  # a zero row, so a query with no key sums to zeros
        rows = [[self._vocab[k] for k in ks] or [null] for ks in keys]
        self._lens = np.array([len(r) for r in rows], dtype=np.intp)
        self._ptr = np.concatenate([[0], np.cumsum(self._lens)[:-1]]).astype(np.intp)
        self._flat = np.array([j for r in rows for j in r], dtype=np.intp)
        # weights are 0..3: one byte each, so (keys x tools) stays small at thousands of tools
        self._weights = np.zeros((null + 1, len(tools)), dtype=np.int8)
        for t, tool in enumerate(tools):
            self._weights[:, t] = self._column(tool)
        self._df = (self._weights > 0).sum(axis=1)
        self._n = len(tools)
        self._idfs = self._idf(self._df)
        self._intents_of = _postings(rows, null)

    def _rows_with(self, keys: np.ndarray) -> np.ndarray:
        """The sorted intents whose query has one of `keys`."""
        import numpy as np

        found = np.zeros(len(self._lens), dtype=bool)
        for key in keys.tolist():
            found[self._intents_of[key]] = True
        return np.flatnonzero(found)

    @contextmanager
    def _edited(self, index: int, tool: Tool) -> Iterator[tuple[np.ndarray, np.ndarray, np.ndarray]]:
        """Tool `index` replaced by `tool` while the block runs: its weights, and the idf and df of every key whose
        df moved. Yields the keys whose weight in the tool changed, how far each one's idf moved, and how far the
        tool's own term (weight x idf) for each moved."""
        import numpy as np

        column = self._column(tool)
        changed = np.flatnonzero(column != self._weights[:, index])
        df = self._df[changed] + (column[changed] > 0) - (self._weights[changed, index] > 0)
        saved = self._weights[changed, index].copy(), self._idfs[changed].copy(), self._df[changed].copy()
        self._weights[changed, index], self._df[changed] = column[changed], df
        self._idfs[changed] = self._idf(df)
        try:
            yield (
                changed,
                self._idfs[changed] - saved[1],
                column[changed] * self._idfs[changed] - saved[0] * saved[1],
            )
        finally:
            self._weights[changed, index], self._idfs[changed], self._df[changed] = saved

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
            keys = self._flat[_spans(self._ptr[block], lens)]
            terms = self._weights[np.ix_(keys, columns)] * self._idfs[keys][:, None]
            sums = np.add.reduceat(terms, offsets, axis=0)
            if into is None:
                out[start : start + len(block)] = sums
            else:
                out[start : start + len(block), columns] = sums
        return out

    def _pair_sums(self, rows: np.ndarray, tools: np.ndarray) -> np.ndarray:
        """score(rows[p], tools[p]) for each pair p, summed exactly as `_sum` sums it (reduceat over the same
        terms: a one-column reduction is the same float operations, in the same order)."""
        import numpy as np

        if not len(rows):
            return np.zeros(0)
        lens, keys, weights = self._pair_terms(rows, tools)
        return np.add.reduceat(weights * self._idfs[keys], np.cumsum(lens) - lens)

    def _patterns(self, rows: np.ndarray, tools: np.ndarray) -> np.ndarray:
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

        lens = self._lens[rows]
        keys = self._flat[_spans(self._ptr[rows], lens)]
        return lens, keys, self._weights[keys, np.repeat(tools, lens)]

    def _whole_rows(self, rows: np.ndarray) -> Iterator[tuple[np.ndarray, np.ndarray]]:
        """Exact scores of every tool for the given rows, a block of rows at a time (bounded memory)."""
        import numpy as np

        step = max(1, BLOCK_TERMS // max(1, self._n))
        for start in range(0, len(rows), step):
            part = rows[start : start + step]
            yield part, self._sum(part, np.arange(self._n))

    def _approximate(self) -> Iterator[tuple[slice, np.ndarray]]:
        """Blocks of rows with float32 scores of every tool: sparse (query x key) idf times dense (key x tool)
        weights. Only good for ranking: the shortlist's scores are then computed exactly."""
        import numpy as np
        from scipy.sparse import csr_matrix

        rows, keys = len(self._lens), len(self._weights)
        indptr = np.concatenate([self._ptr, [len(self._flat)]])
        queries = csr_matrix((self._idfs[self._flat].astype(np.float32), self._flat, indptr), shape=(rows, keys))
        weights = self._weights.astype(np.float32)
        step = max(1, BLOCK_TERMS // max(1, self._n))
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
