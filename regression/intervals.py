"""Confidence-interval plumbing shared by every estimator.

One convention for one-sided intervals, scipy's (as in ``scipy.stats.binomtest``):
``alternative='two-sided'`` gives ``(low, high)`` at level ``1 - alpha``;
``'less'`` gives ``(lower_limit, high)`` (an upper confidence bound);
``'greater'`` gives ``(low, upper_limit)`` (a lower confidence bound).
Bounds for proportions are clipped to [0, 1].

:class:`IntervalMixin` gives every result class the same pair: the property
``ci`` (the interval at the result's own level and sidedness) and the method
``confidence_interval(confidence_level, alternative)``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np
from scipy import stats

from regression.checks import check_alpha, check_alternative, check_counts
from regression.results import interval_frame

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "ConfidenceInterval",
    "IntervalMixin",
    "TableIntervalMixin",
    "alpha_from_level",
    "normal_bounds",
    "normal_quantile",
    "wald_interval",
    "wilson_interval",
]


class ConfidenceInterval(NamedTuple):
    """A ``(low, high)`` pair; entries are floats or arrays that broadcast together."""

    low: np.ndarray | float
    high: np.ndarray | float


def alpha_from_level(confidence_level: float) -> float:
    """``1 - confidence_level``, raising unless the level lies strictly between 0 and 1.

    Examples
    --------
    >>> round(alpha_from_level(0.9), 10)
    0.1
    """
    level = float(confidence_level)
    if not 0.0 < level < 1.0:
        raise ValueError(
            f"confidence_level ({confidence_level!r}) must lie strictly between 0 and 1."
        )
    return 1.0 - level


class IntervalMixin:
    """``ci`` and ``confidence_interval`` for a result class, from one method that computes bounds.

    A result inherits this and defines ``_bounds(alpha, alternative)``, which
    returns the interval at level ``1 - alpha`` for an ``alpha`` and an
    ``alternative`` already checked. A result that carries its own level and
    sidedness has ``alpha`` and ``alternative`` attributes (dataclass fields or
    properties); without them :attr:`ci` is the two-sided 95 % interval. Such
    dataclass fields need defaults: without one, the dataclass would take the
    mixin's property as the default.

    Examples
    --------
    >>> from dataclasses import dataclass
    >>> @dataclass(frozen=True)
    ... class Share(IntervalMixin):
    ...     k: int
    ...     n: int
    ...     alpha: float = 0.05
    ...     alternative: str = "two-sided"
    ...     def _bounds(self, alpha, alternative):
    ...         low, high = wilson_interval(self.k, self.n, alpha, alternative)
    ...         return ConfidenceInterval(float(low), float(high))
    >>> [round(b, 4) for b in Share(0, 10).ci]
    [0.0, 0.2775]
    >>> Share(0, 10).confidence_interval(0.9, "greater").high
    1.0
    """

    @property
    def alpha(self) -> float:
        """1 - the confidence level of :attr:`ci`."""
        return 0.05

    @property
    def alternative(self) -> str:
        """Sidedness of :attr:`ci`: 'two-sided', 'less' (upper bound) or 'greater' (lower bound)."""
        return "two-sided"

    @property
    def ci(self) -> ConfidenceInterval:
        """The interval at the result's own level ``1 - alpha`` and sidedness."""
        return self.confidence_interval(1 - self.alpha, self.alternative)

    def confidence_interval(
        self, confidence_level: float = 0.95, alternative: str = "two-sided"
    ) -> ConfidenceInterval:
        """The interval at ``confidence_level``; ``'less'`` bounds from above, ``'greater'`` from below.

        Raises
        ------
        ValueError
            If ``confidence_level`` is not strictly between 0 and 1, or
            ``alternative`` is not 'two-sided', 'less' or 'greater'.
        """
        return self._bounds(alpha_from_level(confidence_level), check_alternative(alternative))

    def _bounds(self, alpha: float, alternative: str) -> ConfidenceInterval:
        raise NotImplementedError(f"{type(self).__name__} does not define _bounds.")

    def estimand_interval(
        self, estimand: str, estimate: float, method: str, alpha: float, alternative: str
    ) -> pd.DataFrame:
        """The contract's ``interval()`` table of a result with one estimand: one row, ``estimand``.

        Raises
        ------
        ValueError
            ``alpha`` not strictly between 0 and 1, or an unknown ``alternative``.
        """
        low, high = self._bounds(check_alpha(alpha), check_alternative(alternative))
        return interval_frame([estimand], estimate, low, high, method, index_name="estimand")


