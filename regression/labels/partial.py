"""The estimate of a partially labelled generator: its labels, the judges' votes, the other generators.

Three sources:

1. **The labels**, a random sample of the generator's judged items drawn with
   known inclusion probabilities ``pi_i`` (uniform: ``n / N``), weighted by
   ``1 / pi_i`` (Hajek; Zrnic & Candes, 2024, Active Statistical Inference).
2. **The votes** on every item, through the predictor ``q_i`` of
   :mod:`regression.labels.predict` (fitted without the item's own label),
   prediction-powered: ``P = lam * mean_all(q) + sum_l w_l (y_l - lam q_l) / sum_l w_l``
   with the power-tuning weight ``lam`` in [0, 1] that minimises the design
   variance (PPI++, Angelopoulos, Duchi & Zrnic, 2023; ``lam = 0`` is the
   labels alone, so useless judges cost nothing). ``lam`` is tuned on the
   same labels, as PPI++ does (its power tuning, section 2): the plug-in
   ``lam`` converges to the optimal one, so the estimate has asymptotically
   the normal law at the optimal ``lam``; what that costs at 25 to 200 labels
   is measured (docs/labels.md, the labels-and-votes coverage). Where the
   labelled predictions hold one value the labels cannot tune it, and
   ``lam = 1``, the difference estimator (unless the labels all agree too).
3. **The other generators**, through the transfer estimate ``T`` (fitted
   without this generator's labels), only under an assumed bound on its bias
   for this generator (:mod:`regression.labels.bias`): by default ``T`` gets
   no weight, so the interval holds whatever ``T``'s bias.

The interval of ``P`` is a Wilson score interval at the effective sample size
``n_eff = p(1 - p) / V``: ``V`` the design variance (Poisson sampling,
linearised) and ``p`` the estimate, kept one Kish-scale pseudo-label from 0
and 1, so the Wilson interval's variance is the design variance whatever the
design. ``V`` has two floors, since a few labels can miss the rare items
that carry the variance, each binding only where the sample's own estimate
cannot be trusted: half of what the predictor itself expects (``lam sum c
q(1 - q)`` plus the labels' part, read as calibrated), which binds only when
the sample shows less than half the spread calibrated judges would give; and
the labels' own part, ``(1 - lam)`` times their weighted mean, never surer
than their Kish size ``n_0 = (sum w)^2 / sum c`` makes it (all labels
agreeing: an active sample drawn where the judges are sure may hold no label
that differs). ``lam`` is tuned with two pseudo-labels (one valid, one
invalid, predicted at the labelled mean), so a sample of all-valid labels,
whose residuals say nothing about the judges' errors, gets ``lam = 0`` and
about the labels' own Wilson interval.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, replace

import numpy as np

from regression.core.sampling import design_weights, hajek_mean
from regression.core.tuning import design_moments, guarded_lam, with_pseudo_outcomes
from regression.intervals import ConfidenceInterval, normal_quantile
from regression.labels.bias import bias_aware_weight, critical_value
from regression.labels.design import PROBABILITY_COLUMN, LabelDesign
from regression.labels.predict import predict_generator

__all__ = [
    "COVERS",
    "GUARANTEES",
    "PartialEstimate",
    "combine_transfer",
    "estimate_generator",
    "ppi_design_mean",
    "score_interval",
    "tuned_lam",
]

#: normal_quantile, remembered: the estimator runs it once per interval, in loops of draws
_quantile = functools.lru_cache(maxsize=64)(normal_quantile)

#: The share of the calibrated predictor's expected residual variance that floors the design variance.
MODEL_FLOOR = 0.5

#: Estimates within this of 0 or 1 are at the edge (floating-point sums of weights).
EDGE = 1e-12

#: The two-sided 95 % normal quantile (the level the effective sizes are stated at).
Z_95 = normal_quantile(0.05)

#: What the interval of a partially labelled generator accounts for.
COVERS = (
    "the random choice of the labelled items (design-based, inverse-probability weighted) and "
    "the judges' errors on them (Wilson score interval at the effective sample size); where a "
    "bound on the transfer estimate's bias is assumed (transfer_bias), also the transfer "
    "estimate's own interval and any bias up to that bound (bias-aware interval)"
)

#: Which guarantee a partially labelled generator's interval carries, by ``PartialEstimate.source``.
GUARANTEES = {
    "labels and votes": "labels and votes: valid for any transfer bias",
    "bias-aware": "bias-aware: valid if |transfer bias| <= {bound:.1f} points",
}


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
    z = _quantile(alpha, alternative)
    p_arr = np.clip(np.asarray(p, dtype=float), 0.0, 1.0)
    m_arr = np.maximum(np.asarray(m, dtype=float), 1e-12)
    denom = 1 + z**2 / m_arr
    center = (p_arr + z**2 / (2 * m_arr)) / denom
    half = z * np.sqrt(p_arr * (1 - p_arr) / m_arr + z**2 / (4 * m_arr**2)) / denom
    # at p = 0 or 1 the bound is exactly 0 or 1; rounding must not leave the truth outside
    # (a weighted mean of all-valid labels can come out 1 - 1e-16)
    low = np.where(p_arr <= EDGE, 0.0, np.clip(center - half, 0.0, 1.0))
    high = np.where(p_arr >= 1.0 - EDGE, 1.0, np.clip(center + half, 0.0, 1.0))
    if alternative == "less":
        low = np.zeros_like(low)
    if alternative == "greater":
        high = np.ones_like(high)
    return ConfidenceInterval(low, high)


@dataclass(frozen=True)
class PartialEstimate:
    """One partially labelled generator's estimate: a record of :class:`~regression.labels.result.PartialLabels`.

    Attributes
    ----------
    estimate : float
        The final estimate: ``ppi``, or ``(1 - weight) ppi + weight transfer``.
    n_eff : float
        Effective sample size of the final interval: the labels a 95 % interval
        as wide would take at this precision.
    n_labels, n_items : int
        Labelled and judged items of the generator.
    ppi : float
        The prediction-powered estimate from labels and votes alone.
    se : float
        Its design standard error (without pseudo-labels; for cross-checks).
    lam : float
        The power-tuning weight in [0, 1].
    n_eff_ppi : float
        Effective sample size of ``ppi`` (labels plus the judges' worth):
        ``p~(1 - p~) / variance``.
    labels_only : float
        The inverse-probability-weighted mean of the labels.
    n_base : float
        What the labels alone are worth under their design (``n / (1 - n / N)``
        uniform: the finite-population correction; less for unequal weights).
    variance : float
        The variance of ``ppi``: its design variance (floors included); in a
        bias-aware combination (``weight > 0``), the variance its Wilson
        interval implies, ``(width / 2 z)^2``, with which the weight is chosen
        (the interval itself takes the variance at each candidate precision:
        :func:`bias_aware_bounds`).
    transfer, transfer_sd : float
        The transfer estimate and its standard deviation (NaN if none).
    bias_bound : float
        The assumed bound on the transfer's bias (NaN: none assumed).
    weight : float
        The weight on the transfer estimate (0 unless a bound is assumed).
    n_transfer : float
        The labels the transfer estimate is worth: ``n_eff - n_eff_ppi``.
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
    variance: float = float("nan")
    transfer: float = float("nan")
    transfer_sd: float = float("nan")
    bias_bound: float = float("nan")
    weight: float = 0.0
    n_transfer: float = 0.0

    @property
    def source(self) -> str:
        """``"labels and votes"`` or ``"bias-aware"`` (labels, votes and the transfer estimate)."""
        return "bias-aware" if self.weight > 0 else "labels and votes"

    @property
    def guarantee(self) -> str:
        """The guarantee the interval carries, in words (:data:`GUARANTEES`)."""
        return GUARANTEES[self.source].format(bound=100 * self.bias_bound)

    @property
    def own_sd(self) -> float:
        """Standard deviation of the part of the error that is not the transfer's: ``(1 - weight) sqrt(variance)``."""
        return float((1 - self.weight) * np.sqrt(self.variance))

    def bounds(self, alpha: float = 0.05, alternative: str = "two-sided") -> ConfidenceInterval:
        """The interval: Wilson at :attr:`n_eff_ppi`, or bias-aware in score form (:func:`bias_aware_bounds`)."""
        if self.weight == 0:
            return score_interval(self.ppi, self.n_eff_ppi, alpha, alternative)
        return bias_aware_bounds(self, alpha, alternative)


#: Candidate precisions the score-form bias-aware interval is found on (step 1 / 4000).
THETA_GRID = np.linspace(0.0, 1.0, 4001)


def bias_aware_bounds(
    estimate: PartialEstimate, alpha: float = 0.05, alternative: str = "two-sided"
) -> ConfidenceInterval:
    """The precisions ``theta`` the bias-aware test of ``(1 - w) P + w T`` does not reject.

    Score form, as Wilson's interval inverts the binomial test: at each
    candidate ``theta`` the labels-and-votes estimate ``P`` has variance
    ``theta (1 - theta) / n_eff`` (not the variance at ``P``), so
    ``s(theta) = sqrt((1 - w)^2 theta (1 - theta) / n_eff + w^2 sd_T^2)`` and
    ``theta`` is kept where ``abs((1 - w) P + w T - theta) <= cva(w B / s) s``
    (Armstrong & Kolesar, 2020, section 2; one-sided: ``w B + z s``). At
    ``w = 0`` this is Wilson's interval. Near 0 and 1, where a proportion's
    error is skewed and its estimated variance errs with it, the variance at
    ``theta`` keeps the test's size (at a precision of 0.979 with the transfer
    4.4 points low, within its bound, a normal interval around ``P``'s Wilson
    midpoint covered 0.89 at 50 labels). Found on :data:`THETA_GRID`, each end
    moved one step outwards.
    """
    w = estimate.weight
    centre = (1 - w) * estimate.ppi + w * estimate.transfer
    bias = w * estimate.bias_bound

    def sd(theta: np.ndarray) -> np.ndarray:
        own = (1 - w) ** 2 * theta * (1 - theta) / estimate.n_eff_ppi
        return np.sqrt(own + w**2 * estimate.transfer_sd**2)

    # cva(bias / s) s grows with s, so no theta past the reach at the largest s (theta = 1/2)
    # is kept: only the grid within it is tested
    widest = float(sd(np.array(0.5)))
    reach = float(critical_value(bias / widest, alpha / 2 if alternative != "two-sided" else alpha))
    reach = reach * widest + bias
    step = float(THETA_GRID[1] - THETA_GRID[0])
    first = max(int(np.floor((centre - reach) / step)) - 1, 0)
    last = min(int(np.ceil((centre + reach) / step)) + 1, THETA_GRID.size - 1)
    theta = THETA_GRID[first : last + 1]
    sd_theta = sd(theta)
    if alternative == "two-sided":
        kept = np.abs(centre - theta) <= critical_value(bias / sd_theta, alpha) * sd_theta
    else:
        one_sided = bias + _quantile(alpha, alternative) * sd_theta
        kept = (
            (theta - centre <= one_sided)
            if alternative == "less"
            else (centre - theta <= one_sided)
        )
    inside = theta[kept]
    low = 0.0 if alternative == "less" else max(float(inside.min()) - step, 0.0)
    high = 1.0 if alternative == "greater" else min(float(inside.max()) + step, 1.0)
    return ConfidenceInterval(np.float64(low), np.float64(high))


def tuned_lam(
    y: np.ndarray, f: np.ndarray, q_all: np.ndarray, w: np.ndarray, c: np.ndarray
) -> float:
    """The power-tuning weight of a labelled sample: ``B / C`` with two pseudo-labels, guarded.

    PPI++'s power tuning ``lam = Cov(y, f) / Var(f)`` (Angelopoulos, Duchi &
    Zrnic, 2023, section 2, with the design weights ``w = 1 / pi`` and
    ``c``; the mean of ``q`` over all items is known, so no ``1 + n / N``),
    on the labels with two pseudo-labels (one valid, one invalid, predicted at
    the labelled mean, weighted as the surest-drawn label), under the engine's
    rule set (:func:`regression.core.tuning.guarded_lam`). Where the labelled
    predictions hold one value, ``lam = 1`` is the one choice that corrects for
    what the sample missed: an active draw that holds none of the items the
    judges call surely invalid has labels from the other items only, whose
    mean alone is off by their difference (the active world "judges sure of
    the invalid items" of docs/labels.md, 50 labels: 4.6 % of draws, which
    covered 0.51 at ``lam = 0``).
    """
    y_aug, f_aug, w_aug, c_aug = with_pseudo_outcomes(
        y,
        f,
        w,
        c,
        at=hajek_mean(f, w),
        centre_weight=float(w.min()),
        spread_weight=max(float(c.min()), 1e-12),
    )
    _, b, cc = design_moments(y_aug, f_aug, w_aug, c_aug)
    return guarded_lam(b, cc, predictions=f, population=q_all, outcomes=y)


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
    The effective sample size is ``p~(1 - p~) / V``, so the Wilson interval's
    variance is the design variance ``V`` under any inclusion probabilities.

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
    c = design_weights(pi)
    f_bar = hajek_mean(f, w)
    if lam is None:
        lam = tuned_lam(y, f, q_all, w, c)
    a_r, b_r, c_r = design_moments(y, f, w, c)
    total = w.sum()
    v_lam = (a_r - 2 * lam * b_r + lam * lam * c_r) / total**2

    # the residuals' variance is estimated from the judges' rare surprises, which a small
    # sample may miss: never claim less than MODEL_FLOOR (half) of what the predictor itself
    # expects, sum c q(1-q) + (1 - lam)^2 (q - q_bar)^2 if it is calibrated, scaled by lam
    # (the votes' share: at lam = 0 the labels stand alone under their Kish floor below).
    # Half, not all: the larger of an unbiased estimate and its own expectation exceeds both
    # on average (the whole expectation made intervals 1.2-1.4x too wide by variance where
    # the judges are sure of the valid items); half binds only when the sample shows less
    # than half the spread calibrated judges would give, the sign that it missed the surprises
    def expected(lam: float) -> float:
        spread = (c * (f * (1 - f) + ((1 - lam) * (f - f_bar)) ** 2)).sum() / total**2
        return MODEL_FLOOR * lam * float(spread)

    # the labels' part, (1 - lam) times their weighted mean, is no surer than their Kish size
    # n_0 makes it (Wilson's variance at n_0, the mean kept one Kish-scale pseudo-label from 0
    # and 1): a few labels drawn with unequal weights can miss every heavy-weight item whose
    # label differs, and then show no spread of their own (all labels agreeing)
    n_0 = min(total**2 / max(c.sum(), 1e-12), float(big_n))
    labels_only = float((w * y).sum() / total)
    edge = 1 / (n_0 + 2)
    p_0 = float(np.clip(labels_only, edge, 1 - edge))
    kish = p_0 * (1 - p_0) / n_0
    v_lam = max(v_lam, expected(lam), (1 - lam) ** 2 * kish, 1e-15)
    ppi = float(lam * q_all.mean() + (w * (y - lam * f)).sum() / total)
    # the Wilson interval's variance p(1 - p) / n_eff is the design variance at the estimate,
    # p kept one Kish-scale pseudo-label from 0 and 1 so an all-valid sample keeps a width
    p_eff = float(np.clip(ppi, edge, 1 - edge))
    n_eff = float(p_eff * (1 - p_eff) / v_lam)
    se = float(np.sqrt(max(a_r - 2 * lam * b_r + lam * lam * c_r, 0.0)) / total)
    return PartialEstimate(
        estimate=ppi,
        n_eff=n_eff,
        n_labels=n,
        n_items=big_n,
        ppi=ppi,
        se=se,
        lam=float(lam),
        n_eff_ppi=n_eff,
        labels_only=labels_only,
        n_base=float(n_0),
        variance=float(v_lam),
    )


def combine_transfer(
    estimate: PartialEstimate,
    transfer: float,
    transfer_sd: float,
    bias_bound: float = float("nan"),
) -> PartialEstimate:
    """Combine the labels-and-votes estimate with the transfer estimate, its bias at most ``bias_bound``.

    Without a bound (NaN, the default) the transfer estimate gets no weight:
    no interval valid for every bias can do much better at zero bias
    (:mod:`regression.labels.bias`). With one, the weight minimises the
    bias-aware half-width given the variances and the bound alone, never
    ``transfer - ppi``, so the interval covers for every bias within the bound.

    Examples
    --------
    >>> base = ppi_design_mean(np.r_[np.ones(45), np.zeros(5)], np.full(50, .9), np.full(500, .9))
    >>> combine_transfer(base, 0.6, 0.02).estimate == base.ppi  # no bound: no weight
    True
    >>> near = combine_transfer(base, 0.9, 0.02, bias_bound=0.01)
    >>> 0 < near.weight < 1, near.n_transfer > 0, near.guarantee
    (True, True, 'bias-aware: valid if |transfer bias| <= 1.0 points')
    """
    if not (np.isfinite(transfer) and np.isfinite(transfer_sd) and transfer_sd > 0):
        return estimate
    # the labels-and-votes estimate, with the transfer estimate on record
    plain = replace(
        estimate,
        estimate=estimate.ppi,
        n_eff=estimate.n_eff_ppi,
        transfer=float(transfer),
        transfer_sd=float(transfer_sd),
        bias_bound=float(bias_bound),
        weight=0.0,
        n_transfer=0.0,
    )
    if not np.isfinite(bias_bound):
        return plain
    # the weight is chosen with the variance P's Wilson interval implies ((half / z)^2): near
    # 0 and 1 the design variance at P errs with P (50 valid labels: no spread), Wilson's not
    wilson = plain.bounds()
    wilson_half = float(wilson.high - wilson.low) / 2
    variance = (wilson_half / Z_95) ** 2
    choice = bias_aware_weight(variance, transfer_sd, bias_bound)
    # the Wilson interval is the w = 0 candidate: the transfer enters only where the
    # bias-aware interval is narrower by the widths the variances and the bound give (a
    # choice that never looks at T - P)
    if choice.weight == 0 or choice.half_width >= wilson_half:
        return plain
    combined = replace(
        plain,
        estimate=float((1 - choice.weight) * estimate.ppi + choice.weight * transfer),
        variance=variance,
        weight=choice.weight,
    )
    low, high = combined.bounds()
    half = float(high - low) / 2
    # effective size: the labels whose interval is as wide
    n_eff = estimate.n_eff_ppi * (wilson_half / half) ** 2
    return replace(
        combined, n_eff=float(n_eff), n_transfer=max(float(n_eff) - estimate.n_eff_ppi, 0.0)
    )


def estimate_generator(
    design: LabelDesign,
    generator: str,
    transfer: float = float("nan"),
    transfer_sd: float = float("nan"),
    *,
    bias_bound: float = float("nan"),
    seed: int = 0,
) -> PartialEstimate:
    """:func:`ppi_design_mean` on one partially labelled generator, then :func:`combine_transfer`."""
    rows = design.rows(generator)
    q, labelled, _ = predict_generator(design, generator, seed=seed)
    items = design.items.iloc[rows]
    y = items["human"].to_numpy(dtype=float)[labelled]
    pi = items[PROBABILITY_COLUMN].to_numpy(dtype=float)[labelled]
    base = ppi_design_mean(y, q[labelled], q, pi)
    return combine_transfer(base, transfer, transfer_sd, bias_bound)
