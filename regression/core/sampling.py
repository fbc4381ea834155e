"""Sampling designs: who is drawn for a human label, with which probability, and what a draw weighs.

A unit (an item, a battle) is drawn for a human outcome independently with a
known inclusion probability ``pi`` (uniform: ``n / N``). The drawn sample's
mean of a target is the Hajek mean, weights ``w = 1 / pi``; its linearised
design variance weighs each unit by ``c = (1 - pi) / pi^2`` (Poisson
sampling; Sarndal, Swensson & Wretman, 1992, *Model Assisted Survey
Sampling*, ch. 5). The active design draws where the judges' prediction is
least sure (Zrnic & Candes, 2024, *Active Statistical Inference*: ``pi`` in
proportion to the residual's standard deviation), mixed with the uniform
design so that no unit falls below half its uniform chance (a defensive
mixture, Hesterberg, 1995: :func:`active_probabilities`); the systematic pi-ps draw
realises any ``pi`` with a fixed sample size (Madow, 1949).
"""

from __future__ import annotations

import numpy as np

from regression.errors import JurycalWarning

__all__ = [
    "DEFENSIVE_SHARE",
    "REACH_LEVEL",
    "REACH_Z",
    "BudgetWarning",
    "active_probabilities",
    "capped_proportional",
    "count_short",
    "design_probabilities",
    "design_variance",
    "design_weights",
    "hajek_mean",
    "systematic_sample",
]

#: The uniform design's share of every active design (the defensive mixture's ``eps``).
DEFENSIVE_SHARE = 0.5


#: How many standard deviations a sample's Horvitz-Thompson count of its population may fall
#: short before the draw is said not to be the design its probabilities describe (the normal
#: quantile of 0.999), and that level.
REACH_Z = 3.090232306167813
REACH_LEVEL = 0.001


def count_short(
    units: np.ndarray | float,
    stand_for: np.ndarray | float,
    held: np.ndarray | float,
    largest_odds: np.ndarray | float,
) -> np.ndarray:
    """Where a sample's Horvitz-Thompson count falls short of its population beyond chance.

    ``stand_for = sum 1 / pi`` over the sampled units is unbiased for the
    ``units`` of the population under any design that gives each of them
    ``pi > 0`` (Sarndal, Swensson & Wretman, 1992, ch. 2-3), with variance
    ``sum (1 - pi) / pi`` over the units not held for sure, taken as their
    number times ``largest_odds``, the largest ``(1 - pi) / pi`` of the sample:
    short by more than :data:`REACH_Z` of those standard deviations, the units
    the sample stands for are not its population (some could not be drawn, or
    the draw's units were not all labelled). A sample of none is not short
    (too few says why).

    Examples
    --------
    >>> count_short(1000, [1000.0, 102.0, 900.0], 0, 33.0).tolist()  # 3 of a batch of 30 labelled
    [False, True, False]
    """
    spread = np.sqrt(np.clip(np.asarray(units, float) - held, 0.0, None) * largest_odds)
    stand_for = np.asarray(stand_for, dtype=float)
    # a sum of 1 / pi rounds by far less than 1e-6
    return (stand_for > 0) & (np.asarray(units, float) - stand_for > REACH_Z * spread + 1e-6)


class BudgetWarning(JurycalWarning):
    """The budget is more than the unlabelled units left: every one of them is suggested."""


def capped_proportional(size: np.ndarray, n: int) -> np.ndarray:
    """Inclusion probabilities summing to ``n``, proportional to ``size``, each capped at 1.

    The units whose share would pass 1 are held for sure and the rest of
    ``n`` is shared out again among the others, until none passes 1; where
    the units left have no size at all, the rest is shared out evenly among
    them.

    Examples
    --------
    >>> capped_proportional(np.array([4.0, 1.0, 1.0, 0.0]), 2).tolist()
    [1.0, 0.5, 0.5, 0.0]
    >>> capped_proportional(np.array([1.0, 0.0, 0.0]), 2).tolist()
    [1.0, 0.5, 0.5]
    """
    size = np.clip(np.asarray(size, dtype=float), 0.0, None)
    n = min(int(n), size.size)
    capped = np.zeros(size.size, dtype=bool)
    pi = np.zeros_like(size)
    for _ in range(size.size + 1):
        if capped.all():  # every unit held for sure: no weight left to share (0 / 0)
            break
        free = n - int(capped.sum())
        left = float(size[~capped].sum())
        share = size / left if left > 0 else np.full(size.size, 1.0 / max((~capped).sum(), 1))
        pi = np.where(capped, 1.0, free * share)
        over = (pi > 1.0) & ~capped
        if not over.any():
            break
        capped |= over
    return np.minimum(pi, 1.0)


