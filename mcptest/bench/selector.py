"""What every selector provides (outcomes per intent, before and after one tool changes), and how scores become
picks and outcomes."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from mcptest.records.catalog import Tool

if TYPE_CHECKING:
    import numpy as np

TIE_TOLERANCE = 1e-9
"""Scores within this relative distance of the top score count as tied (summation order must not pick a tool)."""


class Gold:
    """The tools that count as a correct pick, per intent (tool indices in catalog order), without an
    intents x tools matrix: at thousands of each, only the rows being judged are ever expanded."""

    def __init__(self, per_intent: Sequence[Sequence[int]], tools: int) -> None:
        import numpy as np

        self.tools = tools
        self._keys = np.unique(np.array([i * tools + g for i, gold in enumerate(per_intent) for g in gold], np.int64))

    def dense(self, rows: np.ndarray) -> np.ndarray:
        """A (len(rows), tools) boolean matrix for the sorted intent indices `rows`: True where the tool is gold."""
        import numpy as np

        out = np.zeros((len(rows), self.tools), dtype=bool)
        intents, tools = np.divmod(self._keys, self.tools)
        at = np.searchsorted(rows, intents)
        hit = at < len(rows)
        hit[hit] = rows[at[hit]] == intents[hit]
        out[at[hit], tools[hit]] = True
        return out

    def has(self, intents: np.ndarray, tools: np.ndarray) -> np.ndarray:
        """For each (intent, tool) pair, whether the tool is gold for the intent."""
        import numpy as np

        keys = intents.astype(np.int64) * self.tools + tools
        at = np.minimum(np.searchsorted(self._keys, keys), max(len(self._keys) - 1, 0))
        return self._keys[at] == keys if len(self._keys) else np.zeros(len(keys), dtype=bool)


@dataclass(frozen=True)
class Outcomes:
    """Per intent: whether the pick is correct, the picked tool's index (-1 for none) and how many tools tied."""

    correct: np.ndarray
    picks: np.ndarray
    tied: np.ndarray


class Selector(Protocol):
    """A tool selector as `run_bench` uses it: judged outcomes on the baseline, then after one tool changes."""

    name: str

    def outcomes(self, tools: Sequence[Tool], queries: Sequence[str], gold: Gold) -> Outcomes:
        """The outcome of every query on the catalog as given (see `judge`); remembers what `mutated` needs."""
        ...

    def mutated(self, index: int, tool: Tool) -> tuple[np.ndarray, np.ndarray]:
        """With tool `index` replaced by `tool` (everything else as in `outcomes`): the sorted intent indices whose
        outcome can have changed, and whether each is correct now. Intents not returned keep their outcome."""
        ...


class ScoringSelector:
    """A selector that scores every tool for every intent; `judge` turns the scores into outcomes."""

    def baseline(self, tools: Sequence[Tool], queries: Sequence[str]) -> np.ndarray:
        """Scores of shape (intents, tools) for the catalog as given; remembers what `rescore` needs."""
        raise NotImplementedError

    def rescore(self, index: int, tool: Tool) -> tuple[np.ndarray, np.ndarray]:
        """With tool `index` replaced by `tool` (everything else as in `baseline`): the row indices whose scores
        can have changed, and those rows' new scores. Rows not returned keep their baseline scores exactly."""
        raise NotImplementedError

    def outcomes(self, tools: Sequence[Tool], queries: Sequence[str], gold: Gold) -> Outcomes:
        """`judge` of the baseline scores."""
        import numpy as np

        self._gold = gold
        return judge(self.baseline(tools, queries), gold.dense(np.arange(len(queries))))

    def mutated(self, index: int, tool: Tool) -> tuple[np.ndarray, np.ndarray]:
        """`judge` of the re-scored rows."""
        rows, scores = self.rescore(index, tool)
        return rows, judge(scores, self._gold.dense(rows)).correct


def judge(scores: np.ndarray, gold: np.ndarray) -> Outcomes:
    """Turn scores into outcomes. With top(i) = max over tools of score(i, t):

    - no tool scores above 0: no pick, a miss (nothing in the catalog overlaps the request);
    - tied(i) = {t : score(i, t) >= top(i) - 1e-9 · max(1, |top(i)|)};
    - correct(i) = top(i) > 0 and tied(i) ⊆ gold(i). A tie counts only when every tied tool is gold: the
      benchmark is a lower bound, and the outcome must not depend on the order the server lists its tools in.
    The reported pick is the first tied tool in catalog order.
    """
    import numpy as np

    top = scores.max(axis=1)
    tied = scores >= tie_floor(top)[:, None]
    found = top > 0
    correct = found & ~(tied & ~gold).any(axis=1)
    picks = np.where(found, tied.argmax(axis=1), -1)
    return Outcomes(correct, picks, np.where(found, tied.sum(axis=1), 0))


def tie_floor(top: np.ndarray) -> np.ndarray:
    """The lowest score tied with `top`: top - 1e-9 · max(1, |top|)."""
    import numpy as np

    return top - TIE_TOLERANCE * np.maximum(1.0, np.abs(top))
