"""Confidence intervals for the lab's rates, lengths and differences (95%, normal quantile).

- `wilson`: a proportion (a win rate, a share of endings). Wilson's score interval keeps its
  coverage near 95% even for rates near 0 or 1 and small samples, where the plain p ± 1.96·se does not.
- `newcombe`: the difference of two independent proportions (Newcombe's hybrid score method,
  built from the two Wilson intervals).
- `mean_ci`, `paired_diff`, `welch_diff`: a mean, and the difference of two means on paired
  samples (the same seeds under two rulesets: the mean of the per-pair differences) or on
  independent ones.
- `ratio_ci`: the relative change of a mean (B / A − 1) by the delta method, paired or not.

Every function takes plain numbers and returns plain floats, so results are the same in any
process; nothing here draws random numbers. Variances are two-pass sums with `math.fsum` (correctly
rounded): `statistics.variance` works in exact fractions, which took most of a large run's summary.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence

Z95 = 1.959963984540054  # the 97.5% quantile of the standard normal

Interval = tuple[float, float]


def wilson(k: float, n: int, z: float = Z95) -> Interval:
    """The score interval of a proportion k/n."""
    if n <= 0:
        return (0.0, 1.0)
    p = k / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def newcombe(k1: int, n1: int, k2: int, n2: int, z: float = Z95) -> Interval:
    """The interval of p2 − p1 for two independent proportions (Newcombe 1998, method 10)."""
    if n1 <= 0 or n2 <= 0:
        return (-1.0, 1.0)
    p1, p2 = k1 / n1, k2 / n2
    l1, u1 = wilson(k1, n1, z)
    l2, u2 = wilson(k2, n2, z)
    d = p2 - p1
    lo = d - math.sqrt((p2 - l2) ** 2 + (u1 - p1) ** 2)
    hi = d + math.sqrt((u2 - p2) ** 2 + (p1 - l1) ** 2)
    return (max(-1.0, lo), min(1.0, hi))


def variance(xs: Sequence[float], mean: float) -> float:
    """The sample variance (n − 1) of `xs` about its `mean`; 0 for fewer than two values."""
    n = len(xs)
    return math.fsum([(x - mean) * (x - mean) for x in xs]) / (n - 1) if n > 1 else 0.0


def mean_ci(xs: Sequence[float], z: float = Z95) -> tuple[float, float, float]:
    """The mean and its normal interval."""
    n = len(xs)
    if n == 0:
        return (math.nan, math.nan, math.nan)
    m = math.fsum(xs) / n
    if n < 2:
        return (m, m, m)
    half = z * math.sqrt(variance(xs, m) / n)
    return (m, m - half, m + half)


def paired_diff(xs: Sequence[float], ys: Sequence[float], z: float = Z95) -> tuple[float, float, float]:
    """The mean of y − x over pairs (the same seed under A and B) and its interval."""
    if len(xs) != len(ys):
        raise ValueError("paired samples must have the same length")
    return mean_ci([y - x for x, y in zip(xs, ys, strict=True)], z)


def welch_diff(xs: Sequence[float], ys: Sequence[float], z: float = Z95) -> tuple[float, float, float]:
    """mean(y) − mean(x) for independent samples, with a normal (Welch) interval."""
    if not xs or not ys:
        return (math.nan, math.nan, math.nan)
    mx, my = math.fsum(xs) / len(xs), math.fsum(ys) / len(ys)
    vx, vy = variance(xs, mx), variance(ys, my)
    half = z * math.sqrt(vx / len(xs) + vy / len(ys))
    d = my - mx
    return (d, d - half, d + half)


def ratio_ci(xs: Sequence[float], ys: Sequence[float], paired: bool, z: float = Z95) -> tuple[float, float, float]:
    """mean(y) / mean(x) − 1 (the relative change from A to B) and its delta-method interval.

    Var(ȳ/x̄) ≈ (σy² / μx² + μy² σx² / μx⁴ − 2 μy σxy / μx³) / n on n pairs; without pairs the
    covariance term is 0 and each variance is divided by its own sample size.
    """
    if not xs or not ys:
        return (math.nan, math.nan, math.nan)
    mx, my = math.fsum(xs) / len(xs), math.fsum(ys) / len(ys)
    if mx == 0:
        return (math.nan, math.nan, math.nan)
    vx, vy = variance(xs, mx), variance(ys, my)
    if paired:
        if len(xs) != len(ys):
            raise ValueError("paired samples must have the same length")
        n = len(xs)
        cov = math.fsum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / (n - 1) if n > 1 else 0.0
        var = (vy / mx**2 + my**2 * vx / mx**4 - 2 * my * cov / mx**3) / n
    else:
        var = vy / (mx**2 * len(ys)) + my**2 * vx / (mx**4 * len(xs))
    r = my / mx - 1
    half = z * math.sqrt(max(var, 0.0))
    return (r, r - half, r + half)


def quartiles(xs: Sequence[float]) -> tuple[float, float, float]:
    """(first quartile, median, third quartile), by linear interpolation between order statistics."""
    if not xs:
        return (math.nan, math.nan, math.nan)
    if len(xs) == 1:
        x = float(xs[0])
        return (x, x, x)
    q1, q2, q3 = statistics.quantiles(xs, n=4, method="inclusive")
    return (q1, q2, q3)


def excludes_zero(lo: float, hi: float) -> bool:
    """Whether an interval of a difference says the difference is real (at the 95% level)."""
    return lo > 0 or hi < 0
