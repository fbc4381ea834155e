"""Precision of new generators when the judges' TPR / TNR move between generators.

The latent-trait model (agreeableness paper, section 5.1, eq. (1)) assumes each
validator j has one TPR v+_j and one TNR v-_j on every generator, so that

    P_ij = g_i v+_j + (1 - g_i)(1 - v-_j).

On real data they differ between generators far beyond sampling noise, partly
at random and partly with the generator (a generator-level shift shared by the
judges; a TNR that falls as precision rises). The estimators here work on
arrays (numpy inside; the pandas edge is :mod:`regression.transfer.model`):

* :func:`calibration_mean`: the mean human precision of the calibration
  generators, with a t prediction interval.
* :func:`mean_of_judges`: each generator's mean rate over its validators.
* :func:`offset_mean`: the mean of judges minus its mean offset on the
  calibration generators, ``m_i - mean_c(m_c - h_c)``, with a t prediction interval.
* :func:`rogan_gladen_pooled`: per-judge Rogan-Gladen ``(P_ij - 1 + v-_j) / J_j``
  with anchors pooled over the calibration generators, combined with
  inverse-variance (J^2-type) weights; its interval covers sampling only.
* :func:`hierarchical`: the same per-judge estimates, but each judge's TPR /
  TNR on a generator deviates from the judge's own level on the logit scale
  with a spread estimated from the calibration generators' own confusion
  tables (:func:`logit_spread`), so an unstable judge weighs less; the pooled
  estimate is then shrunk towards the calibration mean by its own
  leave-one-out error (empirical Bayes). Spread 0 gives the fixed-model
  Rogan-Gladen combination; judges without information give the calibration mean.
* :func:`transfer`: the default. :func:`hierarchical` and :func:`offset_mean`
  stacked with weights ``1 / MSE`` of their leave-one-calibration-generator-out
  errors; its interval is ``t(s - 1)`` times the root mean square of the
  stack's leave-one-out residuals.

Every estimator returns an :class:`Estimate` (estimate, standard error, degrees
of freedom); :func:`leave_one_out` gives any estimator's held-out errors on the
calibration generators themselves (the self-check).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType

import numpy as np

from regression.intervals import student_quantile
from regression.registry import TRANSFER_METHODS

__all__ = [
    "ESTIMATORS",
    "MSE_FLOOR",
    "TRANSFER_PARTS",
    "Estimate",
    "Estimator",
    "TransferData",
    "calibration_mean",
    "hierarchical",
    "judge_weights",
    "leave_one_out",
    "logit_spread",
    "mean_of_judges",
    "offset_mean",
    "pooled_anchors",
    "row_means",
    "rogan_gladen_pooled",
    "stack",
    "transfer",
]

#: Added to a leave-one-out mean square error before it is inverted into a stacking weight.
MSE_FLOOR = 1e-6


@dataclass(frozen=True, eq=False)
class TransferData:
    """The arrays every estimator reads.

    Attributes
    ----------
    rates : ndarray
        ``(G, V)`` share of items each validator called valid (NaN = absent cell).
    n : ndarray
        ``(G, V)`` items behind each rate (0 on absent cells). Without real
        counts, a pseudo-count: it sets the relative weights only.
    confusion : ndarray
        ``(s, V, 4)``: ``tp, fn, fp, tn`` of each validator on each calibration
        generator against the human labels (valid = positive); zeros where a
        validator did not judge that generator.
    calibration : ndarray of int
        ``(s,)`` rows of the calibration generators.
    precision : ndarray
        ``(s,)`` their human-labelled precision.
    """

    rates: np.ndarray
    n: np.ndarray
    confusion: np.ndarray
    calibration: np.ndarray
    precision: np.ndarray

    def __post_init__(self) -> None:
        rates = np.asarray(self.rates, dtype=float)
        n = np.where(np.isnan(rates), 0.0, np.asarray(self.n, dtype=float))
        confusion = np.asarray(self.confusion, dtype=float).reshape(-1, rates.shape[1], 4)
        calibration = np.asarray(self.calibration, dtype=np.int64).reshape(-1)
        precision = np.asarray(self.precision, dtype=float).reshape(-1)
        if rates.ndim != 2 or n.shape != rates.shape:
            raise ValueError(f"rates {rates.shape} and n {n.shape} must be the same (G, V) shape.")
        if not len(calibration) == len(precision) == len(confusion):
            raise ValueError(
                f"calibration ({len(calibration)}), precision ({len(precision)}) and confusion "
                f"({len(confusion)}) must name the same calibration generators."
            )
        for name, value in (("rates", rates), ("n", n), ("confusion", confusion)):
            object.__setattr__(self, name, value)
        object.__setattr__(self, "calibration", calibration)
        object.__setattr__(self, "precision", precision)

    @property
    def s(self) -> int:
        """The number of calibration generators."""
        return len(self.calibration)

    @property
    def n_generators(self) -> int:
        return int(self.rates.shape[0])

    def without(self, k: int) -> TransferData:
        """The same data with calibration generator ``k`` (a position in ``calibration``) unlabelled."""
        keep = np.arange(self.s) != k
        return replace(
            self,
            confusion=self.confusion[keep],
            calibration=self.calibration[keep],
            precision=self.precision[keep],
        )


@dataclass(frozen=True, eq=False)
class Estimate:
    """One estimator's precision for every generator and what its interval needs.

    The interval is ``estimate +- t(df) se`` clipped to [0, 1] (``df = inf``:
    normal); ``se`` is NaN where the estimator gives no interval.

    Attributes
    ----------
    precision, se : ndarray
        ``(G,)``.
    df : float
    details : mapping
        Estimator-specific arrays (weights, shrinkage factors) for the diagnostics.
    """

    precision: np.ndarray
    se: np.ndarray
    df: float = np.inf
    details: Mapping[str, np.ndarray] = field(default_factory=dict)

    def bounds(
        self, alpha: float = 0.05, alternative: str = "two-sided"
    ) -> tuple[np.ndarray, np.ndarray]:
        """``(low, high)`` arrays at level ``1 - alpha``; one-sided bounds are 0 or 1.

        Arrays for the estimators' internals; the result's ``interval()`` is the table
        (:meth:`regression.transfer.result.TransferResult.interval`).

        ``alternative``: ``"two-sided"``, ``"less"`` (an upper bound) or
        ``"greater"`` (a lower bound), as in :mod:`regression.intervals`.
        """
        half = student_quantile(self.df, alpha, alternative) * self.se
        low = np.clip(self.precision - half, 0.0, 1.0)
        high = np.clip(self.precision + half, 0.0, 1.0)
        if alternative == "less":
            low = np.where(np.isnan(half), np.nan, 0.0)
        elif alternative == "greater":
            high = np.where(np.isnan(half), np.nan, 1.0)
        return low, high


Estimator = Callable[[TransferData], Estimate]


def _prediction_se(values: np.ndarray) -> tuple[float, float]:
    """``sd(values) sqrt(1 + 1/s)`` and ``s - 1``: the t prediction interval of one new draw."""
    s = len(values)
    if s < 2:
        return np.nan, 0.0
    return float(np.std(values, ddof=1) * np.sqrt(1 + 1 / s)), float(s - 1)


def row_means(data: TransferData) -> np.ndarray:
    """Each generator's mean rate over the validators that judged it."""
    present = data.n > 0
    return np.where(present, data.rates, 0.0).sum(axis=1) / np.maximum(present.sum(axis=1), 1)


