"""The power-tuning weight ``lam`` of the prediction-powered estimate, under one rule set.

The prediction-powered estimate of a target (Angelopoulos, Duchi & Zrnic,
2023, *PPI++: Efficient prediction-powered inference*, section 2) is

    theta = lam * mean_all(f) + (Hajek mean over the drawn units of y - lam * f),

``y`` the human outcome, ``f`` the judges' prediction of it. ``lam = 0`` is the
human outcomes alone, ``lam = 1`` the difference estimator (Sarndal, Swensson
& Wretman, 1992, ch. 6). Each estimator computes the covariance of outcome
and prediction and the prediction's variance its own way (an independent
calibration sample, a design-weighted sample, an M-estimator's projected
gradients); :func:`guarded_lam` turns them into ``lam`` by one rule set:

1. **Constant prediction.** Where the drawn units' predictions hold one value
   the sample estimates neither covariance nor variance, and their ratio is
   one of rounding errors. Then ``lam = 1``, the difference estimator (the
   optimum for a calibrated predictor, ``E[y | f] = f``, and the one choice
   that corrects for what the sample missed), unless the predictions hold
   one value on every unit too (the judges tell no unit from another) or the
   outcomes all agree (they say nothing of the judges' errors): ``lam = 0``.
2. **Constant outcomes.** Drawn outcomes that all agree say nothing of the
   judges' errors: ``lam = 0``.
3. **Clipping.** Otherwise ``covariance / variance`` clipped to [0, 1], and 0
   where the variance is not positive.

Design-based estimators tune on the sample with two pseudo-outcomes at the
outcome's bounds, predicted at the mean prediction
(:func:`with_pseudo_outcomes`), so that a handful of agreeing outcomes does
not tune ``lam`` to an extreme; their moments are :func:`design_moments`.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

__all__ = [
    "SAME_PREDICTION",
    "design_moments",
    "guarded_lam",
    "lam_by_rule",
    "with_pseudo_outcomes",
]

#: Predictions closer than this are one value (equal votes give equal predictions).
SAME_PREDICTION = 1e-9


def _spread(values: np.ndarray) -> float:
    """The largest range of ``values`` over units (rows), per column for 2-d values."""
    arr = np.asarray(values, dtype=float)
    if arr.size == 0:
        return 0.0
    return float(np.max(np.ptp(arr.reshape(arr.shape[0], -1), axis=0)))


def guarded_lam(
    covariance: float,
    variance: float,
    *,
    predictions: np.ndarray,
    population: np.ndarray,
    outcomes: np.ndarray,
) -> float:
    """The power-tuning weight in [0, 1] under the rule set of the module docstring.

    Parameters
    ----------
    covariance, variance : float
        The estimator's ``Cov(y, f)`` and ``Var(f)`` (in whatever form it
        tunes: design-weighted, pooled, a trace over several targets).
    predictions : ndarray, shape (n,) or (n, k)
        The predictions on the drawn units (rows).
    population : ndarray, shape (N,) or (N, k)
        The predictions on every unit of the target's population.
    outcomes : ndarray, shape (n,) or (n, k)
        The human outcomes of the drawn units (rows), pseudo-outcomes excluded.

    Returns
    -------
    float
        ``lam``; exactly 0 or 1 where a guard decides it.

    Examples
    --------
    >>> one = np.full(4, 0.7)
    >>> guarded_lam(1e-17, 3e-17, predictions=one, population=np.r_[one, 0.2],
    ...             outcomes=np.array([1.0, 0.0, 1.0, 1.0]))  # rule 1: the difference estimator
    1.0
    >>> guarded_lam(0.2, 0.1, predictions=np.array([0.1, 0.9]), population=np.array([0.1, 0.9]),
    ...             outcomes=np.array([0.0, 1.0]))  # rule 3: clipped to 1
    1.0
    """
    return float(
        lam_by_rule(
            covariance,
            variance,
            predictions_vary=_spread(predictions) > SAME_PREDICTION,
            population_varies=_spread(population) > SAME_PREDICTION,
            outcomes_vary=_spread(outcomes) > 0,
        )
    )


def lam_by_rule(
    covariance: ArrayLike,
    variance: ArrayLike,
    *,
    predictions_vary: ArrayLike,
    population_varies: ArrayLike,
    outcomes_vary: ArrayLike,
) -> np.ndarray:
    """The rule set of the module docstring, vectorised over estimates (broadcasts).

    :func:`guarded_lam` reads the three conditions off the units; an
    estimator on counts (a 2 x 2 table per estimate) gives them directly.

    Examples
    --------
    >>> lam_by_rule([0.3, 1e-17, 0.3], [0.6, 3e-17, 0.6], predictions_vary=[True, False, True],
    ...             population_varies=True, outcomes_vary=[True, True, False]).tolist()
    [0.5, 1.0, 0.0]
    """
    cov, var = np.broadcast_arrays(np.asarray(covariance, float), np.asarray(variance, float))
    usable = np.isfinite(cov) & np.isfinite(var) & (var > 0)
    with np.errstate(over="ignore"):  # a variance near 0 against a covariance: clipped to 1
        ratio = np.where(usable, cov / np.where(usable, var, 1.0), 0.0)
    tuned = np.where(np.asarray(outcomes_vary), np.clip(ratio, 0.0, 1.0), 0.0)
    difference = np.where(np.asarray(population_varies) & np.asarray(outcomes_vary), 1.0, 0.0)
    return np.where(np.asarray(predictions_vary), tuned, difference)


def with_pseudo_outcomes(
    outcomes: np.ndarray,
    predictions: np.ndarray,
    centre_weights: np.ndarray,
    spread_weights: np.ndarray,
    *,
    at: float,
    centre_weight: float,
    spread_weight: float,
    bounds: tuple[float, float] = (0.0, 1.0),
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The sample with two pseudo-outcomes, one at each bound, both predicted at ``at``.

    Returns ``(outcomes, predictions, centre_weights, spread_weights)`` extended
    by the two pseudo-units, in that order, for :func:`design_moments`.
    """
    low, high = bounds
    return (
        np.concatenate([outcomes, [low, high]]),
        np.concatenate([predictions, [at, at]]),
        np.concatenate([centre_weights, [centre_weight, centre_weight]]),
        np.concatenate([spread_weights, [spread_weight, spread_weight]]),
    )


