"""PPI++: prediction-powered inference for a mean, with power tuning.

Angelopoulos, Duchi and Zrnic (2024), *PPI++: Efficient Prediction-Powered
Inference*, as used for LLM judges by Fiedler section 3.3:

    theta-hat = Y-bar_cal + lam * (p-hat_test - p-hat_cal)
              = mean(lam * yhat_test) + mean(y_cal - lam * yhat_cal),

where the calibration items carry both the human label ``y`` and the judge's
``yhat``, and the test items only ``yhat``. ``lam = 0`` is the classical
(human-only) mean, ``lam = 1`` plain PPI (the "difference estimator" of Lee et
al. Table 2 (iii)); ``lam = None`` estimates the variance-minimising value and
clips it to [0, 1].

The conventions are those of ppi-python 0.2.3 (``ppi_mean_pointestimate``,
``ppi_mean_ci``), which this module matches to 1e-8 (tests check this on random
data): lam-hat = Cov_n(y, yhat) / ((1 + n/N) Var_{n+N}(yhat)) with the
calibration covariance divided by n and the variance of all n + N predictions
divided by n + N - 1; the standard error sqrt(Var_N(lam yhat_test)/N +
Var_n(y - lam yhat_cal)/n) with both variances divided by their sample sizes
(numpy's default ``ddof=0``); a normal interval, not clipped (the mean need not
be a proportion). lam follows the engine's rule set
(:func:`regression.core.tuning.guarded_lam`): where the calibration
predictions hold one value lam is 1 (the difference estimator) if the test
predictions vary and the labels do, else 0 (where ppi-python returns NaN or
0); where the labels all agree lam is 0.

For binary labels everything is a function of the calibration 2 x 2 table and
the test count; :func:`ppi_binary_from_counts` evaluates the same estimator on
counts, vectorised over tables (the bootstraps use it).

Small calibration sets. The interval rests on the sample variance of the
rectifier y - lam * yhat over the calibration items. From a handful of items
that variance is noise: two items on which judge and human agree give a
variance of 0, and an interval as narrow as the naive one, as if the judge's
errors were known exactly. So with fewer than :data:`PPI_MIN_PER_CLASS`
calibration items of either human class (fewer than ``2 * PPI_MIN_PER_CLASS``
items for an outcome that is not 0/1), the variance of the rectifier is not
estimated but bounded: a variable confined to an interval of width w has
variance at most w^2 / 4 (Popoviciu's inequality), and for y, yhat in [0, 1]
the rectifier lies in an interval of width 1 + |lam|. The estimate is
unchanged; the interval widens to what the labels can support, and
:class:`SmallCalibrationWarning` says so. Outcomes or predictions outside
[0, 1] have no such bound, and a calibration set that small is refused.
"""

from __future__ import annotations

import functools
import warnings
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np
import pandas as pd

from regression.checks import check_alpha, check_alternative, check_counts
from regression.core.floor import design_mean_interval
from regression.core.tuning import guarded_lam, lam_by_rule
from regression.errors import JurycalWarning
from regression.intervals import ConfidenceInterval, OneEstimate, normal_bounds
from regression.registry import BOUNDED_INTERVAL_METHODS

__all__ = [
    "PPI_MIN_PER_CLASS",
    "PPIMeanResult",
    "SmallCalibrationWarning",
    "ppi_binary_bounded",
    "ppi_binary_from_counts",
    "ppi_mean",
]

#: Fewest calibration items per human class (y = 1, y = 0) from which PPI++ estimates the
#: variance of its rectifier; below it the worst-case variance is used. Five is the classical
#: "n p >= 5" floor under which a normal approximation to a binomial count is not trusted.
PPI_MIN_PER_CLASS = 5

_UNBOUNDED = (-np.inf, np.inf)

#: The index of :meth:`PPIMeanResult.interval`'s one row: the mean of ``y`` (theta for 0/1 labels).
ESTIMAND = "mean"


class SmallCalibrationWarning(JurycalWarning):
    """PPI++ used the worst-case rectifier variance: too few calibration items to estimate it."""


