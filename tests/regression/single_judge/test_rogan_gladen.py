"""Rogan-Gladen estimate and interval, and Algorithm 1 (regression.single_judge.rogan_gladen).

Reference: Lee et al., "How to Correctly Report LLM-as-a-Judge Evaluations"
(final version): eq. (7), eqs. (8)-(12), eq. (15), App. A Algorithm 1, and the
authors' reference code (App. C, Fig. 8), transcribed below.
"""

from math import sqrt

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import norm

from regression import rg_interval
from regression.single_judge import allocate_calibration, rg_estimate, rg_standard_error


def _lee_fig8(p, q0, q1, n, m0, m1, alpha=0.05):
    """Lee et al. App. C, Fig. 8, verbatim apart from names (the authors' reference code)."""

    def clip(x, low=0.0, high=1.0):
        return max(low, min(high, x))

    z = norm.ppf(1 - alpha / 2)
    p, q0, q1 = (n * p + z**2 / 2) / (n + z**2), (m0 * q0 + 1) / (m0 + 2), (m1 * q1 + 1) / (m1 + 2)
    n, m0, m1 = n + z**2, m0 + 2, m1 + 2
    th = (p + q0 - 1) / (q0 + q1 - 1)
    dth = 2 * z**2 * (-(1 - th) * q0 * (1 - q0) / m0 + th * q1 * (1 - q1) / m1)
    se = sqrt(p * (1 - p) / n + (1 - th) ** 2 * q0 * (1 - q0) / m0 + th**2 * q1 * (1 - q1) / m1) / (
        q0 + q1 - 1
    )
    return clip(th + dth - z * se), clip(th + dth + z * se)


def test_rg_estimate_by_hand():
    # eq. (7): (0.66 + 0.7 - 1) / (0.7 + 0.9 - 1) = 0.36 / 0.6 = 0.6
    assert rg_estimate(0.66, 0.9, 0.7) == pytest.approx(0.6)
    # (0.5 + 0.8 - 1) / (0.8 + 0.75 - 1) = 0.3 / 0.55
    assert rg_estimate(0.5, tpr=0.75, tnr=0.8) == pytest.approx(0.3 / 0.55)
    # eq. (13): E[p_hat] = J theta + 1 - q0 is inverted exactly
    theta = np.linspace(0, 1, 11)
    assert rg_estimate(0.6 * theta + 0.3, 0.9, 0.7) == pytest.approx(theta)


def test_rg_estimate_limits_and_clipping():
    # a perfect judge (TPR = TNR = 1) gives the raw proportion back (Lee eq. 7 with J = 1)
    p = np.array([0.0, 0.2, 0.5, 1.0])
    np.testing.assert_allclose(rg_estimate(p, 1.0, 1.0), p)
    # p_hat below 1 - TNR or above TPR is clipped to [0, 1]
    np.testing.assert_array_equal(  # exact: clipped to [0, 1] by construction
        rg_estimate([0.1, 0.95], 0.9, 0.7), [0.0, 1.0]
    )
    # J <= 0: not identified, NaN (not an exception)
    assert np.isnan(rg_estimate(0.5, 0.5, 0.5))
    assert np.isnan(rg_estimate(0.5, 0.3, 0.4))


def test_rg_interval_hand_values():
    # Reference values from Lee et al.'s own code (App. C, Fig. 8), several settings.
    settings_ = [
        (0.66, 0.7, 0.9, 1000, 100, 100),
        (0.30, 0.7, 0.9, 1000, 100, 100),
        (0.50, 0.9, 0.9, 200, 250, 250),
        (0.80, 0.9, 0.7, 1000, 60, 140),
        (0.12, 0.95, 0.6, 50, 20, 10),
    ]
    for p, q0, q1, n, m0, m1 in settings_:
        expected = _lee_fig8(p, q0, q1, n, m0, m1)
        got = rg_interval(p, tpr=q1, tnr=q0, n=n, n_pos=m1, n_neg=m0)
        assert got == pytest.approx(expected, abs=1e-12)
    # One setting worked through eqs. (9)-(12) step by step (z = 1.959964, z^2 = 3.841459):
    # n~ = 1003.8415, p~ = (660 + 1.92073) / 1003.8415 = 0.659389; q~0 = 71/102 = 0.696078,
    # q~1 = 91/102 = 0.892157, J~ = 0.588235, theta~ = (0.659389 + 0.696078 - 1) / 0.588235
    # = 0.604294; v0 = q~0 (1 - q~0) / 102 = 0.00207434, v1 = 0.00094303;
    # d theta~ = 2 z^2 (-(0.395706) v0 + 0.604294 v1) = -0.0019282;
    # SE~ = sqrt(0.659389 * 0.340611 / 1003.8415 + 0.395706^2 v0 + 0.604294^2 v1) / J~ = 0.050809
    low, high = rg_interval(0.66, 0.9, 0.7, 1000, 100, 100)
    assert low == pytest.approx(0.604294 - 0.0019282 - 1.959964 * 0.050809, abs=2e-5)
    assert high == pytest.approx(0.604294 - 0.0019282 + 1.959964 * 0.050809, abs=2e-5)


