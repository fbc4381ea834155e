"""The linearised joint error of several targets estimated from one drawn sample of units.

A unit may count for several targets: a pairwise battle counts for both its
generators, with opposite signs (their scores sum to 1). Linearising each
target's Hajek mean, ``theta_g - truth_g ~ (1 / N_g) sum_{u in g} (I_u / pi_u
- 1) (r_gu - mean r_g)`` with ``r`` the residual ``y - lam f`` and ``I_u``
whether unit ``u`` was drawn; under independent draws the covariance of
targets ``g`` and ``h`` is estimated by ``sum_{drawn u in g and h} (1 - pi_u)
/ pi_u^2 (r_gu - m_g)(r_hu - m_h) / (N_g N_h)`` (Sarndal, Swensson & Wretman,
1992, ch. 5, the Horvitz-Thompson variance of a linearised statistic), each
target's terms scaled by :func:`dof_scale` for the parameters estimated from
its drawn units.
"""

from __future__ import annotations

import numpy as np

from regression.core.sampling import design_weights

__all__ = ["design_covariance", "dof_scale", "joint_covariance", "linearised_terms"]


def dof_scale(n: float, parameters: int = 1, tuned: bool = False) -> float:
    """``n / (n - parameters - [tuned])``: the Bessel correction for the parameters (and ``lam``).

    NaN where ``n`` leaves no degree of freedom.

    Examples
    --------
    >>> dof_scale(10), dof_scale(10, 1, tuned=True), dof_scale(2, 2)  # exact: one division
    (1.1111111111111112, 1.25, nan)
    """
    left = n - parameters - (1.0 if tuned else 0.0)
    return float(n / left) if left > 0 else float("nan")


def linearised_terms(
    residuals: np.ndarray, weights: np.ndarray, population_size: float, scale: float = 1.0
) -> np.ndarray:
    """Each drawn unit's term of a target's linearised error: ``sqrt(scale (1 - pi)) / pi (r - m) / N``.

    ``weights`` are the drawn units' ``w = 1 / pi``; ``m`` is the Hajek mean of
    the residuals; ``scale`` the target's :func:`dof_scale`. Summing the outer
    products of these terms over units gives the design covariance
    (:func:`joint_covariance`).

    Examples
    --------
    >>> linearised_terms(np.array([1.0, 0.0]), np.array([2.0, 2.0]), 4).round(4).tolist()
    [0.1768, -0.1768]
    """
    w = np.asarray(weights, dtype=float)
    pi = 1.0 / w
    m = np.sum(w * residuals) / np.sum(w)
    return np.sqrt(scale * (1.0 - pi)) / pi * (residuals - m) / population_size


def joint_covariance(terms: np.ndarray) -> np.ndarray:
    """``Phi' Phi``: the joint design covariance of the targets (columns) from their units' terms (rows).

    A unit that counts for two targets puts its terms in both columns, so their
    errors' covariance comes out of the same sum.

    Examples
    --------
    >>> joint_covariance(np.array([[0.1, -0.1], [0.2, 0.0]])).round(3).tolist()
    [[0.05, -0.01], [-0.01, 0.01]]
    """
    return terms.T @ terms


def design_covariance(z: np.ndarray, y: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """``sum_u c_u (z_u - zbar)(y_u - ybar)'`` over drawn units: the design cross-moment of two
    vector statistics, Hajek means (``weights = 1 / pi``), ``c = (1 - pi) / pi^2``.

    The matrix form of :func:`~regression.core.tuning.design_moments`, for an
    M-estimator's per-unit gradients (rows: units, columns: parameters).

    Examples
    --------
    >>> z = np.array([[1.0], [0.0]])
    >>> design_covariance(z, z, np.array([2.0, 2.0])).tolist()
    [[1.0]]
    """
    zc = z - np.average(z, axis=0, weights=weights)
    yc = y - np.average(y, axis=0, weights=weights)
    return (zc * design_weights(1.0 / weights)[:, None]).T @ yc
