"""The normal part of a floored interval: each side's half-width, by the outcome's kind.

:func:`~regression.core.floor.floored_ppi_interval` takes each side of its
interval as the larger of a normal half-width and the shift an unseen share
could cause. The normal half-width is itself the longest of several readings
of the sample's spread, each right where another errs:

* :func:`score_half_widths`: outcomes at two values (labels, wins). Wilson's
  score interval carried to the prediction-powered mean: near a bound the
  sample's spread errs with the mean it is taken at.
* :func:`student_half_widths`: graded outcomes. Student's ``t`` on the
  Bessel-corrected design variance.
* :func:`bounded_spread_half_widths`: graded outcomes near a bound. The
  spread carried to each candidate mean as the Bhatia-Davis bound allows.
* :func:`skewed_half_widths`: graded outcomes whose residuals are skewed
  (a kind of output seen a few times at an extreme residual). Student's
  width, shared between the two sides as the empirical likelihood interval
  (Owen, 1988; :func:`likelihood_half_widths`) shares its own: longer toward
  the long tail, where the truth lies when the sample caught too few of it.

docs/intervals.md measures each.
"""

from __future__ import annotations

import numpy as np

from regression.core.covariance import dof_scale
from regression.core.sampling import hajek_mean
from regression.intervals import normal_quantile, student_quantile

__all__ = [
    "bounded_spread_half_widths",
    "likelihood_half_widths",
    "score_half_widths",
    "skewed_half_widths",
    "student_half_widths",
]

#: Bisection steps of :func:`likelihood_half_widths` on the log of its parameter's distance to the hull.
LIKELIHOOD_STEPS = 64


def score_half_widths(
    high_class: np.ndarray,
    predictions: np.ndarray,
    weights: np.ndarray,
    lams: np.ndarray,
    centre: np.ndarray,
    variance: np.ndarray,
    z: float,
    bounds: tuple[float, float],
) -> tuple[np.ndarray, np.ndarray]:
    """The normal part's half-widths below and above ``centre`` where every outcome is at a bound.

    Wilson's score interval carried to the prediction-powered mean. A Wald
    interval near a bound undercovers because the sample's spread is least
    exactly where the mean is overestimated toward the bound (Brown, Cai &
    DasGupta, 2001); Wilson's takes the spread at each hypothesised mean ``t``
    instead. Here the outcome is ``y = low + (high - low) b``, ``b`` in {0, 1},
    and the judges' behaviour given ``b`` is held as the sample shows it (the
    predictions' design-weighted mean gap ``d`` between the two classes and
    their spreads ``v_0``, ``v_1`` within each, as in Rogan & Gladen's model),
    so that the residual ``y - lam f`` has, in units of the scale,

        M(u) = (1 - lam d)^2 u (1 - u) + lam^2 ((1 - u) v_0 + u v_1)

    at ``u = (t - low) / (high - low)``; the variance at ``t`` is the design
    variance scaled by ``M(u) / M(u_hat)``, and the interval every ``t`` with
    ``(t - centre)^2 <= z^2 V(t)``, the roots of a quadratic. With ``lam = 0``
    and a uniform design it is Wilson's interval with the finite-population
    factor. A class the sample lacks gives no gap (``d = 0``, the
    predictions' whole spread in ``v``): the floor decides there.
    Where ``M(u_hat) = 0`` (every outcome on one side, ``lam = 0``): no
    normal width, and the floor alone stands.
    """
    low, high = bounds
    scale = high - low
    f = predictions / scale
    u_hat = hajek_mean(high_class.astype(float), weights)
    both = 0.0 < u_hat < 1.0

    def spread_of(part: np.ndarray) -> tuple[float, float]:
        mean = hajek_mean(f[part], weights[part])
        return mean, hajek_mean((f[part] - mean) ** 2, weights[part])

    if both:
        (mean_1, v_1), (mean_0, v_0) = spread_of(high_class), spread_of(~high_class)
        gap = mean_1 - mean_0
    else:
        gap = 0.0
        v_0 = v_1 = spread_of(np.ones(f.size, dtype=bool))[1]
    slope = (1.0 - lams * gap) ** 2
    at_hat = slope * u_hat * (1 - u_hat) + lams**2 * ((1 - u_hat) * v_0 + u_hat * v_1)
    # M(u) = slope u (1 - u) + lam^2 (v_1 - v_0) u + lam^2 v_0
    return _modelled_score_sides(
        (centre - low) / scale,
        variance / scale**2,
        at_hat,
        z,
        scale,
        slope=slope,
        tilt=lams**2 * (v_1 - v_0),
        offset=lams**2 * v_0,
    )


