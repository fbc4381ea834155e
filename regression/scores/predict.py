"""Predicting an output's human rating from every judge's score, monotone in each judge.

The predictor has two stages, each chosen for what a judge's score is:

1. **Isotonic per judge.** A judge's scale need not be the humans' and its
   miscalibration need not be linear (a judge that gives 9/10 to everything
   good enough, a reward model's logit): only its order is trusted. Each
   judge's score is mapped to the rating by isotonic regression
   (pool-adjacent-violators, Barlow et al., 1972; the calibration of
   cje-eval and of Zadrozny & Elkan, 2002), fitted on the rated outputs that
   judge scored, and read between its fitted points by linear interpolation,
   constant past its ends (scikit-learn's ``IsotonicRegression`` convention).
2. **Stacked by non-negative least squares.** The judges' calibrated scores
   are combined linearly, ``f = b + sum_j w_j c_j(s_j)``, with ``w_j >= 0``
   (Breiman, 1996, *Stacked regressions*: non-negative weights on
   out-of-fold predictions), so ``f`` stays monotone in every judge and a
   judge that predicts nothing gets a weight near 0. The weights are fitted
   on out-of-fold calibrated scores (an isotonic fit predicts its own
   training ratings too well), centred so that the intercept is free.

A judge that did not score an output contributes its mean calibrated score
there (mean imputation: that judge says nothing of the output, and the other
judges' weights stand). The prediction is clipped to [0, 1], the ratings'
rescaled range.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from scipy.optimize import nnls

from regression.core.crossfit import FOLDS, fold_of

__all__ = [
    "IsotonicCurve",
    "Predictor",
    "fit_isotonic",
    "fit_predictor",
    "pool_adjacent_violators",
    "predictor_fit",
    "stack_weights",
]

#: Rated outputs a judge needs for a calibration curve (fewer: its constant mean).
MIN_RATED = 2


def pool_adjacent_violators(y: np.ndarray, weight: np.ndarray | None = None) -> np.ndarray:
    """The non-decreasing fit to ``y`` (in the given order) that minimises weighted squared error.

    Pool-adjacent-violators (Barlow, Bartholomew, Bremner & Brunk, 1972):
    adjacent blocks whose means decrease are merged into their weighted mean.

    Examples
    --------
    >>> pool_adjacent_violators(np.array([1.0, 3.0, 2.0, 4.0])).tolist()
    [1.0, 2.5, 2.5, 4.0]
    """
    y = np.asarray(y, dtype=float)
    w = np.ones_like(y) if weight is None else np.asarray(weight, dtype=float)
    means: list[float] = []
    weights: list[float] = []
    sizes: list[int] = []
    for value, mass in zip(y, w, strict=True):
        means.append(float(value))
        weights.append(float(mass))
        sizes.append(1)
        while len(means) > 1 and means[-2] > means[-1]:
            total = weights[-2] + weights[-1]
            merged = (means[-2] * weights[-2] + means[-1] * weights[-1]) / total
            means[-2:] = [merged]
            weights[-2:] = [total]
            sizes[-2:] = [sizes[-2] + sizes[-1]]
    return np.repeat(np.array(means), np.array(sizes, dtype=int))


@dataclass(frozen=True)
class IsotonicCurve:
    """A judge's calibration: its distinct scores and the rating each is mapped to.

    Attributes
    ----------
    scores : ndarray
        Increasing distinct scores seen in the fit.
    values : ndarray
        The fitted (non-decreasing) rating at each.
    """

    scores: np.ndarray
    values: np.ndarray

    def __call__(self, score: np.ndarray) -> np.ndarray:
        """The calibrated rating at ``score``; NaN stays NaN.

        At a score seen in the fit, its fitted value; between two seen scores,
        the mean of theirs; past the ends, the end's. The prediction depends on
        where a score falls among the seen ones, never on distances, so it is
        unchanged by any increasing rescaling of the judge's scores.
        """
        score = np.asarray(score, dtype=float)
        upper = np.clip(np.searchsorted(self.scores, score, side="left"), 0, self.scores.size - 1)
        lower = np.clip(np.searchsorted(self.scores, score, side="right") - 1, 0, None)
        out = (self.values[lower] + self.values[upper]) / 2
        return np.where(np.isnan(score), np.nan, out)


def fit_isotonic(score: np.ndarray, rating: np.ndarray) -> IsotonicCurve:
    """The isotonic regression of ``rating`` on ``score`` (ties in ``score`` pooled first).

    Examples
    --------
    >>> curve = fit_isotonic(np.array([1.0, 2.0, 2.0, 3.0]), np.array([0.0, 1.0, 0.0, 1.0]))
    >>> curve.values.tolist(), curve(np.array([1.5, 2.0, 9.0])).tolist()
    ([0.0, 0.5, 1.0], [0.25, 0.5, 1.0])
    """
    distinct, inverse, counts = np.unique(score, return_inverse=True, return_counts=True)
    means = np.bincount(inverse, weights=rating) / counts
    return IsotonicCurve(distinct, pool_adjacent_violators(means, counts.astype(float)))


def stack_weights(features: np.ndarray, y: np.ndarray) -> tuple[float, np.ndarray]:
    """``(intercept, weights)``: least squares of ``y`` on the columns of ``features``, weights >= 0.

    The columns and ``y`` are centred first, so the intercept is free and
    the non-negative least squares (Lawson & Hanson, 1974;
    :func:`scipy.optimize.nnls`) bounds only the weights.

    Examples
    --------
    >>> x = np.array([[0.0, 1.0], [1.0, 0.0], [2.0, 1.0], [3.0, 0.0]])
    >>> b, w = stack_weights(x, 1.0 + 2.0 * x[:, 0])
    >>> round(b, 6), w.round(6).tolist()
    (1.0, [2.0, 0.0])
    """
    centre = features.mean(axis=0)
    target = y.mean()
    weights, _ = nnls(features - centre, y - target)
    return float(target - centre @ weights), weights


@dataclass(frozen=True)
class Predictor:
    """The fitted predictor: each judge's curve, its weight and the intercept.

    Attributes
    ----------
    curves : list of IsotonicCurve or None
        Per judge (None: too few rated outputs it scored; it gets no weight).
    fill : ndarray
        Per judge: its mean calibrated score on the rated outputs, used where it gave none.
    weights : ndarray
        Per judge, non-negative.
    intercept : float
    """

    curves: list[IsotonicCurve | None]
    fill: np.ndarray
    weights: np.ndarray
    intercept: float

    def features(self, scores: np.ndarray) -> np.ndarray:
        """Each judge's calibrated score of each output, its :attr:`fill` where it gave none."""
        columns = [
            np.full(scores.shape[0], self.fill[j]) if curve is None else curve(scores[:, j])
            for j, curve in enumerate(self.curves)
        ]
        features = np.column_stack(columns) if columns else np.empty((scores.shape[0], 0))
        return np.where(np.isnan(features), self.fill, features)

    def __call__(self, scores: np.ndarray) -> np.ndarray:
        """The predicted rating in [0, 1] of each output (rows of ``scores``)."""
        return np.clip(self.intercept + self.features(scores) @ self.weights, 0.0, 1.0)