def active_probabilities(q: np.ndarray, n: int, share: float = DEFENSIVE_SHARE) -> np.ndarray:
    """Inclusion probabilities summing to ``n``: the active design mixed with the uniform one.

    ``pi = (1 - eps) pi_active + eps n / N`` with ``eps = share``:
    ``pi_active`` proportional to ``sqrt(q (1 - q))`` (capped at 1 by
    :func:`capped_proportional`), ``q`` the predicted chance of the outcome 1,
    so ``sqrt(q (1 - q))`` is the standard deviation of a calibrated
    prediction's residual (Zrnic & Candes, 2024, the active optimum). Both
    parts sum to ``n`` and lie in [0, 1], so the mixture does too.

    Notes
    -----
    The uniform part is a defensive mixture (Hesterberg, 1995, *Weighted
    average importance sampling and defensive mixture distributions*,
    Technometrics 37(2), section 2): every unit keeps at least ``eps`` of its
    uniform chance, ``pi >= eps n / N``, so no unit's weight ``1 / pi`` is
    more than ``1 / eps`` times the uniform weight ``N / n``, and the design
    variance ``sum_u (1 - pi_u) / pi_u v_u`` is at most ``1 / eps`` times the
    uniform design's ``sum_u v_u N / n``, whatever the residuals ``v_u``.
    That bound is what the active optimum lacks: it is optimal only if the
    predictor is calibrated, and judges that are confidently wrong together
    (a blind spot: ``q`` near 0 or 1 on items whose label is the other one)
    get a chance near 0 of being drawn, so a sample of a few labels almost
    never shows them and its variance estimate collapses. The mixture also
    keeps ``pi >= (1 - eps) pi_active``, at most ``1 / (1 - eps)`` times the
    active design's variance where the predictor is calibrated. ``eps = 1/2``
    makes the worse of the two bounds, ``max(1 / eps, 1 / (1 - eps)) = 2``,
    the least it can be.

    Examples
    --------
    >>> pi = active_probabilities(np.array([0.5, 0.5, 0.99, 0.99]), 2)
    >>> round(float(pi.sum()), 6), bool(pi[0] > pi[2] >= 0.5 * 2 / 4)
    (2.0, True)
    """
    if not 0 < share <= 1:
        raise ValueError(f"share must be in (0, 1]; got {share!r}.")
    q = np.asarray(q, dtype=float)
    n = min(int(n), q.size)
    uniform = np.full(q.size, n / max(q.size, 1))
    size = np.sqrt(np.clip(q * (1 - q), 0.0, None))
    active = capped_proportional(size, n) if size.max(initial=0.0) > 0 else uniform
    return np.minimum((1.0 - share) * active + share * uniform, 1.0)


def design_probabilities(q: np.ndarray, n: int, design: str) -> np.ndarray:
    """Every unit's inclusion probability in a draw of ``n``: ``"uniform"`` or ``"active"``.

    ``n / N`` each, or :func:`active_probabilities` of the predictions ``q``;
    every unit for sure where ``n`` reaches ``N``.

    Examples
    --------
    >>> design_probabilities(np.array([0.5, 0.9, 0.99, 0.2]), 2, "uniform").tolist()
    [0.5, 0.5, 0.5, 0.5]
    """
    q = np.asarray(q, dtype=float)
    if n >= q.size:
        return np.ones(q.size)
    if design == "active":
        return active_probabilities(q, n)
    return np.full(q.size, n / q.size)


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
