"""The estimators for new generators on arrays (regression.transfer.estimators)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from regression.data.anchors import Anchors
from regression.latent.worlds import transfer_world
from regression.transfer.adapter import transfer_data
from regression.transfer.estimators import (
    ESTIMATORS,
    TransferData,
    calibration_mean,
    hierarchical,
    leave_one_out,
    logit_spread,
    mean_of_judges,
    offset_mean,
    rogan_gladen_pooled,
    stack,
    transfer,
)


def world_data(world, calibration):
    """TransferData of a simulated world with these annotated positions as calibration."""
    names = [world.annotated[k] for k in calibration]
    anchors = Anchors.from_confusion(
        world.confusion, names, precision=world.sample_precision[names]
    )
    return transfer_data(world.counts.rates, world.counts.n_labelled.astype(float), anchors)


def leave_s_out(world, estimator, sizes, alpha=0.05):
    """Mean MaxAE per s and the coverage of the held-out annotated generators."""
    gens = list(world.counts.n_labelled.index)
    truth = world.sample_precision.to_numpy()
    errors = {s: [] for s in sizes}
    covered = []
    a = len(world.annotated)
    for s in sizes:
        for cal in itertools.combinations(range(a), s):
            held = np.array([gens.index(world.annotated[k]) for k in range(a) if k not in cal])
            est = estimator(world_data(world, list(cal)))
            errors[s].append(np.abs(est.precision[held] - truth[held]).max())
            low, high = est.bounds(alpha)
            covered.extend((low[held] <= truth[held]) & (truth[held] <= high[held]))
    return {s: float(np.mean(v)) for s, v in errors.items()}, float(np.mean(covered))


def toy(rates, confusion, calibration, precision, n=100.0):
    rates = np.asarray(rates, dtype=float)
    return TransferData(rates, np.full(rates.shape, n), confusion, calibration, precision)


# ------------------------------------------------------------------ baselines
def test_calibration_mean_is_the_t_prediction_interval():
    h = np.array([0.5, 0.55, 0.45])
    data = toy(np.full((5, 2), 0.5), np.ones((3, 2, 4)), [0, 1, 2], h)
    est = calibration_mean(data)
    low, high = est.bounds(0.05)
    half = stats.t.ppf(0.975, 2) * np.std(h, ddof=1) * np.sqrt(1 + 1 / 3)
    np.testing.assert_allclose(est.precision, 0.5)
    np.testing.assert_allclose(high - low, 2 * half)


def test_offset_is_exact_when_every_judge_is_shifted_alike():
    g = np.array([0.9, 0.7, 0.8, 0.6])
    rates = np.clip(g[:, None] + np.array([0.05, 0.1, 0.0])[None, :], 0, 1)
    data = toy(rates, np.ones((2, 3, 4)), [0, 1], g[:2])
    np.testing.assert_allclose(offset_mean(data).precision, g)
    np.testing.assert_allclose(mean_of_judges(data).precision, rates.mean(axis=1))
    assert np.isnan(mean_of_judges(data).se).all()


def test_rogan_gladen_pooled_inverts_equation_one_without_noise():
    g = np.array([0.9, 0.6, 0.75])
    tpr, tnr = np.array([0.9, 0.8]), np.array([0.7, 0.6])
    rates = g[:, None] * tpr + (1 - g[:, None]) * (1 - tnr)
    m = 1e6  # items per calibration table: the anchors are exact
    conf = np.stack(
        [
            np.stack(
                [
                    g[c] * m * tpr,
                    g[c] * m * (1 - tpr),
                    (1 - g[c]) * m * (1 - tnr),
                    (1 - g[c]) * m * tnr,
                ],
                -1,
            )
            for c in (0, 1)
        ]
    )
    data = toy(rates, conf, [0, 1], g[:2], n=1e6)
    np.testing.assert_allclose(rogan_gladen_pooled(data).precision, g, atol=1e-5)
    assert logit_spread(conf) == pytest.approx((0.0, 0.0), abs=1e-6)
    np.testing.assert_allclose(hierarchical(data).precision, g, atol=1e-4)


# ------------------------------------------------------------------ structure
def test_logit_spread_recovers_the_simulated_spread():
    world = transfer_world(
        "random", seed=1, n_generators=40, n_validators=30, n_annotated=40, n_items=2000
    )
    data = world_data(world, list(range(40)))
    var_tpr, var_tnr = logit_spread(data.confusion)
    # 30 judges x 39 df each: the moment estimate of 0.25 is within a few hundredths
    assert var_tpr == pytest.approx(0.25, abs=0.06)
    assert var_tnr == pytest.approx(0.25, abs=0.06)


def test_uninformative_judges_fall_back_to_the_calibration_mean():
    world = transfer_world("uninformative", seed=2)
    data = world_data(world, [0, 1, 2, 3, 4])
    est = hierarchical(data)
    assert np.max(est.details["shrink"]) < 0.3
    gap = np.abs(est.precision - calibration_mean(data).precision)
    naive = np.abs(rogan_gladen_pooled(data).precision - calibration_mean(data).precision)
    assert gap.max() < naive.max()


def test_one_calibration_generator_gives_the_offset_and_no_interval():
    world = transfer_world("fixed", seed=0)
    data = world_data(world, [2])
    est = transfer(data)
    np.testing.assert_allclose(est.precision, offset_mean(data).precision)
    assert np.isnan(est.se).all()
    assert leave_one_out(data, transfer).size == 0
    with pytest.raises(ValueError, match="at least 2 calibration generators; got 1"):
        stack(data, {"offset": offset_mean})


def test_stack_weighs_the_better_estimator_more():
    world = transfer_world("fixed", seed=4)
    data = world_data(world, [0, 1, 2, 3])
    est = stack(
        data, {"calibration_mean": calibration_mean, "rogan_gladen_pooled": rogan_gladen_pooled}
    )
    weights = est.details["weights"]
    assert weights.sum() == pytest.approx(1.0)
    assert weights[1] > 0.9


@settings(max_examples=25, deadline=None)
@given(st.floats(0.0, 1.0), st.integers(0, 3))
def test_leave_one_out_never_sees_the_left_out_label(value, k):
    """The LOO estimate for a generator does not move with that generator's own human label."""
    world = transfer_world("systematic", seed=5, n_generators=8, n_validators=5, n_items=200)
    data = world_data(world, [0, 1, 2, 3])
    moved = TransferData(
        data.rates,
        data.n,
        data.confusion,
        data.calibration,
        np.where(np.arange(4) == k, value, data.precision),
    )
    for name in ("transfer", "hierarchical", "offset"):
        a = ESTIMATORS[name](data.without(k)).precision
        b = ESTIMATORS[name](moved.without(k)).precision
        np.testing.assert_array_equal(  # exact: generator k is left out: the same input
            a, b, err_msg=name
        )


