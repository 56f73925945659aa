"""Statistics the measuring commands share (selfplay, ladder, report, the RL example)."""

from __future__ import annotations

import math

Z95 = 1.959964
"""The normal quantile of a two-sided 95% interval."""


def wilson(score: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a win rate ``score / n`` (draws may count half in ``score``);
    ``(0, 1)`` when there are no games."""
    if n == 0:
        return 0.0, 1.0
    p = score / n
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    low = 0.0 if score <= 0 else max(0.0, centre - half)  # the exact bounds at 0 and n wins,
    high = 1.0 if score >= n else min(1.0, centre + half)  # which rounding would miss
    return low, high


def mean_interval(d: list[float], z: float = Z95) -> tuple[float, float]:
    """The mean of paired differences ``d`` (at least two: a lever's or a candidate's result minus the
    baseline's on the same deal) and its normal-approximation half-width."""
    n = len(d)
    if n < 2:
        raise ValueError(f"a paired interval needs at least 2 differences, got {n}")
    m = sum(d) / n
    return m, z * math.sqrt(sum((x - m) ** 2 for x in d) / (n - 1)) / math.sqrt(n)
