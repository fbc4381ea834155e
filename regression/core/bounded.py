"""Confidence intervals for bounded means that hold at any sample size: betting.

A normal-approximation interval for a mean rests on the sample's own spread; a
sample that happens to show no error (all labels agreeing, every residual 0)
gives it no width, as a Wald interval for a binomial with no successes. The
betting interval of Waudby-Smith & Ramdas (2024, *Estimating means of bounded
random variables by betting*, JRSS-B) needs only that each draw lies in known
bounds: it holds at every ``n`` for every distribution on those bounds, and an
all-equal sample keeps a width that shrinks with ``n``.

For a candidate mean ``m`` a gambler bets on each draw ``x_t`` in turn: the
capital ``K+(m) = prod_t (1 + lam+_t (x_t - m))`` (betting that the mean is
above ``m``) and ``K-(m) = prod_t (1 - lam-_t (x_t - m))`` (below). At the true
mean each is a nonnegative martingale starting at 1 when the bet ``lam_t``
depends only on earlier draws (predictable), so by Ville's (here, at fixed
``n``, Markov's) inequality it reaches ``1 / alpha`` with probability at most
``alpha``. The interval keeps every ``m`` whose hedged capital
``max(theta K+(m), (1 - theta) K-(m))`` stays below ``1 / alpha`` (Theorem 3,
section 4.2, ``theta = 1/2`` for two sides; the one-sided bounds bet on one
side, ``theta = 1`` or 0). ``K+`` falls and ``K-`` rises with ``m``, so the
kept set is an interval whose ends are found on a grid of candidates (every
candidate's capital at once, cumulative sums of logs) and then refined by
``brentq``.

The bets are the predictable plug-in bets of section 3.3 with the fixed-``n``
tuning of section 5 (the ``t log(1 + t)`` of a confidence sequence replaced by
``n``): ``lam_t = sqrt(2 log(2 / alpha_0) / (n s2_{t-1}))``, ``s2`` the running
variance regularised by one pseudo-draw at the middle of the bounds with
variance ``(range / 2)^2``, truncated at ``c / (m - low)`` (``K+``) and
``c / (high - m)`` (``K-``), ``c = 3/4``, which keeps each factor above
``1 - c``. ``alpha_0`` is 0.05 whatever ``alpha``: one capital process for all
levels, so the intervals nest as ``alpha`` shrinks.

The capital depends on the order of the draws. The sample is bet on in
:data:`ORDERS` seeded random orders and the capitals averaged: each order's
capital is a test martingale at the true mean (the draws are exchangeable), so
their mean has expectation at most 1 and Markov's inequality still applies; the
average removes the arbitrariness of one order. Same seed, same numbers.

Price: for large ``n`` the width is about ``sqrt(2 log(2 / alpha)) / z_{1 - alpha/2}``
times the normal interval's (1.39x at ``alpha = 0.05``), less at small ``n``,
where the normal interval undercovers (docs/labels.md measures it).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np
from scipy import special

from regression.checks import check_alpha, check_alternative
from regression.core.sampling import hajek_mean
from regression.core.tuning import (
    SAME_PREDICTION,
    design_moments,
    guarded_lam,
    lam_by_rule,
    with_pseudo_outcomes,
)
from regression.intervals import ConfidenceInterval

__all__ = [
    "BET_LEVEL",
    "DesignSample",
    "GRID_SIZE",
    "HeldSplit",
    "ORDERS",
    "TRUNCATION",
    "betting_interval",
    "check_design_sample",
    "design_lam",
    "ppi_interval",
]

#: The random orders whose capitals are averaged.
ORDERS = 8
#: ``c``: a bet never risks more than this share of the capital (WSR 2024, section 3.3: 1/2 or 3/4;
#: 3/4 narrows the interval where the bounds, not the spread, bind: few draws, a wide range).
TRUNCATION = 0.75
#: The level the bets are tuned for (``alpha_0``; the interval's own level is ``alpha``).
BET_LEVEL = 0.05
#: Candidate means on the grid that brackets each end before ``brentq``.
GRID_SIZE = 65
#: Values this far outside their bounds are rounding (a sum of weights), not an error.
SLACK = 1e-9


def _orders(n: int, seed: int) -> np.ndarray:
    """``(ORDERS, n)`` seeded permutations of ``range(n)``."""
    rng = np.random.default_rng(seed)
    return (
        np.stack([rng.permutation(n) for _ in range(ORDERS)]) if n else np.zeros((ORDERS, 0), int)
    )


def _bet_sizes(z: np.ndarray, prior_mean: float, prior_variance: float) -> np.ndarray:
    """Predictable plug-in bets ``sqrt(2 log(2 / alpha_0) / (n s2_{t-1}))`` per order (rows)."""
    n = max(z.shape[1], 1)
    t = np.arange(1, z.shape[1] + 1)
    mean = (prior_mean + np.cumsum(z, axis=1)) / (t + 1)
    variance = (prior_variance + np.cumsum((z - mean) ** 2, axis=1)) / (t + 1)
    before = np.concatenate([np.full((z.shape[0], 1), prior_variance), variance[:, :-1]], axis=1)
    return np.sqrt(2 * np.log(2 / BET_LEVEL) / (n * np.maximum(before, 1e-300)))


class _Capital:
    """The capitals ``log mean_orders K+(m)`` and ``log mean_orders K-(m)`` of draws in several orders.

    ``z``, ``low``, ``high``: ``(orders, n)`` draws and each draw's known
    bounds (predictable: fixed before the draw is seen); every candidate mean
    lies within every draw's bounds.
    """

    def __init__(
        self, z: np.ndarray, low: np.ndarray, high: np.ndarray, prior: tuple[float, float]
    ) -> None:
        self.z, self.low, self.high = z, low, high
        self.bets = _bet_sizes(z, *prior)

    def log_capital(self, m: np.ndarray, side: int) -> np.ndarray:
        """``log mean_orders K(m)`` for each candidate ``m`` (1-d); ``side`` +1 for ``K+``, -1 for ``K-``."""
        m = np.asarray(m, dtype=float)[:, None, None]
        room = (m - self.low) if side > 0 else (self.high - m)
        with np.errstate(divide="ignore"):
            cap = np.where(room > 0, TRUNCATION / np.maximum(room, 1e-300), np.inf)
        bet = np.minimum(self.bets[None], cap)
        log_k = np.log1p(side * bet * (self.z[None] - m)).sum(axis=2)
        return special.logsumexp(log_k, axis=1) - np.log(self.z.shape[0])

    def end(self, side: int, threshold: float, limits: tuple[float, float]) -> float:
        """The end of the kept set on ``side``'s far side: where ``log K`` crosses ``threshold``.

        ``K+`` falls with ``m``: the lower end is the least ``m`` with
        ``log K+(m) < threshold``; ``K-`` rises: the upper end is the largest.
        """
        lo, hi = limits
        if self.z.shape[1] == 0 or hi <= lo:
            return lo if side > 0 else hi
        grid = np.linspace(lo, hi, GRID_SIZE)
        excess = self.log_capital(grid, side) - threshold
        if side < 0:  # mirror: the upper end of K- is the lower end of a falling function
            grid, excess = grid[::-1], excess[::-1]
        kept = np.flatnonzero(excess < 0)
        if kept.size == 0:  # every candidate rejected on this side: the far limit
            return hi if side > 0 else lo
        first = int(kept[0])
        if first == 0:
            return float(grid[0])

        def gap(m: float) -> float:
            return float(self.log_capital(np.array([m]), side)[0] - threshold)

        from scipy import (
            optimize,  # only the betting interval needs it: `jurycal judge` stays light
        )

        return float(optimize.brentq(gap, grid[first - 1], grid[first], xtol=1e-12))

    def interval(
        self, alpha: float, alternative: str, limits: tuple[float, float]
    ) -> tuple[float, float]:
        """Theorem 3's interval: ``theta = 1/2`` two-sided, one side's capital alone one-sided."""
        two = alternative == "two-sided"
        threshold = np.log(1 / alpha) + (np.log(2) if two else 0.0)
        low = limits[0] if alternative == "less" else self.end(+1, threshold, limits)
        high = limits[1] if alternative == "greater" else self.end(-1, threshold, limits)
        return low, high


def _check_bounds(bounds: Sequence[float], name: str) -> tuple[float, float]:
    try:
        low, high = (float(b) for b in bounds)
    except (TypeError, ValueError):
        raise ValueError(f"{name} {bounds!r} must be a pair (low, high) of numbers.") from None
    if not (np.isfinite(low) and np.isfinite(high) and low < high):
        raise ValueError(f"{name} {bounds!r} must be finite with low < high.")
    return low, high


def _check_within(values: np.ndarray, bounds: tuple[float, float], name: str) -> np.ndarray:
    low, high = bounds
    slack = SLACK * (high - low)
    bad = ~np.isfinite(values) | (values < low - slack) | (values > high + slack)
    if bad.any():
        raise ValueError(
            f"{name}: value {float(values[bad][0])!r} (position {int(np.flatnonzero(bad)[0])}) is "
            f"not within the bounds {bounds}."
        )
    return np.clip(values, low, high)


def betting_interval(
    values: Sequence[float] | np.ndarray,
    bounds: Sequence[float],
    alpha: float = 0.05,
    *,
    seed: int = 0,
    alternative: str = "two-sided",
) -> ConfidenceInterval:
    """The betting confidence interval for the mean of i.i.d. draws known to lie in ``bounds``.

    Parameters
    ----------
    values : array_like
        The draws, i.i.d. (or exchangeable), each within ``bounds``.
    bounds : (float, float)
        ``(low, high)``, known before the draws.
    alpha : float
        ``1 - alpha`` is the level.
    seed : int
        Seeds the random orders the capitals are averaged over.
    alternative : {"two-sided", "less", "greater"}
        scipy's convention (:mod:`regression.intervals`).

    Returns
    -------
    ConfidenceInterval
        Within ``bounds``; covers the mean with probability at least
        ``1 - alpha`` at every ``n`` and for every distribution on ``bounds``
        (Waudby-Smith & Ramdas, 2024, Theorem 3; module docstring). No draws:
        ``bounds`` itself.

    Raises
    ------
    ValueError
        Bounds not a finite pair with ``low < high``, a value outside them, a
        bad ``alpha`` or ``alternative``.

    Examples
    --------
    Twenty draws that all show no error still leave room for some:

    >>> low, high = betting_interval(np.ones(20), (0, 1))
    >>> bool(0.5 < low < 1.0), float(high)
    (True, 1.0)
    """
    alpha, alternative = check_alpha(alpha), check_alternative(alternative)
    low, high = _check_bounds(bounds, "bounds")
    x = np.asarray(values, dtype=float).ravel()
    x = (_check_within(x, (low, high), "values") - low) / (high - low)
    z = x[_orders(x.size, seed)]
    capital = _Capital(z, np.zeros_like(z), np.ones_like(z), (0.5, 0.25))
    lo, hi = capital.interval(alpha, alternative, (0.0, 1.0))
    return ConfidenceInterval(
        np.float64(low + (high - low) * lo), np.float64(low + (high - low) * hi)
    )


def design_lam(
    outcomes: np.ndarray,
    predictions: np.ndarray,
    population_predictions: np.ndarray,
    probabilities: np.ndarray,
    bounds: tuple[float, float] = (0.0, 1.0),
) -> float:
    """PPI++'s power-tuning weight on a design-weighted sample, two pseudo-outcomes added, guarded.

    ``lam = B / C`` (:func:`~regression.core.tuning.design_moments`, weights
    ``1 / pi`` and ``(1 - pi) / pi^2``; Angelopoulos, Duchi & Zrnic, 2023,
    section 2) with one pseudo-outcome at each bound predicted at the labelled
    mean, weighted as the surest-drawn unit, under the rule set of
    :func:`~regression.core.tuning.guarded_lam`. It looks at every draw: for a
    point estimate, never for the capital a betting interval bets with.
    """
    pi = np.asarray(probabilities, dtype=float)
    w = 1.0 / pi
    c = (1.0 - pi) / pi**2
    y_aug, f_aug, w_aug, c_aug = with_pseudo_outcomes(
        outcomes,
        predictions,
        w,
        c,
        at=hajek_mean(predictions, w),
        centre_weight=float(w.min()),
        spread_weight=max(float(c.min()), 1e-12),
        bounds=bounds,
    )
    _, b, cc = design_moments(y_aug, f_aug, w_aug, c_aug)
    return guarded_lam(
        b, cc, predictions=predictions, population=population_predictions, outcomes=outcomes
    )


def _predictable_lam(
    y: np.ndarray, f: np.ndarray, r: np.ndarray, population_varies: bool
) -> np.ndarray:
    """``lam_t`` from the draws before ``t`` in each order (rows): ``Cov(u, g) / Var(g)``, guarded.

    ``u = y / r`` and ``g = f / r`` are the importance-weighted draws; the
    variance of ``u - lam g`` is least at that ratio. Fewer than two earlier
    draws, or earlier outcomes that all agree: 0 (the rule set of
    :func:`~regression.core.tuning.lam_by_rule`).
    """
    u, g = y / r, f / r

    def before(a: np.ndarray) -> np.ndarray:
        total = np.cumsum(a, axis=1)
        return np.concatenate([np.zeros((a.shape[0], 1)), total[:, :-1]], axis=1)

    k = np.maximum(before(np.ones_like(u)), 1.0)
    su, sg = before(u), before(g)
    cov = before(u * g) / k - su * sg / k**2
    var = before(g * g) / k - (sg / k) ** 2

    def spread(a: np.ndarray) -> np.ndarray:
        top = np.maximum.accumulate(a, axis=1)
        bottom = np.minimum.accumulate(a, axis=1)
        gap = top - bottom
        return np.concatenate([np.zeros((a.shape[0], 1)), gap[:, :-1]], axis=1)

    return lam_by_rule(
        cov,
        var,
        predictions_vary=spread(f) > SAME_PREDICTION,
        population_varies=population_varies,
        outcomes_vary=spread(y) > 0,
    )


class HeldSplit(NamedTuple):
    """A design sample's units held for sure, summed, and the rest, drawn by chance (:meth:`DesignSample.split`)."""

    held_total: float
    size: int
    rest: int
    outcomes: np.ndarray
    predictions: np.ndarray
    probabilities: np.ndarray
    prediction_mean: float

    def whole(self, rest_mean: float) -> float:
        """The population's mean from the mean of its units not held: ``(held total + M rest_mean) / N``."""
        return (self.held_total + self.rest * rest_mean) / self.size