@dataclass(frozen=True)
class PPIMeanResult(OneEstimate):
    """A PPI++ estimate of a mean.

    It answers the result contract of :mod:`regression.results`: :meth:`interval`
    (one row, indexed by the estimand ``"mean"``), :attr:`covers`,
    :attr:`method` (``"ppi++"``), :attr:`warnings`, :meth:`to_frame`,
    :meth:`summary` and :meth:`diagnostics` (:class:`~regression.results.Result`);
    :meth:`bounds` gives the interval as a ``(low, high)`` pair.

    Attributes
    ----------
    estimate : float
        The point estimate.
    se : float
        Its standard error (test sampling and calibration sampling, independent).
    lam : float
        The power-tuning weight used.
    n_cal, n_test : int
        Calibration (labelled) and test (unlabelled) sizes.
    alpha : float
        1 - confidence level of the interval asked for.
    alternative : str
        Its sidedness.
    worst_case_variance : bool
        True when the calibration set was too small to estimate the rectifier's
        variance and its upper bound (1 + |lam|)^2 / 4 was used instead.
    warnings : tuple of str
        The warnings :func:`ppi_mean` raised (a :class:`SmallCalibrationWarning`), as text.
    """

    estimate: float
    se: float
    lam: float
    n_cal: int
    n_test: int
    alpha: float = 0.05
    alternative: str = "two-sided"
    worst_case_variance: bool = False
    warnings: tuple[str, ...] = ()

    method: ClassVar[str] = "ppi++"
    title: ClassVar[str] = "PPI++ estimate of a mean"
    ESTIMAND: ClassVar[str] = ESTIMAND
    ESTIMATES: ClassVar[str] = "estimate"

    @property
    def covers(self) -> str:
        """What the interval accounts for."""
        variance = (
            "; the rectifier's variance is its worst case (too few calibration items to "
            "estimate it)"
            if self.worst_case_variance
            else ""
        )
        return (
            "test sampling and calibration sampling (independent samples, CLT); assumes the "
            "calibration items are drawn like the test items" + variance
        )

    def bounds(self, alpha: float = 0.05, alternative: str = "two-sided") -> ConfidenceInterval:
        """``estimate -/+ z * se``, the open side of a one-sided interval at -/+ inf.

        Covers test and calibration sampling (CLT; Angelopoulos et al. 2024).
        """
        low, high = normal_bounds(self.estimate, self.se, alpha, alternative, limits=_UNBOUNDED)
        return ConfidenceInterval(float(low), float(high))

    def details(self, alpha: float = 0.05) -> pd.DataFrame:
        """The standard error and lam beside the interval."""
        return pd.DataFrame({"se": [self.se], "lam": [self.lam]}, index=[ESTIMAND])

    def diagnostics(self) -> pd.DataFrame:
        """One row: ``n_cal``, ``n_test``, ``lam``, ``se`` and ``worst_case_variance``."""
        return pd.DataFrame(
            {
                "n_cal": [self.n_cal],
                "n_test": [self.n_test],
                "lam": [self.lam],
                "se": [self.se],
                "worst_case_variance": [self.worst_case_variance],
            }
        )

    def summary_notes(self, alpha: float, **options: Any) -> tuple[str, ...]:
        """The sizes, and what the interval covers."""
        return (
            f"calibration: {self.n_cal} labelled item(s); test: {self.n_test} item(s).",
            f"{1 - alpha:.0%} interval covers {self.covers}.",
        )


def _as_vector(name: str, values: Any) -> np.ndarray:
    arr = np.asarray(values, dtype=float)
    if arr.ndim != 1:
        raise ValueError(f"{name} must be one-dimensional; got shape {arr.shape}.")
    bad = ~np.isfinite(arr)
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise ValueError(f"{name} must be finite; got {arr[i].item()!r} at position {i}.")
    return arr


