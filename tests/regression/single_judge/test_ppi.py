"""PPI++ for a mean (regression.single_judge.ppi), cross-checked against ppi-python 0.2.3."""

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from ppi_py import ppi_mean_ci, ppi_mean_pointestimate

from regression import ppi_mean
from regression.single_judge import (
    PPI_MIN_PER_CLASS,
    SmallCalibrationWarning,
    ppi_binary_bounded,
    ppi_binary_from_counts,
)


@pytest.mark.parametrize("seed", range(6))
def test_matches_ppi_python_on_random_binary_data(seed):
    rng = np.random.default_rng(seed)
    n, big_n = rng.integers(20, 300), rng.integers(50, 3000)
    y = rng.binomial(1, rng.uniform(0.1, 0.9), n).astype(float)
    flip = rng.random(n) < rng.uniform(0.05, 0.4)
    yhat = np.where(flip, 1 - y, y)
    yhat_test = rng.binomial(1, rng.uniform(0.1, 0.9), big_n).astype(float)
    assert min(y.sum(), n - y.sum()) >= PPI_MIN_PER_CLASS  # the sizes ppi-python is matched on
    for alpha in (0.05, 0.1):
        res = ppi_mean(y, yhat, yhat_test, alpha=alpha)
        # ppi-python 0.2.3: ppi_mean_pointestimate / ppi_mean_ci with lam=None
        ref_est = ppi_mean_pointestimate(y, yhat, yhat_test)
        ref_low, ref_high = ppi_mean_ci(y, yhat, yhat_test, alpha=alpha)
        assert res.estimate == pytest.approx(float(ref_est[0]), abs=1e-8)
        assert res.bounds(res.alpha, res.alternative).low == pytest.approx(
            float(ref_low[0]), abs=1e-8
        )
        assert res.bounds(res.alpha, res.alternative).high == pytest.approx(
            float(ref_high[0]), abs=1e-8
        )
        assert 0 <= res.lam <= 1


@pytest.mark.parametrize("seed", range(3))
def test_matches_ppi_python_on_continuous_data_and_fixed_lam(seed):
    rng = np.random.default_rng(100 + seed)
    y = rng.normal(size=80)
    yhat = y + rng.normal(scale=0.5, size=80)
    yhat_test = rng.normal(size=500)
    res = ppi_mean(y, yhat, yhat_test, alpha=0.1)
    assert res.estimate == pytest.approx(
        float(ppi_mean_pointestimate(y, yhat, yhat_test)[0]), abs=1e-8
    )
    low, high = ppi_mean_ci(y, yhat, yhat_test, alpha=0.1)
    assert (
        res.bounds(res.alpha, res.alternative).low,
        res.bounds(res.alpha, res.alternative).high,
    ) == pytest.approx((float(low[0]), float(high[0])), abs=1e-8)
    for lam in (0.0, 0.3, 1.0, 1.7):  # a fixed lam is used as given, not clipped
        res = ppi_mean(y, yhat, yhat_test, lam=lam)
        low, high = ppi_mean_ci(y, yhat, yhat_test, alpha=0.05, lam=lam)
        assert res.lam == lam  # exact: a fixed lam is stored as given
        assert res.estimate == pytest.approx(
            float(np.ravel(ppi_mean_pointestimate(y, yhat, yhat_test, lam=lam))[0]), abs=1e-8
        )
        assert (
            res.bounds(res.alpha, res.alternative).low,
            res.bounds(res.alpha, res.alternative).high,
        ) == pytest.approx((float(low[0]), float(high[0])), abs=1e-8)


def test_lam_zero_is_the_classical_mean():
    # ppi-python's documented limit: lam = 0 recovers the classical estimate and CLT interval
    y = np.array([1, 0, 1, 1, 0, 1, 1, 1, 0, 1, 0, 0.0])
    res = ppi_mean(y, np.zeros(12), np.ones(30), lam=0)
    assert res.estimate == pytest.approx(7 / 12)
    assert res.se == pytest.approx(np.std(y) / np.sqrt(12))
    low, high = res.bounds(0.05)
    assert low == pytest.approx(7 / 12 - 1.959964 * np.std(y) / np.sqrt(12), abs=1e-6)


def test_lam_one_is_plain_ppi():
    # lam = 1: mean(yhat_test) + mean(y - yhat), the difference estimator (Lee Table 2 (iii))
    with pytest.warns(SmallCalibrationWarning):
        res = ppi_mean([1, 0, 1, 0], [1, 1, 1, 0], [1, 0, 0, 0, 1], lam=1)
    assert res.estimate == pytest.approx(0.4 + (0.5 - 0.75))