def normal_quantile(alpha: float, alternative: str = "two-sided") -> float:
    """The standard-normal critical value: z_{1-alpha/2} two-sided, z_{1-alpha} one-sided."""
    alpha = check_alpha(alpha)
    check_alternative(alternative)
    tail = alpha / 2 if alternative == "two-sided" else alpha
    return float(stats.norm.isf(tail))


def normal_bounds(
    estimate: np.ndarray | float,
    se: np.ndarray | float,
    alpha: float = 0.05,
    alternative: str = "two-sided",
    *,
    limits: tuple[float, float] = (0.0, 1.0),
) -> ConfidenceInterval:
    """``estimate -/+ z * se`` with the open side(s) set to ``limits`` and both ends clipped to them."""
    z = normal_quantile(alpha, alternative)
    est, se_arr = np.asarray(estimate, dtype=float), np.asarray(se, dtype=float)
    lo, hi = limits
    low = np.clip(est - z * se_arr, lo, hi) if alternative != "less" else np.full_like(est, lo)
    high = np.clip(est + z * se_arr, lo, hi) if alternative != "greater" else np.full_like(est, hi)
    return ConfidenceInterval(low, high)


def wald_interval(
    k: np.ndarray | int, n: np.ndarray | int, alpha: float = 0.05, alternative: str = "two-sided"
) -> ConfidenceInterval:
    """Wald interval for a binomial proportion ``k / n``, clipped to [0, 1]. Broadcasts.

    Examples
    --------
    >>> low, high = wald_interval(50, 100)
    >>> round(float(low), 4), round(float(high), 4)
    (0.402, 0.598)
    """
    k_arr, n_arr = _check_binomial(k, n)
    p = k_arr / n_arr
    return normal_bounds(p, np.sqrt(p * (1 - p) / n_arr), alpha, alternative)


def wilson_interval(
    k: np.ndarray | int, n: np.ndarray | int, alpha: float = 0.05, alternative: str = "two-sided"
) -> ConfidenceInterval:
    """Wilson score interval for a binomial proportion ``k / n``. Broadcasts.

    Notes
    -----
    Wilson (1927); unlike Wald it stays inside [0, 1] and keeps near-nominal
    coverage for p near 0 or 1. One-sided bounds use z_{1-alpha}.

    Examples
    --------
    >>> low, high = wilson_interval(0, 10)
    >>> round(float(low), 4), round(float(high), 4)
    (0.0, 0.2775)
    """
    k_arr, n_arr = _check_binomial(k, n)
    z = normal_quantile(alpha, alternative)
    p = k_arr / n_arr
    denom = 1 + z**2 / n_arr
    center = (p + z**2 / (2 * n_arr)) / denom
    half = z * np.sqrt(p * (1 - p) / n_arr + z**2 / (4 * n_arr**2)) / denom
    # k = 0 and k = n give exact 0 and 1 limits; pin them against rounding.
    low = np.where(k_arr == 0, 0.0, np.clip(center - half, 0.0, 1.0))
    high = np.where(k_arr == n_arr, 1.0, np.clip(center + half, 0.0, 1.0))
    if alternative == "less":
        low = np.zeros_like(p)
    if alternative == "greater":
        high = np.ones_like(p)
    return ConfidenceInterval(low, high)


def _check_binomial(k: np.ndarray | int, n: np.ndarray | int) -> tuple[np.ndarray, np.ndarray]:
    k_arr = check_counts("k", k).astype(float)
    n_arr = check_counts("n", n).astype(float)
    if np.any(n_arr <= 0):
        raise ValueError(f"n must be positive; got {n_arr[n_arr <= 0].ravel()[0].item()!r}.")
    if np.any(k_arr > n_arr):
        raise ValueError(f"k ({k!r}) must not be greater than n ({n!r}).")
    return np.broadcast_arrays(k_arr, n_arr)  # type: ignore[return-value]


class TableIntervalMixin:
    """``confidence_interval`` for a result whose ``interval(alpha, alternative=...)`` is a table.

    The many-generator results (latent-trait, transfer) compute their intervals
    as a table with ``low`` and ``high`` columns; this is scipy's
    ``confidence_interval(confidence_level)`` view of that table, written once.
    Extra keywords (an interval ``method``, ``n_boot``) go to ``interval``.
    """

    def confidence_interval(
        self, confidence_level: float = 0.95, alternative: str = "two-sided", **options: Any
    ) -> ConfidenceInterval:
        """``(low, high)`` Series of :meth:`interval` at ``confidence_level``."""
        alpha = alpha_from_level(confidence_level)
        # every result that inherits this defines interval(alpha, *, alternative, ...)
        table = self.interval(alpha, alternative=alternative, **options)  # type: ignore[attr-defined]
        return ConfidenceInterval(table["low"], table["high"])
