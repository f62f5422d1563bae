"""Is a drop real? The exact McNemar test on the per-intent outcomes before and after a mutation."""

from __future__ import annotations

ALPHA = 0.05
"""A drop is reported significant when its p-value is below this."""


def mcnemar_exact(lost: int, gained: int) -> float:
    """The two-sided exact McNemar p-value from the discordant pairs.

    Each intent is a pair (correct before, correct after); only the discordant ones carry evidence: `lost`
    (b: correct before, wrong after) and `gained` (c: wrong before, correct after). Under no effect each
    discordant intent is equally likely to fall either way, so b ~ Binomial(n = b + c, 1/2), and
        p = min(1, 2 · P(X <= min(b, c))) = min(1, 2 · Σ_{k=0}^{min(b,c)} C(n, k) / 2^n).
    With no discordant pair there is no evidence: p = 1. An exact test rather than the chi-square form because
    intent sets are small (a handful of flips is common), where the chi-square approximation is poor.
    Source: Q. McNemar, Psychometrika 12 (1947) 153–157; the exact binomial form as in Fagerland, Lydersen and
    Laake, BMC Medical Research Methodology 13 (2013) 91.
    """
    if lost < 0 or gained < 0:
        raise ValueError(f"counts must be non-negative, got {lost} and {gained}")
    n = lost + gained
    if n == 0:
        return 1.0
    from scipy.special import bdtr

    return min(1.0, 2.0 * float(bdtr(min(lost, gained), n, 0.5)))
