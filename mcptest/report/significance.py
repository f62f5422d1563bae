"""Is a change in a multi-run rate more than noise? Fisher's exact test and the runs a change would need."""

from __future__ import annotations

import math
from fractions import Fraction
from functools import lru_cache
from statistics import NormalDist

from mcptest.report.delta import RateTest

ALPHA = 0.05
POWER = 0.8


@lru_cache(maxsize=4096)
def fisher_exact(passes_a: int, runs_a: int, passes_b: int, runs_b: int) -> float:
    """The two-sided p-value of Fisher's exact test on the 2x2 table of passes and misses of two samples.

    With the margins fixed, the passes of sample a follow the hypergeometric law
    P(x) = C(runs_a, x) C(runs_b, k - x) / C(runs_a + runs_b, k), k = passes_a + passes_b; the p-value sums
    P(x) over every x no more probable than the observed one (R. A. Fisher, "Statistical Methods for Research
    Workers", 1925, §21.02; the same two-sided rule as `scipy.stats.fisher_exact`, which the tests check against).
    Computed on exact integers, so it costs no scipy import (≈0.75 s) and no rounding.
    """
    if not (0 <= passes_a <= runs_a and 0 <= passes_b <= runs_b):
        raise ValueError(f"passes must lie in 0..runs, got {passes_a}/{runs_a} and {passes_b}/{runs_b}")
    k = passes_a + passes_b
    low, high = max(0, k - runs_b), min(k, runs_a)
    weights = [math.comb(runs_a, x) * math.comb(runs_b, k - x) for x in range(low, high + 1)]
    observed = weights[passes_a - low]
    return float(Fraction(sum(w for w in weights if w <= observed), math.comb(runs_a + runs_b, k)))


def runs_needed(rate_a: float, rate_b: float, alpha: float = ALPHA, power: float = POWER) -> int | None:
    """About how many runs per report would detect a true change from rate_a to rate_b (None: no change).

    n' = (z_(1-alpha/2) sqrt(2 p̄ q̄) + z_power sqrt(p_a q_a + p_b q_b))² / d², d = |p_a - p_b|, p̄ = (p_a + p_b) / 2,
    then the continuity correction n = n'/4 (1 + sqrt(1 + 4 / (n' d)))², which approximates Fisher's exact test
    (J. L. Fleiss, B. Levin, M. C. Paik, "Statistical Methods for Rates and Proportions", 3rd ed., 2003, §4.2;
    J. T. Casagrande, M. C. Pike, P. G. Smith, Biometrics 34 (1978) 483–486).
    """
    d = abs(rate_a - rate_b)
    if d == 0:
        return None
    z = NormalDist()
    mean = (rate_a + rate_b) / 2
    spread = z.inv_cdf(1 - alpha / 2) * math.sqrt(2 * mean * (1 - mean))
    spread += z.inv_cdf(power) * math.sqrt(rate_a * (1 - rate_a) + rate_b * (1 - rate_b))
    plain = spread**2 / d**2
    return math.ceil(plain / 4 * (1 + math.sqrt(1 + 4 / (plain * d))) ** 2)


def rate_test(target: str, baseline: tuple[int, int], current: tuple[int, int], alpha: float = ALPHA) -> RateTest:
    """Test a rate that moved from baseline (passes, runs) to current (passes, runs)."""
    (k1, n1), (k2, n2) = baseline, current
    p = fisher_exact(k1, n1, k2, n2)
    counts = f"{k1}/{n1} → {k2}/{n2}"
    if p < alpha:
        needed, note = None, f"significant (p = {p:.3g}, {counts})"
    else:
        needed = max(runs_needed(k1 / n1, k2 / n2, alpha) or 0, n1 + 1, n2 + 1)
        note = f"not significant at this N (p = {p:.2f}, {counts}); about {needed} runs would be needed"
    return RateTest(
        target=target, baseline_passes=k1, baseline_runs=n1, current_passes=k2, current_runs=n2,
        p_value=p, significant=p < alpha, runs_needed=needed, note=note,
    )  # fmt: skip


def moved(baseline: tuple[int, int], current: tuple[int, int]) -> int:
    """-1, 0 or 1: the sign of the change in the rate passes / runs (both runs positive)."""
    # k2/n2 vs k1/n1 cross-multiplied: exact like Fractions, without building 100,000 of them at 50,000 results
    a, b = baseline[0] * current[1], current[0] * baseline[1]
    return (b > a) - (b < a)
