"""Rogan-Gladen correction of a judge's valid-rate, its adjusted interval, and calibration allocation.

Lee et al., *How to Correctly Report LLM-as-a-Judge Evaluations* (final
version): the bias-corrected estimate eq. (7), its delta-method variance
eq. (15) / (24), the adjusted ("add two successes and two failures") interval
eqs. (8)-(12) after Lang and Reiczigel (2014), and Algorithm 1 (App. A) for
splitting a calibration budget between human-valid and human-invalid items.

Every function broadcasts its arguments (scalars or numpy arrays), so a
million settings evaluate in one call; scalar input gives a float (or a pair
of floats), array input an array. Notation: ``p_hat`` = p-hat, the fraction of
test items the judge called valid (eq. 3); ``tpr`` = q1-hat, ``tnr`` = q0-hat
(eq. 5); ``n`` the test size; ``n_pos`` = m1, ``n_neg`` = m0 the calibration
items whose human label is valid / invalid.

A judge no better than chance (J = TPR + TNR - 1 <= 0) does not identify the
prevalence: the estimate is NaN and the interval is [0, 1]; the high-level
layer (:mod:`regression.single_judge.estimators`) adds a warning.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from regression.checks import check_counts, check_positive, check_probability
from regression.intervals import normal_bounds, normal_quantile

__all__ = [
    "allocate_calibration",
    "rg_estimate",
    "rg_from_rates",
    "rg_interval",
    "rg_standard_error",
]


def _out(arr: np.ndarray) -> Any:
    """A 0-d result as a float, anything else as an array."""
    return float(arr) if np.ndim(arr) == 0 else arr


def _ratio(num: np.ndarray, den: np.ndarray, ok: np.ndarray) -> np.ndarray:
    """``num / den`` where ``ok``, NaN elsewhere, without a division warning."""
    return np.divide(num, den, out=np.full(np.broadcast(num, den).shape, np.nan), where=ok)


def rg_estimate(p_hat: Any, tpr: Any, tnr: Any) -> Any:
    """The Rogan-Gladen estimate of the true valid-rate theta, clipped to [0, 1].

    Parameters
    ----------
    p_hat : float or array
        Fraction of test items the judge labelled valid (Lee et al. eq. 3).
    tpr, tnr : float or array
        The judge's sensitivity q1 and specificity q0, estimated on calibration data (eq. 5).

    Returns
    -------
    float or ndarray
        theta-hat = (p_hat + tnr - 1) / (tpr + tnr - 1), clipped to [0, 1];
        NaN where J = tpr + tnr - 1 <= 0 (the judge carries no information).

    Raises
    ------
    ValueError
        If an argument lies outside [0, 1] (the message names it and the value).

    Notes
    -----
    Lee et al. eq. (7) (Rogan and Gladen, 1978). Unbiased when q0, q1 are known
    (eq. 6); with estimated q0, q1 its bias is O(1/m) (Prop. 5.1). It stays
    unbiased under a shift of the test prevalence away from the calibration
    prevalence as long as the judge's behaviour given the true label is the
    same in both (section 8, eq. 18).

    Examples
    --------
    >>> round(rg_estimate(0.66, tpr=0.9, tnr=0.7), 6)
    0.6
    >>> rg_estimate([0.3, 0.9], tpr=0.9, tnr=0.7)
    array([0., 1.])
    """
    p = check_probability("p_hat", p_hat)
    q1 = check_probability("tpr", tpr)
    q0 = check_probability("tnr", tnr)
    return _out(rg_from_rates(p, q1, q0))


def rg_from_rates(p: Any, q1: Any, q0: Any, *, clip: bool = True) -> np.ndarray:
    """Eq. (7) on arrays of rates, for bootstrap and simulation replicates: NaN where undefined.

    Unlike :func:`rg_estimate` it does not check its input: a NaN rate (an
    empty calibration class in a replicate) gives NaN, and so does J <= 0,
    so that whole replicate arrays go through in one call.

    Parameters
    ----------
    p : array
        The judge's valid-rate on the test items.
    q1, q0 : array
        The judge's TPR and TNR.
    clip : bool, keyword-only
        Clip the estimate to [0, 1] (the raw ratio when false).

    Returns
    -------
    ndarray
        (p + q0 - 1) / (q0 + q1 - 1), broadcast.

    Examples
    --------
    >>> rg_from_rates(np.array([0.54, 0.2, np.nan]), 0.9, np.array([0.7, 0.7, 0.7]))
    array([0.4, 0. , nan])
    """
    p, q1, q0 = (np.asarray(v, dtype=float) for v in (p, q1, q0))
    j = q0 + q1 - 1
    with np.errstate(invalid="ignore"):
        ok = j > 0
    theta = _ratio(p + q0 - 1, j, ok)
    return np.clip(theta, 0.0, 1.0) if clip else theta


def rg_standard_error(p_hat: Any, tpr: Any, tnr: Any, n: Any, n_pos: Any, n_neg: Any) -> Any:
    """Delta-method standard error of the Rogan-Gladen estimate, Lee et al. eq. (15).

    Parameters
    ----------
    p_hat, tpr, tnr : float or array
        As in :func:`rg_estimate`.
    n, n_pos, n_neg : float or array
        Test size n, and the calibration class sizes m1 (human valid) and m0 (human invalid).

    Returns
    -------
    float or ndarray
        sqrt(Var(theta-hat)) with Var from eq. (15) (derivation App. B.1,
        eq. 24), evaluated at the unclipped theta-hat; NaN where J <= 0.

    Notes
    -----
    Covers test-set sampling (the p_hat term) and calibration sampling given
    the class sizes m0, m1 (the q0, q1 terms), assumed independent.

    Examples
    --------
    >>> round(rg_standard_error(0.66, 0.9, 0.7, n=1000, n_pos=100, n_neg=100), 4)
    0.0496
    """
    p = check_probability("p_hat", p_hat)
    q1 = check_probability("tpr", tpr)
    q0 = check_probability("tnr", tnr)
    n_arr = check_positive("n", n)
    m1 = check_positive("n_pos", n_pos)
    m0 = check_positive("n_neg", n_neg)
    j = q0 + q1 - 1
    ok = j > 0
    theta = _ratio(p + q0 - 1, j, ok)
    var_num = (
        p * (1 - p) / n_arr + (1 - theta) ** 2 * q0 * (1 - q0) / m0 + theta**2 * q1 * (1 - q1) / m1
    )
    return _out(_ratio(np.sqrt(var_num), j, ok))


def rg_interval(
    p_hat: Any,
    tpr: Any,
    tnr: Any,
    n: Any,
    n_pos: Any,
    n_neg: Any,
    alpha: float = 0.05,
    *,
    alternative: str = "two-sided",
) -> tuple[Any, Any]:
    """The adjusted confidence interval for theta of Lee et al. eqs. (8)-(12), clipped to [0, 1].

    Parameters
    ----------
    p_hat, tpr, tnr : float or array
        The judge's test valid-rate and its estimated sensitivity / specificity.
    n : float or array
        Test-set size (> 0).
    n_pos, n_neg : float or array
        Calibration items whose human label is valid (m1) / invalid (m0); both > 0.
    alpha : float
        1 - confidence level, in (0, 1).
    alternative : {'two-sided', 'less', 'greater'}, keyword-only
        ``'less'`` gives ``(0, upper bound)``, ``'greater'`` ``(lower bound, 1)``,
        each at level 1 - alpha with z = z_{1-alpha}.

    Returns
    -------
    (low, high) : floats or arrays
        Broadcast over all arguments. ``(0, 1)`` where the judge is no better
        than chance (J-hat <= 0, or the adjusted J-tilde <= 0).

    Raises
    ------
    ValueError
        If a rate lies outside [0, 1], a size is <= 0 (m0 = 0 or m1 = 0 is an
        empty calibration class), alpha is outside (0, 1), or ``alternative``
        is unknown.

    Notes
    -----
    With z = z_{1-alpha/2}: n~ = n + z^2, m~_k = m_k + 2 (eq. 9);
    p~ = (n p_hat + z^2/2) / n~, q~_k = (m_k q_k + 1) / m~_k, theta~ the RG
    formula at the adjusted rates (eqs. 10-11); the interval is
    theta~ + d theta~ +/- z * SE~ (eq. 8) with the centre shift d theta~ of
    eq. (12) and SE~ eq. (15) at the adjusted quantities. It covers the
    randomness of the test sample *and* of the calibration sample (given m0,
    m1); Lee et al. Fig. 5(b) reports ~95 % coverage for every theta in
    {0, 0.05, ..., 1} at (q0, q1) = (0.7, 0.9), n = 1000, m0 = m1 = 100
    (reproduced by :func:`regression.single_judge.simulate.coverage_study`). The code
    follows the authors' reference implementation (App. C, Fig. 8).

    Examples
    --------
    >>> low, high = rg_interval(0.66, tpr=0.9, tnr=0.7, n=1000, n_pos=100, n_neg=100)
    >>> round(low, 4), round(high, 4)
    (0.5028, 0.7019)
    >>> low, high = rg_interval([0.3, 0.66], 0.9, 0.7, 1000, [100, 50], 100)
    >>> low.shape
    (2,)
    """
    z = normal_quantile(alpha, alternative)
    p = check_probability("p_hat", p_hat)
    q1 = check_probability("tpr", tpr)
    q0 = check_probability("tnr", tnr)
    n_arr = check_positive("n", n)
    m1 = check_positive("n_pos", n_pos)
    m0 = check_positive("n_neg", n_neg)

    z2 = z * z
    n_t, m0_t, m1_t = n_arr + z2, m0 + 2, m1 + 2  # eq. (9)
    p_t = (n_arr * p + z2 / 2) / n_t  # eq. (10)
    q0_t = (m0 * q0 + 1) / m0_t
    q1_t = (m1 * q1 + 1) / m1_t  # eq. (11)
    j_t = q0_t + q1_t - 1
    ok = (j_t > 0) & (q0 + q1 - 1 > 0)
    j_safe = np.where(ok, j_t, 1.0)
    theta_t = (p_t + q0_t - 1) / j_safe
    v0 = q0_t * (1 - q0_t) / m0_t
    v1 = q1_t * (1 - q1_t) / m1_t
    shift = 2 * z2 * (-(1 - theta_t) * v0 + theta_t * v1)  # eq. (12)
    se = np.sqrt(p_t * (1 - p_t) / n_t + (1 - theta_t) ** 2 * v0 + theta_t**2 * v1) / j_safe
    low, high = normal_bounds(theta_t + shift, se, alpha, alternative)  # eq. (8), clipped
    low = np.where(ok, low, 0.0)
    high = np.where(ok, high, 1.0)
    return _out(low), _out(high)


def allocate_calibration(
    budget: Any, p_hat: Any, m_pilot: Any, pilot_pos_correct: Any, pilot_neg_correct: Any
) -> tuple[Any, Any]:
    """Split a calibration budget between human-invalid and human-valid items: Lee et al. Algorithm 1.

    Parameters
    ----------
    budget : int or array
        Total calibration size m (including the 2 * m_pilot pilot items).
    p_hat : float or array
        The judge's valid-rate on the test set.
    m_pilot : int or array
        Pilot items per class (>= 1, with 2 * m_pilot <= budget).
    pilot_pos_correct : int or array
        Of the m_pilot human-valid pilot items, how many the judge called valid.
    pilot_neg_correct : int or array
        Of the m_pilot human-invalid pilot items, how many the judge called invalid.

    Returns
    -------
    (n_neg, n_pos) : ints or int arrays
        The class sizes (m0, m1), pilot items included, with m0 + m1 = budget and
        each at least m_pilot.

    Raises
    ------
    ValueError
        If a count is not a whole number >= 0, m_pilot < 1, 2 * m_pilot > budget,
        a pilot count exceeds m_pilot, or p_hat lies outside [0, 1].

    Notes
    -----
    App. A, Algorithm 1: q~0 = (pilot_neg_correct + 1) / (m_pilot + 2), likewise
    q~1; kappa = (1 - q~0) / (1 - q~1); m1* = round(m / (1 + (1/p_hat - 1)
    sqrt(kappa))), computed as m p_hat / (p_hat + (1 - p_hat) sqrt(kappa)) so
    that p_hat = 0 is allowed; m1 = min(max(m1*, m_pilot), m - m_pilot),
    m0 = m - m1. It approximately minimises the interval length of eq. (8)
    (Prop. 5.2). ``round`` is numpy's round-half-to-even, as Python's ``round``.

    Examples
    --------
    >>> allocate_calibration(200, p_hat=0.3, m_pilot=10, pilot_pos_correct=9, pilot_neg_correct=7)
    (153, 47)
    """
    m = check_counts("budget", budget)
    p = check_probability("p_hat", p_hat)
    mp = check_counts("m_pilot", m_pilot)
    pos = check_counts("pilot_pos_correct", pilot_pos_correct)
    neg = check_counts("pilot_neg_correct", pilot_neg_correct)
    if np.any(mp < 1):
        raise ValueError(f"m_pilot must be at least 1; got {mp[mp < 1].ravel()[0].item()!r}.")
    m, p, mp, pos, neg = np.broadcast_arrays(m, p, mp, pos, neg)
    if np.any(2 * mp > m):
        i = np.flatnonzero(2 * mp > m)[0]
        raise ValueError(
            f"2 * m_pilot ({2 * mp.ravel()[i]}) must not exceed the budget ({m.ravel()[i]})."
        )
    for name, arr in (("pilot_pos_correct", pos), ("pilot_neg_correct", neg)):
        if np.any(arr > mp):
            i = np.flatnonzero(arr > mp)[0]
            raise ValueError(
                f"{name} ({arr.ravel()[i]}) must not be greater than m_pilot ({mp.ravel()[i]})."
            )
    q0_t = (neg + 1) / (mp + 2)
    q1_t = (pos + 1) / (mp + 2)
    kappa = (1 - q0_t) / (1 - q1_t)
    m1_star = np.rint(m * p / (p + (1 - p) * np.sqrt(kappa)))
    m1 = np.minimum(np.maximum(m1_star, mp), m - mp).astype(np.int64)
    m0 = (m - m1).astype(np.int64)
    if m0.ndim == 0:
        return int(m0), int(m1)
    return m0, m1
