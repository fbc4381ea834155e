"""The predictor of a rating from judges' scores: isotonic per judge, stacked non-negatively."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from regression.scores.predict import (
    fit_isotonic,
    fit_predictor,
    pool_adjacent_violators,
    stack_weights,
)


def test_pool_adjacent_violators_by_hand():
    # 3 > 2 pool to 2.5; then 2.5 <= 4; [5, 1, 1] pool to 7/3 against 4: all of [4, 5, 1, 1] pool
    # to 11/4, below 2.5? no: 2.75 > 2.5, so the fit is [1, 2.5, 2.5, 2.75 x 4]
    fit = pool_adjacent_violators(np.array([1.0, 3.0, 2.0, 4.0, 5.0, 1.0, 1.0]))
    assert np.allclose(fit, [1.0, 2.5, 2.5, 2.75, 2.75, 2.75, 2.75], rtol=0, atol=1e-12)  # sums


def test_weighted_pooling_by_hand():
    # weights 3 and 1: the pooled mean is (3 * 2 + 1 * 0) / 4 = 1.5
    assert pool_adjacent_violators(np.array([2.0, 0.0]), np.array([3.0, 1.0])).tolist() == [
        1.5,
        1.5,
    ]


def test_the_isotonic_curve_pools_ties_and_reads_by_position():
    curve = fit_isotonic(np.array([3.0, 1.0, 3.0, 2.0]), np.array([1.0, 0.0, 0.0, 1.0]))
    # score 1 -> 0; score 2 -> 1 and score 3 -> 0.5 violate: pooled (1 + 0.5 * 2) / 3 = 2/3
    assert np.allclose(curve.values, [0.0, 2 / 3, 2 / 3], rtol=0, atol=1e-12)
    at = curve(np.array([0.0, 1.5, np.nan, 7.0]))
    assert np.allclose(at[[0, 1, 3]], [0.0, 1 / 3, 2 / 3], rtol=0, atol=1e-12)
    assert np.isnan(at[2])


def test_nnls_weights_by_hand():
    # y = 2 + x1 - x2: the negative weight is refused, so x2 gets 0 and x1 its own slope
    x = np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    intercept, weights = stack_weights(x, 2.0 + x[:, 0] - x[:, 1])
    # x1 and x2 are orthogonal once centred: x1's slope is 1 exactly, and the intercept the
    # mean 2 less the centred weight 0.5 (to rounding of a 4-row least squares)
    assert np.allclose(weights, [1.0, 0.0], rtol=0, atol=1e-12)
    assert abs(intercept - 1.5) < 1e-12


def test_a_judge_that_predicts_nothing_gets_no_weight_and_a_missing_score_its_mean():
    rng = np.random.default_rng(3)
    y = rng.random(300)
    scores = np.column_stack([10 * y**2, rng.random(300)])
    scores[:20, 0] = np.nan
    predictor = fit_predictor(scores, y)
    # what each judge moves the prediction by: its weight times its calibrated score's spread
    moved = predictor.weights * predictor.features(scores).std(axis=0)
    assert predictor.weights[0] > 0.8 and moved[1] < 0.05 * moved[0]
    missing = predictor.features(scores[:20])[:, 0]
    assert np.all(missing == predictor.fill[0])  # the fill itself, by structure
    assert np.all((predictor(scores) >= 0) & (predictor(scores) <= 1))


@settings(max_examples=25, deadline=None)
@given(
    st.lists(st.floats(0, 1), min_size=6, max_size=30),
    st.integers(0, 3),
    st.integers(0, 10_000),
)
def test_the_predictor_is_unchanged_by_an_increasing_rescaling_and_monotone(y, power, seed):
    y = np.array(y)
    rng = np.random.default_rng(seed)
    scores = np.column_stack([y + rng.normal(0, 0.3, y.size), rng.normal(size=y.size)])
    rescaled = scores.copy()
    rescaled[:, 0] = np.exp(3 * scores[:, 0]) ** (power + 1)  # increasing, non-linear
    a, b = fit_predictor(scores, y), fit_predictor(rescaled, y)
    # the same positions give the same features: equal up to the rounding of one exp
    assert np.allclose(a(scores), b(rescaled), rtol=0, atol=1e-12)
    # monotone in each judge: raising a judge's score never lowers the prediction
    grid = np.column_stack([np.sort(scores[:, 0]), np.zeros(y.size)])
    assert np.all(np.diff(a(grid)) >= -1e-12)
