"""Combining an unbiased estimate with one whose bias is bounded: the bias-aware interval.

The labels and votes give ``P``, unbiased under the label design, with variance
``V``. The transfer estimate ``T`` from the other generators has standard
deviation ``sd_T`` and an unknown bias ``b`` for the new generator. Given a
bound ``|b| <= B`` (the user's assumption), the combination ``(1 - w) P + w T``
has standard deviation ``s(w) = sqrt((1 - w)^2 V + w^2 sd_T^2)`` (``P`` and
``T`` rest on different labels; the votes are fixed, the design is the draw of
labelled items) and worst-case bias ``w B``. Its fixed-length interval is

    (1 - w) P + w T  +-  cva_alpha(w B / s(w)) s(w),

with ``cva_alpha(t)`` the ``1 - alpha`` quantile of ``|N(t, 1)|`` (Armstrong &
Kolesar, 2020, *Simple and honest confidence intervals in nonparametric
regression*, QE, section 2, eq. (7); Armstrong & Kolesar, 2018, Econometrica,
section 3), which covers for every ``|b| <= B``
(:func:`~regression.labels.partial.bias_aware_bounds` inverts it in score
form, ``P``'s variance at each candidate precision). ``w`` minimises that
half-width and depends on ``V``, ``sd_T`` and ``B`` only, never on ``T - P``:
no pre-test, so the guarantee holds whatever the draw (the pre-test estimator
that weighs ``T`` by its agreement with ``P`` has no such guarantee).

Without a bound, an interval valid for every bias cannot be much shorter at
``b = 0`` than the one that ignores ``T`` (Armstrong & Kolesar, 2018, section 4;
Armstrong, Kline & Sun, 2025, *Adapting to misspecification*): the default
gives ``T`` no weight.

:func:`held_out_bound` derives ``B`` from the transfer's own held-out errors on
the calibration generators (the option ``transfer_bias="held-out"``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import special

from regression.errors import JurycalWarning
from regression.intervals import normal_quantile
from regression.labels.design import LabelDesign

__all__ = [
    "CONTRADICTION_LEVEL",
    "HELD_OUT",
    "WEIGHT_GRID",
    "BiasAwareWeight",
    "TransferBiasWarning",
    "bias_aware_weight",
    "bias_bound",
    "check_transfer_bias",
    "critical_value",
    "held_out_bound",
    "transfer_contradicted",
]

#: The option that derives the bias bound from the transfer's held-out errors.
HELD_OUT = "held-out"

#: The level of the test of the labels against the transfer within its bias bound.
CONTRADICTION_LEVEL = 0.05


class TransferBiasWarning(JurycalWarning):
    """A generator's labels contradict the transfer estimate beyond the assumed bias bound."""


#: Candidate weights on the transfer estimate (the half-width is minimised over them).
WEIGHT_GRID = np.linspace(0.0, 1.0, 101)


def check_transfer_bias(transfer_bias: object) -> float | str | None:
    """``None``, ``"held-out"`` or a bound in [0, 1] (a fraction: 0.05 is 5 points), else ``ValueError``.

    Examples
    --------
    >>> check_transfer_bias(0.05), check_transfer_bias("held-out"), check_transfer_bias(None)
    (0.05, 'held-out', None)
    """
    if transfer_bias is None or transfer_bias == HELD_OUT:
        return transfer_bias
    if isinstance(transfer_bias, bool) or not isinstance(transfer_bias, (int, float, np.number)):
        raise ValueError(
            f"transfer_bias {transfer_bias!r} is not None, 'held-out' or a number in [0, 1]."
        )
    bound = float(transfer_bias)
    if not 0.0 <= bound <= 1.0:
        raise ValueError(
            f"transfer_bias {transfer_bias!r} must be in [0, 1] (a fraction of precision: "
            "0.05 is 5 points)."
        )
    return bound


def critical_value(t: np.ndarray | float, alpha: float = 0.05) -> np.ndarray:
    """``cva_alpha(t)``: the ``1 - alpha`` quantile of ``|N(t, 1)|``, vectorised.

    The root ``c`` of ``F(c) = Phi(c - t) - Phi(-c - t) = 1 - alpha``
    (Armstrong & Kolesar, 2020, section 2; equivalently ``sqrt`` of the
    noncentral chi-square quantile with one degree of freedom and
    noncentrality ``t^2``). ``F`` rises and is concave for ``c > t``, and
    ``F(t + z_{1 - alpha}) <= 1 - alpha``, so Newton's method from there
    climbs to the root without overshooting (quadratically: 8 steps reach
    machine precision, checked against scipy's ``brentq`` in the tests).

    Examples
    --------
    >>> [round(float(c), 3) for c in critical_value([0.0, 1.0, 3.0])]
    [1.96, 2.646, 4.645]
    """
    t = np.abs(np.asarray(t, dtype=float))
    target = 1.0 - alpha
    c = t - special.ndtri(alpha)
    for _ in range(8):
        gap = special.ndtr(c - t) - special.ndtr(-c - t) - target
        slope = (np.exp(-0.5 * (c - t) ** 2) + np.exp(-0.5 * (c + t) ** 2)) / np.sqrt(2 * np.pi)
        c = c - gap / slope
    return c