def test_constant_predictions_give_lam_zero():
    with pytest.warns(SmallCalibrationWarning):
        res = ppi_mean([1, 0, 1, 1], [1, 1, 1, 1], [1, 1, 1])
    assert res.lam == 0.0 and res.estimate == pytest.approx(0.75)  # exact: lam set by construction


def test_one_sided_interval():
    rng = np.random.default_rng(7)
    y = rng.binomial(1, 0.5, 100)
    res = ppi_mean(y, y, rng.binomial(1, 0.5, 400), alternative="greater")
    assert (
        res.bounds(res.alpha, res.alternative).high == np.inf
        and res.bounds(res.alpha, res.alternative).low > res.bounds(0.05).low
    )


@settings(max_examples=60, deadline=None)
@given(
    cells=st.tuples(*[st.integers(0, 60)] * 4).filter(lambda c: sum(c) >= 2),
    k=st.integers(0, 200),
    extra=st.integers(0, 200),
)
def test_counts_version_equals_rows(cells, k, extra):
    tp, fn, fp, tn = cells
    big_n = k + extra
    if big_n == 0:
        return
    y = np.repeat([1.0, 1.0, 0.0, 0.0], cells)
    yhat = np.repeat([1.0, 0.0, 1.0, 0.0], cells)
    yhat_test = np.r_[np.ones(k), np.zeros(extra)]
    small = min(tp + fn, fp + tn) < PPI_MIN_PER_CLASS
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        rows = ppi_mean(y, yhat, yhat_test)
    assert rows.worst_case_variance == small == bool(caught)
    est, se, lam = ppi_binary_from_counts(tp, fn, fp, tn, k, big_n)
    assert float(est) == pytest.approx(rows.estimate, abs=1e-10)
    assert float(se) == pytest.approx(rows.se, abs=1e-10)
    assert float(lam) == pytest.approx(rows.lam, abs=1e-10)


def test_counts_version_broadcasts():
    est, se, lam = ppi_binary_from_counts([40, 30], 10, [5, 20], 45, 600, 1000)
    assert est.shape == se.shape == lam.shape == (2,)


@pytest.mark.parametrize(
    ("args", "kwargs", "message"),
    [
        (
            ([1, 0, 1], [1, 0], [1]),
            {},
            r"y_cal and yhat_cal must have the same length; got 3 and 2",
        ),
        (([1], [1], [1]), {}, r"at least 2 calibration items; got 1"),
        (([1, 0], [1, 0], []), {}, r"at least 1 test item; got 0"),
        (([1, np.nan], [1, 0], [1]), {}, r"y_cal must be finite; got nan at position 1"),
        (([1, 0], [1, 0], [[1]]), {}, r"yhat_test must be one-dimensional; got shape \(1, 1\)"),
        (([1, 0], [1, 0], [1]), {"lam": np.inf}, r"lam must be a finite number or None; got inf"),
        (([1, 0], [1, 0], [1]), {"alpha": 0}, r"alpha \(0\) must lie strictly between 0 and 1"),
        (
            ([1, 0], [1, 0], [1]),
            {"alternative": "larger"},
            r"alternative \('larger'\) not recognized",
        ),
    ],
)
def test_bad_input(args, kwargs, message):
    with pytest.raises(ValueError, match=message):
        ppi_mean(*args, **kwargs)


def test_counts_bad_input():
    with pytest.raises(ValueError, match=r"k_test \(11\) must not be greater than n_test \(10\)"):
        ppi_binary_from_counts(5, 5, 5, 5, 11, 10)
    with pytest.raises(ValueError, match=r"tp must be non-negative whole counts; got -1"):
        ppi_binary_from_counts(-1, 5, 5, 5, 1, 10)


def test_two_calibration_items_give_the_worst_case_interval_not_the_naive_one():
    # Issue 14: one human-valid and one human-invalid item, both judged right. The sample
    # variance of the rectifier is 0, which would make PPI++ as narrow as the naive interval.
    test = np.r_[np.ones(600), np.zeros(400)]
    with pytest.warns(SmallCalibrationWarning, match=r"1 item\(s\) with y = 1 and 1 with y = 0"):
        res = ppi_mean([1, 0], [1, 0], test)
    assert (
        res.worst_case_variance
        and res.lam == 1.0  # exact: lam set by construction
        and res.estimate == pytest.approx(0.6)
    )
    # the warning is kept on the result too, for a caller that silenced it
    assert len(res.warnings) == 1 and res.warnings[0].startswith("PPI++ calibration has 1 item")
    assert "worst case" in res.covers
    # Popoviciu: Var(y - lam yhat) <= (1 + |lam|)^2 / 4 = 1 with lam = 1, over n = 2 items.
    assert res.se == pytest.approx(np.sqrt(0.24 / 1000 + 1.0 / 2))
    naive_half = 1.959964 * np.sqrt(0.24 / 1000)
    low, high = res.bounds(res.alpha, res.alternative)
    assert high - low > 40 * naive_half  # 2.77 against 0.061
    ref_low, ref_high = ppi_mean_ci(np.array([1.0, 0]), np.array([1.0, 0]), test, alpha=0.05)
    assert float(ref_high[0] - ref_low[0]) == pytest.approx(2 * naive_half, rel=1e-6)


