"""The estimate of a partially labelled generator: its labels, the judges' votes, the other generators.

Three sources, each used only as far as it earns its place:

1. **The labels**, a random sample of the generator's judged items drawn with
   known inclusion probabilities ``pi_i`` (uniform: ``n / N``), weighted by
   ``1 / pi_i`` (Hajek; Zrnic & Candes, 2024, Active Statistical Inference).
2. **The votes** on every item, through the predictor ``q_i`` of
   :mod:`regression.labels.predict` (fitted without the item's own label),
   prediction-powered: ``theta = lam * mean_all(q) + sum_l w_l (y_l - lam q_l) / sum_l w_l``
   with the power-tuning weight ``lam`` in [0, 1] that minimises the design
   variance (PPI++, Angelopoulos, Duchi & Zrnic, 2023; ``lam = 0`` is the
   labels alone, so useless judges cost nothing).
3. **The other generators**, through the transfer estimate ``T`` (fitted
   without this generator's labels), with its variance inflated by its squared
   disagreement with this generator's own estimate, so a transfer the labels
   contradict gets next to no weight (a new best model is where the other
   generators mislead).

Honest near precision 1: ``lam`` and the variance ratio are computed with two
pseudo-labels (one valid, one invalid, predicted at the labelled mean), so a
sample of all-valid labels, whose residuals say nothing about the judges'
errors, gets ``lam = 0`` and the labels-alone interval; and the residuals'
variance is never taken below what the predictor itself expects
(``sum q(1 - q)``), since a small sample can miss the judges' rare surprises. The interval is a
Wilson score interval at the effective sample size
``n_eff = n_0 * V_0 / V_lam`` (``n_0`` the labels' own size after the finite
population correction, ``V_0 / V_lam`` the variance the votes remove), so it
never collapses to a point and is never wider than the labels' own Wilson
interval (``lam = 0`` is always a candidate).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from regression.intervals import ConfidenceInterval, normal_quantile
from regression.labels.design import PROBABILITY_COLUMN, LabelDesign
from regression.labels.predict import predict_generator

__all__ = [
    "COVERS",
    "DOUBT",
    "PartialEstimate",
    "combine_transfer",
    "ppi_design_mean",
    "score_interval",
]

#: What the interval of a partially labelled generator accounts for.
COVERS = (
    "the random choice of the labelled items (design-based, inverse-probability weighted), "
    "the judges' errors on them and, where the transfer estimate is used, its own interval and "
    "its disagreement with the labels (Wilson score interval at the effective sample size)"
)


#: The share of the prediction-powered variance added to the transfer's disagreement
#: (:func:`combine_transfer`).
DOUBT = 0.3


def score_interval(
    p: np.ndarray | float,
    m: np.ndarray | float,
    alpha: float = 0.05,
    alternative: str = "two-sided",
) -> ConfidenceInterval:
    """Wilson's score interval for a proportion ``p`` observed on ``m`` (effective, real) trials.

    Examples
    --------
    >>> low, high = score_interval(1.0, 50)
    >>> round(float(low), 3), float(high)
    (0.929, 1.0)
    """
    z = normal_quantile(alpha, alternative)
    p_arr = np.clip(np.asarray(p, dtype=float), 0.0, 1.0)
    m_arr = np.maximum(np.asarray(m, dtype=float), 1e-12)
    denom = 1 + z**2 / m_arr
    center = (p_arr + z**2 / (2 * m_arr)) / denom
    half = z * np.sqrt(p_arr * (1 - p_arr) / m_arr + z**2 / (4 * m_arr**2)) / denom
    low = np.clip(center - half, 0.0, 1.0)
    high = np.clip(center + half, 0.0, 1.0)
    if alternative == "less":
        low = np.zeros_like(low)
    if alternative == "greater":
        high = np.ones_like(high)
    return ConfidenceInterval(low, high)


@dataclass(frozen=True)
class PartialEstimate:
    """A generator's estimate from its partial labels (and, combined, the transfer estimate).

    Attributes
    ----------
    estimate : float
        The final estimate (``ppi`` combined with the transfer estimate, if any).
    n_eff : float
        Effective sample size of the final estimate: its interval is the Wilson
        interval at ``n_eff`` trials.
    n_labels, n_items : int
        Labelled and judged items of the generator.
    ppi : float
        The prediction-powered estimate from labels and votes alone.
    se : float
        Its design standard error (without pseudo-labels; for cross-checks).
    lam : float
        The power-tuning weight in [0, 1].
    n_eff_ppi : float
        Effective sample size of ``ppi`` (labels plus the judges' worth).
    labels_only : float
        The inverse-probability-weighted mean of the labels.
    n_base : float
        What the labels alone are worth under their design (``n / (1 - n / N)``
        uniform: the finite-population correction; less for unequal weights).
    transfer : float
        The transfer estimate (NaN if none).
    n_transfer : float
        The labels the transfer estimate is worth after its inflation (0 if none).
    """

    estimate: float
    n_eff: float
    n_labels: int
    n_items: int
    ppi: float
    se: float
    lam: float
    n_eff_ppi: float
    labels_only: float
    n_base: float = float("nan")
    transfer: float = float("nan")
    n_transfer: float = 0.0

    def interval(self, alpha: float = 0.05, alternative: str = "two-sided") -> ConfidenceInterval:
        """The Wilson score interval at :attr:`n_eff`."""
        return score_interval(self.estimate, self.n_eff, alpha, alternative)


def _design_terms(
    y: np.ndarray, f: np.ndarray, w: np.ndarray, c: np.ndarray
) -> tuple[float, float, float, float]:
    """``A, B, C, sum w``: ``V(lam) = (A - 2 lam B + lam^2 C) / (sum w)^2`` (Hajek, linearised)."""
    total = w.sum()
    ey = y - (w * y).sum() / total
    ef = f - (w * f).sum() / total
    return float((c * ey * ey).sum()), float((c * ey * ef).sum()), float((c * ef * ef).sum()), total


def ppi_design_mean(
    y: np.ndarray,
    q_labelled: np.ndarray,
    q_all: np.ndarray,
    probability: np.ndarray | None = None,
    lam: float | None = None,
) -> PartialEstimate:
    """Prediction-powered mean of a finite population from a sample with known inclusion probabilities.

    Parameters
    ----------
    y : ndarray
        The human labels (0 / 1) of the labelled items.
    q_labelled : ndarray
        The predictions on the same items (fitted without their labels).
    q_all : ndarray
        The predictions on all ``N`` judged items (labelled included).
    probability : ndarray, optional
        Each labelled item's inclusion probability; default ``n / N``.
    lam : float, optional
        A fixed power-tuning weight; default tuned on the labels with two
        pseudo-labels and clipped to [0, 1].

    Returns
    -------
    PartialEstimate
        Without the transfer estimate (``estimate == ppi``).

    Notes
    -----
    Point estimate: PPI++ for the mean (Angelopoulos, Duchi & Zrnic, 2023)
    with the labelled term Hajek-weighted by ``1 / pi`` (Zrnic & Candes, 2024,
    Active Statistical Inference). Variance: Poisson sampling, linearised, ``sum_l (1 - pi_l) / pi_l^2
    (e_l)^2 / (sum_l 1 / pi_l)^2`` with ``e`` the centred residuals; ``lam``
    minimises it (the PPI++ power-tuning formula with these design weights).

    Examples
    --------
    Judges that predict every label: the labels are worth several times their number.

    >>> rng = np.random.default_rng(0)
    >>> q = np.where(rng.random(1000) < 0.8, 0.95, 0.05)
    >>> y_all = (rng.random(1000) < q).astype(float)
    >>> pick = rng.choice(1000, 100, replace=False)
    >>> est = ppi_design_mean(y_all[pick], q[pick], q)
    >>> bool(est.n_eff_ppi > 2 * 100), bool(abs(est.ppi - y_all.mean()) < 0.05)
    (True, True)
    """
    y = np.asarray(y, dtype=float)
    f = np.asarray(q_labelled, dtype=float)
    q_all = np.asarray(q_all, dtype=float)
    n, big_n = y.size, q_all.size
    pi = np.full(n, n / big_n) if probability is None else np.asarray(probability, dtype=float)
    w = 1.0 / pi
    c = (1.0 - pi) * w * w
    # two pseudo-labels at the labelled mean prediction, weighted as the surest-drawn label
    f_bar = float((w * f).sum() / w.sum())
    y_aug = np.concatenate([y, [0.0, 1.0]])
    f_aug = np.concatenate([f, [f_bar, f_bar]])
    w_aug = np.concatenate([w, [w.min()] * 2])
    c_aug = np.concatenate([c, [max(c.min(), 1e-12)] * 2])
    a, b, cc, total = _design_terms(y_aug, f_aug, w_aug, c_aug)
    if lam is None:
        lam = float(np.clip(b / cc, 0.0, 1.0)) if cc > 0 else 0.0
    v0 = a / total**2
    v_lam = (a - 2 * lam * b + lam * lam * cc) / total**2
    # the residuals' variance is estimated from the judges' rare surprises, which a small
    # sample may miss: never claim less than the predictor itself expects, sum c q(1-q)
    # + (1 - lam)^2 (q - q_bar)^2, if it is calibrated (a floor, never a gain)
    v_model = float((c * (f * (1 - f) + ((1 - lam) * (f - f_bar)) ** 2)).sum() / w.sum() ** 2)
    v_lam = max(v_lam, v_model, 1e-15)
    if v_lam >= v0:
        lam, v_lam = 0.0, v0
    n_0 = min(w.sum() ** 2 / max(c.sum(), 1e-12), float(big_n))
    n_eff = n_0 * v0 / v_lam
    labels_only = float((w * y).sum() / w.sum())
    ppi = float(lam * q_all.mean() + (w * (y - lam * f)).sum() / w.sum())
    a_r, b_r, c_r, total_r = _design_terms(y, f, w, c)
    se = float(np.sqrt(max(a_r - 2 * lam * b_r + lam * lam * c_r, 0.0)) / total_r)
    return PartialEstimate(
        estimate=ppi,
        n_eff=float(n_eff),
        n_labels=n,
        n_items=big_n,
        ppi=ppi,
        se=se,
        lam=float(lam),
        n_eff_ppi=float(n_eff),
        labels_only=labels_only,
        n_base=float(n_0),
    )


def combine_transfer(
    estimate: PartialEstimate, transfer: float, transfer_sd: float
) -> PartialEstimate:
    """Add the transfer estimate as ``n_T`` pseudo-labels, its variance inflated by its disagreement.

    ``V_T' = transfer_sd^2 + (transfer - ppi)^2 + DOUBT * V_ppi``; ``n_T = p(1 - p) / V_T'``
    with ``p`` the prediction-powered estimate shrunk by one valid and one
    invalid pseudo-label and ``V_ppi = p(1 - p) / n_eff``; the combined
    estimate is the ``n_eff``- and ``n_T``-weighted mean, its effective size
    ``n_eff + n_T`` (precision weighting, as a meta-analysis with a random
    effect of one study's size). The squared disagreement alone is small
    exactly when ``ppi`` happens to err towards a biased transfer estimate;
    :data:`DOUBT` times the labels' own variance keeps some of that doubt
    (its value was set by simulation on the bundled data, where the best
    generator's transfer estimate is 2.4 points low: see docs/labels.md).

    Examples
    --------
    >>> base = ppi_design_mean(np.r_[np.ones(45), np.zeros(5)], np.full(50, .9), np.full(500, .9))
    >>> agree = combine_transfer(base, 0.9, 0.02)
    >>> far = combine_transfer(base, 0.6, 0.02)
    >>> bool(agree.n_transfer > 10 * far.n_transfer), bool(agree.n_eff > base.n_eff)
    (True, True)
    """
    if not (np.isfinite(transfer) and np.isfinite(transfer_sd)):
        return estimate
    m = estimate.n_eff_ppi
    p = (estimate.ppi * m + 1.0) / (m + 2.0)
    inflated = transfer_sd**2 + (transfer - estimate.ppi) ** 2 + DOUBT * p * (1 - p) / m
    n_t = float(p * (1 - p) / max(inflated, 1e-12))
    combined = (m * estimate.ppi + n_t * transfer) / (m + n_t)
    return PartialEstimate(
        estimate=float(combined),
        n_eff=float(m + n_t),
        n_labels=estimate.n_labels,
        n_items=estimate.n_items,
        ppi=estimate.ppi,
        se=estimate.se,
        lam=estimate.lam,
        n_eff_ppi=m,
        labels_only=estimate.labels_only,
        n_base=estimate.n_base,
        transfer=float(transfer),
        n_transfer=n_t,
    )


def estimate_generator(
    design: LabelDesign,
    generator: str,
    transfer: float = float("nan"),
    transfer_sd: float = float("nan"),
    *,
    seed: int = 0,
) -> PartialEstimate:
    """:func:`ppi_design_mean` on one partially labelled generator, then :func:`combine_transfer`."""
    rows = design.rows(generator)
    q, labelled, _ = predict_generator(design, generator, seed=seed)
    items = design.items.iloc[rows]
    y = items["human"].to_numpy(dtype=float)[labelled]
    pi = items[PROBABILITY_COLUMN].to_numpy(dtype=float)[labelled]
    base = ppi_design_mean(y, q[labelled], q, pi)
    return combine_transfer(base, transfer, transfer_sd)


def partial_table(estimates: dict[str, PartialEstimate]) -> pd.DataFrame:
    """One row per partially labelled generator: the estimate and what each source is worth."""
    return pd.DataFrame(
        {
            "estimate": [e.estimate for e in estimates.values()],
            "n_labels": [e.n_labels for e in estimates.values()],
            "n_items": [e.n_items for e in estimates.values()],
            "labels_only": [e.labels_only for e in estimates.values()],
            "ppi": [e.ppi for e in estimates.values()],
            "lam": [e.lam for e in estimates.values()],
            "judges_worth": [e.n_eff_ppi - e.n_labels for e in estimates.values()],
            "transfer": [e.transfer for e in estimates.values()],
            "transfer_worth": [e.n_transfer for e in estimates.values()],
            "n_eff": [e.n_eff for e in estimates.values()],
        },
        index=pd.Index(list(estimates), name="generator"),
    )