@dataclass(frozen=True)
class BiasAwareWeight:
    """The weight on the transfer estimate and the half-width it gives.

    Attributes
    ----------
    weight : float
        ``w`` in [0, 1].
    half_width : float
        ``cva_alpha(w B / s(w)) s(w)``.
    sd : float
        ``s(w)``.
    """

    weight: float
    half_width: float
    sd: float


def bias_aware_weight(
    variance: float, transfer_sd: float, bound: float, alpha: float = 0.05
) -> BiasAwareWeight:
    """The weight ``w`` that minimises the bias-aware half-width (module docstring).

    Parameters
    ----------
    variance : float
        ``V``, the labels-and-votes estimate's variance.
    transfer_sd : float
        ``sd_T``.
    bound : float
        ``B``, the largest transfer bias the interval must cover.
    alpha : float

    Examples
    --------
    No bias: inverse-variance weights. A bias bound past the labels' own error: no weight.

    >>> round(bias_aware_weight(0.0004, 0.02, 0.0).weight, 2)
    0.5
    >>> bias_aware_weight(0.0004, 0.02, 0.2).weight
    0.0
    """
    w = WEIGHT_GRID
    sd = np.sqrt((1 - w) ** 2 * variance + w**2 * transfer_sd**2)
    half = critical_value(w * bound / np.maximum(sd, 1e-15), alpha) * sd
    best = int(np.argmin(half))
    return BiasAwareWeight(float(w[best]), float(half[best]), float(sd[best]))


def transfer_contradicted(
    labels_estimate: float,
    transfer: float,
    variance: float,
    transfer_sd: float,
    bound: float,
    level: float = CONTRADICTION_LEVEL,
) -> bool:
    """Whether the labels reject ``|transfer bias| <= bound`` at ``level``.

    ``P - T`` has mean ``-b`` and standard deviation ``s = sqrt(V + sd_T^2)``
    (``P`` and ``T`` rest on different labels); the test of ``|b| <= B``
    rejects where ``|P - T| > cva_level(B / s) s`` (the quantile of
    :func:`critical_value`: its size is ``level`` at ``|b| = B`` and less
    inside). It informs; it chooses no weight (a weight chosen by it would be
    a pre-test).

    Examples
    --------
    >>> transfer_contradicted(0.80, 0.90, 0.02**2, 0.01, 0.05), transfer_contradicted(0.80, 0.84, 0.02**2, 0.01, 0.05)
    (True, False)
    """
    s = float(np.sqrt(variance + transfer_sd**2))
    if not (np.isfinite(s) and s > 0 and np.isfinite(bound)):
        return False
    reach = float(critical_value(bound / s, level)) * s
    return bool(abs(labels_estimate - transfer) > reach)


def held_out_bound(errors: np.ndarray, label_se: np.ndarray, alpha: float = 0.05) -> float:
    """The bias bound ``B = max_c (|r_c| + z_{1 - alpha/2} se_c)`` from the transfer's held-out errors.

    ``r_c`` is the transfer estimate's error on calibration generator ``c``
    when ``c``'s labels are held out (the self-check), measured against
    ``c``'s label mean, which is itself off ``c``'s precision by a sampling
    error of standard error ``se_c`` (binomial, from ``c``'s labels): adding
    ``z se_c`` makes each term an upper bound on the transfer's error on
    ``c`` with probability ``1 - alpha``. ``B`` then bounds the transfer's
    bias on the new generator if that bias is exchangeable with its errors on
    the calibration generators (the new model is no more unlike them than they
    are unlike each other): with ``s`` of them, the new one exceeds the
    largest with probability at most ``1 / (s + 1)``, and less where, as here,
    the terms include the transfer's own random error, which the interval
    counts again through ``sd_T``. That is an assumption about the new model,
    not a guarantee: a model the judges treat unlike every calibration
    generator breaks it.

    Examples
    --------
    >>> round(held_out_bound(np.array([0.01, -0.03, 0.02]), np.array([0.01, 0.005, 0.01])), 4)
    0.0398
    """
    errors = np.abs(np.asarray(errors, dtype=float)) + normal_quantile(alpha) * np.asarray(
        label_se, dtype=float
    )
    errors = errors[np.isfinite(errors)]
    return float(errors.max()) if errors.size else float("inf")


def bias_bound(
    transfer_bias: float | str | None,
    design: LabelDesign,
    held_out_errors: pd.Series | None = None,
) -> float:
    """The bound ``B`` the option ``transfer_bias`` means: NaN (None), the number, or :func:`held_out_bound`.

    ``held_out_errors``: the transfer's signed errors on the calibration
    generators held out in turn, indexed by generator; each one's label
    sampling error comes from its labels in ``design``.
    """
    transfer_bias = check_transfer_bias(transfer_bias)
    if transfer_bias is None:
        return float("nan")
    if transfer_bias != HELD_OUT:
        return float(transfer_bias)
    if held_out_errors is None:
        raise ValueError(
            "transfer_bias='held-out' needs the transfer's held-out errors on the "
            "calibration generators (held_out_errors); fit with TransferModel.fit_table."
        )
    labels = design.items.groupby("generator", sort=False)["human"]
    p = labels.mean().reindex(held_out_errors.index).to_numpy(dtype=float)
    n = labels.count().reindex(held_out_errors.index).to_numpy(dtype=float)
    label_se = np.sqrt(p * (1 - p) / np.maximum(n, 1.0))
    return held_out_bound(held_out_errors.to_numpy(dtype=float), label_se)
