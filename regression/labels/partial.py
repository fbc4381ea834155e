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

The interval of ``P`` (``interval_method``, :data:`~regression.registry.BOUNDED_INTERVAL_METHODS`):

- ``"floored"`` (default): the normal interval of the prediction-powered
  mean on its design variance, each side at least the shift a share of the
  items the sample had a fair chance of missing could cause
  (:func:`regression.core.floor.floored_ppi_interval`, docs/intervals.md): it
  keeps the normal width where the sample shows the judges' errors and a
  width that only more labels shrink where it shows none.
- ``"betting"``: the betting interval of the prediction-powered
  mean (:func:`regression.core.bounded.ppi_interval`; Waudby-Smith & Ramdas,
  2024), valid at any number of labels whatever the residuals' distribution,
  on their known bounds alone. A sample that shows no error (an active draw
  that holds none of the items the judges all get wrong) keeps a width that
  only more labels shrink. Its ``lam`` is tuned predictably (each bet from the
  labels before it), so the interval's guarantee does not lean on the
  asymptotics of a tuned ``lam``. The price: about 1.39x the normal width for
  many labels, less for few (docs/labels.md measures it).
- ``"normal"``: a Wilson score interval at the effective sample size
  ``n_eff = p(1 - p) / V`` described next. It rests on the sample's own
  spread, floored: a few labels that miss the rare items carrying the
  variance give it too little width (docs/labels.md: 0.35 coverage at 25
  active labels where the judges share a blind spot).

``V`` is the design variance (Poisson sampling, linearised), ``p`` the
estimate kept one Kish-scale pseudo-label from 0 and 1, so the Wilson
interval's variance is the design variance whatever the design. ``V`` has two
floors, since a few labels can miss the rare items that carry the variance,
each binding only where the sample's own estimate cannot be trusted: half of
what the predictor itself expects (``lam sum c q(1 - q)`` plus the labels'
part, read as calibrated), which binds only when the sample shows less than
half the spread calibrated judges would give; and the labels' own part,
``(1 - lam)`` times their weighted mean, never surer than their Kish size
``n_0 = (sum w)^2 / sum c`` makes it. ``V`` and ``n_eff`` measure what the
judges and the transfer are worth (the labels table) whichever interval is
reported. ``lam`` is tuned with two pseudo-labels (one valid, one invalid,
predicted at the labelled mean), so a sample of all-valid labels, whose
residuals say nothing about the judges' errors, gets ``lam = 0``.

The estimate lies in [0, 1] (clipped) and inside its own interval (the
interval is its hull with the estimate: a superset of a valid interval).
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field, replace

import numpy as np

from regression.core.bounded import design_lam
from regression.core.sampling import design_weights, hajek_mean
from regression.core.tuning import design_moments
from regression.intervals import ConfidenceInterval, normal_quantile
from regression.labels.bias import (
    CONTRADICTION_LEVEL,
    TransferBiasWarning,
    bias_aware_weight,
    critical_value,
    transfer_contradicted,
)
from regression.labels.design import PROBABILITY_COLUMN, LabelDesign
from regression.labels.interval import (
    LabelledSample,
    cached_quantile,
    check_interval_method,
    score_interval,
)
from regression.labels.predict import predict_generator
from regression.registry import BOUNDED_INTERVAL_METHODS

__all__ = [
    "COVERS",
    "GUARANTEES",
    "PartialEstimate",
    "combine_transfer",
    "default_size",
    "estimate_generator",
    "ppi_design_mean",
]

#: The share of the calibrated predictor's expected residual variance that floors the design variance.
MODEL_FLOOR = 0.5

#: The two-sided 95 % normal quantile (the level the effective sizes are stated at).
Z_95 = normal_quantile(0.05)