def calibration_mean(data: TransferData) -> Estimate:
    """The mean human precision of the calibration generators, for every generator.

    Its interval is the t prediction interval of a new generator's precision,
    ``mean +- t(s - 1) sd(h) sqrt(1 + 1/s)``: it treats the generators as draws
    from one population and ignores the judges.
    """
    se, df = _prediction_se(data.precision)
    g = np.full(data.n_generators, float(np.mean(data.precision)))
    return Estimate(g, np.full_like(g, se), df)


def mean_of_judges(data: TransferData) -> Estimate:
    """Each generator's mean rate over its validators (the released code's 'Mean Prediction').

    Uses no human label, so it gives no interval.
    """
    g = row_means(data)
    return Estimate(g, np.full_like(g, np.nan))


def offset_mean(data: TransferData) -> Estimate:
    """The mean of judges corrected by its mean offset on the calibration generators.

    ``g_i = m_i - mean_c(m_c - h_c)``, with ``m`` the row mean over validators
    and ``h`` the human precision: exact when every judge's rate on every
    generator is shifted from its precision by the same amount (a slope of 1).
    Interval: ``g_i +- t(s - 1) sd(m_c - h_c) sqrt(1 + 1/s)``.
    """
    m = row_means(data)
    offsets = m[data.calibration] - data.precision
    se, df = _prediction_se(offsets)
    g = np.clip(m - float(np.mean(offsets)), 0.0, 1.0)
    return Estimate(g, np.full_like(g, se), df)


