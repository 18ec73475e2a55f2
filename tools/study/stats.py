"""Statistics for balance studies: exact running sums, 95% intervals, tests and their false discovery rate.

Sums are kept exact (integers, or `Fraction` for shared wins), so a sample split into parts and
merged in any order gives the same figures to the last digit: a simulation's summary does not
depend on how its games were spread over workers. Only the standard library is used; the Student t
distribution comes from the regularized incomplete beta function.
"""

from __future__ import annotations

import math
from fractions import Fraction
from functools import lru_cache
from typing import NamedTuple

Z95 = 1.959963984540054  # the 97.5% quantile of the standard normal
Z80 = 0.8416212335729143  # the 80% quantile: a test of power 80% needs (Z95 + Z80) standard errors
LARGE_DF = 100_000        # past these degrees of freedom, t is taken as normal


class Moments:
    """An exact running count, sum and sum of squares of a sample of numbers."""

    __slots__ = ("n", "total", "squares")

    def __init__(self, n: int = 0, total: int | Fraction = 0, squares: int | Fraction = 0):
        self.n, self.total, self.squares = n, total, squares

    def add(self, x: int | Fraction) -> None:
        self.n += 1
        self.total += x
        self.squares += x * x

    def grow(self, n: int, total: int, squares: int) -> None:
        """Add a sample of `n` numbers given by its sum and sum of squares (as `n` `add`s)."""
        self.n += n
        self.total += total
        self.squares += squares

    def merge(self, other: "Moments") -> None:
        self.n += other.n
        self.total += other.total
        self.squares += other.squares

    def __sub__(self, other: "Moments") -> "Moments":
        """The sample without a part of it (the players who did not take a card: all less those who did)."""
        return Moments(self.n - other.n, self.total - other.total, self.squares - other.squares)

    def __eq__(self, other) -> bool:
        return isinstance(other, Moments) and (self.n, self.total, self.squares) == (other.n, other.total, other.squares)

    def __repr__(self) -> str:
        return f"Moments(n={self.n}, total={self.total}, squares={self.squares})"

    def __getstate__(self):
        return (self.n, self.total, self.squares)

    def __setstate__(self, state):
        self.n, self.total, self.squares = state

    @property
    def mean(self) -> float | None:
        return float(Fraction(self.total) / self.n) if self.n else None

    @property
    def variance(self) -> float | None:
        """The sample variance (n - 1 in the denominator), computed exactly before rounding."""
        if self.n < 2:
            return None
        return float(Fraction(self.n * self.squares - self.total * self.total) / (self.n * (self.n - 1)))

    def interval(self) -> tuple[float, float] | None:
        """The 95% confidence interval of the mean (Student t)."""
        return mean_interval(self.n, self.mean, self.variance)


def mean_interval(n: int, mean: float | None, variance: float | None) -> tuple[float, float] | None:
    """The 95% confidence interval of a mean from n values (None with fewer than 2)."""
    if mean is None or variance is None:
        return None
    half = t_quantile(n - 1) * math.sqrt(max(variance, 0.0) / n)
    return (mean - half, mean + half)


def wilson(successes: float | Fraction, n: int, z: float = Z95) -> tuple[float, float] | None:
    """The Wilson score interval of a proportion (None for an empty sample). `successes` may be
    fractional (a shared win counts 1/k)."""
    if n <= 0:
        return None
    p = float(successes) / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z * math.sqrt(max(p * (1 - p), 0.0) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


class Test(NamedTuple):
    """A two-sample comparison: the difference b - a, the statistic and its two-sided p-value."""

    delta: float
    statistic: float
    p: float


def welch(a: Moments, b: Moments) -> Test | None:
    """Welch's unequal-variances t-test, two-sided: did the mean move from sample a to sample b?
    (Two independent samples: what `--against` would need without its pairs; the tests compare.)"""
    if a.n < 2 or b.n < 2:
        return None
    va, vb = a.variance / a.n, b.variance / b.n
    delta = b.mean - a.mean
    se2 = va + vb
    if se2 == 0:
        return Test(delta, 0.0, 1.0) if delta == 0 else Test(delta, math.copysign(math.inf, delta), 0.0)
    t = delta / math.sqrt(se2)
    df = se2 * se2 / (va * va / (a.n - 1) + vb * vb / (b.n - 1))
    return Test(delta, t, t_two_sided(t, df))


def benjamini_hochberg(ps: list[float]) -> list[float]:
    """The q-values of p-values (Benjamini-Hochberg): flagging those under q keeps the expected share
    of false discoveries among the flagged under q, however many tests there are."""
    m = len(ps)
    order = sorted(range(m), key=ps.__getitem__)
    qs = [1.0] * m
    running = 1.0
    for rank in range(m, 0, -1):
        i = order[rank - 1]
        running = min(running, ps[i] * m / rank)
        qs[i] = min(1.0, running)
    return qs


def sample_needed(delta: float, variance: float) -> int | None:
    """How many independent values of this variance a test at 5% needs to find a mean of `delta`
    with 80% power (None for no move)."""
    if delta == 0 or variance is None:
        return None
    return max(2, math.ceil((Z95 + Z80) ** 2 * max(variance, 0.0) / (delta * delta)))


# -- distributions

def normal_two_sided(z: float) -> float:
    """P(|Z| >= |z|) for a standard normal Z."""
    return math.erfc(abs(z) / math.sqrt(2))


def t_two_sided(t: float, df: float) -> float:
    """P(|T| >= |t|) for Student's T with df degrees of freedom (df may be fractional)."""
    if math.isinf(t):
        return 0.0
    if df > LARGE_DF:
        return normal_two_sided(t)
    return min(1.0, incomplete_beta(df / 2, 0.5, df / (df + t * t)))


@lru_cache(maxsize=4096)
def t_quantile(df: int, two_sided: float = 0.05) -> float:
    """The t with P(|T| >= t) = two_sided (1.96 for large df), by bisection on the distribution."""
    if df <= 0:
        return math.inf
    if df > LARGE_DF:
        return Z95
    lo, hi = 0.0, 1.0
    while t_two_sided(hi, df) > two_sided:
        lo, hi = hi, hi * 2
    for _ in range(100):
        mid = (lo + hi) / 2
        if t_two_sided(mid, df) > two_sided:
            lo = mid
        else:
            hi = mid
        if hi - lo < 1e-12:
            break
    return (lo + hi) / 2


def incomplete_beta(a: float, b: float, x: float) -> float:
    """The regularized incomplete beta function I_x(a, b), by its continued fraction."""
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x))
    if x < (a + 1) / (a + b + 2):
        return front * _beta_fraction(a, b, x) / a
    return 1.0 - front * _beta_fraction(b, a, 1 - x) / b


def _beta_fraction(a: float, b: float, x: float) -> float:
    """The continued fraction of the incomplete beta function (modified Lentz)."""
    tiny, eps = 1e-300, 1e-15
    qab, qap, qam = a + b, a + 1, a - 1
    c, d = 1.0, 1 - qab * x / qap
    d = 1 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 100_000):
        m2 = 2 * m
        for aa in (m * (b - m) * x / ((qam + m2) * (a + m2)), -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))):
            d = 1 + aa * d
            d = 1 / (d if abs(d) > tiny else tiny)
            c = 1 + aa / c
            c = c if abs(c) > tiny else tiny
            h *= d * c
        if abs(d * c - 1) < eps:
            break
    return h
