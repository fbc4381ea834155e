"""The normal interval of a prediction-powered mean, each side floored by what an unseen mass could move.

A normal-approximation interval rests on the sample's own spread. When the
judges are wrong together on a kind of items that no drawn unit happens to
belong to, the sample shows no such error, its spread is small and the interval
collapses away from the truth (a Wald interval for a binomial with no
successes). What the sample cannot rule out is bounded, though: a share
``eps`` of the population that every unit of a sample of ``m`` missed has
that chance ``(1 - eps)^m`` at most, below ``alpha / 2`` once
``eps >= 1 - (alpha / 2)^(1 / m)`` (Clopper-Pearson's bound for no success,
about ``3.7 / m``, the rule of three of Hanley & Lippman-Hand, 1983; or
Wilson's, ``z^2 / (m + z^2)``, the smaller from 7 to 45 units), with
``m = N pi_min`` for a design whose smallest inclusion probability is
``pi_min`` (:func:`unseen_share`). Such a share can move the mean by at
most its units' gaps ``D_j`` to the worst residual each could have,
``y_low - lam f_j`` below and ``y_high - lam f_j`` above: every unit's
prediction is known, so the ``eps N`` units that move it furthest down are
those the judges rate highest, and up those they rate lowest
(:func:`unseen_shifts`; ``eps`` times the gap at the predictions' extremes
where they are all alike). Each side of the interval is therefore the larger
of the normal half-width and that shift:

    half_low  = max(N_low, S_low)
    half_high = max(N_high, S_high)

``V`` below is the linearised design variance of the estimate (Poisson
sampling, :func:`~regression.core.tuning.design_moments`). How ``D_j`` and the
normal part ``N`` are read depends on the outcome:

* **At two values** (every outcome at one of its two bounds: binary labels,
  win or loss): ``D_j`` is measured from the sample's mean residual, and each
  side's normal part is the longer of ``z sqrt(V)`` and the score interval's
  (:func:`~regression.core.sides.score_half_widths`: Wilson's interval carried to the
  prediction-powered mean), because near a bound the sample's spread errs
  with the mean it is taken at: a Wald interval for a precision of 0.93 at
  100 labels covers about 0.93, not 0.95.
* **Graded** (ratings): ``D_j`` is measured from the sample's most extreme
  residual, ``D_j = min_i(y_i - lam f_i) - (y_low - lam f_j)`` below over the
  drawn units ``i`` (the mirror above), and each side's ``N`` is the longest
  of three (:mod:`regression.core.sides`): Student's
  (:func:`~regression.core.sides.student_half_widths`, ``t`` with ``m - 1``
  degrees of freedom on the Bessel-corrected variance); the bounded-spread
  score side (:func:`~regression.core.sides.bounded_spread_half_widths`: the
  sample's spread carried to each candidate mean as the Bhatia-Davis bound
  ``(t - low)(high - t)`` allows, Wilson's interval for outcomes at the two
  bounds), which lengthens the side away from a bound the ratings pile at;
  and Student's width shared between the sides as the empirical likelihood
  interval shares its own (:func:`~regression.core.sides.skewed_half_widths`),
  which lengthens the side toward a tail a few extreme residuals make. The
  share of the population beyond the
  sample's least residual exceeds ``eps`` with chance at most ``(1 - eps)^m``
  (the same event as above: every drawn unit missed it), and only that share
  can lie past what the sample showed; the outputs within the sample's range
  are in its spread, and so in ``N``. A sample with no spread (ten ratings
  that all read 4) has its extreme at its mean, and the floor binds fully;
  a spread sample (ratings from 1 to 5, ``lam = 0``) leaves no gap, and the
  ``t``-interval stands. A gap measured from the mean would keep a third of
  the scale's width at ten ratings even where the sample spans it (1.1-1.5x
  the ``t``-interval's width on bundled and simulated ratings,
  docs/scores.md). The price: a kind of output seen once or twice at an
  extreme residual is left to ``N``, which a skewed rating's spread
  understates; the score and skewed sides recover part of it
  (docs/intervals.md measures it).

``N pi_min`` the sample size
of a uniform design (``n``) and, for an unequal one, the population's smallest
inclusion probability times ``N``: an active design that gives the items the
judges are sure of a small chance pays for it here, which is why the active
design keeps a floor of the uniform chance. For a uniform design it is the
number of units drawn, ``m``, whatever their probability said: given ``m``
they are a uniform draw of ``m``, so a suggested batch labelled in part (3
labels passed back with the probability of a batch of 30) is floored as the
3 it has, and a generator's votes in a uniform draw over all battles as the
votes it got, more or fewer than its share. An unequal design's ``N pi_min``
is capped at ``m`` where the sample's Horvitz-Thompson count falls short of
the population beyond chance
(:func:`~regression.core.sampling.count_short`: an active batch labelled in
part), and stands otherwise: the guarantee is for the design as drawn.

The power-tuning weight matters to the floor: the worst residual of a unit
is ``y_low - lam f_j``, so a sample too small for the normal part to decide
is better served by less weight on the judges. Where the floor binds at
PPI++'s own ``lam`` (:func:`~regression.core.bounded.design_lam`), ``lam`` is
the one of :data:`LAM_GRID` below it (or it) whose interval is narrowest;
where it does not bind, PPI++'s ``lam`` stands: choosing among weights by
their estimated variances would pick the luckiest one and undercover. For a
graded outcome the weight is the one whose normal half-widths and shifts
*together* are least (the interval is still the larger of each side's two):
its floor is measured from the sample's extremes, so it holds no room for
the sampling error of the outputs the sample did see, and where the sample
missed a blind spot while its ratings spread the two errors add. Chosen by
the narrowest interval, the weight would sit where floor and normal part are
equal, and such draws cover 0.50 (docs/intervals.md measures it).

The floor binds where the sample shows less spread than its size could reveal
(small ``n``, strong judges, precision near 0 or 1) and vanishes against the
normal half-width as ``n`` grows (``1 / n`` against ``1 / sqrt(n)``), so the
interval is as wide as the normal one where the normal one already covers.
Unlike :func:`~regression.core.bounded.betting_interval` it carries no
guarantee at every ``n`` for every distribution: a blind spot that the sample
caught once or twice is left to the normal part. docs/labels.md measures the
coverage on worlds built to break it.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from regression.checks import check_alpha, check_alternative
from regression.core.bounded import check_design_sample, design_lam, ppi_interval
from regression.core.sampling import count_short, design_weights, hajek_mean
from regression.core.sides import (
    bounded_spread_half_widths,
    score_half_widths,
    skewed_half_widths,
    student_half_widths,
)
from regression.core.tuning import design_moments
from regression.intervals import ConfidenceInterval, normal_quantile

__all__ = [
    "LAM_GRID",
    "design_floor",
    "design_mean_interval",
    "floored_ppi_interval",
    "residual_range",
    "unseen_share",
    "unseen_shifts",
]

#: The power-tuning weights the floored interval chooses among, with PPI++'s own.
LAM_GRID = np.linspace(0.0, 1.0, 21)


def unseen_share(
    alpha: float,
    smallest_probability: float,
    population: int,
    sides: int = 2,
    *,
    uniform: bool = False,
) -> float:
    """The largest share of the population a sample misses with chance above ``alpha / sides``.

    ``1 - (alpha / sides)^(1 / m)``, ``m = N pi_min``: a sample of ``m`` units
    drawn uniformly misses a share ``eps`` with probability ``(1 - eps)^m``
    (without replacement, at most that), and a design that draws every unit
    with probability at least ``pi_min`` misses it no more often than a
    uniform one of ``m`` units. For ``m`` draws that all show no error this is
    the Clopper-Pearson bound (about ``3.7 / m`` at 95 %), or else Wilson's.

    Wilson's upper bound for no success in ``m`` trials, ``z^2 / (m + z^2)``
    with ``z`` the normal quantile at ``alpha / sides``, where it is the
    smaller and a sample misses it with chance ``(m / (m + z^2))^m`` at most
    twice ``alpha / sides`` (mid-p's): from 7 to 45 units at 95 %, ``0.2775``
    against Clopper-Pearson's ``0.3085`` at ten. The missed share is a
    binomial proportion whose sample shows no success, and the labels-alone
    interval of labels at two values is Wilson's, which the floor is not to
    exceed there. Wilson's bound is missed with chance 0.047 a side at seven
    units, 0.039 at ten and 0.030 at twenty; below seven it would be missed
    more often than mid-p allows (0.21 at one unit), and from 46 on
    Clopper-Pearson's is the smaller (docs/intervals.md measures the cost).

    ``uniform``: the sample is a uniform draw of ``m`` of the ``N`` units
    without replacement, which misses ``k`` given units with probability
    exactly ``prod_{j < k} (1 - m / (N - j))`` (the hypergeometric chance of
    no success), less than ``(1 - k / N)^m`` once ``m`` is a fair part of
    ``N``: the share is ``k / N`` for the fewest ``k`` whose chance is at
    most ``alpha / sides``, where that is smaller.

    Examples
    --------
    >>> round(unseen_share(0.05, 10 / 1000, 1000), 4)  # ten draws: Wilson's 10/10 (Clopper-Pearson 0.3085)
    0.2775
    >>> round(unseen_share(0.05, 100 / 10_000, 10_000), 4)  # a hundred: Clopper-Pearson's 100/100
    0.0362
    >>> round(unseen_share(0.05, 200 / 300, 300, uniform=True), 4)  # 200 of 300: 4 units
    0.0133
    """
    size = population * smallest_probability
    tail = alpha / sides
    share = float(1.0 - tail ** (1.0 / size))
    z = normal_quantile(tail, "greater")
    wilson = z**2 / (size + z**2)
    if wilson < share and (1.0 - wilson) ** size <= 2.0 * tail:
        share = wilson
    drawn = int(round(size))
    if not uniform or drawn < 1 or drawn >= population:
        return share
    # the chance of missing k given units, k = 1 ... up to the binomial share (never larger)
    reach = min(int(np.ceil(share * population)) + 1, population - drawn)
    missed = np.cumsum(np.log1p(-drawn / (population - np.arange(reach))))
    rare = np.flatnonzero(missed <= np.log(tail))
    return share if rare.size == 0 else min(share, float(rare[0] + 1) / population)


def design_floor(probabilities: np.ndarray, alpha: float = 0.05) -> float:
    """The least width the floored interval keeps under a design, per unit of the residual's range.

    :func:`unseen_share` at the smallest inclusion probability of the units
    not drawn for sure (exact for a design whose probabilities are all equal,
    a uniform draw): the share the design can miss. What
    :mod:`regression.labels.plan` and :mod:`regression.scores.suggest` plan
    with beside the variance, times the gaps they plan (:func:`residual_range`
    for a calibrated predictor).

    Examples
    --------
    >>> round(design_floor(np.full(1000, 0.025)), 3)  # 25 uniform labels: Wilson's 25/25, 133 units
    0.133
    """
    pi = np.asarray(probabilities, dtype=float)
    by_chance = pi[pi < 1.0]
    if by_chance.size == 0:
        return 0.0
    smallest = float(by_chance.min())
    return unseen_share(alpha, smallest, by_chance.size, uniform=bool(np.ptp(by_chance) == 0))


def residual_range(predictions: np.ndarray, share: float = 0.0) -> float:
    """The range of the residual ``y - f`` of an outcome in [0, 1] over an unseen ``share`` of the units.

    ``1 +`` the mean of the highest ``share`` of the predictions ``-`` the
    mean of the lowest (``1 + max(f) - min(f)`` for a share of a single unit
    or less): the two sides' shifts of :func:`floored_ppi_interval` at ``lam =
    1`` (:func:`unseen_shifts`) add up to ``share`` times it, as the plans take
    it beside :func:`design_floor`.

    Examples
    --------
    >>> residual_range(np.array([0.2, 0.9]))
    1.7
    >>> residual_range(np.array([0.0, 1.0, 1.0, 1.0]), share=0.5)  # the highest half 1, the lowest 0.5
    1.5
    """
    f = np.asarray(predictions, dtype=float)
    if not f.size:
        return 1.0
    count = max(share * f.size, 1.0)
    # at lam = 1 from a mean residual of 0, every gap is positive and
    # down + up = count (1 + the highest count's mean - the lowest count's mean) / size
    down, up = unseen_shifts(count, f.size, f, np.ones(1), np.zeros(1), np.ones(1))
    return float((down[0] + up[0]) * f.size / count)


def floored_ppi_interval(
    outcomes: Sequence[float] | np.ndarray,
    predictions: Sequence[float] | np.ndarray,
    population_predictions: Sequence[float] | np.ndarray,
    probabilities: Sequence[float] | np.ndarray,
    lam: float | None,
    *,
    outcome_bounds: Sequence[float],
    prediction_bounds: Sequence[float],
    alpha: float = 0.05,
    alternative: str = "two-sided",
    population_probabilities: Sequence[float] | np.ndarray | None = None,
    floor: bool = True,
) -> tuple[float, ConfidenceInterval]:
    """The prediction-powered mean under a design, with the floored normal interval (module docstring).

    Parameters
    ----------
    outcomes, predictions, population_predictions, probabilities, lam
        As :func:`~regression.core.bounded.ppi_interval` (``lam`` None:
        PPI++'s design-weighted power tuning, :func:`~regression.core.bounded.design_lam`).
    outcome_bounds, prediction_bounds, alpha, alternative, population_probabilities
        As :func:`~regression.core.bounded.ppi_interval`.
    floor : bool
        False: the plain normal interval on the design variance (``"normal"``).

    Returns
    -------
    estimate : float
        Clipped to ``outcome_bounds``.
    interval : ConfidenceInterval
        Within ``outcome_bounds``, holding ``estimate``.

    Raises
    ------
    ValueError
        The arguments break a rule of
        :func:`~regression.core.bounded.check_design_sample` (the betting
        interval's, checked by the same function).

    Examples
    --------
    Twenty-five labels that all agree with judges who are sure: the normal
    interval has no width, the floored one keeps the shift a missed blind spot
    could cause.

    >>> f = np.full(1000, 0.99)
    >>> est, (low, high) = floored_ppi_interval(np.ones(25), f[:25], f, np.full(25, 0.025), None,
    ...                                         outcome_bounds=(0, 1), prediction_bounds=(0, 1))
    >>> round(est, 3), bool(0.8 < low < 0.9), float(high)
    (1.0, True, 1.0)
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
    q, (low_y, high_y) = sample.population, sample.outcome_bounds
    part = sample.split()
    rest = part.rest
    if rest == 0:
        exact = float(np.clip(part.whole(0.0), low_y, high_y))
        return exact, ConfidenceInterval(np.float64(exact), np.float64(exact))
    y_r, f_r, pi_r, f_mean = (
        part.outcomes,
        part.predictions,
        part.probabilities,
        part.prediction_mean,
    )
    if y_r.size == 0:
        return f_mean, ConfidenceInterval(np.float64(low_y), np.float64(high_y))
    w = 1.0 / pi_r
    c = design_weights(pi_r)
    a, b, cc = design_moments(y_r, f_r, w, c)
    if sample.population_probabilities is not None:
        pop = sample.population_probabilities[sample.population_probabilities < 1.0]
        smallest, uniform = float(pop.min()), bool(np.ptp(pop) == 0)
    else:
        # the labels' probabilities stand for the population's (exact for a uniform draw)
        smallest, uniform = float(pi_r.min()), bool(np.ptp(pi_r) == 0)
    # a uniform draw's floor counts the m units drawn, whatever its probability said: given m they
    # are a uniform draw of m (a suggested batch labelled in part; a generator's share of a draw
    # over all battles, more or fewer votes than its share); an unequal draw's, N pi_min, but
    # never more than m where its units stand for too few of the population (a batch labelled in
    # part: a sample of m cannot rule out more than a uniform draw of m could)
    if uniform:
        smallest = y_r.size / rest
    elif count_short(rest, float(w.sum()), 0.0, float(((1.0 - pi_r) / pi_r).max())):
        smallest = min(smallest, y_r.size / rest)
    sides = 2 if alternative == "two-sided" else 1
    share = unseen_share(alpha, smallest, rest, sides, uniform=uniform) if floor else 0.0
    lam_hat = float(lam) if lam is not None else design_lam(y_r, f_r, q, pi_r, (low_y, high_y))
    # where the floor binds at PPI++'s lam, a smaller lam narrows the worst residual's gap: lam is
    # then the one of LAM_GRID below PPI++'s (or PPI++'s) whose interval is narrowest (graded:
    # whose normal part and shift together are least); where the floor does not bind, PPI++'s
    # lam stands (choosing among lams by their estimated variances alone would pick the luckiest
    # and undercover)
    below = LAM_GRID[LAM_GRID < lam_hat] if lam is None and floor else LAM_GRID[:0]
    lams = np.r_[below, lam_hat]
    residual = np.array([hajek_mean(y_r - lam_t * f_r, w) for lam_t in lams])
    variance = np.maximum(a - 2 * lams * b + lams**2 * cc, 0.0) / w.sum() ** 2
    z = normal_quantile(alpha, alternative)
    centre = np.clip(lams * f_mean + residual, low_y, high_y)
    two_valued = bool(np.all((y_r == low_y) | (y_r == high_y)))
    graded = floor and not two_valued
    if graded:
        # graded: each gap from the sample's most extreme residual, the normal part the longest
        # of Student's, the bounded-spread side and the skewed side
        seen = y_r - np.outer(lams, f_r)
        from_low, to_high = seen.min(axis=1) - low_y, high_y - seen.max(axis=1)
        student = student_half_widths(variance, y_r.size, alpha, alternative)
        spread_low, spread_high = bounded_spread_half_widths(centre, variance, z, (low_y, high_y))
        normal_low, normal_high = np.maximum(student, spread_low), np.maximum(student, spread_high)
    else:
        from_low, to_high = residual - low_y, high_y - residual
        normal_low = normal_high = z * np.sqrt(variance)
        if floor:  # every outcome at one of its two values: the longer of Wald's and the score side
            score_low, score_high = score_half_widths(
                y_r == high_y, f_r, w, lams, centre, variance, z, (low_y, high_y)
            )
            normal_low, normal_high = (
                np.maximum(score_low, normal_low),
                np.maximum(score_high, normal_high),
            )
    shift_low, shift_high = unseen_shifts(share * rest, rest, q, lams, from_low, to_high)

    def skewed(rows: slice) -> None:
        skew_low, skew_high = skewed_half_widths(student[rows], seen[rows], w)
        normal_low[rows] = np.maximum(normal_low[rows], skew_low)
        normal_high[rows] = np.maximum(normal_high[rows], skew_high)

    if graded:  # the other weights' skewed sides only where the floor may choose among them
        skewed(slice(-1, None))
    binds = max(shift_low[-1], shift_high[-1]) > max(normal_low[-1], normal_high[-1])
    if graded and binds:
        skewed(slice(None, -1))
    lo_all = np.maximum(centre - np.maximum(normal_low, shift_low), low_y)
    hi_all = np.minimum(centre + np.maximum(normal_high, shift_high), high_y)
    if graded:
        # a graded floor is measured from the sample's extremes, so it leaves no room for the
        # sampling error of what the sample did see: where a share was missed, the two add
        # (a blind spot missed while the ratings spread), and a weight is judged by their sum
        width = normal_low + shift_low + normal_high + shift_high
    else:
        width = hi_all - lo_all
    # ties go to PPI++'s own lam (the last)
    best = len(lams) - 1 if not binds else int(np.flatnonzero(width <= width.min() + 1e-12)[-1])
    rest_mean, lo, hi = float(centre[best]), float(lo_all[best]), float(hi_all[best])

    def whole(value: float) -> float:
        return float(np.clip(part.whole(value), low_y, high_y))

    estimate = whole(rest_mean)
    low = low_y if alternative == "less" else min(whole(lo), estimate)
    high = high_y if alternative == "greater" else max(whole(hi), estimate)
    return estimate, ConfidenceInterval(np.float64(low), np.float64(high))


def unseen_shifts(
    count: float,
    rest: int,
    population_predictions: np.ndarray,
    lams: np.ndarray,
    from_low: np.ndarray,
    to_high: np.ndarray,
) -> tuple[np.ndarray, np.ndarray]:
    """The most ``count`` units the sample missed can move the mean of ``rest`` units, down and up, per ``lam``.

    A missed unit ``i`` has a residual ``y_i - lam f_i`` between ``low - lam
    f_i`` and ``high - lam f_i``, and every prediction is at hand. So the
    ``count`` missed units that move the mean furthest down are those the
    judges rate highest, each by ``from_low + lam f_i`` (``from_low``: the
    sample's residual, or its least, less ``low``), and furthest up those they
    rate lowest, by ``to_high - lam f_i``; a fractional ``count`` takes that
    part of the last. A blind spot lies only where the predictions leave room
    for one. With every prediction equal this is ``count / rest`` times the
    one gap.

    Examples
    --------
    >>> f = np.r_[np.zeros(10), np.ones(990)]  # judges reject 1 %
    >>> lam, residual = np.array([1.0]), np.array([0.0])  # the judges' residual y - f averages 0
    >>> down, up = unseen_shifts(36.0, 1000, f, lam, residual - 0.0, 1.0 - residual)
    >>> round(float(down[0]), 4), round(float(up[0]), 4)  # up: only the 10 rejected can hide valid ones
    (0.036, 0.01)
    """
    q = np.asarray(population_predictions, dtype=float)
    whole = min(int(np.ceil(count)), q.size)
    if whole == 0 or rest == 0:
        zero = np.zeros(np.shape(lams))
        return zero, zero
    part = np.ones(whole)
    if count < whole:
        part[-1] = count - (whole - 1)
    ordered = np.sort(q)
    highest, lowest = ordered[::-1][:whole], ordered[:whole]
    lams = np.asarray(lams, dtype=float)[:, None]
    down = np.maximum(np.asarray(from_low, dtype=float)[:, None] + lams * highest, 0.0) @ part
    up = np.maximum(np.asarray(to_high, dtype=float)[:, None] - lams * lowest, 0.0) @ part
    return down / rest, up / rest


def design_mean_interval(
    method: str,
    outcomes: Sequence[float] | np.ndarray,
    predictions: Sequence[float] | np.ndarray,
    population_predictions: Sequence[float] | np.ndarray,
    probabilities: Sequence[float] | np.ndarray,
    lam: float | None,
    *,
    outcome_bounds: Sequence[float],
    prediction_bounds: Sequence[float],
    alpha: float = 0.05,
    alternative: str = "two-sided",
    seed: int = 0,
    population_probabilities: Sequence[float] | np.ndarray | None = None,
) -> tuple[float, ConfidenceInterval]:
    """The prediction-powered mean under a design with the interval ``method`` names.

    One of :data:`~regression.registry.BOUNDED_INTERVAL_METHODS`:
    ``"floored"`` (:func:`floored_ppi_interval`), ``"betting"``
    (:func:`~regression.core.bounded.ppi_interval`, valid at every ``n``;
    ``seed`` orders its bets) or ``"normal"`` (the design variance alone: it
    collapses where the sample shows no error).
    """
    common = dict(
        outcome_bounds=outcome_bounds,
        prediction_bounds=prediction_bounds,
        alpha=alpha,
        alternative=alternative,
        population_probabilities=population_probabilities,
    )
    args = (outcomes, predictions, population_predictions, probabilities, lam)
    if method == "betting":
        return ppi_interval(*args, seed=seed, **common)  # type: ignore[arg-type]
    if method in ("floored", "normal"):
        return floored_ppi_interval(*args, floor=method == "floored", **common)  # type: ignore[arg-type]
    raise ValueError(f"interval method {method!r} is not one of 'floored', 'betting', 'normal'.")
