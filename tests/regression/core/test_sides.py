"""The normal part's sides of a floored interval (regression.core.sides): the empirical likelihood side."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import optimize

from regression.core.sides import likelihood_half_widths, skewed_half_widths


def likelihood_statistic(residuals: np.ndarray, weights: np.ndarray, t: float) -> float:
    """Owen's statistic for the mean t by the textbook route: eta by root finding, then the sum."""
    d = weights / weights.sum()
    gap = residuals - t
    eta = optimize.brentq(
        lambda e: np.sum(d * gap / (1 + e * gap)),
        (-1 + 1e-12) / gap.max(),
        (-1 + 1e-12) / gap.min(),
        xtol=1e-15,
    )
    return float(2 * np.sum(d * np.log1p(eta * gap)))


def brute_force_sides(
    residuals: np.ndarray, weights: np.ndarray, variance: float, quantile: float
) -> tuple[float, float]:
    d = weights / weights.sum()
    mean = float(d @ residuals)
    spread = float(d @ (residuals - mean) ** 2)
    target = quantile**2 * variance / spread
    reach = residuals.max() - residuals.min()
    inside = 1e-9 * reach

    def excess(t: float) -> float:
        return likelihood_statistic(residuals, weights, t) - target

    low = optimize.brentq(excess, residuals.min() + inside, mean, xtol=1e-14)
    high = optimize.brentq(excess, mean, residuals.max() - inside, xtol=1e-14)
    return mean - low, high - mean


@settings(max_examples=60, deadline=None)
@given(
    size=st.integers(3, 40),
    seed=st.integers(0, 2**31 - 1),
    quantile=st.floats(1.0, 2.5),
    skew=st.floats(0.0, 3.0),
)
def test_the_likelihood_sides_are_owens_interval_by_root_finding(
    size: int, seed: int, quantile: float, skew: float
) -> None:
    rng = np.random.default_rng(seed)
    residuals = rng.gamma(1.0 / (0.1 + skew), size=size) * rng.choice([-1, 1])
    weights = rng.uniform(1.0, 4.0, size)
    variance = float(residuals.var() / size)
    half_width = np.array([quantile * np.sqrt(variance)])
    below, above = likelihood_half_widths(residuals[None], weights, half_width)
    # bisection on c against brentq on t (two routes): rounding only
    assert (below[0], above[0]) == pytest.approx(
        brute_force_sides(residuals, weights, variance, quantile), rel=1e-7
    )


@pytest.mark.parametrize(("valid", "size"), [(3, 10), (9, 10), (40, 50), (100, 400)])
def test_for_outcomes_at_two_values_it_is_the_binomial_likelihood_ratio_interval(
    valid: int, size: int
) -> None:
    """k of m at 1, the rest at 0, variance p(1 - p)/m: the interval is every t with
    2 [k log(p / t) + (m - k) log((1 - p) / (1 - t))] <= z^2."""
    p, z = valid / size, 1.959964
    outcomes = np.r_[np.ones(valid), np.zeros(size - valid)]

    def excess(t: float) -> float:
        return 2 * (valid * np.log(p / t) + (size - valid) * np.log((1 - p) / (1 - t))) - z * z

    low, high = optimize.brentq(excess, 1e-12, p), optimize.brentq(excess, p, 1 - 1e-12)
    below, above = likelihood_half_widths(
        outcomes[None], np.ones(size), np.array([z * np.sqrt(p * (1 - p) / size)])
    )
    # the closed form against the bisection: rounding only
    assert (p - below[0], p + above[0]) == pytest.approx((low, high), rel=1e-8)


def test_it_follows_a_shift_and_a_scale_of_the_residuals() -> None:
    rng = np.random.default_rng(3)
    residuals = np.r_[rng.normal(0, 0.2, 29), -3.0]
    normal = np.array([2.0 * residuals.std() / np.sqrt(30)])
    below, above = likelihood_half_widths(residuals[None], np.ones(30), normal)
    moved = likelihood_half_widths(7.0 + 2.5 * residuals[None], np.ones(30), 2.5 * normal)
    # the same interval computed on moved numbers: rounding only
    assert (moved[0][0], moved[1][0]) == pytest.approx((2.5 * below[0], 2.5 * above[0]), rel=1e-9)


def test_one_extreme_residual_lengthens_its_side_and_only_its_side() -> None:
    """29 residuals near 0 and one at -3: the normal half-width is symmetric, the likelihood
    interval longer toward -3 and shorter away from it; symmetric residuals give symmetric sides."""
    rng = np.random.default_rng(4)
    residuals = np.r_[rng.normal(0, 0.2, 29), -3.0]
    normal = 2.0 * residuals.std() / np.sqrt(30)
    below, above = likelihood_half_widths(residuals[None], np.ones(30), np.array([normal]))
    assert below[0] > 1.2 * normal and above[0] < 0.9 * normal
    symmetric = np.r_[residuals[:29], -residuals[:29]]
    below, above = likelihood_half_widths(
        symmetric[None], np.ones(58), np.array([2.0 * symmetric.std() / np.sqrt(58)])
    )
    # mirrored residuals: the two sides by the same arithmetic on mirrored sums
    assert below[0] == pytest.approx(above[0], rel=1e-9)


@pytest.mark.filterwarnings("error")
@pytest.mark.parametrize("offset", [0.0, 1.0, -4.0, 100.0])
def test_a_spread_of_rounding_size_far_from_zero_gets_finite_sides(offset: float) -> None:
    """Residuals that differ by 1e-10 around ``offset`` (a graded sample whose ratings agree up to
    the predictions' rounding; hypothesis found one at 1): finite sides of the spread's size, no
    division by zero, the same as around 0 up to the offset's rounding of the residuals."""
    residuals = offset + 1e-10 * np.r_[-5.0, np.arange(9.0)]
    normal = np.array([1e-10])
    below, above = likelihood_half_widths(residuals[None], np.ones(10), normal)
    at_zero = likelihood_half_widths((residuals - offset)[None], np.ones(10), normal)
    assert np.isfinite([below[0], above[0]]).all()
    assert 0 < below[0] < 1e-9 and 0 < above[0] < 1e-9
    # 100 rounds residuals 1e-10 apart by about 1e-14: relative 1e-4
    assert (below[0], above[0]) == pytest.approx((at_zero[0][0], at_zero[1][0]), rel=1e-3)


def test_a_sample_without_spread_or_normal_width_gets_no_width() -> None:
    rows = np.array([[0.5, 0.5, 0.5], [0.0, 1.0, 0.5]])
    below, above = likelihood_half_widths(rows, np.ones(3), np.array([0.6, 0.0]))
    assert below.tolist() == above.tolist() == [0.0, 0.0]  # exact: the rows are skipped


def test_the_skewed_sides_share_students_width_and_leave_a_symmetric_sample_alone() -> None:
    rng = np.random.default_rng(5)
    bulk = rng.normal(0, 0.2, 29)
    rows = np.array([np.r_[bulk, -3.0], np.r_[bulk[:15], -bulk[:15]]])
    student = np.array([0.3, 0.2])
    below, above = skewed_half_widths(student, rows, np.ones(30))
    # the sides' sum is two shares that add to 2 times student: rounding only
    assert below + above == pytest.approx(2 * student, rel=1e-12)
    assert below[0] > 1.2 * student[0]
    # mirrored residuals: the two sides by the same arithmetic on mirrored sums
    assert (below[1], above[1]) == pytest.approx((student[1], student[1]), rel=1e-9)