class DesignSample(NamedTuple):
    """A drawn sample of a prediction-powered mean, checked (:func:`check_design_sample`)."""

    outcomes: np.ndarray
    predictions: np.ndarray
    population: np.ndarray
    probabilities: np.ndarray
    outcome_bounds: tuple[float, float]
    prediction_bounds: tuple[float, float]
    #: Every population unit's inclusion probability, where the caller knows them.
    population_probabilities: np.ndarray | None = None

    def split(self) -> HeldSplit:
        """The units held for sure (``pi = 1``: they enter exactly) apart from the ``M`` others.

        ``prediction_mean`` is the mean prediction of the population's units
        not held (0 where every unit is held).
        """
        held = self.probabilities >= 1.0
        size = self.population.size
        rest = size - int(held.sum())
        rest_predictions = self.population.sum() - self.predictions[held].sum()
        return HeldSplit(
            held_total=float(self.outcomes[held].sum()),
            size=size,
            rest=rest,
            outcomes=self.outcomes[~held],
            predictions=self.predictions[~held],
            probabilities=self.probabilities[~held],
            prediction_mean=float(rest_predictions / rest) if rest else 0.0,
        )


def check_design_sample(
    outcomes: Sequence[float] | np.ndarray,
    predictions: Sequence[float] | np.ndarray,
    population_predictions: Sequence[float] | np.ndarray,
    probabilities: Sequence[float] | np.ndarray,
    lam: float | None,
    *,
    outcome_bounds: Sequence[float],
    prediction_bounds: Sequence[float],
    population_probabilities: Sequence[float] | np.ndarray | None = None,
) -> DesignSample:
    """The arguments every interval of a prediction-powered mean takes, checked once.

    Bounds a finite pair with ``low < high``; outcomes and predictions within
    them (rounding clipped); one probability in (0, 1] per drawn unit; the
    population holding at least the drawn units; ``lam`` in [0, 1] or None;
    ``population_probabilities``, where given, one per population unit.

    Raises
    ------
    ValueError
        Naming the first argument that breaks a rule, and its value.
    """
    y_bounds = _check_bounds(outcome_bounds, "outcome_bounds")
    f_bounds = _check_bounds(prediction_bounds, "prediction_bounds")
    y = _check_within(np.asarray(outcomes, dtype=float).ravel(), y_bounds, "outcomes")
    f = _check_within(np.asarray(predictions, dtype=float).ravel(), f_bounds, "predictions")
    q = _check_within(
        np.asarray(population_predictions, dtype=float).ravel(), f_bounds, "population_predictions"
    )
    pi = np.asarray(probabilities, dtype=float).ravel()
    if not (y.size == f.size == pi.size):
        raise ValueError(
            f"outcomes ({y.size}), predictions ({f.size}) and probabilities ({pi.size}) "
            "must have one entry per drawn unit."
        )
    bad = ~np.isfinite(pi) | (pi <= 0) | (pi > 1)
    if bad.any():
        raise ValueError(f"probabilities: {float(pi[bad][0])!r} is not in (0, 1].")
    if q.size < y.size:
        raise ValueError(
            f"population_predictions ({q.size}) must hold every unit, the {y.size} drawn included."
        )
    if lam is not None and not 0.0 <= float(lam) <= 1.0:
        raise ValueError(f"lam {lam!r} must be in [0, 1] or None.")
    pop = None
    if population_probabilities is not None:
        pop = np.asarray(population_probabilities, dtype=float).ravel()
        if pop.size != q.size:
            raise ValueError(
                f"population_probabilities ({pop.size}) must match population_predictions "
                f"({q.size})."
            )
    return DesignSample(y, f, q, pi, y_bounds, f_bounds, pop)


