"""Fisher's exact test (checked against scipy) and the runs a change would need."""

from __future__ import annotations

import pytest

from mcptest.report.significance import fisher_exact, moved, rate_test, runs_needed


def test_fisher_exact_agrees_with_scipy_on_every_small_table() -> None:
    from scipy.stats import fisher_exact as scipy_fisher

    for n1 in range(1, 9):
        for n2 in range(1, 9):
            for a in range(n1 + 1):
                for c in range(n2 + 1):
                    expected = scipy_fisher([[a, n1 - a], [c, n2 - c]]).pvalue
                    assert fisher_exact(a, n1, c, n2) == pytest.approx(expected, rel=1e-12), (a, n1, c, n2)


@pytest.mark.parametrize(
    ("table", "p"),
    [
        ((10, 10, 10, 10), 1.0),
        ((9, 10, 7, 10), 0.5820433436532507),
        ((10, 10, 2, 10), 0.0007144558228149558),
        ((30, 100, 50, 100), 0.005937341166015536),
    ],
)
def test_fisher_exact_on_known_tables(table: tuple[int, int, int, int], p: float) -> None:
    assert fisher_exact(*table) == pytest.approx(p, rel=1e-12)


def test_fisher_exact_refuses_impossible_counts() -> None:
    with pytest.raises(ValueError, match="passes must lie in 0..runs"):
        fisher_exact(11, 10, 0, 10)


def test_runs_needed_follows_fleiss_with_the_continuity_correction() -> None:
    # 0.9 vs 0.7 at alpha 0.05, power 0.8: n' = 61.6, corrected 71.3 (Fleiss, Levin & Paik 2003, §4.2)
    assert runs_needed(0.9, 0.7) == 72
    assert runs_needed(0.7, 0.9) == 72
    assert runs_needed(0.5, 0.5) is None
    assert runs_needed(0.95, 0.9) > runs_needed(0.9, 0.7)


def test_a_rate_test_never_asks_for_fewer_runs_than_were_made() -> None:
    test = rate_test("t", (50, 60), (48, 60))
    assert (test.significant, test.runs_needed) == (False, max(runs_needed(50 / 60, 48 / 60) or 0, 61))


def test_moved_compares_rates_not_counts() -> None:
    assert moved((5, 10), (10, 20)) == 0
    assert moved((5, 10), (4, 10)) == -1
    assert moved((5, 10), (6, 10)) == 1
