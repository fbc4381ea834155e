"""Count-based bootstraps (regression.single_judge.bootstrap)."""

import numpy as np
import pytest

from regression import compare_models
from regression.single_judge import (
    BootstrapResult,
    CalibrationTable,
    count_bootstrap,
    delta_youden_j,
    percentile_interval,
    resample_binomial,
    resample_table,
    resample_tables,
)

CAL = CalibrationTable(tp=8, fn=2, fp=3, tn=7)


def test_resample_table_keeps_total_and_proportions():
    rng = np.random.default_rng(0)
    draws = resample_table([[30, 5], [10, 55]], 20_000, rng)
    assert draws.shape == (20_000, 2, 2)
    assert np.all(draws.sum(axis=(1, 2)) == 100)
    # mean of the cell counts: 30, 5, 10, 55; MC SE of a mean <= sqrt(25/20000) = 0.035
    np.testing.assert_allclose(draws.mean(axis=0), [[30, 5], [10, 55]], atol=0.2)


def test_resample_binomial_broadcasts():
    draws = resample_binomial([3, 7], 10, 5000, np.random.default_rng(1))
    assert draws.shape == (5000, 2)
    np.testing.assert_allclose(draws.mean(axis=0), [3, 7], atol=0.15)  # ~6 MC SE (0.02)


def test_count_bootstrap_standard_error_of_a_proportion():
    # p-hat = 0.3 from n = 1000: SE = sqrt(0.21 / 1000) = 0.01449; 10,000 replicates give
    # the bootstrap SE to ~0.7 % (1/sqrt(2 B)); allow 5 %
    res = count_bootstrap(lambda t: t[:, 0] / t.sum(axis=1), [[300, 700]], seed=0)
    assert res.n_boot == 10_000 and res.estimate == pytest.approx(0.3)
    assert res.se == pytest.approx(np.sqrt(0.21 / 1000), rel=0.05)
    low, high = res.bounds(res.alpha, res.alternative)
    assert low == pytest.approx(0.3 - 1.96 * 0.01449, abs=0.003)
    assert high == pytest.approx(0.3 + 1.96 * 0.01449, abs=0.003)
    assert res.median == pytest.approx(0.3, abs=0.002)


def test_count_bootstrap_equals_row_bootstrap_in_distribution():
    # the same statistic by resampling 0/1 rows: the SEs agree within MC error
    rng = np.random.default_rng(5)
    rows = np.r_[np.ones(40), np.zeros(160)]
    row_reps = np.array([rows[rng.integers(0, 200, 200)].mean() for _ in range(4000)])
    res = count_bootstrap(lambda t: t[:, 0] / 200, [[40, 160]], n_boot=4000, seed=6)
    assert res.se == pytest.approx(row_reps.std(ddof=1), rel=0.07)  # two 2.2 % MC errors


def test_resample_tables_is_reproducible():
    a = resample_tables([[5, 5], [1, 2, 3, 4]], 10, seed=3)
    b = resample_tables([[5, 5], [1, 2, 3, 4]], 10, seed=3)
    for x, y in zip(a, b, strict=True):
        np.testing.assert_array_equal(x, y)  # exact: same seed, same path


def test_percentile_interval_sides():
    reps = np.arange(101) / 100
    assert percentile_interval(reps, 0.1) == pytest.approx((0.05, 0.95))
    assert percentile_interval(reps, 0.1, "less", limits=(0, 1)) == pytest.approx((0.0, 0.9))
    assert percentile_interval(reps, 0.1, "greater", limits=(0, 1)) == pytest.approx((0.1, 1.0))