def pooled_anchors(data: TransferData) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Each validator's TPR and TNR pooled over the calibration generators, and their item counts.

    ``TPR_j = (sum tp + 1/2) / (sum (tp + fn) + 1)`` (likewise TNR): the half
    counts keep the logits and Rogan-Gladen's divisions finite when a pooled
    table has a zero cell.

    Returns
    -------
    tpr, tnr, n_pos, n_neg : ndarray
        ``(V,)`` each.
    """
    tp, fn, fp, tn = data.confusion.sum(axis=0).T
    n_pos, n_neg = tp + fn, tn + fp
    return (tp + 0.5) / (n_pos + 1.0), (tn + 0.5) / (n_neg + 1.0), n_pos, n_neg


def logit_spread(confusion: np.ndarray) -> tuple[float, float]:
    """Between-generator variance of each judge's logit TPR and logit TNR, beyond binomial noise.

    For judge j on calibration generator c, ``l_cj = logit((tp + 1/2) / (tp + fn + 1))``;
    the spread is the mean over judges of the unbiased variance of ``l_cj`` over
    c minus the mean binomial variance of a logit, ``1 / ((n + 1) p (1 - p))``
    (method of moments), floored at 0. Pooling over judges gives
    ``judges x (s - 1)`` degrees of freedom, so the spread is usable from two
    calibration generators on.

    Parameters
    ----------
    confusion : ndarray
        ``(s, V, 4)``: ``tp, fn, fp, tn``.

    Returns
    -------
    (float, float)
        The variances for TPR and TNR; 0 with fewer than two calibration generators.
    """
    out = []
    for hit, miss in (
        (confusion[..., 0], confusion[..., 1]),
        (confusion[..., 3], confusion[..., 2]),
    ):
        total = hit + miss
        seen = total > 0
        per_judge = seen.sum(axis=0)
        usable = per_judge >= 2
        if not usable.any():
            out.append(0.0)
            continue
        rate = (hit + 0.5) / (total + 1.0)
        lg = np.log(rate / (1 - rate))
        centre = np.where(seen, lg, 0.0).sum(axis=0) / np.maximum(per_judge, 1)
        spread = np.where(seen, (lg - centre) ** 2, 0.0).sum(axis=0) / np.maximum(per_judge - 1, 1)
        noise = np.where(seen, 1.0 / ((total + 1.0) * rate * (1 - rate)), 0.0).sum(axis=0)
        noise = noise / np.maximum(per_judge, 1)
        out.append(max(0.0, float(np.mean((spread - noise)[usable]))))
    return out[0], out[1]


def judge_weights(
    data: TransferData, spread: tuple[float, float] = (0.0, 0.0)
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per-cell Rogan-Gladen estimates and their inverse-variance weights.

    ``g_ij = (P_ij - 1 + TNR_j) / J_j`` with pooled anchors; its variance is
    ``(var_binomial + var_transfer (1 + 1/s) + var_anchor) / J_j^2`` where
    ``var_transfer = (g TPR (1 - TPR))^2 sigma+^2 + ((1 - g) TNR (1 - TNR))^2 sigma-^2``
    (delta method on the logit deviations of :func:`logit_spread`, at ``g`` the
    calibration mean) and ``var_anchor`` that of the pooled TPR / TNR. Judges
    with ``J_j <= 0`` get weight 0.

    Returns
    -------
    g, weight : ndarray
        ``(G, V)``; weight 0 on absent cells and uninformative judges.
    youden_j : ndarray
        ``(V,)`` pooled ``J_j = TPR_j + TNR_j - 1``.
    transfer_var : ndarray
        ``(V,)`` the transfer variance of each judge's rate.
    """
    tpr, tnr, n_pos, n_neg = pooled_anchors(data)
    j = tpr + tnr - 1.0
    centre = float(np.mean(data.precision)) if data.s else 0.5
    transfer_var = (centre * tpr * (1 - tpr)) ** 2 * spread[0]
    transfer_var = transfer_var + ((1 - centre) * tnr * (1 - tnr)) ** 2 * spread[1]
    present = data.n > 0
    informative = present & (j > 0)[None, :]
    safe_j = np.where(j > 0, j, 1.0)[None, :]
    g = np.where(informative, (np.nan_to_num(data.rates) - 1.0 + tnr[None, :]) / safe_j, 0.0)
    clipped = np.clip(g, 0.0, 1.0)
    p = np.clip(np.nan_to_num(data.rates), 1.0 / (data.n + 2.0), 1.0 - 1.0 / (data.n + 2.0))
    binomial = p * (1 - p) / np.maximum(data.n, 1.0)
    anchor = (1 - clipped) ** 2 * (1 - tnr) * tnr / np.maximum(n_neg, 1.0)
    anchor = anchor + clipped**2 * tpr * (1 - tpr) / np.maximum(n_pos, 1.0)
    s = max(data.s, 1)
    variance = (binomial + transfer_var[None, :] * (1 + 1 / s) + anchor) / safe_j**2
    weight = np.where(informative, 1.0 / variance, 0.0)
    return g, weight, j, transfer_var


