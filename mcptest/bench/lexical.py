"""The lexical selector: the tool whose name and description best overlap the request, idf-weighted."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from mcptest.bench import shortlist
from mcptest.bench.key_index import DESCRIPTION_WEIGHT, MAX_WEIGHT, NAME_WEIGHT, KeyIndex, tool_weights
from mcptest.bench.selector import Gold, Outcomes, ScoringSelector, judge
from mcptest.records.catalog import Tool

if TYPE_CHECKING:
    import numpy as np

__all__ = ["DESCRIPTION_WEIGHT", "NAME_WEIGHT", "RARE", "LexicalSelector", "tool_weights"]

RARE = 32
"""A key held by at most this many tools is rare: when an edit raises its idf, the tools holding it are scored
exactly instead of bounded (the idf of a rare key moves a lot, ln 2 from df 2 to 1)."""


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

    Every score is summed the same way (`KeyIndex`), so a score computed alone, in a row, or after an edit is
    bit-identical to the same score in a run from scratch. A mutation changes one tool, so only keys whose weight in
    that tool changed move (their df, idf and the tool's own weight): `rescore` re-sums only the intents containing
    such a key and the tools having one, and `mutated` judges those intents from their shortlist (`shortlist`),
    scoring a whole row only when bounds cannot settle it.
    """

    name = "lexical"

    def baseline(self, tools: Sequence[Tool], queries: Sequence[str]) -> np.ndarray:
        """Scores of every tool for every query (read-only); keeps the index `rescore` updates."""
        import numpy as np

        self._keys = KeyIndex(tools, queries)
        self._scores = self._keys.sums(np.arange(len(queries)), np.arange(self._keys.n))
        self._scores.flags.writeable = False  # shared with the caller, who must copy before editing
        return self._scores

    def rescore(self, index: int, tool: Tool) -> tuple[np.ndarray, np.ndarray]:
        """The intents that contain a key whose weight in tool `index` changed, re-scored."""
        import numpy as np

        with self._keys.edited(index, tool) as (changed, _, _):
            if not len(changed):
                return np.arange(0), np.zeros((0, self._keys.n))
            rows = self._keys.rows_with(changed)
            columns = np.union1d(np.flatnonzero((self._keys.weights[changed] > 0).any(axis=0)), [index])
            if len(columns) == self._keys.n:  # every column moves: nothing of the old rows is kept
                return rows, self._keys.sums(rows, columns)
            scores = self._scores[rows]
            self._keys.sums(rows, columns, into=scores)
            return rows, scores

    def outcomes(self, tools: Sequence[Tool], queries: Sequence[str], gold: Gold) -> Outcomes:
        """Every intent judged from its shortlist (`shortlist`): the tools ranked near its top by a float32 product
        of sparse query keys and weights, a block of rows at a time, then scored exactly; whole rows only when
        the shortlist cannot settle them. Keeps the shortlists for `mutated`."""
        import numpy as np

        self._keys = KeyIndex(tools, queries)
        self._gold = gold
        blocks = [
            (at.start, *shortlist.shortlisted(approx, shortlist.SHORTLIST)) for at, approx in self._keys.approximate()
        ]
        group = np.concatenate([start + rows for start, rows, _, _ in blocks] or [np.zeros(0, np.intp)])
        pairs = np.concatenate([tools for _, _, tools, _ in blocks] or [np.zeros(0, np.intp)])
        floor = np.concatenate([floor for _, _, _, floor in blocks] or [np.zeros(0)])
        # float32 sums of n products err by under (n + 1)·2^-24 of the score; twice that covers the idf rounding
        floor *= 1 + (int(self._keys.lens.max(initial=1)) + 2) * 2.0**-22
        exact, pattern, good = (
            self._keys.pair_sums(group, pairs),
            self._keys.patterns(group, pairs),
            gold.has(group, pairs),
        )
        self._shortlist = shortlist.Shortlist.of(
            group, pairs, self._keys.n, floor, score=exact, pattern=pattern, gold=good
        )
        done = shortlist.settle(group, pairs, np.ones(len(pairs), np.intp), ~good, exact, floor)
        correct, picks, tied = done.correct, done.picks, done.tied
        for part, scores in self._keys.whole_rows(np.flatnonzero(~done.settled)):
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

        with self._keys.edited(index, tool) as (changed, moved, gained):
            rows = self._keys.rows_with(changed)
            up, down, gain, rare = (np.zeros(len(self._keys.lens)) for _ in range(4))
            rare_keys: list[int] = []
            for key, delta, more in zip(changed.tolist(), moved.tolist(), gained.tolist(), strict=True):
                posting = self._keys.intents_of[key]
                gain[posting] += max(more, 0.0)
                if delta > 0 and self._keys.df[key] <= RARE:  # score these exactly: a rare key's idf can move by ln 2
                    rare[posting] = 1
                    rare_keys.append(key)
                elif delta > 0:
                    up[posting] += MAX_WEIGHT * delta
                elif delta < 0:
                    down[posting] -= MAX_WEIGHT * delta
            short = self._shortlist
            rows = rows[~short.steady(rows, index, self._keys.n, up[rows], down[rows], gain[rows], rare[rows] > 0)]
            own = self._gold.has(rows, np.full(len(rows), index))
            # candidates: (position in rows, tool to score, tools it stands for, how many of them are not gold)
            found = [(np.arange(len(rows)), np.full(len(rows), index), np.ones(len(rows), np.intp), ~own)]
            for key in rare_keys:
                holders = np.flatnonzero(self._keys.weights[key])
                holders = holders[holders != index]
                at = np.flatnonzero(np.isin(rows, self._keys.intents_of[key], assume_unique=True))
                at, holders = np.repeat(at, len(holders)), np.tile(holders, len(at))
                found.append((at, holders, np.ones(len(at), np.intp), ~self._gold.has(rows[at], holders)))
            found.append(self._classes_left(rows, index, own, up[rows], down[rows]))
            group, first, size, wrong = (np.concatenate(column) for column in zip(*found, strict=True))
            exact = self._keys.pair_sums(rows[group], first)
            done = shortlist.settle(group, first, size, wrong, exact, short.outside(rows, up[rows]))
            correct = done.correct
            for part, whole in self._keys.whole_rows(rows[~done.settled]):
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
        edited = cls == short.class_of(rows, index, self._keys.n)[group]
        size, wrong = short.size[cls] - edited, short.wrong[cls] - (edited & ~own[group])
        tool = np.where(edited & (short.first[cls] == index), short.second[cls], short.first[cls])
        keep = size > 0
        group, cls, size, wrong, tool = group[keep], cls[keep], size[keep], wrong[keep], tool[keep]
        keep = shortlist.candidates(group, short.score[cls], len(rows), up, down)
        return group[keep], tool[keep], size[keep], wrong[keep]