#: What the interval of a partially labelled generator accounts for.
COVERS = (
    "the random choice of the labelled items (design-based, inverse-probability weighted) and "
    "the judges' errors on them, at any number of labels and whatever the errors' distribution, "
    "a sample that happens to show no error included (the normal interval floored by the shift "
    "of a share of items the sample may have missed; interval_method='betting': valid at any n, "
    "'normal': a Wilson interval at the effective sample size, valid for many labels only); where a bound on the transfer estimate's bias is assumed "
    "(transfer_bias) and narrows the interval, also the transfer estimate's own interval and "
    "any bias up to that bound (bias-aware interval)"
)

#: Which guarantee a partially labelled generator's interval carries, by ``PartialEstimate.source``.
GUARANTEES = {
    "labels and votes": "labels and votes: valid for any transfer bias",
    "labels and votes (normal)": "labels and votes, normal: valid for many labels, any transfer bias",
    "bias-aware": "bias-aware: valid if |transfer bias| <= {bound:.1f} points",
}


@dataclass(frozen=True)
class PartialEstimate:
    """One partially labelled generator's estimate: a record of :class:`~regression.labels.result.PartialLabels`.

    Attributes
    ----------
    estimate : float
        The final estimate: ``ppi``, or ``(1 - weight) ppi + weight transfer``.
    n_eff : float
        Effective sample size: the labels a 95 % Wilson interval as wide as
        the normal (or bias-aware) one would take at this precision; what the
        labels, votes and transfer are worth on the design variance, whichever
        interval is reported (the betting interval is wider by its price).
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
    interval_method : str
        ``"floored"`` (default), ``"betting"`` or ``"normal"``
        (:data:`~regression.registry.BOUNDED_INTERVAL_METHODS`; module docstring).
    sample : LabelledSample or None
        What the engine's interval rests on (None: the normal interval).
    transfer_contradicted : bool
        The labels reject, at level 0.05, a transfer bias within ``bias_bound``
        (:func:`~regression.labels.bias.transfer_contradicted`); the weight
        stays as chosen (changing it on this test would be a pre-test).
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
    interval_method: str = BOUNDED_INTERVAL_METHODS[0]
    sample: LabelledSample | None = field(default=None, compare=False, repr=False)
    transfer_contradicted: bool = False

    @property
    def source(self) -> str:
        """``"labels and votes"`` (``"... (normal)"``) or ``"bias-aware"`` (labels, votes and the transfer)."""
        if self.weight > 0:
            return "bias-aware"
        return "labels and votes" if self.from_engine else "labels and votes (normal)"

    @property
    def from_engine(self) -> bool:
        """Whether the labels-and-votes interval is the engine's (floored or betting), not Wilson's."""
        return self.interval_method != "normal" and self.sample is not None

    @property
    def guarantee(self) -> str:
        """The guarantee the interval carries, in words (:data:`GUARANTEES`)."""
        return GUARANTEES[self.source].format(bound=100 * self.bias_bound)

    @property
    def own_sd(self) -> float:
        """Standard deviation of the part of the error that is not the transfer's: ``(1 - weight) sqrt(variance)``."""
        return float((1 - self.weight) * np.sqrt(self.variance))

    def default_bounds(
        self, alpha: float = 0.05, alternative: str = "two-sided"
    ) -> ConfidenceInterval:
        """The labels-and-votes interval: the engine's (:class:`LabelledSample`) or Wilson at :attr:`n_eff_ppi`.

        Its hull with :attr:`ppi`, which therefore lies inside it.
        """
        if self.from_engine:
            assert self.sample is not None  # from_engine says so
            low, high = self.sample.bounds(alpha, alternative)
        else:
            low, high = (
                float(b) for b in score_interval(self.ppi, self.n_eff_ppi, alpha, alternative)
            )
        return ConfidenceInterval(np.float64(min(low, self.ppi)), np.float64(max(high, self.ppi)))

    def bounds(self, alpha: float = 0.05, alternative: str = "two-sided") -> ConfidenceInterval:
        """The interval: :meth:`default_bounds`, or bias-aware in score form (:func:`bias_aware_bounds`)."""
        if self.weight == 0:
            return self.default_bounds(alpha, alternative)
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
    moved one step outwards, and holding the estimate.
    """
    w = estimate.weight
    centre = float(np.clip((1 - w) * estimate.ppi + w * estimate.transfer, 0.0, 1.0))
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
        one_sided = bias + cached_quantile(alpha, alternative) * sd_theta
        kept = (
            (theta - centre <= one_sided)
            if alternative == "less"
            else (centre - theta <= one_sided)
        )
    # the estimate lies in [0, 1] (clipped), so the grid holds a neighbour of it; where the test
    # keeps no grid point (a standard deviation below a step), the interval is that neighbourhood
    inside = theta[kept] if kept.any() else np.array([centre])
    low = 0.0 if alternative == "less" else max(float(inside.min()) - step, 0.0)
    high = 1.0 if alternative == "greater" else min(float(inside.max()) + step, 1.0)
    return ConfidenceInterval(np.float64(min(low, centre)), np.float64(max(high, centre)))


def ppi_design_mean(
    y: np.ndarray,
    q_labelled: np.ndarray,
    q_all: np.ndarray,
    probability: np.ndarray | None = None,
    lam: float | None = None,
    *,
    interval_method: str = BOUNDED_INTERVAL_METHODS[0],
    seed: int = 0,
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
        A fixed power-tuning weight, chosen without these labels; default
        tuned on the labels with two pseudo-labels and clipped to [0, 1]
        (:func:`~regression.core.bounded.design_lam`) for the estimate, and
        by the engine for its interval (module docstring).
    interval_method : {"floored", "betting", "normal"}
        The interval (module docstring).
    seed : int
        Seeds the betting interval's random orders.

    Returns
    -------
    PartialEstimate
        Without the transfer estimate (``estimate == ppi``, clipped to [0, 1]).

    Raises
    ------
    ValueError
        An unknown ``interval_method``.

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
    check_interval_method(interval_method)
    y = np.asarray(y, dtype=float)
    f = np.asarray(q_labelled, dtype=float)
    q_all = np.asarray(q_all, dtype=float)
    n, big_n = y.size, q_all.size
    pi = np.full(n, n / big_n) if probability is None else np.asarray(probability, dtype=float)
    w = 1.0 / pi
    c = design_weights(pi)
    f_bar = hajek_mean(f, w)
    sample = (
        LabelledSample(y, f, q_all, pi, lam, seed, interval_method)
        if interval_method != "normal"
        else None
    )
    if lam is None:
        lam = design_lam(y, f, q_all, pi)
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
    # clipped: a prediction-powered mean can leave [0, 1] (lam q_bar plus a residual mean)
    ppi = float(np.clip(lam * q_all.mean() + (w * (y - lam * f)).sum() / total, 0.0, 1.0))
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
        interval_method=interval_method,
        sample=sample,
    )


def default_size(estimate: PartialEstimate) -> float:
    """The labels' effective size as the default interval shows them: :attr:`~PartialEstimate.n_eff_ppi`, or less.

    The size whose Wilson interval at :attr:`~PartialEstimate.ppi` is as wide
    as :meth:`~PartialEstimate.default_bounds`, where that is narrower than
    :attr:`~PartialEstimate.n_eff_ppi` (the design variance's size, which a
    sample showing no judge error inflates; the floored interval's floor does
    not shrink with it). Found on a geometric grid of 2,000 sizes from 1: the
    largest whose Wilson interval is at least as wide.
    """
    size = float(estimate.n_eff_ppi)
    low, high = estimate.default_bounds()
    width = float(high - low)
    sizes = np.geomspace(1.0, max(size, 1.0), 2000)
    wilson = score_interval(np.full(sizes.size, estimate.ppi), sizes)
    wide_enough = np.asarray(np.asarray(wilson.high) - np.asarray(wilson.low) >= width, dtype=bool)
    if not wide_enough.any() or wide_enough[-1]:
        return size
    return float(sizes[np.flatnonzero(wide_enough)[-1]])


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
    The transfer enters only where its interval is narrower than the
    labels-and-votes one (:meth:`PartialEstimate.default_bounds`): otherwise
    the result is that one, with its guarantee and worth. Where the labels
    reject, at level 0.05, a bias within the bound
    (:func:`~regression.labels.bias.transfer_contradicted`), the result says so
    (``transfer_contradicted``) and the weight stays as chosen: a weight chosen
    by that test would be a pre-test, with no guarantee.

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
    # the labels count for no more than the default interval shows them: where its floor (the
    # share of items the draw may have missed) makes it wider than Wilson's at the design
    # variance's size, the size whose Wilson interval is as wide
    estimate = replace(estimate, n_eff_ppi=default_size(estimate))
    # the weight is chosen with the variance P's Wilson interval implies ((half / z)^2): near
    # 0 and 1 the design variance at P errs with P (50 valid labels: no spread), Wilson's not
    wilson = score_interval(estimate.ppi, estimate.n_eff_ppi)
    wilson_half = float(wilson.high - wilson.low) / 2
    variance = (wilson_half / Z_95) ** 2
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
        transfer_contradicted=bool(
            np.isfinite(bias_bound)
            and transfer_contradicted(estimate.ppi, transfer, variance, transfer_sd, bias_bound)
        ),
    )
    if not np.isfinite(bias_bound):
        return plain
    choice = bias_aware_weight(variance, transfer_sd, bias_bound)
    # the Wilson interval is the w = 0 candidate: the transfer enters only where the
    # bias-aware interval is narrower by the widths the variances and the bound give (a
    # choice that never looks at T - P)
    if choice.weight == 0 or choice.half_width >= wilson_half:
        return plain
    combined = replace(
        plain,
        estimate=float(
            np.clip((1 - choice.weight) * estimate.ppi + choice.weight * transfer, 0.0, 1.0)
        ),
        variance=variance,
        weight=choice.weight,
    )
    low, high = combined.bounds()
    half = float(high - low) / 2
    # never wider than the default: there the default stands, with its guarantee and worth
    default_low, default_high = plain.default_bounds()
    if half >= float(default_high - default_low) / 2:
        return plain
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
    interval_method: str = BOUNDED_INTERVAL_METHODS[0],
    seed: int = 0,
) -> PartialEstimate:
    """:func:`ppi_design_mean` on one partially labelled generator, then :func:`combine_transfer`.

    Warns (:class:`~regression.labels.bias.TransferBiasWarning`) where the
    generator's labels contradict the transfer estimate beyond ``bias_bound``.
    """
    rows = design.rows(generator)
    q, labelled, _ = predict_generator(design, generator, seed=seed)
    items = design.items.iloc[rows]
    y = items["human"].to_numpy(dtype=float)[labelled]
    pi = items[PROBABILITY_COLUMN].to_numpy(dtype=float)[labelled]
    base = ppi_design_mean(y, q[labelled], q, pi, interval_method=interval_method, seed=seed)
    combined = combine_transfer(base, transfer, transfer_sd, bias_bound)
    if combined.transfer_contradicted:
        warnings.warn(
            f"generator {generator!r}: its labels and votes ({100 * combined.ppi:.1f} %) "
            f"contradict the transfer estimate ({100 * combined.transfer:.1f} %) beyond the "
            f"assumed bias bound of {100 * combined.bias_bound:.1f} points (a test at level "
            f"{CONTRADICTION_LEVEL:.0%} rejects |transfer bias| <= the bound); the bias-aware "
            "interval's guarantee rests on that bound. The weight is left as the variances "
            "and the bound chose it (choosing it by this test would be a pre-test): drop "
            "transfer_bias for the labels-and-votes interval, or assume a wider bound.",
            TransferBiasWarning,
            stacklevel=2,
        )
    return combined
