"""Bootstraps on sufficient statistics: multinomial / binomial draws on count tables.

Resampling n items with replacement and tabulating them gives a multinomial
draw on the table with the observed cell proportions, so a bootstrap of any
statistic of a contingency table never needs the rows: 10,000 replicates cost
the same few milliseconds whether the table sums 100 items or 10^9
(``benchmarks/bench_single_judge.py``).

* :func:`resample_table` / :func:`resample_binomial`: the draws, shape
  ``(n_boot, *table.shape)``; any module can reuse them for its own tables.
* :func:`count_bootstrap`: resample several *independent* tables (e.g. a test
  table and one calibration table per model) and evaluate a vectorised
  statistic on every replicate at once.
* :class:`BootstrapResult`: the replicates, with percentile intervals.

Paired designs (two models judged on the same items) are one table (the
paired 2 x 2, :class:`regression.single_judge.tables.PairedJudgeTable`), so a multinomial
draw on it resamples both models on the same item indices, as Fiedler App. B
("Pairing") and App. E.4 require.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np
import pandas as pd

from regression.checks import (
    SeedLike,
    as_rng,
    check_alpha,
    check_alternative,
    check_counts,
    check_n_boot,
)
from regression.intervals import ConfidenceInterval, OneEstimate

__all__ = [
    "FEW_BOOT",
    "BootstrapInterval",
    "BootstrapResult",
    "bootstrap_warnings",
    "count_bootstrap",
    "percentile_interval",
    "resample_binomial",
    "resample_table",
    "resample_tables",
]

#: Fewer replicates than this give percentile intervals whose ends move from seed to seed by
#: a visible amount; Efron and Tibshirani (1993, *An Introduction to the Bootstrap*) advise at
#: least 1,000 for percentile intervals, and Fiedler App. E.4 uses 10,000.
FEW_BOOT = 1000


def resample_table(
    cells: Any, n_boot: int, rng: np.random.Generator | np.random.RandomState
) -> np.ndarray:
    """``n_boot`` multinomial redraws of a count table with its own total and cell proportions.

    Parameters
    ----------
    cells : array of counts, any shape
        The observed table (one multinomial sample over all its cells).
    n_boot : int
        Number of replicates, 2 to 1,000,000 (:func:`regression.checks.check_n_boot`).
    rng : numpy.random.Generator or RandomState

    Returns
    -------
    ndarray, shape (n_boot, *cells.shape), int64
        Each replicate sums to the observed total (an items bootstrap).

    Examples
    --------
    >>> draws = resample_table([30, 5, 10, 55], 4, np.random.default_rng(0))
    >>> draws.shape, draws.sum(axis=1).tolist()
    ((4, 4), [100, 100, 100, 100])
    """
    counts = check_counts("cells", cells)
    n_boot = check_n_boot(n_boot)
    total = int(counts.sum())
    if total == 0:
        return np.zeros((n_boot, *counts.shape), dtype=np.int64)
    draws = rng.multinomial(total, counts.ravel() / total, size=n_boot)
    return draws.reshape(n_boot, *counts.shape).astype(np.int64)


def resample_binomial(
    k: Any, n: Any, n_boot: int, rng: np.random.Generator | np.random.RandomState
) -> np.ndarray:
    """``n_boot`` binomial redraws of ``k`` successes in ``n`` (broadcasts; shape ``(n_boot, *shape)``).

    Examples
    --------
    >>> resample_binomial(3, 10, 5, np.random.default_rng(1)).shape
    (5,)
    """
    k_arr = check_counts("k", k)
    n_arr = check_counts("n", n)
    if np.any(k_arr > n_arr):
        raise ValueError(f"k ({k!r}) must not be greater than n ({n!r}).")
    n_boot = check_n_boot(n_boot)
    p = np.divide(k_arr, n_arr, out=np.zeros(np.broadcast(k_arr, n_arr).shape), where=n_arr > 0)
    shape = (n_boot, *p.shape)
    return rng.binomial(np.broadcast_to(n_arr, p.shape), p, size=shape).astype(np.int64)


def resample_tables(tables: Sequence[Any], n_boot: int, seed: SeedLike = None) -> list[np.ndarray]:
    """Redraw several independent count tables at once: one :func:`resample_table` per table.

    Use it when several statistics must share the same replicates (e.g. the
    four comparison estimators of :func:`regression.single_judge.comparison.compare_models`).

    Examples
    --------
    >>> test, cal = resample_tables([[7, 3], [40, 10, 5, 45]], 3, seed=0)
    >>> test.shape, cal.shape
    ((3, 2), (3, 4))
    """
    rng = as_rng(seed)
    arrays = [check_counts(f"tables[{i}]", t) for i, t in enumerate(tables)]
    return [resample_table(a, n_boot, rng) for a in arrays]


def percentile_interval(
    replicates: Any,
    alpha: float = 0.05,
    alternative: str = "two-sided",
    *,
    limits: tuple[float, float] = (-np.inf, np.inf),
) -> ConfidenceInterval:
    """Percentile interval of bootstrap replicates; undefined (NaN) replicates count against it.

    Two-sided: the alpha/2 and 1 - alpha/2 quantiles (Fiedler App. E.4).
    ``'less'``: ``(limits[0], q_{1-alpha})``; ``'greater'``: ``(q_alpha, limits[1])``.
    A NaN replicate (the statistic undefined on that resample, e.g. a judge no
    better than chance) is read as "could be anything": it is placed at
    ``limits[0]`` for the lower quantile and at ``limits[1]`` for the upper one,
    so once more than alpha/2 of the replicates are undefined the interval
    reaches the limits instead of pretending to a precision the data lack.

    Examples
    --------
    >>> percentile_interval(np.arange(101) / 100, alpha=0.1)
    ConfidenceInterval(low=0.05, high=0.95)
    >>> percentile_interval([0.1, 0.2, np.nan, np.nan], limits=(-1, 1))
    ConfidenceInterval(low=-1.0, high=1.0)
    """
    alpha = check_alpha(alpha)
    check_alternative(alternative)
    reps = np.asarray(replicates, dtype=float).ravel()
    undefined = np.isnan(reps)
    lo_q, hi_q = {
        "two-sided": (alpha / 2, 1 - alpha / 2),
        "less": (None, 1 - alpha),
        "greater": (alpha, None),
    }[alternative]

    def bound(q: float | None, fill: float) -> float:
        if q is None or reps.size == 0:
            return float(fill)
        value = float(np.quantile(np.where(undefined, fill, reps), q))
        return float(fill) if np.isnan(value) else value

    return ConfidenceInterval(
        bound(lo_q, limits[0]) if lo_q is not None else float(limits[0]),
        bound(hi_q, limits[1]) if hi_q is not None else float(limits[1]),
    )


@dataclass(frozen=True, eq=False)
class BootstrapResult(OneEstimate):
    """Bootstrap replicates of a statistic, with its plug-in estimate.

    Attributes
    ----------
    estimate : float
        The statistic on the observed tables.
    replicates : ndarray, shape (n_boot,)
        The statistic on each resampled set of tables; NaN where undefined
        (e.g. a replicate in which the judge is no better than chance); such
        replicates push the interval towards ``limits``.
    alpha, alternative : float, str
        The level and sidedness asked for, kept on the result.
    limits : (float, float)
        The statistic's range; open sides of one-sided intervals are set to it.
    """

    estimate: float
    replicates: np.ndarray
    alpha: float = 0.05
    alternative: str = "two-sided"
    limits: tuple[float, float] = (-np.inf, np.inf)

    method: ClassVar[str] = "bootstrap"
    covers: ClassVar[str] = "what the replicates redraw (percentile bootstrap)"
    warnings: ClassVar[tuple[str, ...]] = ()
    title: ClassVar[str] = "Bootstrap estimate"
    ESTIMAND: ClassVar[str] = "statistic"

    def diagnostics(self) -> pd.DataFrame:
        """One row: ``n_boot``, ``n_invalid`` (undefined replicates), ``se`` and ``median``."""
        return pd.DataFrame(
            {
                "n_boot": [self.n_boot],
                "n_invalid": [self.n_invalid],
                "se": [self.se],
                "median": [self.median],
            }
        )

    @property
    def n_boot(self) -> int:
        return int(self.replicates.size)

    @property
    def n_invalid(self) -> int:
        """Replicates where the statistic was undefined (NaN); they widen the interval (see :func:`percentile_interval`)."""
        return int(np.isnan(self.replicates).sum())

    @property
    def se(self) -> float:
        """Bootstrap standard error (standard deviation of the valid replicates)."""
        valid = self.replicates[~np.isnan(self.replicates)]
        return float(np.std(valid, ddof=1)) if valid.size > 1 else float("nan")

    @property
    def median(self) -> float:
        """The bootstrap median (Fiedler reports it as the point estimate in Tables 2, 4, 7)."""
        valid = self.replicates[~np.isnan(self.replicates)]
        return float(np.median(valid)) if valid.size else float("nan")

    @property
    def contains_estimate(self) -> bool:
        """Whether the interval at the result's own level contains the plug-in estimate (true for a NaN estimate).

        A percentile interval need not: with few replicates its ends are
        coarse order statistics, and a skewed replicate distribution can sit
        to one side of the estimate. :func:`bootstrap_warnings` says so.
        """
        low, high = self.bounds(self.alpha, self.alternative)
        return bool(np.isnan(self.estimate) or low <= self.estimate <= high)

    def bounds(self, alpha: float = 0.05, alternative: str = "two-sided") -> ConfidenceInterval:
        """Percentile interval of the replicates (:func:`percentile_interval`)."""
        return percentile_interval(self.replicates, alpha, alternative, limits=self.limits)


class BootstrapInterval(OneEstimate):
    """For a result whose interval is its ``bootstrap``'s: level, sidedness and bounds from it.

    The inheriting class has a ``bootstrap`` attribute (a :class:`BootstrapResult`).
    """

    bootstrap: BootstrapResult

    @property
    def alpha(self) -> float:
        return self.bootstrap.alpha

    @property
    def alternative(self) -> str:
        return self.bootstrap.alternative

    def bounds(self, alpha: float = 0.05, alternative: str = "two-sided") -> ConfidenceInterval:
        """The bootstrap's percentile interval (Fiedler App. E.4)."""
        return self.bootstrap.bounds(alpha, alternative)


