"""Judging without an intents x tools score matrix: exact scores for the few tools that can reach the top of an
intent, and a proven upper bound for all the others.

An intent's outcome (`selector.judge`) depends only on its top score and on which tools lie within the tie
tolerance of it. So for each intent `run_bench` keeps a shortlist: the tools scoring within `CUT` of its top (at
most `SHORTLIST` of them) with their exact scores, and a floor, an upper bound on every other tool's score. To
judge an intent from candidates whose exact scores are known, with `outside` an upper bound on every other tool:

- top = the best candidate score; tied = the candidates scoring at least `tie_floor(top)`;
- when outside < tie_floor(top), no other tool can be the top or tied with it, so the candidates decide the
  outcome exactly as `judge` would on the whole row (same top, same tie set, same first tied tool);
- otherwise the intent is *unsettled*, and the caller scores its whole row exactly.

Shortlisted tools with the same weight on every key of the request form a class: their sums are the same float
operations, so they score the same, before and after any edit of another tool. A class is scored once, through
one of its tools. Nothing here is approximate in its result: bounds only decide which scores are computed exactly.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from mcptest.bench.selector import tie_floor

if TYPE_CHECKING:
    import numpy as np

CUT = 0.25
"""A tool is shortlisted when it scores at least (1 - CUT) x the intent's top score."""

SHORTLIST = 1024
"""At most this many tools per intent (the highest scoring, when more are within `CUT`)."""

SLACK = 1e-7
"""Relative margin added to every bound, far above the float error of the sums it bounds (~1e-15)."""


def slack(x: np.ndarray) -> np.ndarray:
    """The margin a bound near `x` gets: `SLACK` · max(1, |x|)."""
    import numpy as np

    return SLACK * np.maximum(1.0, np.abs(x))