def design_moments(
    outcomes: np.ndarray,
    predictions: np.ndarray,
    centre_weights: np.ndarray,
    spread_weights: np.ndarray,
) -> tuple[float, float, float]:
    """``A, B, C``: the design-weighted ``sum c e_y e_y``, ``sum c e_y e_f``, ``sum c e_f e_f``.

    ``e`` are deviations from the means weighted by ``centre_weights`` (the
    Hajek weights ``1 / pi``, or the design weights themselves), ``c`` the
    ``spread_weights`` (:func:`~regression.core.sampling.design_weights`). The
    linearised variance of the prediction-powered estimate is
    ``(A - 2 lam B + lam^2 C) / (sum w)^2``, least at ``lam = B / C``.

    Examples
    --------
    >>> a, b, c = design_moments(np.array([0.0, 1.0]), np.array([0.2, 0.8]),
    ...                          np.ones(2), np.ones(2))
    >>> round(a, 3), round(b, 3), round(c, 3)
    (0.5, 0.3, 0.18)
    """
    centre = np.asarray(centre_weights, dtype=float)
    c = np.asarray(spread_weights, dtype=float)
    total = centre.sum()
    ey = outcomes - (centre * outcomes).sum() / total
    ef = predictions - (centre * predictions).sum() / total
    return float((c * ey * ey).sum()), float((c * ey * ef).sum()), float((c * ef * ef).sum())
