"""The interval of a partially labelled generator's labels and votes: betting or normal.

``interval_method`` (:data:`~regression.registry.BOUNDED_INTERVAL_METHODS`)
chooses it: ``"betting"``, the engine's betting interval of the
prediction-powered mean (:func:`regression.core.bounded.ppi_interval`) on the
labelled sample (:class:`LabelledSample`), valid at any number of labels;
``"normal"``, Wilson's score interval at the effective sample size
(:func:`score_interval`), valid for many labels only
(:mod:`regression.labels.partial` says why each).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field

import numpy as np

from regression.core.bounded import ppi_interval
from regression.intervals import ConfidenceInterval, normal_quantile
from regression.registry import BOUNDED_INTERVAL_METHODS

__all__ = ["EDGE", "LabelledSample", "cached_quantile", "check_interval_method", "score_interval"]

#: normal_quantile, remembered: the estimator runs it once per interval, in loops of draws
cached_quantile = functools.lru_cache(maxsize=64)(normal_quantile)

#: Estimates within this of 0 or 1 are at the edge (floating-point sums of weights).
EDGE = 1e-12


def check_interval_method(interval_method: object) -> str:
    """``interval_method`` if it is one of :data:`~regression.registry.BOUNDED_INTERVAL_METHODS`, else ``ValueError``.

    Examples
    --------
    >>> check_interval_method("betting")
    'betting'
    """
    if interval_method not in BOUNDED_INTERVAL_METHODS:
        raise ValueError(
            f"interval_method {interval_method!r} not recognized; must be one of "
            f"{', '.join(repr(m) for m in BOUNDED_INTERVAL_METHODS)}."
        )
    return str(interval_method)


def score_interval(
    p: np.ndarray | float,
    m: np.ndarray | float,
    alpha: float = 0.05,
    alternative: str = "two-sided",
) -> ConfidenceInterval:
    """Wilson's score interval for a proportion ``p`` observed on ``m`` (effective, real) trials.

    Examples
    --------
    >>> low, high = score_interval(1.0, 50)
    >>> round(float(low), 3), float(high)
    (0.929, 1.0)
    """
    z = cached_quantile(alpha, alternative)
    p_arr = np.clip(np.asarray(p, dtype=float), 0.0, 1.0)
    m_arr = np.maximum(np.asarray(m, dtype=float), 1e-12)
    denom = 1 + z**2 / m_arr
    center = (p_arr + z**2 / (2 * m_arr)) / denom
    half = z * np.sqrt(p_arr * (1 - p_arr) / m_arr + z**2 / (4 * m_arr**2)) / denom
    # at p = 0 or 1 the bound is exactly 0 or 1; rounding must not leave the truth outside
    # (a weighted mean of all-valid labels can come out 1 - 1e-16)
    low = np.where(p_arr <= EDGE, 0.0, np.clip(center - half, 0.0, 1.0))
    high = np.where(p_arr >= 1.0 - EDGE, 1.0, np.clip(center + half, 0.0, 1.0))
    if alternative == "less":
        low = np.zeros_like(low)
    if alternative == "greater":
        high = np.ones_like(high)
    return ConfidenceInterval(low, high)


@dataclass(frozen=True, eq=False)
class LabelledSample:
    """What the betting interval bets on: the labelled items and every item's prediction.

    Attributes
    ----------
    labels, predictions, probabilities : ndarray
        The labelled items' human labels (0 / 1), predictions and inclusion probabilities.
    population : ndarray
        The predictions on every judged item of the generator.
    lam : float or None
        A power-tuning weight fixed without these labels; None: tuned
        predictably (:func:`~regression.core.bounded.ppi_interval`).
    seed : int
        Seeds the random orders of the betting interval.
    """

    labels: np.ndarray
    predictions: np.ndarray
    population: np.ndarray
    probabilities: np.ndarray
    lam: float | None = None
    seed: int = 0
    _computed: dict[tuple[float, str], tuple[float, float]] = field(
        default_factory=dict, init=False, repr=False
    )

    def bounds(self, alpha: float = 0.05, alternative: str = "two-sided") -> tuple[float, float]:
        """The betting interval (:func:`~regression.core.bounded.ppi_interval`), remembered per level."""
        key = (float(alpha), alternative)
        if key not in self._computed:
            _, (low, high) = ppi_interval(
                self.labels,
                self.predictions,
                self.population,
                self.probabilities,
                self.lam,
                outcome_bounds=(0.0, 1.0),
                prediction_bounds=(0.0, 1.0),
                alpha=alpha,
                seed=self.seed,
                alternative=alternative,
            )
            self._computed[key] = (float(low), float(high))
        return self._computed[key]