def shortlisted(approx: np.ndarray, m: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """From a block of approximate scores (rows x tools, overwritten): the shortlist as (row, tool) pairs in row
    then tool order, and each row's floor, the highest score off the list (-inf when every tool is on it). Only the
    ranking is approximate: callers score the pairs exactly and widen the floor by the approximation's error."""
    import numpy as np

    keep = approx >= (approx.max(axis=1, initial=0.0) * (1 - CUT))[:, None]
    keep &= approx > 0  # a tool sharing no key with the request is never a candidate
    over = np.flatnonzero(np.count_nonzero(keep, axis=1) > m)
    if len(over):
        best = np.argpartition(approx[over], -m - 1, axis=1)[:, -m:]
        keep[over] = False
        keep[over[:, None], best] = True
    rows, tools = np.nonzero(keep)
    approx[rows, tools] = -np.inf
    return rows, tools, approx.max(axis=1, initial=-np.inf).astype(np.float64)


@dataclass(frozen=True)
class Shortlist:
    """Every intent's shortlist, as classes of tools (same weights on the request's keys, same score)."""

    ptr: np.ndarray
    """The classes of intent i are ptr[i]:ptr[i+1]."""
    score: np.ndarray
    """Per class, the exact baseline score of its tools."""
    first: np.ndarray
    """Per class, its lowest tool index; `second` the next one (-1 when the class has one tool)."""
    second: np.ndarray
    size: np.ndarray
    """Per class, how many tools; `wrong` how many of them are not gold for the intent."""
    wrong: np.ndarray
    members: np.ndarray
    """intent x tools + tool of every shortlisted pair, sorted; `member_class` the class of each."""
    member_class: np.ndarray
    floor: np.ndarray
    """Per intent, an upper bound on the baseline score of every tool off its shortlist (see `shortlisted`)."""
    lead: np.ndarray
    """Per intent, its top class when it alone is tied at the top (and scores above 0), else -1."""
    runner: np.ndarray
    """Per intent, an upper bound on every score not tied with the top: the best other class, or the floor."""

    @classmethod
    def of(cls, group: np.ndarray, tool: np.ndarray, catalog: int, floor: np.ndarray, **pair: np.ndarray) -> Shortlist:
        """From the shortlisted pairs (intent `group[p]`, tool `tool[p]`), sorted by intent then tool, of a catalog
        of `catalog` tools, with per pair its exact `score`, its `pattern` (equal exactly when two tools weigh every
        key of the intent alike) and whether it is `gold`; and the `floor` of every intent."""
        import numpy as np

        order = np.lexsort((tool, pair["pattern"], group))
        g, t, pattern = group[order], tool[order], pair["pattern"][order]
        new = np.ones(len(order), dtype=bool)
        new[1:] = (g[1:] != g[:-1]) | (pattern[1:] != pattern[:-1])
        starts = np.flatnonzero(new)
        size = np.diff(np.append(starts, len(order)))
        member_class = np.empty(len(order), dtype=np.intp)
        member_class[order] = np.cumsum(new) - 1
        score = pair["score"][order][starts]
        top = np.zeros(len(floor))
        np.maximum.at(top, g[starts], score)
        tied = score >= tie_floor(top)[g[starts]]
        alone = (np.bincount(g[starts][tied], minlength=len(floor)) == 1) & (top > 0)
        lead = np.full(len(floor), -1)
        lead[g[starts][tied]] = np.flatnonzero(tied)
        runner = floor.copy()
        np.maximum.at(runner, g[starts][~tied], score[~tied])
        return cls(
            ptr=np.searchsorted(g[starts], np.arange(len(floor) + 1)),
            score=score,
            first=t[starts],
            second=np.where(size > 1, t[np.minimum(starts + 1, len(t) - 1)], -1),
            size=size,
            wrong=np.add.reduceat(~pair["gold"][order], starts, dtype=np.intp) if len(starts) else size,
            members=group.astype(np.int64) * catalog + tool,
            member_class=member_class,
            floor=floor,
            lead=np.where(alone, lead, -1),
            runner=runner,
        )

    def classes(self, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The classes of the given intents: (position in `rows`, class index) per class."""
        import numpy as np

        sizes = self.ptr[rows + 1] - self.ptr[rows]
        offsets = np.cumsum(sizes) - sizes
        return np.repeat(np.arange(len(rows)), sizes), np.repeat(self.ptr[rows] - offsets, sizes) + np.arange(
            int(sizes.sum())
        )

    def class_of(self, rows: np.ndarray, tool: int, tools: int) -> np.ndarray:
        """For each intent, the class `tool` is in, or -1 when it is not shortlisted there."""
        import numpy as np

        keys = rows.astype(np.int64) * tools + tool
        at = np.minimum(np.searchsorted(self.members, keys), max(len(self.members) - 1, 0))
        if not len(self.members):
            return np.full(len(rows), -1)
        return np.where(self.members[at] == keys, self.member_class[at], -1)

    def steady(
        self,
        rows: np.ndarray,
        tool: int,
        tools: int,
        up: np.ndarray,
        down: np.ndarray,
        gain: np.ndarray,
        rare: np.ndarray,
    ) -> np.ndarray:
        """Which intents keep their outcome after `tool` changed, by bounds alone: a mask over `rows`.

        Every other tool moves by at most `up` upward and `down` downward, unless it holds a `rare` key (those
        intents are not decided here); the edited tool's score rises by at most `gain`. An intent whose top is a
        single class without the edited tool keeps exactly that tie set (its tools move together) when nothing
        else can come within the tie tolerance of it: then its outcome is the baseline's."""
        import numpy as np

        lead, edited = self.lead[rows], self.class_of(rows, tool, tools)
        top = self.score[lead] - down
        low = tie_floor(top - slack(top))
        before = np.maximum(np.where(edited >= 0, self.score[edited], self.floor[rows]), 0.0)
        runner = np.maximum(self.runner[rows], 0.0)
        return (
            (lead >= 0)
            & (edited != lead)
            & ~rare
            & (before + gain + slack(before) < low)
            & (runner + up + slack(runner) < low)
        )

    def outside(self, rows: np.ndarray, up: np.ndarray) -> np.ndarray:
        """An upper bound on the new score of every tool off the shortlist of `rows`: the floor plus what the edit
        can add, 0 when the floor is 0 (those tools share no key with the intent, and an edit of another tool
        does not give them one)."""
        import numpy as np

        floor = self.floor[rows]
        return np.where(floor == 0, 0.0, floor + up + slack(np.maximum(floor, 0.0)))


@dataclass(frozen=True)
class Settled:
    """Per intent: whether its candidates decide it, and then its outcome (as `selector.Outcomes`)."""

    settled: np.ndarray
    correct: np.ndarray
    picks: np.ndarray
    tied: np.ndarray


def settle(
    group: np.ndarray, first: np.ndarray, size: np.ndarray, wrong: np.ndarray, scores: np.ndarray, outside: np.ndarray
) -> Settled:
    """Judge `len(outside)` intents from candidates: candidate c stands for `size[c]` tools of intent `group[c]`
    with exact score `scores[c]`, the lowest-numbered `first[c]`, `wrong[c]` of them not gold. `outside[g]` bounds
    every other tool's score: -inf when there is none, 0 when all of them score exactly 0. (A tool counted twice
    changes only the tied count.)"""
    import numpy as np

    n = len(outside)
    top = np.zeros(n)  # with no candidate, nothing overlaps: like a top of 0
    np.maximum.at(top, group, scores)
    floor = tie_floor(top)
    tied = scores >= floor[group]
    found = top > 0
    bad, pick, count = np.zeros(n, dtype=bool), np.full(n, np.iinfo(np.intp).max), np.zeros(n, dtype=np.intp)
    np.logical_or.at(bad, group, tied & (wrong > 0))
    np.minimum.at(pick, group[tied], first[tied])
    np.add.at(count, group[tied], size[tied])
    settled = (outside < floor) | ((outside == 0) & ~found)
    return Settled(settled, found & ~bad, np.where(found, pick, -1), np.where(found, count, 0))


def candidates(group: np.ndarray, scores: np.ndarray, n: int, up: np.ndarray, down: np.ndarray) -> np.ndarray:
    """Which shortlisted classes (intent `group`, baseline score) can still reach the top of their intent after an
    edit of another tool: a mask.

    In intent g every tool but the edited one moves by at most `up[g]` upward and `down[g]` downward (the edit only
    moved the idf of some keys), so the new top is at least L0 = (best shortlisted score) - down, and a class whose
    score plus `up` stays below the tie floor of L0 can be neither the top nor tied with it."""
    import numpy as np

    best = np.zeros(n)
    np.maximum.at(best, group, scores)
    low = np.maximum(best - down - slack(best), 0.0)
    return scores + up[group] + slack(scores) >= tie_floor(low)[group]