def bounded_spread_half_widths(
    centre: np.ndarray, variance: np.ndarray, z: float, bounds: tuple[float, float]
) -> tuple[np.ndarray, np.ndarray]:
    """A graded outcome's score side: the sample's spread carried to each candidate mean as the bound allows.

    An outcome on ``[low, high]`` with mean ``t`` has variance at most
    ``(t - low)(high - t)`` (Bhatia & Davis, 2000); the spread a sample shows
    is read as that share of the bound at its own mean and carried to every
    candidate ``t``, ``V(t) = V B(u) / B(u_hat)``, ``B(u) = u (1 - u)`` at
    ``u = (t - low) / (high - low)``, and the interval is every ``t`` with
    ``(t - centre)^2 <= z^2 V(t)``. For outcomes at the two bounds it is
    Wilson's; for ratings piled near a bound it lengthens the side away from
    it, where a kind of low rating the sample caught once or twice hides: the
    sample's spread is least exactly where its mean is pushed to the bound.
    A centre at a bound (no spread the bound allows) gives no width: the
    floor decides there.

    Examples
    --------
    >>> below, above = bounded_spread_half_widths(np.array([4.6]), np.array([0.01]), 1.96, (1, 5))
    >>> bool(below[0] > 1.96 * 0.1 > above[0])  # near the top, the side below is the longer
    True
    """
    low, high = bounds
    scale = high - low
    c = np.clip((np.asarray(centre, dtype=float) - low) / scale, 0.0, 1.0)
    return _modelled_score_sides(c, variance / scale**2, c * (1.0 - c), z, scale)


def _modelled_score_sides(
    c: np.ndarray,
    variance: np.ndarray,
    at_sample: np.ndarray,
    z: float,
    scale: float,
    *,
    slope: np.ndarray | float = 1.0,
    tilt: np.ndarray | float = 0.0,
    offset: np.ndarray | float = 0.0,
) -> tuple[np.ndarray, np.ndarray]:
    """Half-widths below and above ``c`` of every ``u`` with ``(u - c)^2 <= z^2 V(u)``, on ``[0, 1]``.

    ``V(u) = k M(u)``, ``M(u) = slope u (1 - u) + tilt u + offset``, ``k`` the
    design ``variance`` (in the scale's units) over ``at_sample``, ``M`` at the
    sample's mean (no width where that is 0); the roots of a quadratic in ``u``,
    returned on the scale. :func:`score_half_widths` and
    :func:`bounded_spread_half_widths` are its two models.
    """
    k = np.where(at_sample > 0, variance / np.where(at_sample > 0, at_sample, 1.0), 0.0)
    zz = z * z
    qa = 1.0 + zz * k * slope
    qb = 2.0 * c + zz * k * (slope + tilt)
    qc = c**2 - zz * k * offset
    root = np.sqrt(np.maximum(qb * qb - 4.0 * qa * qc, 0.0))
    below = np.maximum(c - (qb - root) / (2.0 * qa), 0.0) * scale
    above = np.maximum((qb + root) / (2.0 * qa) - c, 0.0) * scale
    return below, above


def student_half_widths(
    variance: np.ndarray, drawn: int, alpha: float, alternative: str
) -> np.ndarray:
    """The normal part of a graded outcome's floored interval: Student's ``t`` on the Bessel-corrected variance.

    ``t_{m - 1} sqrt(V m / (m - 1))`` for ``m`` drawn units: at ``lam = 0``
    under a uniform design, the Student ``t``-interval of the outcomes with
    the finite-population factor. The design variance ``V`` divides the
    squared deviations by ``m`` and the normal quantile ignores that the
    spread is estimated; at ten ratings the two together make the interval
    0.82 times the ``t``-interval's. With one drawn unit (no spread to
    estimate, ``V = 0``) the normal quantile stands and the floor decides.

    Examples
    --------
    >>> float(student_half_widths(np.array([0.01]), 10, 0.05, "two-sided")[0].round(4))
    0.2384
    """
    variance = np.asarray(variance, dtype=float)
    if drawn < 2:
        return normal_quantile(alpha, alternative) * np.sqrt(variance)
    return student_quantile(drawn - 1, alpha, alternative) * np.sqrt(variance * dof_scale(drawn))


