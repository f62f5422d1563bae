"""The shape of the offered load over a run (`--profile`): a level from 0 to 1 of the full load at each moment,
piecewise linear, which sets when each closed-model user calls and when each open-model arrival is due.

- `constant`: the full load from the start; with `--ramp R` it rises linearly from 0 over the first R seconds.
- `ramp`: the load rises linearly from 0 at the start to full at the end of the run (no `--ramp`: the whole run is).
- `spike`: a base of `SPIKE_BASE` of the full load (reached over `--ramp` when given), and the full load in the
  spike window, from `SPIKE_WINDOW[0]` to `SPIKE_WINDOW[1]` of the duration.
- `soak`: `constant`'s load, meant for a long run; the end table compares its first and last fifth (`drift`).

Closed model: user i of N calls while the level is at least i/N (user 0 always), so `constant` with a ramp starts
the users evenly over it. Open model: arrivals are due at the rate R x level, every user takes whichever is due.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

PROFILES = ("constant", "ramp", "spike", "soak")
SPIKE_BASE = 0.2
"""The share of the full load a spike run offers outside its spike."""
SPIKE_WINDOW = (0.4, 0.6)
"""The spike, as shares of the duration: the middle fifth."""

Segment = tuple[float, float, float, float]
"""(from s, to s, level at from, level at to): the level is linear in between."""


def segments(profile: str, duration: float, ramp: float) -> list[Segment]:
    """The profile's level over [0, duration) as linear pieces, in order, covering it without gaps."""
    if profile == "ramp":
        return [(0.0, duration, 0.0, 1.0)]
    if profile == "spike":
        low, high = SPIKE_WINDOW[0] * duration, SPIKE_WINDOW[1] * duration
        rise = [(0.0, ramp, 0.0, SPIKE_BASE)] if ramp > 0 else []
        return [
            *rise,
            (ramp, low, SPIKE_BASE, SPIKE_BASE),
            (low, high, 1.0, 1.0),
            (high, duration, SPIKE_BASE, SPIKE_BASE),
        ]
    rise = [(0.0, ramp, 0.0, 1.0)] if ramp > 0 else []
    return [*rise, (ramp, duration, 1.0, 1.0)]


def check(profile: str, duration: float, ramp: float) -> str | None:
    """What is wrong with the profile and its ramp (a sentence), or None."""
    if profile not in PROFILES:
        return f"--profile: one of {', '.join(PROFILES)}; got {profile!r}"
    if profile == "ramp" and ramp > 0:
        return "--profile ramp rises over the whole run: leave out --ramp"
    if profile == "spike" and ramp > SPIKE_WINDOW[0] * duration:
        return f"--profile spike: --ramp must end before the spike at {SPIKE_WINDOW[0]:.0%} of --duration"
    return None


def windows(parts: list[Segment], share: float) -> list[tuple[float, float]]:
    """When a closed-model user with threshold `share` (i/N) calls: the spans where the level is at least it."""
    spans: list[tuple[float, float]] = []
    for t0, t1, l0, l1 in parts:
        if t1 <= t0:
            continue
        if share <= 0 or (l0 >= share and l1 >= share):
            span = (t0, t1)
        elif l0 < share and l1 < share:
            continue
        else:  # the level crosses the threshold inside the piece
            at = t0 + (share - l0) / (l1 - l0) * (t1 - t0)
            span = (at, t1) if l1 > l0 else (t0, at)
        if spans and abs(spans[-1][1] - span[0]) < 1e-9:
            spans[-1] = (spans[-1][0], span[1])
        else:
            spans.append(span)
    return spans


@dataclass
class Arrivals:
    """Open model: when arrival k is due (seconds from the start), for a rate of `rate` x the level.

    The number of arrivals due by time t is the integral of the rate up to t; arrival k is due when it reaches k
    (arrival 0 at once when the level starts above 0). Exact per piece: a linear rate integrates to a quadratic."""

    parts: list[Segment]
    rate: float
    _index: int = 0
    _before: float = 0.0
    """Arrivals due before the piece `_index` starts."""

    def due(self, k: int) -> float:
        """When arrival k (0, 1, 2, ... asked in order) is due; infinity when the run ends first."""
        while self._index < len(self.parts):
            t0, t1, l0, l1 = self.parts[self._index]
            r0, r1 = self.rate * l0, self.rate * l1
            inside = (r0 + r1) / 2 * (t1 - t0)
            need = k - self._before
            if need < inside or (need == 0 and r0 > 0):
                return t0 + _solve(r0, (r1 - r0) / (t1 - t0), need)
            self._index += 1
            self._before += inside
        return math.inf


def _solve(r0: float, slope: float, need: float) -> float:
    """The time x >= 0 at which r0 x + slope x^2 / 2 = need (a rate starting at r0, changing by `slope` per s)."""
    if need <= 0:
        return 0.0
    if abs(slope) < 1e-12:
        return need / r0
    return (-r0 + math.sqrt(max(r0 * r0 + 2 * slope * need, 0.0))) / slope
