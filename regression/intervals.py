"""Confidence-interval plumbing shared by every estimator.

One convention for one-sided intervals, scipy's (as in ``scipy.stats.binomtest``):
``alternative='two-sided'`` gives ``(low, high)`` at level ``1 - alpha``;
``'less'`` gives ``(lower_limit, high)`` (an upper confidence bound);
``'greater'`` gives ``(low, upper_limit)`` (a lower confidence bound).
Bounds for proportions are clipped to [0, 1].

:class:`OneEstimate` is the :class:`~regression.results.Result` of one
estimand: it computes its ``bounds(alpha, alternative)`` and the base's
``interval(alpha)`` table is built from them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple

import numpy as np
from scipy import special

from regression.checks import check_alpha, check_alternative, check_counts
from regression.results import Result, interval_frame

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "ConfidenceInterval",
    "OneEstimate",
    "normal_bounds",
    "normal_quantile",
    "student_quantile",
    "wald_interval",
    "wilson_interval",
]


class ConfidenceInterval(NamedTuple):
    """A ``(low, high)`` pair; entries are floats or arrays that broadcast together."""

    low: np.ndarray | float
    high: np.ndarray | float


class OneEstimate(Result):
    """A :class:`~regression.results.Result` of one estimand, its interval from :meth:`bounds`.

    A subclass defines ``estimate``, :attr:`ESTIMAND` (the row's name) and
    :meth:`bounds`, which returns ``(low, high)`` at level ``1 - alpha`` for an
    ``alpha`` and an ``alternative`` already checked; :meth:`interval` is then
    the one-row table of the contract. ``estimate`` may be an array (a
    proportion per generator): then the rows are numbered.

    Examples
    --------
    >>> from dataclasses import dataclass
    >>> @dataclass(frozen=True)
    ... class Share(OneEstimate):
    ...     k: int
    ...     n: int
    ...     method: str = "naive"
    ...     def bounds(self, alpha=0.05, alternative="two-sided"):
    ...         low, high = wilson_interval(self.k, self.n, alpha, alternative)
    ...         return ConfidenceInterval(float(low), float(high))
    ...     @property
    ...     def estimate(self):
    ...         return self.k / self.n
    >>> Share(0, 10).interval()
              estimate  low    high method
    estimand
    share          0.0  0.0  0.2775  naive
    """

    #: What the one row of :meth:`interval` is called.
    ESTIMAND: ClassVar[str] = "share"

    if TYPE_CHECKING:

        @property
        def estimate(self) -> Any:
            """The point estimate."""

    def bounds(self, alpha: float = 0.05, alternative: str = "two-sided") -> ConfidenceInterval:
        """``(low, high)`` at level ``1 - alpha``: the numbers behind :meth:`interval`."""
        raise NotImplementedError(f"{type(self).__name__} does not define bounds.")

    def interval(self, alpha: float = 0.05, *, alternative: str = "two-sided") -> pd.DataFrame:
        """The interval at level ``1 - alpha``: one row, indexed by the estimand (:attr:`ESTIMAND`).

        Raises
        ------
        ValueError
            ``alpha`` not strictly between 0 and 1, or an unknown ``alternative``.
        """
        low, high = self.bounds(check_alpha(alpha), check_alternative(alternative))
        estimate = np.asarray(self.estimate, dtype=float)
        if estimate.ndim == 0:
            return interval_frame(
                [self.ESTIMAND], estimate, low, high, self.method, index_name="estimand"
            )
        return interval_frame(
            range(estimate.size), estimate, low, high, self.method, index_name=None
        )


def normal_quantile(alpha: float, alternative: str = "two-sided") -> float:
    """The standard-normal critical value: z_{1-alpha/2} two-sided, z_{1-alpha} one-sided."""
    alpha = check_alpha(alpha)
    check_alternative(alternative)
    tail = alpha / 2 if alternative == "two-sided" else alpha
    return float(-special.ndtri(tail))  # scipy.stats.norm.isf, without importing scipy.stats


def student_quantile(dof: float, alpha: float, alternative: str = "two-sided") -> float:
    """Student's critical value on ``dof`` degrees of freedom: t_{1-alpha/2} two-sided, t_{1-alpha} one-sided.

    Infinite ``dof``: the normal quantile (:func:`normal_quantile`); fewer
    than one degree of freedom (a variance estimated from one unit): no finite
    quantile, ``inf``.

    Examples
    --------
    >>> round(student_quantile(9, 0.05), 3)
    2.262
    >>> student_quantile(float("inf"), 0.05) == normal_quantile(0.05)  # exact: the same code path
    True
    """
    if not np.isfinite(dof):
        return normal_quantile(alpha, alternative)
    alpha = check_alpha(alpha)
    check_alternative(alternative)
    if dof < 1:
        return float("inf")
    tail = alpha / 2 if alternative == "two-sided" else alpha
    # scipy.special.stdtrit is the quantile scipy.stats.t.ppf calls, without importing scipy.stats
    return float(special.stdtrit(dof, 1.0 - tail))


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
