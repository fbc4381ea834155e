"""Simulation harness and the Lee et al. coverage / shift studies (regression.single_judge.simulate)."""

import numpy as np
import pytest

from regression.simulate import (
    coverage_study,
    distribution_shift_study,
    simulate_comparison,
    simulate_single_judge,
)


def test_coverage_of_lee_interval_is_nominal_for_interior_theta():
    # Lee et al. Fig. 5(b), smaller: (q0, q1) = (0.7, 0.9), n = 1000, m0 = m1 = 100,
    # 4000 replications per theta (MC SE of a 95 % coverage: 0.0034; the band [0.93, 0.97]
    # is +/- 6 SE around 0.95).
    df = coverage_study(np.round(np.arange(0.1, 0.91, 0.1), 2), n_rep=4000, seed=2026)
    assert df["coverage"].between(0.93, 0.97).all(), df[["theta", "coverage"]]
    assert (df["coverage_mcse"] < 0.004).all()
    assert df["bias"].abs().max() < 0.01  # Prop. 5.1: O(1/m)
    # the naive interval almost never covers away from theta = 0.75 (Fig. 5(b))
    assert (df.loc[df["theta"] <= 0.5, "naive_coverage"] < 0.01).all()
    # naive bias is eq. (14): (q0 + q1 - 1) theta + 1 - q0 - theta
    np.testing.assert_allclose(df["naive_bias"], 0.3 - 0.4 * df["theta"], atol=0.002)


def test_coverage_one_sided_and_adaptive_allocation_is_shorter():
    equal = coverage_study([0.1, 0.3, 0.9], n_rep=3000, seed=1)
    adaptive = coverage_study([0.1, 0.3, 0.9], n_rep=3000, seed=1, allocation="adaptive")
    # Fig. 5(c): Algorithm 1 gives shorter intervals than m0 = m1 at these theta
    assert (adaptive["mean_length"] < equal["mean_length"]).all()
    assert adaptive["coverage"].between(0.93, 0.97).all()
    assert (adaptive["mean_m1"] != 100).all()


def test_distribution_shift_only_rogan_gladen_stays_unbiased():
    # Lee et al. section 8, Fig. 7: theta_P = 0.5, theta_Q in [0.25, 0.75], n = 1000, m = 200
    df = distribution_shift_study([0.25, 0.5, 0.75], n_rep=4000, seed=8)
    assert (df["rogan_gladen"].abs() < 0.01).all()  # O(1/m) only
    # analytic biases (p_P = 0.6; p_Q = 0.6 theta_Q + 0.3):
    # naive p_P - theta_P = 0.1; calibration-only theta_Q - 0.5; difference (PPI, lam = 1)
    # theta_Q - p_Q + p_P - theta_P = 0.4 theta_Q - 0.2
    tq = df["theta_cal"]
    np.testing.assert_allclose(df["naive"], 0.1, atol=0.003)
    np.testing.assert_allclose(df["calibration_only"], tq - 0.5, atol=0.004)
    np.testing.assert_allclose(df["difference"], 0.4 * tq - 0.2, atol=0.004)
    assert abs(df.loc[0, "ppi++"]) > 0.1 and abs(df.loc[1, "ppi++"]) < 0.01


def test_simulate_single_judge_moments_and_modes():
    sim = simulate_single_judge(0.3, 0.9, 0.7, n=1000, m0=100, m1=100, n_rep=5000, seed=0)
    # E[k] = n p = 1000 (0.27 + 0.21) = 480; SD of the mean: sqrt(1000 .48 .52 / 5000) = 0.22
    assert sim.k_test.mean() == pytest.approx(480, abs=1.5)
    assert sim.tpr_hat.mean() == pytest.approx(0.9, abs=0.002)
    assert sim.tnr_hat.mean() == pytest.approx(0.7, abs=0.003)
    shifted = simulate_single_judge(
        0.5, 0.9, 0.7, 1000, m=200, theta_cal=[0.25, 0.75], n_rep=4000, seed=1
    )
    assert shifted.n_pos.shape == (4000, 2)
    np.testing.assert_allclose(shifted.n_pos.mean(axis=0), [50, 150], atol=0.5)
    # breaking Lee eq. (18): calibration TNR 0.8 while the test TNR is 0.7 biases RG by
    # (0.6 + 0.8 - 1) / 0.7 - 0.5 = 0.0714
    broken = simulate_single_judge(
        0.5, 0.9, 0.7, 1000, m0=2000, m1=2000, tnr_cal=0.8, n_rep=2000, seed=2
    )
    rg = (broken.p_hat + broken.tnr_hat - 1) / (broken.tpr_hat + broken.tnr_hat - 1)
    assert rg.mean() - 0.5 == pytest.approx(0.0714, abs=0.004)


def test_simulate_comparison_shapes_and_rates():
    sim = simulate_comparison(
        [0.6, 0.7], 0.65, 0.8, 0.8, 0.85, 0.85, n=500, m0=50, m1=60, n_rep=3000, seed=0
    )
    assert sim.test.shape == (3000, 2, 4) and sim.cal_a.shape == (3000, 2, 4)
    assert np.all(sim.test.sum(axis=-1) == 500)
    np.testing.assert_allclose(sim.p_a.mean(axis=0), [0.56, 0.62], atol=0.003)
    assert np.all(sim.cal_b[..., 0] + sim.cal_b[..., 1] == 60)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({}, r"give either both m0 and m1 \(fixed class sizes\) or m"),
        ({"m0": 10, "m1": 10, "m": 20}, r"give either both m0 and m1"),
        ({"m0": 10}, r"give either both m0 and m1"),
        ({"m": 20, "theta_cal": 1.2}, r"theta_cal must lie in \[0, 1\]; got 1.2"),
        ({"m": 20, "n_rep": 0}, r"n_rep|n_boot must be a positive integer"),
    ],
)
def test_simulate_bad_input(kwargs, message):
    with pytest.raises(ValueError, match=message):
        simulate_single_judge(0.5, 0.9, 0.7, 100, **kwargs)


def test_study_bad_input():
    with pytest.raises(ValueError, match=r"allocation \('greedy'\) not recognized"):
        coverage_study(allocation="greedy")
    with pytest.raises(ValueError, match=r"n must be positive; got 0"):
        simulate_single_judge(0.5, 0.9, 0.7, 0, m0=5, m1=5)


@pytest.mark.parametrize("n_rep", [0, -1, 1.5, True])
def test_simulations_refuse_a_replication_count_that_is_not_a_whole_number_from_one(n_rep):
    with pytest.raises(ValueError, match=r"n_rep must be a whole number >= 1"):
        simulate_single_judge(0.3, 0.9, 0.7, n=100, m0=50, m1=50, n_rep=n_rep)


def test_one_simulated_world_is_allowed():
    sim = simulate_single_judge(0.3, 0.9, 0.7, n=100, m0=50, m1=50, n_rep=1, seed=0)
    assert sim.k_test.shape == (1,)
