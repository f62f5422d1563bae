"""What every selector provides (scores per intent and tool), and how scores become picks and outcomes."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from mcptest.catalog import Tool

if TYPE_CHECKING:
    import numpy as np

TIE_TOLERANCE = 1e-9
"""Scores within this relative distance of the top score count as tied (summation order must not pick a tool)."""


class Selector(Protocol):
    """A tool selector: scores every tool for every intent, then re-scores after one tool changes."""

    name: str

    def baseline(self, tools: Sequence[Tool], queries: Sequence[str]) -> np.ndarray:
        """Scores of shape (intents, tools) for the catalog as given; remembers what `rescore` needs."""
        ...

    def rescore(self, index: int, tool: Tool) -> tuple[np.ndarray, np.ndarray]:
        """With tool `index` replaced by `tool` (everything else as in `baseline`): the row indices whose scores
        can have changed, and those rows' new scores. Rows not returned keep their baseline scores exactly."""
        ...


@dataclass(frozen=True)
class Outcomes:
    """Per intent: whether the pick is correct, the picked tool's index (-1 for none) and how many tools tied."""

    correct: np.ndarray
    picks: np.ndarray
    tied: np.ndarray


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
    tied = scores >= (top - TIE_TOLERANCE * np.maximum(1.0, np.abs(top)))[:, None]
    found = top > 0
    correct = found & ~(tied & ~gold).any(axis=1)
    picks = np.where(found, tied.argmax(axis=1), -1)
    return Outcomes(correct, picks, np.where(found, tied.sum(axis=1), 0))
