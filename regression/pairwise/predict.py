"""Predicting a battle's human verdict from the judges' verdicts and the order they saw.

Each judge gives a battle two features: its verdicts for the answer shown
first and for the answer shown second, each +1 when that answer is
generator_a's, -1 when it is generator_b's, 0 for a tie or no verdict. A
judge that favours the first answer shown says little when it picks the first
and much when it picks the second; the two features let the fit weigh those
apart. Both features change sign when the battle is read the other way round
(generator_a and generator_b swapped), and the fit has no intercept, so the
prediction of generator_b's score is exactly 1 minus that of generator_a's:
which generator a table lists first changes nothing.

The fit is a ridge least-squares regression of the human score of
generator_a minus 1/2 on the features, cross-fitted over the voted battles
(the engine's :func:`regression.core.crossfit.cross_fit`; cross-prediction,
Zrnic & Candes, 2024): a voted battle is predicted by a fit
without its fold, an unvoted one by the mean of the fold fits, so no
prediction uses the battle's own vote.

The Bradley-Terry-Davidson fit needs a distribution over the three verdicts
``{a, tie, b}``, not only the expected score. The expected score ``s`` gives
``P(a) - P(b) = 2 s - 1``; the chance of a tie ``t`` is a second ridge
regression, on each judge's ties (one feature per judge and position: 1 for a
tie) with an intercept, cross-fitted on the same folds. Ties read the same
either way round, so ``t`` does not depend on the orientation either. ``t`` is
clipped to ``[0, 2 min(s, 1 - s)]`` so that ``P(a) = s - t / 2`` and ``P(b) =
1 - s - t / 2`` are not negative (:func:`predict_verdicts`).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from regression.core import crossfit
from regression.pairwise.table import PairwiseTable

__all__ = ["RIDGE", "cross_fit", "judge_features", "predict_verdicts", "tie_features"]

#: Penalty on the squared coefficients, in voted battles.
RIDGE = 1.0


def judge_features(table: PairwiseTable) -> np.ndarray:
    """``(n_battles, 2 * n_validators)``: per judge, its verdict for the answer shown first, then
    for the answer shown second (+1 generator_a's, -1 generator_b's, 0 tie or none).

    Examples
    --------
    >>> import pandas as pd
    >>> from regression.pairwise import check_pairwise
    >>> verdicts = pd.DataFrame({"item": [1, 1], "generator_a": "x", "generator_b": "y",
    ...                          "validator": "j", "verdict": ["a", "a"], "position": ["ab", "ba"]})
    >>> judge_features(check_pairwise(verdicts)).tolist()  # a when shown first, and when second
    [[1.0, 1.0]]
    """
    sign = np.where(table.score == 1.0, 1.0, np.where(table.score == 0.0, -1.0, 0.0))
    a_first = table.position == 0
    # the winner was shown first when a won shown first or b won shown first
    first_won = np.where(sign > 0, a_first, ~a_first)
    column = 2 * table.validator + np.where(first_won, 0, 1)
    x = np.zeros((table.n_battles, 2 * len(table.validators)))
    decided = sign != 0
    np.add.at(x, (table.battle[decided], column[decided]), sign[decided])
    return x


def tie_features(table: PairwiseTable) -> np.ndarray:
    """``(n_battles, 2 * n_validators)``: per judge, 1 where it called the battle a tie when
    generator_a's answer was shown first, then when it was shown second.

    Examples
    --------
    >>> import pandas as pd
    >>> from regression.pairwise import check_pairwise
    >>> verdicts = pd.DataFrame({"item": [1, 1], "generator_a": "x", "generator_b": "y",
    ...                          "validator": "j", "verdict": ["tie", "a"], "position": ["ab", "ba"]})
    >>> tie_features(check_pairwise(verdicts)).tolist()
    [[1.0, 0.0]]
    """
    x = np.zeros((table.n_battles, 2 * len(table.validators)))
    tie = table.score == 0.5
    column = 2 * table.validator + table.position
    np.add.at(x, (table.battle[tie], column[tie]), 1.0)
    return x


def _ridge(x: np.ndarray, y: np.ndarray, ridge: float, centre: float) -> np.ndarray:
    gram = x.T @ x + ridge * np.eye(x.shape[1])
    return np.linalg.solve(gram, x.T @ (y - centre))


def cross_fit(
    x: np.ndarray,
    human: np.ndarray,
    *,
    seed: int = 0,
    ridge: float = RIDGE,
    intercept: bool = False,
) -> np.ndarray:
    """Each battle's predicted human score of generator_a, none from the battle's own vote.

    Parameters
    ----------
    x : ndarray, shape (n_battles, n_features)
        :func:`judge_features`.
    human : ndarray, shape (n_battles,)
        The human score of generator_a (1, 0.5, 0), NaN where unvoted.
    seed : int
        Seeds the folds.
    ridge : float
        The penalty.
    intercept : bool
        False: no intercept, the fit centred at 1/2 (a score, antisymmetric in
        the orientation); True: centred at the mean of each fold's training
        votes (a tie rate).

    Returns
    -------
    ndarray
        Predictions in [0, 1]; 1/2 (with ``intercept``, the voted mean) everywhere when
        fewer than two battles are voted.

    Examples
    --------
    >>> x = np.array([[1.0], [-1.0], [1.0], [-1.0], [1.0]])
    >>> q = cross_fit(x, np.array([1.0, 0.0, 1.0, 0.0, np.nan]), seed=0)
    >>> bool(q[4] > 0.5)
    True
    """
    voted = np.flatnonzero(~np.isnan(human))
    if voted.size < 2:
        centre = float(np.mean(human[voted])) if intercept and voted.size else 0.5
        return np.full(len(x), centre)

    def fit(train: np.ndarray) -> Callable[[np.ndarray], np.ndarray]:
        centre = float(np.mean(human[train])) if intercept else 0.5
        beta = _ridge(x[train], human[train], ridge, centre)
        return lambda at: centre + x[at] @ beta

    return np.clip(crossfit.cross_fit(fit, len(x), voted, seed=seed), 0.0, 1.0)


def predict_verdicts(
    table: PairwiseTable, *, seed: int = 0, ridge: float = RIDGE
) -> tuple[np.ndarray, np.ndarray]:
    """Each battle's predicted human verdict as ``(score, tie)``: the expected score of
    generator_a and the chance of a tie, cross-fitted on the same folds (module docstring).

    ``P(a) = score - tie / 2``, ``P(b) = 1 - score - tie / 2``.

    Examples
    --------
    >>> import pandas as pd
    >>> from regression.pairwise import check_pairwise
    >>> verdicts = pd.DataFrame({"item": range(6), "generator_a": "x", "generator_b": "y",
    ...                          "validator": "j", "verdict": ["a", "tie", "b"] * 2})
    >>> human = verdicts[["item", "generator_a", "generator_b"]].assign(
    ...     human=["a", "tie", "b", "a", "tie", "b"])
    >>> score, tie = predict_verdicts(check_pairwise(verdicts, human))
    >>> bool(tie[1] > tie[0]) and bool(score[0] > score[2])
    True
    """
    human_tie = np.where(np.isnan(table.human), np.nan, table.human == 0.5)
    score = cross_fit(judge_features(table), table.human, seed=seed, ridge=ridge)
    tie = cross_fit(tie_features(table), human_tie, seed=seed, ridge=ridge, intercept=True)
    return score, np.minimum(tie, 2.0 * np.minimum(score, 1.0 - score))