def test_undefined_replicates_count_against_the_interval():
    # 101 defined replicates 0.00 ... 1.00 and 10 undefined ones, range (-1, 2): the undefined
    # ones sit at -1 for the lower quantile and at 2 for the upper one
    reps = np.r_[np.arange(101) / 100, [np.nan] * 10]
    low, high = percentile_interval(reps, 0.1, limits=(-1, 2))
    assert low == pytest.approx(np.quantile(np.r_[np.arange(101) / 100, [-1] * 10], 0.05))
    assert high == pytest.approx(np.quantile(np.r_[np.arange(101) / 100, [2] * 10], 0.95))
    assert low < 0.05 and high > 0.95
    # more than alpha/2 undefined: the interval reaches the limits
    # exact: bounds clipped to the limits by construction
    assert percentile_interval(np.r_[0.5, 0.5, [np.nan] * 8], limits=(-1, 1)) == (-1.0, 1.0)
    # exact: bounds clipped to the limits by construction
    assert percentile_interval([np.nan], limits=(-1, 1)) == (-1.0, 1.0)
    res = BootstrapResult(0.5, reps, limits=(-1, 2))
    assert res.n_invalid == 10 and res.bounds(0.1) == (low, high)
    assert res.se == pytest.approx(np.std(np.arange(101) / 100, ddof=1))


def test_bad_input():
    with pytest.raises(ValueError, match=r"n_boot \(0\) must lie in 2\.\.1,000,000"):
        resample_table([1, 2], 0, np.random.default_rng(0))
    with pytest.raises(ValueError, match=r"cells must be non-negative whole counts; got -1"):
        resample_table([1, -1], 5, np.random.default_rng(0))
    with pytest.raises(ValueError, match=r"k \(5\) must not be greater than n \(4\)"):
        resample_binomial(5, 4, 5, np.random.default_rng(0))
    with pytest.raises(ValueError, match=r"alternative \('up'\) not recognized"):
        percentile_interval([0.1, 0.2], alternative="up")


@pytest.mark.parametrize("n_boot", [0, 1, 1_000_001, 2.0, True, "100"])
def test_every_bootstrap_refuses_a_count_outside_the_rule(n_boot):
    # One replicate has no spread (a zero-width interval): regression.checks.check_n_boot.
    rng = np.random.default_rng(0)
    calls = [
        lambda: resample_table([3, 4], n_boot, rng),
        lambda: resample_binomial(3, 7, n_boot, rng),
        lambda: resample_tables([[3, 4]], n_boot, seed=0),
        lambda: count_bootstrap(lambda t: t[:, 0] / t.sum(axis=1), [[3, 4]], n_boot=n_boot),
        lambda: delta_youden_j(
            CalibrationTable(5, 5, 5, 5), CalibrationTable(5, 5, 5, 5), n_boot=n_boot
        ),
        lambda: compare_models([1, 0, 1], [0, 0, 1], CAL, CAL, n_boot=n_boot),
    ]
    for call in calls:
        with pytest.raises(ValueError, match=r"n_boot"):
            call()


def test_two_replicates_are_the_fewest_accepted():
    res = count_bootstrap(lambda t: t[:, 0] / t.sum(axis=1), [[3, 4]], n_boot=2, seed=0)
    assert res.n_boot == 2
    assert resample_table([3, 4], 2, np.random.default_rng(0)).shape == (2, 2)


def test_same_seed_same_replicates_and_a_generator_is_used_as_given():
    stat = lambda t: t[:, 0] / t.sum(axis=1)  # noqa: E731
    a = count_bootstrap(stat, [[30, 70]], n_boot=50, seed=3)
    b = count_bootstrap(stat, [[30, 70]], n_boot=50, seed=3)
    np.testing.assert_array_equal(a.replicates, b.replicates)  # exact: same seed, same path
    legacy = count_bootstrap(stat, [[30, 70]], n_boot=50, seed=np.random.RandomState(3))
    assert legacy.replicates.shape == (50,)
    rng = np.random.default_rng(3)
    first = resample_tables([[30, 70]], 5, seed=rng)[0]
    second = resample_tables([[30, 70]], 5, seed=rng)[0]
    # the generator advanced: it was not copied
    assert not np.array_equal(first, second)  # exact: integer counts from two draws