def ppi_mean(
    y_cal: Any,
    yhat_cal: Any,
    yhat_test: Any,
    alpha: float = 0.05,
    lam: float | None = None,
    *,
    alternative: str = "two-sided",
) -> PPIMeanResult:
    """PPI++ estimate and confidence interval for the mean of ``y``, with power tuning.

    Parameters
    ----------
    y_cal : array, shape (n,)
        True (human) outcomes on the calibration items.
    yhat_cal : array, shape (n,)
        The judge's predictions on the same calibration items.
    yhat_test : array, shape (N,)
        The judge's predictions on the test items.
    alpha : float
        1 - the confidence level asked for, kept on the result (``result.alpha``).
    lam : float or None
        Power-tuning weight; ``None`` estimates it and clips it to [0, 1].
        ``0`` gives the classical mean of ``y_cal``, ``1`` plain PPI.
    alternative : {'two-sided', 'less', 'greater'}, keyword-only
        The result's ``alternative``.

    Returns
    -------
    PPIMeanResult
        ``.estimate``, ``.bounds()``, ``.lam``, ``.se``, ``.interval()``, ``.summary()``,
        ``.warnings``.

    Raises
    ------
    ValueError
        If an array is not one-dimensional or has a non-finite entry,
        ``y_cal`` and ``yhat_cal`` differ in length, there are fewer than 2
        calibration items or no test item, ``lam`` is not finite, alpha /
        alternative are invalid, or the calibration set is below the minimum
        (see Warns) with outcomes or predictions outside [0, 1].

    Warns
    -----
    SmallCalibrationWarning
        With fewer than :data:`PPI_MIN_PER_CLASS` calibration items with
        ``y = 1`` or with ``y = 0`` (fewer than ``2 * PPI_MIN_PER_CLASS`` items
        when ``y`` is not 0/1): the rectifier's variance is then its upper
        bound (1 + |lam|)^2 / 4, not its sample variance, and the result says
        so (``worst_case_variance``).

    Notes
    -----
    Fiedler section 3.3 and App. A.1 (lam* ~ theta(1-theta) J / (p(1-p)) for
    binary labels: as J -> 0, lam -> 0 and PPI++ falls back on the calibration
    mean instead of amplifying noise). Angelopoulos et al. (2024), PPI++ for
    the mean. The interval covers test and calibration sampling (independent
    samples, CLT); with lam estimated from the same data it is asymptotically
    valid. Unlike Rogan-Gladen it assumes that calibration and test items come
    from the same distribution (Lee et al. section 8, Table 2 (iii)). On
    calibration sets at or above the minimum it matches ppi-python 0.2.3.

    Examples
    --------
    >>> y_cal = [1, 1, 0, 1, 0, 0, 1, 1, 0, 0]
    >>> yhat_cal = [1, 1, 0, 1, 1, 0, 0, 1, 0, 0]
    >>> res = ppi_mean(y_cal, yhat_cal, yhat_test=[1, 0, 1, 1, 0, 1, 1, 0, 1, 1])
    >>> round(res.estimate, 4), round(res.lam, 4), round(res.se, 4)
    (0.5594, 0.2969, 0.1419)
    >>> res.interval().loc["mean", ["low", "high"]].round(4).tolist()
    [0.2812, 0.8376]

    Two labelled items cannot say how often the judge errs, so the interval
    is as wide as the worst case allows:

    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     tiny = ppi_mean([1, 0], [1, 0], yhat_test=[1] * 60 + [0] * 40)
    >>> tiny.worst_case_variance, round(tiny.se, 3), caught[0].category.__name__
    (True, 0.709, 'SmallCalibrationWarning')
    """
    alpha = check_alpha(alpha)
    check_alternative(alternative)
    y = _as_vector("y_cal", y_cal)
    yh = _as_vector("yhat_cal", yhat_cal)
    yh_test = _as_vector("yhat_test", yhat_test)
    if y.shape != yh.shape:
        raise ValueError(
            f"y_cal and yhat_cal must have the same length; got {y.size} and {yh.size}."
        )
    if y.size < 2:
        raise ValueError(f"ppi_mean needs at least 2 calibration items; got {y.size}.")
    if yh_test.size < 1:
        raise ValueError("ppi_mean needs at least 1 test item; got 0.")
    n, big_n = y.size, yh_test.size
    if lam is None:
        cov = np.mean((y - y.mean()) * (yh - yh.mean()))
        every = np.concatenate([yh, yh_test])
        variance = (1 + n / big_n) * np.var(every, ddof=1)
        lam_val = guarded_lam(cov, variance, predictions=yh, population=every, outcomes=y)
    else:
        lam_val = float(lam)
        if not np.isfinite(lam_val):
            raise ValueError(f"lam must be a finite number or None; got {lam!r}.")
    estimate = float(np.mean(lam_val * yh_test) + np.mean(y - lam_val * yh))
    var_rect = float(np.var(y - lam_val * yh))
    too_few = _too_few_labels(y)
    raised: list[str] = []
    if too_few:
        if not (_in_unit_interval(y) and _in_unit_interval(yh)):
            raise ValueError(
                f"ppi_mean: {too_few}, and with outcomes or predictions outside [0, 1] there is "
                "no worst-case variance to fall back on; label more calibration items."
            )
        var_rect = _worst_case_rectifier_variance(lam_val)
        message = (
            f"PPI++ {too_few}: the variance of the rectifier is not estimated but bounded "
            f"by (1 + |lam|)^2 / 4 = {var_rect:.3f}, so the interval is the widest the labels "
            "allow; label more calibration items for a sharper one."
        )
        warnings.warn(message, SmallCalibrationWarning, stacklevel=2)
        raised.append(message)  # kept on the result too: a caught warning is not lost
    se = float(np.sqrt(np.var(lam_val * yh_test) / big_n + var_rect / n))
    return PPIMeanResult(
        estimate, se, lam_val, n, big_n, alpha, alternative, bool(too_few), tuple(raised)
    )


