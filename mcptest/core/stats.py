"""Small, exact statistics for gates and benchmarks: integer percents, medians, Wilson and Clopper–Pearson bounds."""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction


def percent(numerator: int | Fraction, denominator: int = 1) -> int:
    """An exact ratio as an integer percent 0..100: round half up, but never round up to 100 nor down to 0.

    `round(100 * n / d)` with halves rounded up (2/3 -> 67, 1/8 -> 13), computed on fractions so no float error
    creeps in. Two clamps keep the ends honest: a ratio short of 1 shows at most 99 and a ratio above 0 at least 1,
    so a `{ minimum: 100 }` floor is met only by a perfect score and `{ maximum: 0 }` only by a true zero.
    """
    if denominator <= 0:
        raise ValueError("percent() needs a positive denominator; handle a zero denominator before calling it")
    if isinstance(numerator, int):  # the common case, in integers: floor(100n/d + 1/2) = (200n + d) // 2d
        if not 0 <= numerator <= denominator:
            raise ValueError(f"percent() takes a ratio between 0 and 1, got {Fraction(numerator, denominator)}")
        rounded = (200 * numerator + denominator) // (2 * denominator)
        return rounded if numerator in (0, denominator) else min(max(rounded, 1), 99)
    ratio = Fraction(numerator) / denominator
    if not 0 <= ratio <= 1:
        raise ValueError(f"percent() takes a ratio between 0 and 1, got {ratio}")
    rounded = math.floor(ratio * 100 + Fraction(1, 2))
    if ratio < 1:
        rounded = min(rounded, 99)
    if ratio > 0:
        rounded = max(rounded, 1)
    return rounded


def rate(numerator: int, denominator: int) -> int | float:
    """An exact ratio as a percent, not rounded: 100 * n / d, an int when whole (7/8 -> 87.5, 2/3 -> 66.666...).

    For the rates the source documents do not fix as integers (a selection rate, pass^k): the figure a user asserts
    on is the figure the gate compares, so 159 of 200 is 79.5 and never passes a `>= 80` it fails. The float is the
    correctly rounded double of the exact fraction, so it equals a short decimal threshold only when the fraction
    does. Show it with `mcptest.core.figures.shown`, which keeps the decimals that decide.
    """
    if denominator <= 0:
        raise ValueError("rate() needs a positive denominator; handle a zero denominator before calling it")
    exact = Fraction(100 * numerator, denominator)
    return int(exact) if exact.denominator == 1 else float(exact)


def median(values: Sequence[int | float]) -> float:
    """The median: the middle value, or the mean of the two middle values of an even-sized sample."""
    if not values:
        raise ValueError("median() of an empty sample")
    ordered = sorted(values)
    mid = len(ordered) // 2
    return float(ordered[mid]) if len(ordered) % 2 else (ordered[mid - 1] + ordered[mid]) / 2


def wilson_interval(successes: int, n: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """The Wilson score interval for a binomial proportion (95% by default).

    With p = x/n:  centre = (p + z²/2n) / (1 + z²/n),  half = z·sqrt(p(1-p)/n + z²/4n²) / (1 + z²/n).
    Source: E. B. Wilson, "Probable inference, the law of succession, and statistical inference",
    JASA 22 (1927) 209–212. With n = 0 the interval is the whole of [0, 1].
    """
    _check_counts(successes, n)
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    # The bounds are exactly 0 and 1 at the extremes; floating point would leave 1e-17 of slack there.
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == n else min(1.0, centre + half)
    return low, high


def clopper_pearson_lower(successes: int, n: int, alpha: float = 0.05) -> float:
    """The exact one-sided (1 - alpha) lower confidence bound on a binomial success rate.

    The bound is the p solving P(X >= x | n, p) = alpha, which is the alpha quantile of Beta(x, n - x + 1):
    lower = I⁻¹_alpha(x, n - x + 1), and 0 when x = 0. With x = n it is alpha^(1/n): one perfect run of one
    certifies 0.05 at 95% confidence. Source: C. J. Clopper and E. S. Pearson, "The use of confidence or fiducial
    limits illustrated in the case of the binomial", Biometrika 26 (1934) 404–413; as used by LLMCert-T
    (arXiv:2510.03992). n = 0 certifies nothing: 0.
    """
    _check_counts(successes, n)
    if successes == 0:
        return 0.0
    if successes == n:
        return float(alpha ** (1 / n))
    from scipy.special import betaincinv

    return float(betaincinv(successes, n - successes + 1, alpha))


def clopper_pearson_upper(successes: int, n: int, alpha: float = 0.05) -> float:
    """The exact one-sided (1 - alpha) upper bound: I⁻¹_(1-alpha)(x + 1, n - x), and 1 when x = n (same source)."""
    _check_counts(successes, n)
    if successes == n:
        return 1.0
    return 1.0 - clopper_pearson_lower(n - successes, n, alpha)


def clopper_pearson_interval(successes: int, n: int, confidence: float = 0.95) -> tuple[float, float]:
    """The exact two-sided interval: each side is a one-sided bound at alpha = (1 - confidence) / 2."""
    alpha = (1 - confidence) / 2
    return clopper_pearson_lower(successes, n, alpha), clopper_pearson_upper(successes, n, alpha)


def _check_counts(successes: int, n: int) -> None:
    if n < 0 or not 0 <= successes <= n:
        raise ValueError(f"need 0 <= successes <= n, got {successes} of {n}")