def likelihood_half_widths(
    residuals: np.ndarray, weights: np.ndarray, half_width: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """The empirical likelihood interval's half-widths below and above the sample's mean, per row.

    Each row of ``residuals`` is a sample (the residuals ``y - lam f`` at one
    ``lam``) with the design's weights. The empirical likelihood ratio of a
    mean ``t`` (Owen, 1988; with design weights ``d`` summing to 1, the
    pseudo empirical likelihood of Chen & Sitter, 1999) is the most that
    reweighting the sample to mean ``t`` keeps of its likelihood; its
    statistic is ``2 sum_i d_i log(1 + eta (r_i - t))`` at the ``eta`` solving
    ``sum_i d_i (r_i - t) / (1 + eta (r_i - t)) = 0``. Near the mean it is
    ``(t - mean)^2 / s^2`` with ``s^2`` the weighted spread; it is scaled to
    read on the design's variance (Wu & Rao, 2006) through the row's normal
    half-width ``h`` (a quantile times the design standard error), and the
    interval is every ``t`` with a statistic at most ``h^2 / s^2``: where the
    residuals are symmetric, the normal interval of half-width ``h``. Where a
    few extreme residuals skew them, the interval is longer on their side:
    reweighting the sample to a mean toward them costs little likelihood,
    the spread read at the sample's mean does not see that.

    With ``c = 1 / eta - t`` the solution is in closed form,
    ``eta = sum_i d_i / (r_i + c)`` and ``t = 1 / eta - c``, for ``c`` above
    ``-min r`` (means below the sample's, ``c`` falling to ``-min r`` as ``t``
    falls to the least residual) or below ``-max r`` (above it); each side's
    endpoint is found by bisection on the log of ``c``'s distance to that
    bound, every row at once. A row with no spread, or no normal width, gets
    no width: the floor decides there.

    Examples
    --------
    Nine residuals near 0 and one at -4: the side toward -4 is the longer.

    >>> r = np.array([[0.1, -0.2, 0.0, 0.2, -0.1, 0.1, 0.0, -0.1, 0.2, -4.0]])
    >>> normal = 2.0 * np.sqrt(r.var() / 10)
    >>> below, above = likelihood_half_widths(r, np.ones(10), np.array([normal]))
    >>> bool(below[0] > normal > above[0])
    True
    """
    r = np.atleast_2d(np.asarray(residuals, dtype=float))
    d = np.asarray(weights, dtype=float)
    d = d / d.sum()
    half_width = np.broadcast_to(np.asarray(half_width, dtype=float), r.shape[:1])
    mean = r @ d
    spread = ((r - mean[:, None]) ** 2) @ d
    span = r.max(axis=1) - r.min(axis=1)
    ok = (span > 0) & (spread > 0) & (half_width > 0)
    below, above = np.zeros(r.shape[0]), np.zeros(r.shape[0])
    if not ok.any():
        return below, above
    # centred, so that c's distance to a bound, down to 1e-12 of the span, is not lost to rounding
    # against residuals far from 0 (a span of 1e-10 around 1 would divide by zero)
    rows, span = r[ok] - mean[ok, None], span[ok]
    target = half_width[ok] ** 2 / spread[ok]

    def endpoint(edge: np.ndarray, sign: float) -> np.ndarray:
        # c = sign * x - edge, x > 0 its distance to the bound; the statistic falls as x grows
        low_x, high_x = np.log(span * 1e-12), np.log(span * 1e12)

        def at(log_x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
            c = sign * np.exp(log_x) - edge
            shifted = rows + c[:, None]
            eta = (d / shifted).sum(axis=1)
            statistic = 2.0 * (d * np.log(eta[:, None] * shifted)).sum(axis=1)
            return statistic, 1.0 / eta - c

        for _ in range(LIKELIHOOD_STEPS):
            middle = 0.5 * (low_x + high_x)
            too_far = at(middle)[0] > target
            low_x, high_x = np.where(too_far, middle, low_x), np.where(too_far, high_x, middle)
        return at(0.5 * (low_x + high_x))[1]

    below[ok] = np.maximum(-endpoint(rows.min(axis=1), 1.0), 0.0)
    above[ok] = np.maximum(endpoint(rows.max(axis=1), -1.0), 0.0)
    return below, above


def skewed_half_widths(
    student: np.ndarray, residuals: np.ndarray, weights: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Student's width shared between the sides as the empirical likelihood interval shares its own.

    A graded sample that caught a kind of output a few times at an extreme
    residual (a blind spot every judge scores at the other end) has a skewed
    residual: when it caught too few, its mean errs toward the bulk and its
    spread is too small, and the truth lies beyond the side toward the tail.
    A symmetric interval is short there. The empirical likelihood interval
    (:func:`likelihood_half_widths`, read on Student's half-width) has the
    sample's shape, but it also lengthens both sides where a few extremes lie
    on both (kurtosis), at no gain in coverage; so only its shape is taken:
    each side is ``student`` times twice the likelihood side's share of the
    likelihood interval's width. A symmetric sample gets Student's sides;
    the caller keeps the longer of these and Student's on each side.

    Measured (``benchmarks/bench_skewed_side.py``, docs/intervals.md): where
    a tail of 3-10 % skews the sample, it recovers most of the coverage the
    whole likelihood interval gains over Student's (0.928-0.957 against
    0.929-0.963); where extremes lie on both sides it costs a quarter to
    about half of that interval's extra width, at the same coverage.

    Examples
    --------
    >>> r = np.array([[0.1, -0.2, 0.0, 0.2, -0.1, 0.1, 0.0, -0.1, 0.2, -4.0]])
    >>> below, above = skewed_half_widths(np.array([1.0]), r, np.ones(10))
    >>> bool(below[0] > 1.0 > above[0]), float(round(below[0] + above[0], 12))
    (True, 2.0)
    """
    student = np.asarray(student, dtype=float)
    below, above = likelihood_half_widths(residuals, weights, student)
    whole = below + above
    share = np.where(whole > 0, 2.0 * below / np.where(whole > 0, whole, 1.0), 1.0)
    return student * share, student * (2.0 - share)
