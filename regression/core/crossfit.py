"""Cross-fitting a predictor of the human outcome from the judges' outputs.

The prediction-powered estimate stays unbiased only if no unit's prediction
uses that unit's own human outcome (Angelopoulos et al., 2023). Where the
predictor must learn from the target's own outcomes, it is cross-fitted
(cross-prediction, Zrnic & Candes, 2024): the labelled units are split in
folds, each predicted by a fit without its fold, and every other unit by the
mean of the fold fits.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

__all__ = ["FOLDS", "cross_fit", "fold_of"]

#: Folds of a cross-fit.
FOLDS = 5

#: ``fit(train)`` returns a predictor ``predict(positions) -> predictions`` learnt on ``train``.
Fit = Callable[[np.ndarray], Callable[[np.ndarray], np.ndarray]]


def fold_of(n: int, folds: int = FOLDS, seed: int = 0) -> np.ndarray:
    """Each of ``n`` labelled units' fold, ``min(folds, n)`` folds of near-equal size, seeded.

    Examples
    --------
    >>> sorted(fold_of(7, 3).tolist())
    [0, 0, 0, 1, 1, 2, 2]
    """
    return np.random.default_rng(seed).permutation(n) % min(folds, n)


def cross_fit(
    fit: Fit, n_units: int, labelled: np.ndarray, *, folds: int = FOLDS, seed: int = 0
) -> np.ndarray:
    """Predictions on ``n_units`` units, none of a labelled unit from its own outcome.

    Parameters
    ----------
    fit : callable
        ``fit(train)``, ``train`` the positions of the labelled units to learn
        from, returns ``predict(positions)``.
    n_units : int
    labelled : ndarray of int
        Positions of the labelled units (at least one).
    folds : int
        Folds (``min(folds, len(labelled))`` are used).
    seed : int
        Seeds the folds (:func:`fold_of`).

    Returns
    -------
    ndarray, shape (n_units,)
        A labelled unit's out-of-fold prediction; any other unit's mean over the fold fits.

    Examples
    --------
    >>> x = np.arange(6.0)
    >>> def fit(train):
    ...     slope = x[train].mean()
    ...     return lambda at: slope * np.ones(len(at))
    >>> q = cross_fit(fit, 6, np.array([0, 1, 2, 3]), folds=2)
    >>> bool(q[4] == q[5])
    True
    """
    fold = fold_of(labelled.size, folds, seed)
    k = int(fold.max()) + 1
    others = np.ones(n_units, dtype=bool)
    others[labelled] = False
    prediction = np.zeros(n_units)
    for j in range(k):
        held = labelled[fold == j]
        predict = fit(labelled[fold != j])
        prediction[held] = predict(held)
        prediction[others] += predict(np.flatnonzero(others)) / k
    return prediction