def _combine(g: np.ndarray, weight: np.ndarray, fallback: float) -> tuple[np.ndarray, np.ndarray]:
    total = weight.sum(axis=1)
    has = total > 0
    estimate = np.where(has, (weight * g).sum(axis=1) / np.where(has, total, 1.0), fallback)
    se = np.where(has, 1.0 / np.sqrt(np.where(has, total, 1.0)), np.nan)
    return np.clip(estimate, 0.0, 1.0), se


def rogan_gladen_pooled(data: TransferData) -> Estimate:
    """Per-judge Rogan-Gladen estimates pooled with inverse-variance (J^2-type) weights.

    The fixed model (eq. (1)) with each validator's TPR / TNR pooled over the
    calibration generators (as the paper's released code pools them); weights
    from :func:`judge_weights` with no transfer variance. A generator without
    an informative judge gets the calibration mean. The interval (normal,
    ``1 / sqrt(sum of weights)``) covers the items' and the anchors' sampling
    only, not that TPR / TNR move between generators.
    """
    g, weight, j, _ = judge_weights(data)
    fallback = float(np.mean(data.precision)) if data.s else 0.5
    estimate, se = _combine(g, weight, fallback)
    return Estimate(estimate, se, np.inf, {"youden_j": j})


def _fixed_hierarchical(data: TransferData) -> Estimate:
    """The per-judge estimates weighted with the transfer spread, not yet shrunk."""
    spread = logit_spread(data.confusion)
    g, weight, j, transfer_var = judge_weights(data, spread)
    fallback = float(np.mean(data.precision)) if data.s else 0.5
    estimate, se = _combine(g, weight, fallback)
    details = {
        "youden_j": j,
        "transfer_var": transfer_var,
        "spread": np.array(spread),
        "weights": weight,
    }
    return Estimate(estimate, se, np.inf, details)


def leave_one_out(data: TransferData, estimator: Estimator) -> np.ndarray:
    """Held-out errors of ``estimator`` on the calibration generators themselves.

    For each calibration generator c, the estimator is run with c's human
    labels removed (its row stays in the matrix, unlabelled) and the error
    ``estimate_c - h_c`` is recorded.

    Returns
    -------
    ndarray
        ``(s,)`` signed errors; empty below two calibration generators.
    """
    if data.s < 2:
        return np.empty(0)
    out = np.empty(data.s)
    for k in range(data.s):
        estimate = estimator(data.without(k))
        out[k] = estimate.precision[data.calibration[k]] - data.precision[k]
    return out