def ppi_interval(
    outcomes: Sequence[float] | np.ndarray,
    predictions: Sequence[float] | np.ndarray,
    population_predictions: Sequence[float] | np.ndarray,
    probabilities: Sequence[float] | np.ndarray,
    lam: float | None,
    *,
    outcome_bounds: Sequence[float],
    prediction_bounds: Sequence[float],
    alpha: float = 0.05,
    seed: int = 0,
    alternative: str = "two-sided",
    population_probabilities: Sequence[float] | np.ndarray | None = None,
) -> tuple[float, ConfidenceInterval]:
    """The prediction-powered mean of a finite population under a design, with its betting interval.

    ``theta = mean_all(y)`` over the ``N`` units of the population, estimated
    by ``lam mean_all(f) + Hajek mean of (y - lam f)`` over the drawn units.

    Parameters
    ----------
    outcomes, predictions : array_like
        The drawn units' human outcomes and the judges' predictions of them.
    population_predictions : array_like
        The predictions on all ``N`` units (the drawn ones included).
    probabilities : array_like
        The drawn units' inclusion probabilities; 1 for a unit held for sure.
    lam : float or None
        A fixed power-tuning weight, chosen without these draws (another
        sample, a plan); ``None``: tuned on the draws for the estimate
        (:func:`design_lam`) and predictably for the interval (Notes).
    outcome_bounds, prediction_bounds : (float, float)
        Known bounds of every outcome and every prediction.
    alpha : float
    seed : int
        Seeds the random orders of the draws.
    alternative : {"two-sided", "less", "greater"}
    population_probabilities : array_like, optional
        Every unit's inclusion probability (same order as
        ``population_predictions``). Default: the population's smallest and
        largest probability below 1 are the drawn units' (exact for a
        uniform design; for an unequal one an assumption, stated here).

    Returns
    -------
    estimate : float
        The prediction-powered estimate clipped to ``outcome_bounds``.
    interval : ConfidenceInterval
        Covers ``theta`` with probability at least ``1 - alpha`` (Notes),
        within ``outcome_bounds`` and holding ``estimate``.

    Notes
    -----
    Units held for sure (``pi = 1``) enter exactly; the other ``M`` units'
    mean ``theta_r`` is what is estimated. The draws from them are read as
    ``n`` independent draws with replacement, unit ``j`` with probability
    ``p_j = pi_j / sum pi`` (the importance-weighted view; uniform design:
    ``p_j = 1 / M``): draw ``t`` has value
    ``z_t = lam_t mean_M(f) + (y_t - lam_t f_t) / (M p_t)``, whose mean is
    ``theta_r`` for any ``lam_t`` fixed before the draw, and whose bounds
    follow from the outcome bounds, the population's predictions and its
    smallest and largest ``p``. :func:`betting_interval`'s capital bets on
    the ``z_t`` with these per-draw bounds (its module docstring). A draw
    without replacement is read as one with replacement: exact for a
    population large against the sample, and in practice conservative
    otherwise (a draw without replacement varies less), not proven so.

    ``lam`` is tuned **predictably**: ``lam_t`` in each random order is
    PPI++'s ``Cov(u, g) / Var(g)`` of the importance-weighted outcomes and
    predictions drawn before ``t`` (clipped to [0, 1], 0 until two earlier
    outcomes differ). A ``lam`` tuned on all the draws would let each bet see
    the draw it bets on, and the capital would no longer be a martingale at
    ``theta``; cross-fitting would halve the draws each ``lam`` learns from,
    where the predictable one uses every earlier draw and costs only the
    first few bets.

    The estimate (full-sample ``lam``) is clipped to ``outcome_bounds``, and
    the interval is the betting interval's hull with it: a superset of a valid
    interval, so no less valid, and the estimate lies inside by construction.

    Examples
    --------
    Judges that are always right: the interval is narrower than the labels' own.

    >>> rng = np.random.default_rng(1)
    >>> f = (rng.random(2000) < 0.3).astype(float)
    >>> pick = rng.choice(2000, 100, replace=False)
    >>> est, (low, high) = ppi_interval(f[pick], f[pick], f, np.full(100, 0.05), None,
    ...                                 outcome_bounds=(0, 1), prediction_bounds=(0, 1))
    >>> labels = betting_interval(f[pick], (0, 1))
    >>> bool(high - low < 0.6 * (labels.high - labels.low)), bool(low <= est <= high)
    (True, True)
    """
    alpha, alternative = check_alpha(alpha), check_alternative(alternative)
    sample = check_design_sample(
        outcomes,
        predictions,
        population_predictions,
        probabilities,
        lam,
        outcome_bounds=outcome_bounds,
        prediction_bounds=prediction_bounds,
        population_probabilities=population_probabilities,
    )
    q, y_bounds, pop = sample.population, sample.outcome_bounds, sample.population_probabilities
    part = sample.split()
    y_r, f_r, pi_r = part.outcomes, part.predictions, part.probabilities
    rest, f_mean, whole = part.rest, part.prediction_mean, part.whole
    population_varies = bool(np.ptp(q) > SAME_PREDICTION) if q.size else False

    lam_hat = (
        float(lam)
        if lam is not None
        else (design_lam(y_r, f_r, q, pi_r, y_bounds) if y_r.size else 0.0)
    )
    theta_r = lam_hat * f_mean + hajek_mean(y_r - lam_hat * f_r, 1.0 / pi_r) if y_r.size else np.nan
    if rest == 0:
        exact = float(np.clip(part.whole(0.0), *y_bounds))
        return exact, ConfidenceInterval(np.float64(exact), np.float64(exact))

    # r = M p: 1 for every unit of a uniform design, by structure
    if pop is not None:
        pop_rest = pop[pop < 1.0]
        scale = pop_rest.size / pop_rest.sum()
        r = pi_r * scale
        r_min, r_max = float(pop_rest.min() * scale), float(pop_rest.max() * scale)
    elif pi_r.size and np.ptp(pi_r) > 0:
        # a fixed-size design's probabilities sum to its sample size over the population
        scale = rest / pi_r.size
        r = pi_r * scale
        r_min, r_max = min(float(r.min()), 1.0), max(float(r.max()), 1.0)
    else:
        r = np.ones_like(pi_r)
        r_min = r_max = 1.0

    order = _orders(y_r.size, seed)
    yo, fo, ro = y_r[order], f_r[order], r[order]
    if lam is None:
        lam_t = _predictable_lam(yo, fo, ro, population_varies)
    else:
        lam_t = np.full(yo.shape, float(lam))
    z = lam_t * f_mean + (yo - lam_t * fo) / ro
    # each draw's bounds, fixed before it is seen: the outcome bounds less lam_t times the
    # population's predictions, over the population's range of r
    q_low, q_high = float(q.min()), float(q.max())
    a_low, a_high = y_bounds[0] - lam_t * q_high, y_bounds[1] - lam_t * q_low
    z_low = lam_t * f_mean + np.minimum(a_low / r_min, a_low / r_max)
    z_high = lam_t * f_mean + np.maximum(a_high / r_min, a_high / r_max)
    width = y_bounds[1] - y_bounds[0]
    capital = _Capital(
        np.clip(z, z_low, z_high), z_low, z_high, (0.5 * sum(y_bounds), (width / 2) ** 2)
    )
    lo, hi = capital.interval(alpha, alternative, y_bounds)
    estimate = whole(float(np.clip(theta_r if y_r.size else f_mean, *y_bounds)))
    low, high = min(whole(lo), estimate), max(whole(hi), estimate)
    return estimate, ConfidenceInterval(
        np.float64(np.clip(low, *y_bounds)), np.float64(np.clip(high, *y_bounds))
    )