def test_rg_standard_error_eq15_by_hand():
    # eq. (15) at p = 0.66, q0 = 0.7, q1 = 0.9, theta = 0.6, n = 1000, m0 = m1 = 100:
    # (0.2244/1000 + 0.16 * 0.21/100 + 0.36 * 0.09/100) / 0.36 = 0.00088444.../0.36
    var = (0.66 * 0.34 / 1000 + 0.4**2 * 0.21 / 100 + 0.6**2 * 0.09 / 100) / 0.6**2
    assert rg_standard_error(0.66, 0.9, 0.7, 1000, 100, 100) == pytest.approx(np.sqrt(var))
    assert np.isnan(rg_standard_error(0.5, 0.5, 0.5, 100, 10, 10))


def test_rg_interval_no_better_than_chance_is_zero_one():
    # exact: bounds clipped to the limits by construction
    assert rg_interval(0.5, 0.5, 0.5, 100, 50, 50) == (
        0.0,
        1.0,  # exact: bounds clipped to the limits by construction
    )  # exact: bounds clipped to the limits by construction
    low, high = rg_interval([0.5, 0.5], [0.4, 0.9], 0.5, 100, 50, 50)
    assert (low[0], high[0]) == (0.0, 1.0) and high[1] - low[
        1
    ] < 1  # exact: bounds clipped to the limits by construction


def test_rg_interval_one_sided():
    low2, high2 = rg_interval(0.66, 0.9, 0.7, 1000, 100, 100)
    low_less, high_less = rg_interval(0.66, 0.9, 0.7, 1000, 100, 100, alternative="less")
    low_gr, high_gr = rg_interval(0.66, 0.9, 0.7, 1000, 100, 100, alternative="greater")
    assert low_less == 0.0 and high_gr == 1.0  # exact: clipped to [0, 1] by construction
    # a one-sided 95 % bound uses z_0.95 < z_0.975: tighter than the two-sided end
    assert high_less < high2 and low_gr > low2
    assert low_gr < rg_estimate(0.66, 0.9, 0.7) < high_less


@settings(max_examples=200, deadline=None)
@given(
    n=st.integers(1, 5000),
    m1=st.integers(10, 500),
    m0=st.integers(10, 500),
    fp=st.floats(0, 1),
    f1=st.floats(0, 1),
    f0=st.floats(0, 1),
)
def test_estimate_inside_interval(n, m1, m0, fp, f1, f0):
    # whole counts, as real data; m0, m1 >= 10 and J >= 0.1 (with one-item classes or
    # J near 0 the adjusted centre of eq. (8) can drift past a clipped estimate)
    k, tp, tn = round(fp * n), round(f1 * m1), round(f0 * m0)
    p, q1, q0 = k / n, tp / m1, tn / m0
    if q0 + q1 - 1 < 0.1:
        return
    low, high = rg_interval(p, q1, q0, n, m1, m0)
    assert 0 <= low <= rg_estimate(p, q1, q0) <= high <= 1


@settings(max_examples=200, deadline=None)
@given(
    p=st.floats(0, 1),
    q1=st.floats(0.5, 1),
    q0=st.floats(0.5, 1),
    n=st.integers(10, 10_000),
    m1=st.integers(2, 300),
    m0=st.integers(2, 300),
    factor=st.integers(2, 20),
)
def test_interval_shrinks_as_calibration_grows(p, q1, q0, n, m1, m0, factor):
    low, high = rg_interval(p, q1, q0, n, m1, m0)
    low2, high2 = rg_interval(p, q1, q0, n, factor * m1, factor * m0)
    if 0 < low and high < 1 and 0 < low2 and high2 < 1:  # neither end clipped
        assert high2 - low2 <= high - low + 1e-12
    # and the half-width's source, the eq. (15) standard error, always shrinks
    se, se2 = (rg_standard_error(p, q1, q0, n, m1 * f, m0 * f) for f in (1, factor))
    if np.isfinite(se):
        assert se2 <= se + 1e-15


@settings(max_examples=50, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.floats(0, 1),
            st.floats(0, 1),
            st.floats(0, 1),
            st.integers(1, 1000),
            st.integers(1, 200),
            st.integers(1, 200),
        ),
        min_size=1,
        max_size=20,
    )
)
def test_broadcasting_matches_scalar_calls(rows):
    p, q1, q0, n, m1, m0 = (np.array(c) for c in zip(*rows, strict=True))
    low, high = rg_interval(p, q1, q0, n, m1, m0)
    est = rg_estimate(p, q1, q0)
    # one call per row against the broadcast call: numpy's SIMD loops over a long array and its
    # scalar path may round a square root or a quotient's last bit differently
    for i, row in enumerate(rows):
        assert (low[i], high[i]) == pytest.approx(rg_interval(*row), rel=1e-12, abs=1e-15)
        assert est[i] == pytest.approx(rg_estimate(*row[:3]), rel=1e-12, abs=1e-15, nan_ok=True)