def hierarchical(data: TransferData) -> Estimate:
    """Judges whose TPR / TNR move between generators, shrunk to the calibration mean (empirical Bayes).

    1. Per-judge Rogan-Gladen estimates weighted by :func:`judge_weights` with the
       logit-scale spread of :func:`logit_spread`: ``r_i`` with standard error ``se_i``.
    2. Its transfer error ``t^2 = max(mean LOO residual^2, se_i^2)`` (the
       leave-one-out residuals of step 1 carry the generator-level shift the
       per-judge spread misses).
    3. The prior of a new generator's precision: mean ``mu = mean(h_c)``,
       variance ``v = max(var(h_c), var of offset_mean over all rows)``.
    4. ``g_i = mu + K_i (r_i - mu)``, ``K_i = v / (v + t^2)``; variance
       ``K_i t^2 + (1 - K_i)^2 v / s``, interval with ``s - 1`` degrees of freedom.

    With no spread and small transfer error ``K -> 1``: the fixed-model
    combination. With uninformative judges ``t^2`` is large and ``K -> 0``:
    the calibration mean. Below two calibration generators step 1 is returned
    unshrunk (nothing to estimate ``t`` or ``v`` from).
    """
    base = _fixed_hierarchical(data)
    if data.s < 2:
        return base
    residuals = leave_one_out(data, _fixed_hierarchical)
    transfer_var = np.maximum(float(np.mean(residuals**2)), base.se**2)
    mu = float(np.mean(data.precision))
    spread_g = max(
        float(np.var(data.precision, ddof=1)), float(np.var(offset_mean(data).precision, ddof=1))
    )
    shrink = spread_g / (spread_g + transfer_var) if spread_g > 0 else np.zeros_like(base.se)
    estimate = mu + shrink * (base.precision - mu)
    variance = shrink * transfer_var + (1 - shrink) ** 2 * spread_g / data.s
    details = {**base.details, "shrink": shrink, "transfer_error": np.sqrt(transfer_var)}
    return Estimate(np.clip(estimate, 0.0, 1.0), np.sqrt(variance), float(data.s - 1), details)


def stack(data: TransferData, estimators: Mapping[str, Estimator]) -> Estimate:
    """Estimators combined with weights ``1 / (LOO MSE + MSE_FLOOR)``; a t interval from the LOO residuals.

    The interval is ``g_i +- t(s - 1) sqrt(mean_c r_c^2)``, ``r_c`` the
    weighted leave-one-out residuals: it covers what those residuals contain,
    the transfer between generators, the items' sampling on the left-out
    generator and the anchors' noise from ``s - 1`` generators.

    Raises
    ------
    ValueError
        Below two calibration generators (nothing to weigh the estimators by).
    """
    if data.s < 2:
        raise ValueError(f"stacking needs at least 2 calibration generators; got {data.s}.")
    names = list(estimators)
    residuals = np.stack([leave_one_out(data, estimators[name]) for name in names])
    estimates = np.stack([estimators[name](data).precision for name in names])
    inverse = 1.0 / (np.mean(residuals**2, axis=1) + MSE_FLOOR)
    weights = inverse / inverse.sum()
    estimate = weights @ estimates
    rms = float(np.sqrt(np.mean((weights @ residuals) ** 2)))
    details = {"weights": weights, "loo_residuals": residuals}
    return Estimate(
        np.clip(estimate, 0.0, 1.0), np.full(data.n_generators, rms), float(data.s - 1), details
    )


#: The estimators :func:`transfer` stacks.
TRANSFER_PARTS: Mapping[str, Estimator] = MappingProxyType(
    {"offset": offset_mean, "hierarchical": hierarchical}
)


def transfer(data: TransferData) -> Estimate:
    """The default: :func:`hierarchical` and :func:`offset_mean` stacked by their held-out errors.

    With one calibration generator nothing can be held out: :func:`offset_mean`
    (the most robust single estimator on the real data sets; see
    ``docs/new-generators.md``), with no interval.
    """
    if data.s < 2:
        single = offset_mean(data)
        return Estimate(single.precision, np.full_like(single.precision, np.nan), 0.0)
    return stack(data, TRANSFER_PARTS)


#: Name -> estimator, in the order reports list them: the functions
#: :data:`regression.registry.TRANSFER_METHODS` names (the one list of names).
ESTIMATORS: Mapping[str, Estimator] = MappingProxyType(
    {name: entry.load() for name, entry in TRANSFER_METHODS.items()}
)