def _too_few_labels(y: np.ndarray) -> str:
    """Why ``y`` is too small a calibration set for an estimated variance; '' when it is not."""
    if np.all((y == 0) | (y == 1)):
        n_pos = int(y.sum())
        n_neg = y.size - n_pos
        if min(n_pos, n_neg) < PPI_MIN_PER_CLASS:
            return (
                f"calibration has {n_pos} item(s) with y = 1 and {n_neg} with y = 0, fewer "
                f"than {PPI_MIN_PER_CLASS} in a class"
            )
        return ""
    if y.size < 2 * PPI_MIN_PER_CLASS:
        return f"calibration has {y.size} item(s), fewer than {2 * PPI_MIN_PER_CLASS}"
    return ""


def _in_unit_interval(values: np.ndarray) -> bool:
    return bool(np.all((values >= 0) & (values <= 1)))


def _worst_case_rectifier_variance(lam: Any) -> Any:
    """Popoviciu's bound w^2 / 4 for y - lam * yhat with y, yhat in [0, 1] (width 1 + |lam|)."""
    return (1 + np.abs(lam)) ** 2 / 4


def ppi_binary_from_counts(
    tp: Any, fn: Any, fp: Any, tn: Any, k_test: Any, n_test: Any, lam: Any = None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """PPI++ for binary labels from the calibration 2 x 2 table and the test count. Broadcasts.

    Parameters
    ----------
    tp, fn, fp, tn : int or array
        Calibration cells (human 1/0 x judge 1/0), as
        :class:`~regression.single_judge.tables.CalibrationTable` holds them.
    k_test, n_test : int or array
        Test items the judge called valid, out of ``n_test``.
    lam : float, array or None
        Fixed weight(s), or ``None`` to estimate and clip to [0, 1] per table.

    Returns
    -------
    (estimate, se, lam) : arrays
        Equal to :func:`ppi_mean` on the 0/1 rows these counts summarise,
        including its worst-case rectifier variance for tables with fewer than
        :data:`PPI_MIN_PER_CLASS` items in a human class (no warning here: the
        callers report it).

    Notes
    -----
    With m = tp + fn + fp + tn, Y-bar = (tp + fn)/m, p_cal = (tp + fp)/m and
    p_test = k/N: Cov_m(y, yhat) = tp/m - Y-bar p_cal; the rectifier
    y - lam yhat takes the values 1 - lam (tp), 1 (fn), -lam (fp), 0 (tn).
    Tables with fewer than 2 items or no test item give NaN.

    Examples
    --------
    >>> est, se, lam = ppi_binary_from_counts(4, 1, 1, 2, k_test=7, n_test=10)
    >>> round(float(est), 4), round(float(lam), 4)
    (0.6444, 0.2582)
    """
    tp_a, fn_a, fp_a, tn_a, k, big_n = (
        check_counts(name, v).astype(float)
        for name, v in (
            ("tp", tp),
            ("fn", fn),
            ("fp", fp),
            ("tn", tn),
            ("k_test", k_test),
            ("n_test", n_test),
        )
    )
    if np.any(k > big_n):
        raise ValueError(f"k_test ({k_test!r}) must not be greater than n_test ({n_test!r}).")
    m = tp_a + fn_a + fp_a + tn_a
    ok = (m >= 2) & (big_n >= 1)
    m_s = np.where(ok, m, 2.0)
    n_s = np.where(ok, big_n, 1.0)
    y_bar = (tp_a + fn_a) / m_s
    p_cal = (tp_a + fp_a) / m_s
    p_test = k / n_s
    if lam is None:
        cov = tp_a / m_s - y_bar * p_cal
        total = m_s + n_s
        s = tp_a + fp_a + k  # sum (= sum of squares) of all 0/1 predictions
        var_all = (s - s * s / total) / (total - 1)
        lam_arr = lam_by_rule(
            cov,
            (1 + m_s / n_s) * var_all,
            predictions_vary=(tp_a + fp_a > 0) & (fn_a + tn_a > 0),
            population_varies=(s > 0) & (s < total),
            outcomes_vary=(tp_a + fn_a > 0) & (fp_a + tn_a > 0),
        )
    else:
        lam_arr = np.asarray(lam, dtype=float)
        if not np.all(np.isfinite(lam_arr)):
            raise ValueError(f"lam must be finite or None; got {lam!r}.")
    est = lam_arr * p_test + y_bar - lam_arr * p_cal
    var_test = lam_arr**2 * p_test * (1 - p_test) / n_s
    r_mean = y_bar - lam_arr * p_cal
    r_sq = (tp_a * (1 - lam_arr) ** 2 + fn_a + fp_a * lam_arr**2) / m_s
    var_rect = np.maximum(r_sq - r_mean**2, 0.0)
    too_few = (tp_a + fn_a < PPI_MIN_PER_CLASS) | (fp_a + tn_a < PPI_MIN_PER_CLASS)
    var_rect = np.where(too_few, _worst_case_rectifier_variance(lam_arr), var_rect) / m_s
    se = np.sqrt(var_test + var_rect)
    nan = np.nan
    return (
        np.where(ok, est, nan),
        np.where(ok, se, nan),
        np.broadcast_to(np.where(ok, lam_arr, nan), np.shape(est)).copy(),
    )


def ppi_binary_bounded(
    tp: int,
    fn: int,
    fp: int,
    tn: int,
    k_test: int,
    n_test: int,
    alpha: float = 0.05,
    alternative: str = "two-sided",
    *,
    calibration_in_test: bool = False,
    seed: int = 0,
    method: str = BOUNDED_INTERVAL_METHODS[0],
) -> tuple[float, ConfidenceInterval]:
    """PPI++ for binary labels with the engine's interval: the test items' human valid rate.

    Parameters
    ----------
    tp, fn, fp, tn : int
        The calibration 2 x 2 table (human 1/0 x judge 1/0).
    k_test, n_test : int
        Test items the judge called valid, out of ``n_test``.
    alpha : float
        1 - the confidence level.
    alternative : {'two-sided', 'less', 'greater'}
    calibration_in_test : bool, keyword-only
        The calibration items are a uniform random draw from the test items
        (``k_test`` and ``n_test`` count them too); default: two separate sets.
    seed : int, keyword-only
        Seeds the orders in which the betting interval sees the calibration items.
    method : {"floored", "betting"}, keyword-only
        The engine's interval (:func:`regression.core.floor.design_mean_interval`,
        docs/intervals.md): the normal interval floored by the shift of a
        share of items the labels may have missed (default), or the betting
        interval, valid at any calibration size whatever the judge's errors.

    Returns
    -------
    (estimate, ConfidenceInterval)
        The PPI++ estimate of :func:`ppi_binary_from_counts` (lam tuned on
        every label), clipped to [0, 1], and its interval, which holds it.

    Raises
    ------
    ValueError
        Fewer than 2 calibration items, no test item, or (with
        ``calibration_in_test``) more calibration items than test items.

    Notes
    -----
    The interval rests on one assumption: the calibration items are a
    uniform random draw from the items the target is the mean over. With
    ``calibration_in_test`` those are the test items, and the engine
    (:func:`~regression.core.floor.design_mean_interval`) bounds their human
    valid rate directly: floored, the normal interval on the rectifier with
    each side at least the shift of a share of items the labels may have
    missed; betting, a betting interval for a bounded mean (Waudby-Smith and
    Ramdas 2024, Theorem 3) on the rectifier, with lam tuned predictably,
    valid at any calibration size whatever the judge's errors. Otherwise calibration and test
    items are two sets drawn alike, so that, given all m + N items, which m
    carry a human label is a uniform draw: the engine bounds the valid rate
    P of all m + N items, and since the calibration items' own rate Y-bar_cal
    is known, the test items' rate is theta = ((m + N) P - m Y-bar_cal) / N,
    an affine map of P, with which the interval maps. Its width follows the
    variance of theta-hat - theta, S^2 (1/m + 1/N) for the rectifier's
    spread S^2: it counts the test items' own rectifiers, which the estimate
    never sees. A sample with no judge error cannot collapse it: the betting
    interval knows the rectifier's range, not only its sample spread. The
    reported interval is the hull of the betting interval and the estimate
    (a superset of a valid interval).

    Examples
    --------
    >>> est, (low, high) = ppi_binary_bounded(45, 5, 15, 35, k_test=540, n_test=1000)
    >>> round(est, 4), bool(0 <= low <= est <= high <= 1)
    (0.467, True)
    """
    alpha = check_alpha(alpha)
    check_alternative(alternative)
    cells = tuple(_count_of(name, v) for name, v in zip(_CELLS, (tp, fn, fp, tn), strict=True))
    k, n = _count_of("k_test", k_test), _count_of("n_test", n_test)
    m = sum(cells)
    if m < 2 or n < 1 or k > n:
        raise ValueError(
            f"ppi_binary_bounded needs at least 2 calibration items and k_test <= n_test with "
            f"n_test >= 1; got m = {m}, k_test = {k}, n_test = {n}."
        )
    if calibration_in_test and m > n:
        raise ValueError(
            f"calibration_in_test: the {m} calibration items must be among the {n} test "
            "items, so they cannot outnumber them."
        )
    return _bounded_from_counts(
        *cells, k, n, alpha, alternative, calibration_in_test, int(seed), str(method)
    )


_CELLS = ("tp", "fn", "fp", "tn")


def _count_of(name: str, value: Any) -> int:
    arr = check_counts(name, value)
    if arr.ndim != 0:
        raise ValueError(f"{name} must be a single count; got shape {arr.shape}.")
    return int(arr)


@functools.lru_cache(maxsize=256)
def _bounded_from_counts(
    tp: int,
    fn: int,
    fp: int,
    tn: int,
    k_test: int,
    n_test: int,
    alpha: float,
    alternative: str,
    calibration_in_test: bool,
    seed: int,
    method: str,
) -> tuple[float, ConfidenceInterval]:
    """:func:`ppi_binary_bounded` on checked arguments; a result asks for each level often."""
    m = tp + fn + fp + tn
    outcomes = np.repeat([1.0, 1.0, 0.0, 0.0], [tp, fn, fp, tn])
    predictions = np.repeat([1.0, 0.0, 1.0, 0.0], [tp, fn, fp, tn])
    test = np.repeat([1.0, 0.0], [k_test, n_test - k_test])
    # the items the labels were drawn from, uniformly: the test items, or both sets
    population = test if calibration_in_test else np.concatenate([predictions, test])
    _, (low, high) = design_mean_interval(
        method,
        outcomes,
        predictions,
        population,
        np.full(m, m / population.size),
        None,
        outcome_bounds=(0.0, 1.0),
        prediction_bounds=(0.0, 1.0),
        alpha=alpha,
        seed=seed,
        alternative=alternative,
    )
    if not calibration_in_test:
        labelled = float(outcomes.sum())

        def on_test(rate: float) -> float:
            return float(np.clip(((m + n_test) * rate - labelled) / n_test, 0.0, 1.0))

        low, high = on_test(float(low)), on_test(float(high))
    raw, _, _ = ppi_binary_from_counts(tp, fn, fp, tn, k_test, n_test)
    estimate = float(np.clip(raw, 0.0, 1.0))
    return estimate, ConfidenceInterval(min(float(low), estimate), max(float(high), estimate))