@settings(max_examples=15, deadline=None)
@given(st.permutations(list(range(6))))
def test_validator_order_does_not_matter(order):
    world = transfer_world("random", seed=6, n_generators=7, n_validators=6, n_items=300)
    data = world_data(world, [0, 1, 2])
    shuffled = TransferData(
        data.rates[:, order],
        data.n[:, order],
        data.confusion[:, order],
        data.calibration,
        data.precision,
    )
    np.testing.assert_allclose(transfer(shuffled).precision, transfer(data).precision, atol=1e-12)


def test_bad_shapes_are_named():
    with pytest.raises(ValueError, match=r"calibration \(2\), precision \(1\)"):
        TransferData(np.zeros((3, 2)), np.ones((3, 2)), np.ones((2, 2, 4)), [0, 1], [0.5])


# ------------------------------------------------------------------ worlds ("Done when")
def test_fixed_world_keeps_the_likelihoods_accuracy():
    # issue 12: where eq. (1) holds, <= 1.5 points at s = 5 on 14 x 14 with 500 items a cell
    errors, coverage = leave_s_out(transfer_world("fixed", seed=0), transfer, [3, 5])
    assert errors[5] <= 0.015
    assert coverage >= 0.9


@pytest.mark.parametrize("kind", ["random", "systematic", "uninformative"])
def test_never_much_worse_than_the_simple_baselines(kind):
    world = transfer_world(kind, seed=1)
    sizes = [2, 3, 5]
    ours, coverage = leave_s_out(world, transfer, sizes)
    cal, _ = leave_s_out(world, calibration_mean, sizes)
    off, _ = leave_s_out(world, offset_mean, sizes)
    for s in sizes:
        # issue 12: <= the better baseline + 0.5 points on average over worlds; one seed adds
        # Monte Carlo noise: over 8 seeds the per-seed difference has sd 0.5-1.1 points in
        # these worlds (0.24 points above at most on average), so 1.5 sd more is allowed
        assert ours[s] <= min(cal[s], off[s]) + 0.02, (kind, s, ours[s], cal[s], off[s])
    assert coverage >= 0.85
