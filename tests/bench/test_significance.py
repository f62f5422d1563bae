"""Wilson edges on the accuracy figures, and the exact McNemar test on small and large drops."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from mcptest.bench import load_spec, run_bench
from mcptest.bench.lexical import LexicalSelector
from mcptest.bench.run import accuracy
from mcptest.bench.significance import mcnemar_exact
from tests.bench.conftest import tool

Z2 = 1.959963984540054**2


def test_no_correct_pick_gives_a_wilson_interval_from_zero() -> None:
    a = accuracy(np.zeros(10, dtype=bool))
    assert (a.correct, a.total, a.accuracy, a.wilson_low) == (0, 10, 0.0, 0.0)
    assert a.wilson_high == pytest.approx(Z2 / (10 + Z2))


def test_all_correct_gives_a_wilson_interval_up_to_one() -> None:
    a = accuracy(np.ones(10, dtype=bool))
    assert (a.correct, a.accuracy, a.wilson_high) == (10, 1.0, 1.0)
    assert a.wilson_low == pytest.approx(10 / (10 + Z2))


@pytest.mark.parametrize(
    ("lost", "gained", "p"),
    [(0, 0, 1.0), (1, 0, 1.0), (2, 0, 0.5), (3, 3, 1.0), (6, 0, 2 / 64), (10, 0, 2 / 1024), (9, 1, 22 / 1024)],
)
def test_exact_mcnemar_doubles_the_smaller_binomial_tail(lost: int, gained: int, p: float) -> None:
    assert mcnemar_exact(lost, gained) == pytest.approx(p, rel=1e-12)
    assert mcnemar_exact(gained, lost) == pytest.approx(p, rel=1e-12)


def _bench(spec_file: Callable[..., Path], flipped: int, kept: int) -> Path:
    """`flipped` intents only the opaque `q1` description can answer; `kept` intents another tool answers by name."""
    tools = [tool("q1", "Return the weather forecast for a city."), tool("send_email", "Send an email.")]
    intents = [(f"weather forecast for city {i}", ["q1"]) for i in range(flipped)]
    intents += [(f"send email number {i}", ["send_email"]) for i in range(kept)]
    return spec_file(tools, intents, [{"tool": "q1", "kind": "blank"}])


def test_a_drop_of_one_intent_in_twenty_is_not_significant(spec_file: Callable[..., Path]) -> None:
    (m,) = run_bench(load_spec(_bench(spec_file, 1, 19)), LexicalSelector()).mutations
    assert (len(m.lost), m.drop, m.p_value, m.significant) == (1, 0.05, 1.0, False)


def test_a_drop_of_eight_intents_is_significant(spec_file: Callable[..., Path]) -> None:
    (m,) = run_bench(load_spec(_bench(spec_file, 8, 12)), LexicalSelector()).mutations
    assert (len(m.lost), m.drop, m.significant) == (8, 0.4, True)
    assert m.p_value == pytest.approx(2 / 256)
