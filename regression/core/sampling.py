"""Sampling designs: who is drawn for a human label, with which probability, and what a draw weighs.

A unit (an item, a battle) is drawn for a human outcome independently with a
known inclusion probability ``pi`` (uniform: ``n / N``). The drawn sample's
mean of a target is the Hajek mean, weights ``w = 1 / pi``; its linearised
design variance weighs each unit by ``c = (1 - pi) / pi^2`` (Poisson
sampling; Sarndal, Swensson & Wretman, 1992, *Model Assisted Survey
Sampling*, ch. 5). The active design draws where the judges' prediction is
least sure (Zrnic & Candes, 2024, *Active Statistical Inference*: ``pi`` in
proportion to the residual's standard deviation); the systematic pi-ps draw
realises any ``pi`` with a fixed sample size (Madow, 1949).
"""

from __future__ import annotations

import numpy as np

from regression.errors import JurycalWarning

__all__ = [
    "ACTIVE_FLOOR",
    "BudgetWarning",
    "active_probabilities",
    "design_variance",
    "design_weights",
    "hajek_mean",
    "systematic_sample",
]

#: Every unit's share of the active weights is at least this fraction of the mean weight.
ACTIVE_FLOOR = 0.2


class BudgetWarning(JurycalWarning):
    """The budget is more than the unlabelled units left: every one of them is suggested."""


def active_probabilities(q: np.ndarray, n: int, floor: float = ACTIVE_FLOOR) -> np.ndarray:
    """Inclusion probabilities summing to ``n``, proportional to ``sqrt(q(1 - q)) + floor * mean``, capped at 1.

    ``q`` is the predicted chance of the outcome 1, so ``sqrt(q (1 - q))`` is
    the standard deviation of a calibrated prediction's residual (Zrnic &
    Candes, 2024, the active optimum); the floor keeps every unit drawable.

    Examples
    --------
    >>> pi = active_probabilities(np.array([0.5, 0.5, 0.99, 0.99]), 2)
    >>> round(float(pi.sum()), 6), bool(pi[0] > pi[2] > 0)
    (2.0, True)
    """
    q = np.asarray(q, dtype=float)
    size = np.sqrt(np.clip(q * (1 - q), 0.0, None))
    size = size + floor * max(float(size.mean()), 1e-6)
    pi = np.zeros_like(size)
    capped = np.zeros(size.size, dtype=bool)
    n = min(int(n), size.size)
    for _ in range(size.size + 1):
        if capped.all():  # every unit held for sure: no weight left to share (0 / 0)
            break
        free = n - capped.sum()
        pi = np.where(capped, 1.0, free * size / size[~capped].sum())
        over = (pi > 1.0) & ~capped
        if not over.any():
            break
        capped |= over
    return np.minimum(pi, 1.0)


def systematic_sample(pi: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Positions drawn by systematic pi-ps sampling on a random order: exactly ``round(sum(pi))`` units.

    Every unit is drawn with probability exactly ``pi_i`` (Madow, 1949).

    Examples
    --------
    >>> picks = systematic_sample(np.array([0.5, 0.5, 1.0, 0.25, 0.75]), np.random.default_rng(0))
    >>> len(picks), 2 in picks
    (3, True)
    """
    order = rng.permutation(pi.size)
    edges = np.concatenate([[0.0], np.cumsum(pi[order])])
    points = rng.random() + np.arange(int(np.floor(edges[-1] + 1e-9)))
    hit = np.searchsorted(edges, points, side="right") - 1
    return np.sort(order[np.clip(hit, 0, pi.size - 1)])


def design_weights(probability: np.ndarray) -> np.ndarray:
    """``c = (1 - pi) / pi^2``: each drawn unit's weight in the linearised design variance.

    A unit drawn for sure (``pi = 1``) adds no sampling error: ``c = 0``.

    Examples
    --------
    >>> design_weights(np.array([0.5, 1.0])).tolist()
    [2.0, 0.0]
    """
    pi = np.asarray(probability, dtype=float)
    return (1.0 - pi) / pi**2


def hajek_mean(values: np.ndarray, weights: np.ndarray) -> float:
    """The Hajek mean ``sum w y / sum w`` of a drawn sample, ``w = 1 / pi``.

    Examples
    --------
    >>> hajek_mean(np.array([1.0, 0.0]), np.array([3.0, 1.0]))
    0.75
    """
    w = np.asarray(weights, dtype=float)
    return float(np.sum(w * np.asarray(values, dtype=float)) / np.sum(w))


def design_variance(variance: np.ndarray, probability: np.ndarray) -> float:
    """``sum_u (1 - pi_u) / pi_u v_u``: the Poisson-sampling variance of a total, planned.

    The expectation over the draw of the linearised design variance, each unit
    ``u`` with residual variance ``v_u``: what a design of probabilities ``pi``
    is predicted to give before any unit is drawn.

    Examples
    --------
    >>> design_variance(np.array([0.25, 0.25]), np.array([0.5, 1.0]))
    0.25
    """
    pi = np.asarray(probability, dtype=float)
    return float(np.sum((1.0 - pi) / pi * np.asarray(variance, dtype=float)))
