"""Latency histograms: HdrHistogram (the `hdrhistogram` package) in microseconds, 3 significant digits.

One histogram per measured operation; its percentiles are exact to 3 significant digits, and its compressed,
base64 encoding (HdrHistogram's own format) travels in reports so that shards merge exactly: adding two decoded
histograms gives the histogram of the union of their samples. `hdrh` is imported only by the code that records.
"""

from __future__ import annotations

from typing import Any

LOWEST_US = 1
HIGHEST_US = 3_600_000_000
"""The range recorded: 1 µs to one hour; a longer sample is clamped to an hour (no call outlives that)."""
DIGITS = 3
PERCENTILES = (50, 90, 95, 99)
FIGURES = ("p50_ms", "p90_ms", "p95_ms", "p99_ms", "max_ms", "errors")
"""What a latency gate reads: `latency.p95_ms`, ... and `latency.errors`."""


def new_histogram() -> Any:
    """An empty histogram (µs, 1 µs to 1 h, 3 significant digits)."""
    from hdrh.histogram import HdrHistogram

    return HdrHistogram(LOWEST_US, HIGHEST_US, DIGITS)


def record_ms(histogram: Any, ms: float) -> None:
    """Record one sample given in milliseconds."""
    histogram.record_value(min(max(round(ms * 1000), LOWEST_US), HIGHEST_US))


def encode(histogram: Any) -> str:
    """The histogram as HdrHistogram's compressed base64 text."""
    return str(histogram.encode().decode("ascii"))


def decode(text: str) -> Any:
    """A histogram from `encode`'s text; ValueError when the text is not one."""
    from hdrh.histogram import HdrHistogram

    try:
        return HdrHistogram.decode(text.encode("ascii"))
    except Exception as exc:  # zlib, base64 and struct errors: all say the text is not a histogram
        raise ValueError(f"not an encoded HdrHistogram: {type(exc).__name__}: {exc}") from None


def merged(texts: list[str]) -> Any:
    """One histogram holding every sample of the encoded histograms (exact: bucket counts add)."""
    total = new_histogram()
    for text in texts:
        total.add(decode(text))
    return total


def figures(histogram: Any) -> dict[str, float]:
    """Percentiles and max in milliseconds (each value as HdrHistogram gives it, to 3 significant digits)."""
    if histogram.get_total_count() == 0:
        return {"p50_ms": 0.0, "p90_ms": 0.0, "p95_ms": 0.0, "p99_ms": 0.0, "max_ms": 0.0, "mean_ms": 0.0}
    out = {f"p{p}_ms": _ms(histogram.get_value_at_percentile(p)) for p in PERCENTILES}
    out["max_ms"] = _ms(histogram.get_max_value())
    out["mean_ms"] = round(histogram.get_mean_value() / 1000, 3)
    return out


def quick(histogram: Any, percentiles: tuple[int, ...] = (50, 95, 99)) -> dict[str, float]:
    """Some percentiles in ms in one pass over the buckets (HdrHistogram's own percentile-list query: the same values
    as `figures`, without its mean, which walks every bucket and costs ~30x more): for many small histograms."""
    if histogram.get_total_count() == 0:
        return {f"p{p}_ms": 0.0 for p in percentiles}
    values = histogram.get_percentile_to_value_dict(list(percentiles))
    return {f"p{p}_ms": _ms(values[p]) for p in percentiles}


CURVE = (0.0, 25.0, 50.0, 75.0, 90.0, 95.0, 99.0, 99.9, 99.99, 100.0)
"""The percentiles a percentile plot shows (100: the max)."""


def curve(histogram: Any) -> list[tuple[float, float]]:
    """(percentile, ms) at each of `CURVE`, for a percentile plot; empty for an empty histogram."""
    if histogram.get_total_count() == 0:
        return []
    values = histogram.get_percentile_to_value_dict([p for p in CURVE if p < 100])
    return [(p, _ms(values[p])) for p in CURVE if p < 100] + [(100.0, _ms(histogram.get_max_value()))]


def bars(histogram: Any, count: int = 24) -> list[tuple[float, int]]:
    """The samples in `count` log-spaced bins from the lowest to the highest value: (upper edge in ms, samples)."""
    total = histogram.get_total_count()
    if total == 0:
        return []
    low, high = max(histogram.get_min_value(), 1), max(histogram.get_max_value(), 1)
    if high <= low:
        return [(_ms(high), total)]
    ratio = (high / low) ** (1 / count)
    edges = [low * ratio ** (i + 1) for i in range(count)]
    edges[-1] = high
    counts = [0] * count
    for item in histogram.get_recorded_iterator():
        value = item.value_iterated_to
        i = next((k for k, edge in enumerate(edges) if value <= edge), count - 1)
        counts[i] += item.count_added_in_this_iter_step
    return [(_ms(round(edge)), n) for edge, n in zip(edges, counts, strict=True)]


def _ms(us: int) -> float:
    return round(us / 1000, 3)
