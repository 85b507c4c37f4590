"""The lab's intervals cover the truth about 95% of the time: checked on simulated coins and
games of known bias (seeded, so these tests give the same answer on every run)."""

from __future__ import annotations

import math
import random

import pytest

from interpreter.lab import stats

REPS = 2000


def coverage(trials: int, make, truth: float) -> float:
    hits = 0
    for _ in range(trials):
        lo, hi = make()
        hits += lo <= truth <= hi
    return hits / trials


def flips(rng: random.Random, p: float, n: int) -> int:
    return sum(rng.random() < p for _ in range(n))


@pytest.mark.parametrize("p, n", [(0.5, 100), (0.3, 200), (0.05, 300)])
def test_wilson_covers_a_coin_of_known_bias(p: float, n: int) -> None:
    rng = random.Random(f"wilson {p} {n}")
    cov = coverage(REPS, lambda: stats.wilson(flips(rng, p, n), n), p)
    assert 0.93 <= cov <= 0.97, f"coverage {cov:.3f} of a nominal 95% interval (p={p}, n={n})"


def test_wilson_known_values() -> None:
    lo, hi = stats.wilson(5, 10)
    assert (round(lo, 4), round(hi, 4)) == (0.2366, 0.7634)
    lo, hi = stats.wilson(0, 10)
    assert lo == 0.0 and round(hi, 4) == 0.2775
    assert stats.wilson(0, 0) == (0.0, 1.0)


def test_newcombe_gives_the_published_interval() -> None:
    """Newcombe (1998), table II, example (a): 56/70 against 48/80, a difference of 0.2000 with the
    interval 0.0524 to 0.3339 (method 10)."""
    lo, hi = stats.newcombe(48, 80, 56, 70)
    assert (round(lo, 4), round(hi, 4)) == (0.0524, 0.3339)


def test_newcombe_covers_the_difference_of_two_coins() -> None:
    rng = random.Random("newcombe")
    p1, p2, n1, n2 = 0.45, 0.55, 300, 250
    cov = coverage(REPS, lambda: stats.newcombe(flips(rng, p1, n1), n1, flips(rng, p2, n2), n2), p2 - p1)
    assert 0.93 <= cov <= 0.97, f"coverage {cov:.3f}"


def test_paired_difference_covers_correlated_coins() -> None:
    """Two rulesets on the same deals: outcomes agree most of the time (correlated pairs)."""
    rng = random.Random("paired")
    pa, pb, n = 0.5, 0.56, 400

    def pair() -> tuple[float, float]:
        xs, ys = [], []
        for _ in range(n):
            u = rng.random()
            xs.append(float(u < pa))
            ys.append(float(u < pb) if rng.random() < 0.8 else float(rng.random() < pb))
        _, lo, hi = stats.paired_diff(xs, ys)
        return lo, hi

    cov = coverage(1000, pair, pb - pa)
    assert 0.93 <= cov <= 0.97, f"coverage {cov:.3f}"


@pytest.mark.parametrize("paired", [True, False])
def test_relative_change_of_mean_length_covers_the_truth(paired: bool) -> None:
    """Game lengths ~ 20 + a geometric count; B's are 10% shorter on average."""
    rng = random.Random(f"ratio {paired}")
    n = 300
    mean_a = 20 + 1 / 0.04  # 45
    mean_b = 0.9 * mean_a

    def sample() -> tuple[float, float]:
        xs, ys = [], []
        for _ in range(n):
            a = 20 + _geometric(rng, 0.04)
            xs.append(a)
            # paired: B's length follows A's; unpaired: drawn on its own
            base = a if paired else 20 + _geometric(rng, 0.04)
            ys.append(0.9 * base + rng.gauss(0, 3))
        _, lo, hi = stats.ratio_ci(xs, ys, paired)
        return lo, hi

    cov = coverage(600, sample, mean_b / mean_a - 1)
    assert 0.92 <= cov <= 0.975, f"coverage {cov:.3f}"


def _geometric(rng: random.Random, p: float) -> int:
    return int(math.log(1 - rng.random()) / math.log(1 - p))


def test_mean_interval_and_quartiles() -> None:
    m, lo, hi = stats.mean_ci([1, 2, 3, 4, 5])
    assert m == 3 and lo < 3 < hi
    assert stats.quartiles([1, 2, 3, 4, 5]) == (2.0, 3.0, 4.0)
    assert stats.excludes_zero(0.1, 0.3) and stats.excludes_zero(-0.3, -0.1) and not stats.excludes_zero(-0.1, 0.1)


def test_variance_agrees_with_the_exact_one() -> None:
    """The two-pass fsum variance against statistics.variance (exact fractions), on game lengths, on
    values far from zero (where a one-pass formula loses its digits) and on 0/1 outcomes."""
    import statistics

    rnd = random.Random(4)
    samples = [
        [float(rnd.randint(20, 200)) for _ in range(5000)],
        [1e9 + rnd.random() for _ in range(1000)],
        [float(rnd.random() < 0.3) for _ in range(2000)],
        [3.0, 5.0],
    ]
    for xs in samples:
        m = math.fsum(xs) / len(xs)
        assert stats.variance(xs, m) == pytest.approx(statistics.variance(xs), rel=1e-12)
    assert stats.variance([7.0], 7.0) == 0.0
