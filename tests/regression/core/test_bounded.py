"""The betting interval of a bounded mean (regression.core.bounded): its properties, exact
binomial coverage by enumeration, its price against the normal interval, and the
prediction-powered mean of a design with it."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from regression.core import betting_interval, ppi_interval
from regression.intervals import wilson_interval

# brentq stops at xtol 1e-12 on the unit scale; two paths to one end agree to a few of those
TOL = 1e-9

samples = st.lists(st.floats(0.0, 1.0), min_size=0, max_size=40)


@settings(max_examples=40, deadline=None)
@given(samples, st.sampled_from([0.2, 0.05, 0.01]), st.integers(0, 3))
def test_interval_within_bounds_and_holding_the_mean_of_a_constant(values, alpha, seed):
    low, high = betting_interval(values, (0.0, 1.0), alpha, seed=seed)
    assert 0.0 <= low <= high <= 1.0
    if values and np.ptp(values) == 0:
        assert low <= values[0] <= high


@settings(max_examples=30, deadline=None)
@given(samples.filter(bool), st.integers(0, 3))
def test_nested_as_alpha_shrinks(values, seed):
    # one capital process for every level (bets tuned at 0.05): thresholds 1 / alpha nest
    widths = [betting_interval(values, (0, 1), a, seed=seed) for a in (0.3, 0.1, 0.05, 0.01)]
    for wide, narrow in zip(widths[1:], widths[:-1], strict=True):
        assert wide.low <= narrow.low + TOL and narrow.high <= wide.high + TOL


@settings(max_examples=30, deadline=None)
@given(samples.filter(bool), st.floats(-50, 50), st.floats(0.5, 20))
def test_shift_and_scale_equivariant(values, shift, scale):
    low, high = betting_interval(values, (0, 1))
    moved = betting_interval([shift + scale * v for v in values], (shift, shift + scale))
    assert moved.low == pytest.approx(shift + scale * low, abs=TOL * scale * 10)
    assert moved.high == pytest.approx(shift + scale * high, abs=TOL * scale * 10)


def test_same_seed_same_interval_other_seed_other_order():
    values = np.random.default_rng(3).random(60)
    first, again = (
        betting_interval(values, (0, 1), seed=7),
        betting_interval(values, (0, 1), seed=7),
    )
    assert (first.low, first.high) == (again.low, again.high)  # same computation, same numbers
    other = betting_interval(values, (0, 1), seed=8)
    assert (other.low, other.high) != (first.low, first.high)


def test_all_equal_samples_keep_a_width_that_shrinks_with_n():
    lows = [float(betting_interval(np.ones(n), (0, 1)).low) for n in (5, 10, 20, 50, 200)]
    assert all(0.0 < low < 1.0 for low in lows)
    assert lows == sorted(lows) and len(set(lows)) == len(lows)
    zeros = betting_interval(np.zeros(50), (0, 1))
    assert float(zeros.low) == 0.0  # exact: the lower end is the bound itself
    assert 0.0 < float(zeros.high) < 0.2


@pytest.mark.parametrize("p", [0.02, 0.1, 0.3, 0.5, 0.8, 0.97])
def test_binomial_coverage_exact_by_enumeration(p):
    # every 0 / 1 sequence of length 8 with its exact probability: the coverage is a sum, not a
    # Monte Carlo estimate, and the theorem says it is at least 0.95 at every p
    n = 8
    sequences = np.array(list(itertools.product([0.0, 1.0], repeat=n)))
    k = sequences.sum(axis=1)
    probability = p**k * (1 - p) ** (n - k)
    covered = np.array(
        [float(lo) <= p <= float(hi) for lo, hi in (betting_interval(s, (0, 1)) for s in sequences)]
    )
    assert probability.sum() == pytest.approx(1.0)
    assert float(probability[covered].sum()) >= 0.95


def test_one_sided_bounds_bet_on_one_side():
    values = np.random.default_rng(0).random(100) < 0.4
    two = betting_interval(values, (0, 1))
    lower = betting_interval(values, (0, 1), alternative="greater")
    upper = betting_interval(values, (0, 1), alternative="less")
    assert float(lower.high) == 1.0 and float(upper.low) == 0.0  # exact: the bounds themselves
    assert two.low < lower.low < 0.4 < upper.high < two.high


def test_width_at_400_within_a_stated_factor_of_the_normal_interval():
    # the price of validity at any n: asymptotically sqrt(2 log(2 / alpha)) / z = 1.39x the
    # normal width at alpha 0.05 (module docstring); at 400 draws it lies between 1 and 1.6x
    rng = np.random.default_rng(11)
    for p in (0.2, 0.5):
        x = (rng.random(400) < p).astype(float)
        low, high = betting_interval(x, (0, 1))
        w_low, w_high = wilson_interval(x.sum(), 400)
        ratio = float(high - low) / float(w_high - w_low)
        assert 1.0 < ratio < 1.6


def test_bad_input_is_named():
    with pytest.raises(ValueError, match=r"value 1\.5 \(position 1\)"):
        betting_interval([0.2, 1.5], (0, 1))
    with pytest.raises(ValueError, match="low < high"):
        betting_interval([0.2], (1, 0))
    with pytest.raises(ValueError, match="lam 2"):
        ppi_interval(
            [1.0], [1.0], [1.0, 0.0], [0.5], 2.0, outcome_bounds=(0, 1), prediction_bounds=(0, 1)
        )


# ------------------------------------------------------------------ prediction-powered, designs


def _population(seed=0, size=3000):
    rng = np.random.default_rng(seed)
    q = rng.beta(0.5, 0.5, size)
    y = (rng.random(size) < q).astype(float)
    return q, y


def test_ppi_estimate_in_bounds_and_inside_its_interval_any_lam():
    q, y = _population()
    pick = np.random.default_rng(1).choice(q.size, 40, replace=False)
    for lam in (None, 0.0, 0.5, 1.0):
        estimate, (low, high) = ppi_interval(
            y[pick], q[pick], q, np.full(40, 40 / q.size), lam,
            outcome_bounds=(0, 1), prediction_bounds=(0, 1),
        )  # fmt: skip
        assert 0.0 <= low <= estimate <= high <= 1.0


def test_ppi_lam_zero_is_the_labels_own_betting_interval():
    # lam = 0 and a uniform design: every draw's value is its outcome, bounds (0, 1)
    q, y = _population(2)
    pick = np.random.default_rng(3).choice(q.size, 60, replace=False)
    estimate, ci = ppi_interval(
        y[pick], q[pick], q, np.full(60, 60 / q.size), 0.0,
        outcome_bounds=(0, 1), prediction_bounds=(0, 1),
    )  # fmt: skip
    labels = betting_interval(y[pick], (0, 1))
    assert estimate == pytest.approx(y[pick].mean(), rel=1e-12)
    assert float(ci.low) == pytest.approx(float(min(labels.low, estimate)), abs=TOL)
    assert float(ci.high) == pytest.approx(float(max(labels.high, estimate)), abs=TOL)


def test_ppi_good_judges_narrow_the_interval_and_a_sample_without_error_keeps_width():
    q, y = _population(4)
    y_sure = (q > 0.5).astype(float)  # judges that are always right, on their own scale
    pick = np.random.default_rng(5).choice(q.size, 100, replace=False)
    _, judged = ppi_interval(
        y_sure[pick], y_sure[pick], y_sure, np.full(100, 100 / q.size), None,
        outcome_bounds=(0, 1), prediction_bounds=(0, 1),
    )  # fmt: skip
    labels = betting_interval(y_sure[pick], (0, 1))
    assert 0 < float(judged.high - judged.low) < 0.6 * float(labels.high - labels.low)


def test_ppi_held_units_enter_exactly():
    q, y = _population(6, 500)
    held = np.arange(500)
    estimate, ci = ppi_interval(
        y[held], q[held], q, np.ones(500), None, outcome_bounds=(0, 1), prediction_bounds=(0, 1)
    )
    assert estimate == pytest.approx(y.mean(), rel=1e-12)
    assert float(ci.low) == float(ci.high) == estimate  # exact: no unit left to draw


def test_ppi_unequal_design_covers_its_population_mean():
    # a design with unequal probabilities, read with replacement: a few seeded draws, each
    # interval checked to hold the truth (validity is the module's argument, not this test's)
    q, y = _population(7)
    pi_all = np.clip(0.02 + 0.06 * np.sqrt(q * (1 - q)), 0, 1)
    rng = np.random.default_rng(8)
    for _ in range(3):
        drawn = rng.random(q.size) < pi_all
        estimate, (low, high) = ppi_interval(
            y[drawn], q[drawn], q, pi_all[drawn], None,
            outcome_bounds=(0, 1), prediction_bounds=(0, 1), population_probabilities=pi_all,
        )  # fmt: skip
        assert low <= y.mean() <= high and low <= estimate <= high


def test_binomial_coverage_reference_is_above_nominal_where_wilson_is_not():
    # a cross-check of the enumeration: the same sum for Wilson at n = 8, p = 0.02 (stats.binom)
    n, p = 8, 0.02
    k = np.arange(n + 1)
    low, high = wilson_interval(k, n)
    coverage = float(stats.binom.pmf(k, n, p)[(low <= p) & (p <= high)].sum())
    assert coverage < 0.95
