"""Predicting an item's human label from all the judges' votes, never from its own label.

The predictor is a ridge-penalised logistic regression of the human label on
the item's votes (one feature per validator: +1 valid, -1 invalid, 0 no vote).
For a partially labelled generator it is fitted on the labelled items of the
*other* generators, so its predictions on this generator's items do not depend
on this generator's labels and the prediction-powered estimate stays unbiased
(prediction-powered inference, Angelopoulos et al., 2023). Where the other
generators hold too few labels of either class, this generator's own labels
join by cross-fitting (cross-prediction, Zrnic & Candes, 2024): each labelled
item is predicted by a fit without its fold, the unlabelled items by the mean
of the fold fits.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from regression.core.crossfit import cross_fit
from regression.labels.design import LabelDesign

__all__ = [
    "MIN_PER_CLASS",
    "RIDGE",
    "fit_logistic",
    "predict_generator",
    "predict_logistic",
]

#: Penalty on the squared coefficients (not the intercept), per labelled item.
RIDGE = 1.0
#: Labels of each class the other generators must hold for a fit on them alone.
MIN_PER_CLASS = 20


def fit_logistic(
    x: np.ndarray, y: np.ndarray, *, ridge: float = RIDGE, max_iter: int = 50
) -> np.ndarray:
    """Ridge logistic regression by Newton's method; returns ``[intercept, coefficients...]``.

    A sample of one class gets a finite fit (the penalty and a half pseudo-label
    of each class keep the intercept finite).

    Examples
    --------
    >>> x = np.array([[1.0], [1.0], [-1.0], [-1.0], [1.0], [-1.0]])
    >>> y = np.array([1.0, 1.0, 0.0, 0.0, 1.0, 1.0])
    >>> beta = fit_logistic(x, y)
    >>> bool(beta[1] > 0)
    True
    """
    design = np.column_stack([np.ones(len(x)), x])
    # half a pseudo-label of each class at the mean votes keeps the intercept finite
    centre = np.concatenate([[1.0], x.mean(axis=0) if len(x) else np.zeros(x.shape[1])])
    design = np.vstack([design, centre, centre])
    target = np.concatenate([y, [1.0, 0.0]])
    weight = np.concatenate([np.ones(len(y)), [0.5, 0.5]])
    penalty = np.full(design.shape[1], ridge)
    penalty[0] = 0.0
    beta = np.zeros(design.shape[1])
    for _ in range(max_iter):
        eta = np.clip(design @ beta, -30, 30)
        mu = 1.0 / (1.0 + np.exp(-eta))
        grad = design.T @ (weight * (target - mu)) - penalty * beta
        hess = (design * (weight * mu * (1 - mu))[:, None]).T @ design + np.diag(penalty) + 1e-9
        step = np.linalg.solve(hess, grad)
        beta = beta + step
        if np.max(np.abs(step)) < 1e-8:
            break
    return beta


def predict_logistic(beta: np.ndarray, x: np.ndarray) -> np.ndarray:
    """P(human label = 1 | votes) under :func:`fit_logistic`'s coefficients."""
    eta = np.clip(beta[0] + x @ beta[1:], -30, 30)
    return 1.0 / (1.0 + np.exp(-eta))


def predict_generator(
    design: LabelDesign, generator: str, *, seed: int = 0
) -> tuple[np.ndarray, np.ndarray, str]:
    """Predictions of the human label on a generator's items, none from the item's own label.

    Parameters
    ----------
    design : LabelDesign
    generator : str
    seed : int
        Seeds the folds of the cross-fit (used only when the other generators
        hold too few labels).

    Returns
    -------
    (ndarray, ndarray, str)
        ``q`` (one prediction per item of the generator, in :meth:`LabelDesign.rows`
        order; for a labelled item its out-of-fold prediction), the positions of
        the labelled items among them, and how the predictor was fitted
        (``"other generators"`` or ``"cross-fitted"``).
    """
    rows = design.rows(generator)
    human = design.items["human"].to_numpy(dtype=float)
    others = np.flatnonzero((design.items["generator"] != generator).to_numpy() & ~np.isnan(human))
    x_pool, y_pool = design.votes[others], human[others]
    x, y = design.votes[rows], human[rows]
    labelled = np.flatnonzero(~np.isnan(y))
    if min(y_pool.sum(), (1 - y_pool).sum()) >= MIN_PER_CLASS or labelled.size < 2:
        return predict_logistic(fit_logistic(x_pool, y_pool), x), labelled, "other generators"

    def fit(train: np.ndarray) -> Callable[[np.ndarray], np.ndarray]:
        beta = fit_logistic(np.vstack([x_pool, x[train]]), np.concatenate([y_pool, y[train]]))
        return lambda at: predict_logistic(beta, x[at])

    q = cross_fit(fit, len(rows), labelled, seed=seed)
    return q, labelled, "cross-fitted"