def bootstrap_warnings(results: Mapping[str, BootstrapResult]) -> list[str]:
    """Say when bootstrap intervals cannot be read as printed: too few replicates, a missed estimate.

    Parameters
    ----------
    results : mapping of name -> BootstrapResult
        The bootstraps of one analysis, named as the report names them.

    Returns
    -------
    list of str
        One warning when any result has fewer than :data:`FEW_BOOT` replicates,
        and one per result whose interval excludes its own plug-in estimate
        (:attr:`BootstrapResult.contains_estimate`); empty when none applies.

    Examples
    --------
    >>> few = BootstrapResult(0.5, np.array([0.6, 0.7, 0.8]))
    >>> for w in bootstrap_warnings({"theta": few}):
    ...     print(w)  # doctest: +ELLIPSIS
    too few bootstrap replicates (3): percentile intervals ... use at least 1,000 replicates ...
    theta: the estimate +0.500 lies outside its 95% bootstrap interval [+0.605, +0.795] ...
    """
    out: list[str] = []
    few = {name: r.n_boot for name, r in results.items() if r.n_boot < FEW_BOOT}
    if few:
        same = len(set(few.values())) == 1 and len(few) == len(results)
        listed = (
            str(next(iter(few.values())))
            if same
            else ", ".join(f"{name} {n}" for name, n in few.items())
        )
        out.append(
            f"too few bootstrap replicates ({listed}): percentile intervals this coarse move "
            "with the seed and can miss their own estimate, and the checks read from them "
            f"(an interval excluding 0) are as rough; use at least {FEW_BOOT:,} replicates "
            "(Fiedler uses 10,000)."
        )
    for name, r in results.items():
        if not r.contains_estimate:
            low, high = r.bounds(r.alpha, r.alternative)
            out.append(
                f"{name}: the estimate {r.estimate:+.3f} lies outside its "
                f"{100 * (1 - r.alpha):g}% bootstrap interval [{low:+.3f}, {high:+.3f}] "
                f"({r.n_boot} replicates): the replicates sit to one side of it; read the "
                "interval with care, and with few replicates use more."
            )
    return out


