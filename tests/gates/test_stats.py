"""Integer percents, medians and the binomial bounds."""

from __future__ import annotations

import subprocess
import sys
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mcptest.core.stats import (
    clopper_pearson_interval,
    clopper_pearson_lower,
    clopper_pearson_upper,
    median,
    percent,
    wilson_interval,
)


@pytest.mark.parametrize(
    ("num", "den", "expected"),
    [
        (2, 3, 67),
        (1, 3, 33),
        (1, 2, 50),
        (1, 8, 13),  # 12.5 rounds half up
        (9, 10, 90),
        (0, 5, 0),
        (5, 5, 100),
        (199, 200, 99),  # 99.5 would round to 100: a miss never shows as perfect
        (1, 1000, 1),  # 0.1 would round to 0: a hit never shows as none
        (Fraction(7, 4), 2, 88),
    ],
)
def test_percent_rounds_half_up_but_never_to_100_or_0_by_rounding(num, den, expected):
    assert percent(num, den) == expected


@pytest.mark.parametrize(("num", "den"), [(1, 0), (3, 2), (-1, 2)])
def test_percent_refuses_a_zero_denominator_or_a_ratio_outside_0_1(num, den):
    with pytest.raises(ValueError):
        percent(num, den)


def test_median_of_odd_and_even_samples():
    assert median([3, 1, 2]) == 2
    assert median([4, 1, 3, 2]) == 2.5
    with pytest.raises(ValueError):
        median([])


def test_one_perfect_run_certifies_five_percent():
    assert clopper_pearson_lower(1, 1) == pytest.approx(0.05)


@pytest.mark.parametrize("n", [1, 2, 5, 10, 30])
def test_the_lower_bound_is_zero_with_no_successes_and_alpha_to_the_1_over_n_with_all(n):
    assert clopper_pearson_lower(0, n) == 0
    assert clopper_pearson_lower(n, n) == pytest.approx(0.05 ** (1 / n))


@pytest.mark.parametrize(("x", "n"), [(1, 2), (3, 10), (8, 10), (17, 20), (49, 50), (1, 100)])
def test_clopper_pearson_matches_the_beta_quantiles(x, n):
    from scipy.stats import beta

    assert clopper_pearson_lower(x, n) == pytest.approx(beta.ppf(0.05, x, n - x + 1), rel=1e-9)
    assert clopper_pearson_upper(x, n) == pytest.approx(beta.ppf(0.95, x + 1, n - x), rel=1e-9)
    lo, hi = clopper_pearson_interval(x, n)
    assert (lo, hi) == (pytest.approx(beta.ppf(0.025, x, n - x + 1)), pytest.approx(beta.ppf(0.975, x + 1, n - x)))


def test_known_textbook_values():
    assert clopper_pearson_interval(8, 10) == (pytest.approx(0.4439, abs=1e-4), pytest.approx(0.9748, abs=1e-4))
    assert wilson_interval(8, 10) == (pytest.approx(0.4902, abs=1e-4), pytest.approx(0.9433, abs=1e-4))


def test_bounds_with_no_runs_say_nothing():
    assert clopper_pearson_lower(0, 0) == 0
    assert wilson_interval(0, 0) == (0.0, 1.0)
    with pytest.raises(ValueError):
        clopper_pearson_lower(3, 2)


def test_importing_stats_trace_and_gates_loads_no_heavy_or_ui_module():
    code = (
        "import sys, mcptest.core.stats, mcptest.records.trace, mcptest.gates; "
        "print(sorted(m for m in ('scipy', 'rich', 'typer', 'mcp', 'tiktoken') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True)
    assert out.stdout.strip() == "[]"


def test_wilson_bounds_are_exactly_0_and_1_at_the_extremes() -> None:
    from mcptest.core.stats import wilson_interval

    for n in (1, 7, 34, 1000):
        assert wilson_interval(n, n)[1] == 1.0
        assert wilson_interval(0, n)[0] == 0.0


@given(st.integers(min_value=1, max_value=10_000).flatmap(lambda d: st.tuples(st.integers(0, d), st.just(d))))
def test_percent_of_whole_counts_equals_percent_of_the_exact_fraction(pair: tuple[int, int]) -> None:
    num, den = pair
    assert percent(num, den) == percent(Fraction(num, den))