def _curves(scores: np.ndarray, y: np.ndarray) -> tuple[list[IsotonicCurve | None], np.ndarray]:
    curves: list[IsotonicCurve | None] = []
    fill = np.full(scores.shape[1], float(y.mean()))
    for j in range(scores.shape[1]):
        seen = ~np.isnan(scores[:, j])
        if seen.sum() < MIN_RATED:
            curves.append(None)
            continue
        curve = fit_isotonic(scores[seen, j], y[seen])
        curves.append(curve)
        fill[j] = float(curve(scores[seen, j]).mean())
    return curves, fill


def fit_predictor(scores: np.ndarray, y: np.ndarray, *, seed: int = 0) -> Predictor:
    """Fit the predictor (module docstring) on rated outputs: ``scores`` (outputs x judges), ``y`` in [0, 1].

    The stacking weights are fitted on the judges' out-of-fold calibrated
    scores (:data:`~regression.core.crossfit.FOLDS` folds, seeded); the
    curves are then refitted on every rated output.

    Examples
    --------
    A judge that orders the ratings and one that is noise:

    >>> rng = np.random.default_rng(0)
    >>> y = rng.random(200)
    >>> scores = np.column_stack([np.exp(3 * y), rng.random(200)])
    >>> predictor = fit_predictor(scores, y)
    >>> bool(predictor.weights[0] > 0.9 and predictor.weights[1] < 0.1)
    True
    """
    curves, fill = _curves(scores, y)
    n = y.size
    if n < 2 * MIN_RATED or scores.shape[1] == 0:
        return Predictor(curves, fill, np.zeros(scores.shape[1]), float(y.mean()))
    fold = fold_of(n, FOLDS, seed)
    out_of_fold = np.empty((n, scores.shape[1]))
    for k in range(int(fold.max()) + 1):
        held = fold == k
        inner, inner_fill = _curves(scores[~held], y[~held])
        out_of_fold[held] = Predictor(inner, inner_fill, np.zeros(scores.shape[1]), 0.0).features(
            scores[held]
        )
    intercept, weights = stack_weights(out_of_fold, y)
    # the stack was fitted on out-of-fold curves; the intercept is refitted to the full curves'
    # features so the fitted mean is the ratings' mean
    full = Predictor(curves, fill, weights, 0.0).features(scores) @ weights
    return Predictor(curves, fill, weights, float(y.mean() - full.mean()))


def predictor_fit(
    scores: np.ndarray, y: np.ndarray, *, seed: int = 0
) -> Callable[[np.ndarray], Callable[[np.ndarray], np.ndarray]]:
    """``fit(train)`` for :func:`~regression.core.crossfit.cross_fit`: the predictor fitted on the
    units at positions ``train`` (rows of ``scores``, ``y`` in [0, 1] there), predicting units by position."""

    def fit(train: np.ndarray) -> Callable[[np.ndarray], np.ndarray]:
        predictor = fit_predictor(scores[train], y[train], seed=seed)
        return lambda at: predictor(scores[at])

    return fit