def count_bootstrap(
    statistic: Callable[..., Any],
    tables: Sequence[Any],
    *,
    n_boot: int = 10_000,
    seed: SeedLike = None,
    alpha: float = 0.05,
    alternative: str = "two-sided",
    limits: tuple[float, float] = (-np.inf, np.inf),
) -> BootstrapResult:
    """Bootstrap a statistic of independent count tables by multinomial redraws of each.

    Parameters
    ----------
    statistic : callable
        ``statistic(*tables)`` where each argument has shape ``(B, *table.shape)``
        and the result has shape ``(B,)``: it must be vectorised over the
        leading replicate axis.
    tables : sequence of count arrays
        Independent samples (e.g. the test table and each calibration table),
        each resampled on its own with its own total.
    n_boot : int
        Replicates, 2 to 1,000,000 (default 10,000, as Fiedler App. E.4).
    seed : int, Generator, RandomState or None
        Randomness: a generator is used as it is, anything else seeds
        ``np.random.default_rng``; the same seed gives the same replicates.
    alpha, alternative, limits
        For the result's interval.

    Returns
    -------
    BootstrapResult

    Examples
    --------
    >>> def p_hat(test):  # test: (B, 2) counts (valid, invalid)
    ...     return test[:, 0] / test.sum(axis=1)
    >>> res = count_bootstrap(p_hat, [[300, 700]], n_boot=2000, seed=0)
    >>> round(res.estimate, 3), round(res.se, 3)
    (0.3, 0.015)
    """
    n_boot = check_n_boot(n_boot)
    arrays = [check_counts(f"tables[{i}]", t) for i, t in enumerate(tables)]
    estimate = float(np.asarray(statistic(*(a[np.newaxis] for a in arrays))).reshape(-1)[0])
    draws = resample_tables(arrays, n_boot, seed)
    reps = np.asarray(statistic(*draws), dtype=float).reshape(n_boot)
    return BootstrapResult(
        estimate, reps, check_alpha(alpha), check_alternative(alternative), limits
    )