def test_the_minimum_is_per_class_and_exact():
    rng = np.random.default_rng(5)
    test = rng.binomial(1, 0.4, 300).astype(float)
    at_minimum = np.r_[np.ones(PPI_MIN_PER_CLASS), np.zeros(PPI_MIN_PER_CLASS)]
    judged = at_minimum.copy()
    judged[[0, -1]] = 1 - judged[[0, -1]]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        res = ppi_mean(at_minimum, judged, test)  # no warning at the minimum
    low, high = ppi_mean_ci(at_minimum, judged, test, alpha=0.05)
    assert (
        res.bounds(res.alpha, res.alternative).low,
        res.bounds(res.alpha, res.alternative).high,
    ) == pytest.approx((float(low[0]), float(high[0])), abs=1e-8)
    assert res.warnings == ()
    with pytest.warns(SmallCalibrationWarning, match=r"fewer than 5 in a class"):
        below = ppi_mean(at_minimum[1:], judged[1:], test)
    assert below.worst_case_variance


def test_outcomes_that_are_not_labels_need_ten_items_or_bounds():
    rng = np.random.default_rng(2)
    y, yhat = rng.uniform(size=6), rng.uniform(size=6)
    with pytest.warns(SmallCalibrationWarning, match=r"6 item\(s\), fewer than 10"):
        assert ppi_mean(y, yhat, rng.uniform(size=50)).worst_case_variance
    with pytest.raises(ValueError, match=r"outside \[0, 1\] there is no worst-case variance"):
        ppi_mean(3 * y, yhat, rng.uniform(size=50))
    big = ppi_mean(rng.normal(size=10), rng.normal(size=10), rng.normal(size=50))
    assert not big.worst_case_variance


@settings(max_examples=80, deadline=None)
@given(
    cells=st.tuples(*[st.integers(0, 8)] * 4).filter(lambda c: sum(c) >= 2), k=st.integers(0, 50)
)
def test_the_worst_case_variance_is_never_below_the_estimated_one(cells, k):
    # Popoviciu's bound dominates every sample variance of a variable in the same range,
    # so a small calibration set can only widen PPI++'s interval, never narrow it.
    tp, fn, fp, tn = cells
    est, se, lam = ppi_binary_from_counts(tp, fn, fp, tn, k, 50)
    m = tp + fn + fp + tn
    r = np.repeat([1 - float(lam), 1.0, -float(lam), 0.0], cells)
    estimated = np.sqrt((lam**2) * (k / 50) * (1 - k / 50) / 50 + np.var(r) / m)
    assert float(se) >= float(estimated) - 1e-12


def test_the_bounded_interval_holds_its_clipped_estimate_and_opens_one_side():
    # the judge calls 10 of the 25 calibration items valid (humans: 20) and every test item:
    # the PPI++ estimate 0.8 + lam * (1 - 0.4) lies above 1 and is clipped to it
    raw, _, _ = ppi_binary_from_counts(10, 10, 0, 5, 100, 100)
    estimate, (low, high) = ppi_binary_bounded(10, 10, 0, 5, 100, 100)
    assert raw > 1 and estimate == 1.0  # exact: clipped to the bound
    assert low <= estimate <= high <= 1
    _, (two_low, two_high) = ppi_binary_bounded(30, 5, 8, 20, 540, 1000)
    _, (one_low, one_high) = ppi_binary_bounded(30, 5, 8, 20, 540, 1000, alternative="greater")
    assert one_high == 1.0  # exact: the open side is the bound
    assert two_low <= one_low  # one side's capital alone: a tighter bound at the same level


def test_the_bounded_interval_refuses_what_it_cannot_bound():
    with pytest.raises(ValueError, match=r"at least 2 calibration items .* got m = 1"):
        ppi_binary_bounded(1, 0, 0, 0, 5, 10)
    with pytest.raises(ValueError, match=r"k_test <= n_test .* k_test = 11, n_test = 10"):
        ppi_binary_bounded(3, 1, 1, 3, 11, 10)
    with pytest.raises(ValueError, match=r"tp must be non-negative whole counts"):
        ppi_binary_bounded(-1, 1, 1, 3, 5, 10)