def test_broadcasting_shapes():
    low, high = rg_interval(np.linspace(0.3, 0.9, 4)[:, None], 0.9, 0.7, 1000, [50, 100, 200], 100)
    assert low.shape == high.shape == (4, 3)
    # a million settings in one call
    p = np.random.default_rng(0).random(1_000_000)
    low, high = rg_interval(p, 0.9, 0.7, 1000, 100, 100)
    assert low.shape == (1_000_000,) and np.all(low <= high)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"p_hat": 1.2}, r"p_hat must lie in \[0, 1\]; got 1.2"),
        ({"tpr": -0.1}, r"tpr must lie in \[0, 1\]; got -0.1"),
        ({"tnr": np.nan}, r"tnr must lie in \[0, 1\]; got nan"),
        ({"n": 0}, r"n must be positive; got 0.0"),
        ({"n_pos": 0}, r"n_pos must be positive; got 0.0"),
        ({"n_neg": -3}, r"n_neg must be positive; got -3.0"),
        ({"alpha": 1.5}, r"alpha \(1.5\) must lie strictly between 0 and 1"),
        ({"alternative": "both"}, r"alternative \('both'\) not recognized"),
    ],
)
def test_rg_interval_bad_input(kwargs, message):
    args = {"p_hat": 0.5, "tpr": 0.9, "tnr": 0.7, "n": 100, "n_pos": 50, "n_neg": 50} | kwargs
    with pytest.raises(ValueError, match=message):
        rg_interval(**args)


def test_rg_estimate_bad_input():
    with pytest.raises(ValueError, match=r"p_hat must lie in \[0, 1\]; got 2.0"):
        rg_estimate([0.5, 2.0], 0.9, 0.7)


def test_allocate_calibration_by_hand():
    # Algorithm 1: q~0 = (7 + 1)/12, q~1 = (9 + 1)/12, kappa = (4/12)/(2/12) = 2,
    # m1* = round(200 / (1 + (1/0.3 - 1) sqrt 2)) = round(46.51) = 47, m0 = 153
    assert allocate_calibration(200, 0.3, 10, 9, 7) == (153, 47)
    # kappa = 1 and p = 0.5 give the symmetric split
    assert allocate_calibration(200, 0.5, 10, 8, 8) == (100, 100)
    # the pilot floor and ceiling (step 7)
    assert allocate_calibration(200, 0.0, 10, 9, 7) == (190, 10)
    assert allocate_calibration(200, 1.0, 10, 9, 7) == (10, 190)
    m0, m1 = allocate_calibration(200, np.linspace(0, 1, 11), 10, 9, 7)
    assert np.all(m0 + m1 == 200) and np.all(np.diff(m1) >= 0)


def test_allocation_nearly_minimises_interval_length():
    # Prop. 5.2 / Fig. 3 (n -> infinity, q0 = 0.7, q1 = 0.9, m = 200): Algorithm 1's split is
    # within 3 % of the best split (Prop. 5.2 is an approximation for q near 1) and shorter
    # than the symmetric split m0 = m1 (Fig. 3, solid vs dashed curves).
    q0, q1, m = 0.7, 0.9, 200
    m1_grid = np.arange(10, 191)
    for p in (0.5, 0.7):
        low, high = rg_interval(p, q1, q0, 10**9, m1_grid, m - m1_grid)
        best = (high - low).min()
        m0, m1 = allocate_calibration(m, p, 50, 45, 35)  # pilot rates 0.9 and 0.7
        low_a, high_a = rg_interval(p, q1, q0, 10**9, m1, m0)
        sym_low, sym_high = rg_interval(p, q1, q0, 10**9, 100, 100)
        assert high_a - low_a <= 1.03 * best
        assert high_a - low_a < sym_high - sym_low


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((200, 0.3, 0, 0, 0), r"m_pilot must be at least 1; got 0"),
        ((15, 0.3, 10, 5, 5), r"2 \* m_pilot \(20\) must not exceed the budget \(15\)"),
        (
            (200, 0.3, 10, 11, 5),
            r"pilot_pos_correct \(11\) must not be greater than m_pilot \(10\)",
        ),
        (
            (200, 0.3, 10, 5, 12),
            r"pilot_neg_correct \(12\) must not be greater than m_pilot \(10\)",
        ),
        ((200, 1.3, 10, 5, 5), r"p_hat must lie in \[0, 1\]; got 1.3"),
        ((200.5, 0.3, 10, 5, 5), r"budget must be non-negative whole counts; got 200.5"),
    ],
)
def test_allocate_calibration_bad_input(args, message):
    with pytest.raises(ValueError, match=message):
        allocate_calibration(*args)
