"""Model comparison Delta theta and the shared-calibration bias (regression.single_judge.comparison).

Reference: Fiedler, "Bias and Uncertainty in LLM-as-a-Judge Estimation": App. B (delta
method), App. C (shared-calibration bias, worked example), App. E.4 (bootstrap), section 5.
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from regression import compare_models
from regression.results import Summary
from regression.simulate import simulate_comparison
from regression.single_judge import (
    COMPARISON_METHODS,
    CalibrationTable,
    JudgeCounts,
    rg_estimate,
    shared_calibration_bias,
)


def test_fiedler_app_c_worked_example():
    # App. C, Mistral Large on math: Delta J = -0.119, Delta q0 = -0.060, J_Qwen = 0.519,
    # theta_Gemma3 = 0.738 -> bias = (0.738 * (-0.119) - (-0.060)) / 0.519 = -0.0536 ~ -0.054.
    # As rates: q0_B = 0.569 (Table 6), q1_B = 0.519 + 1 - 0.569 = 0.950;
    # q0_A = 0.569 - 0.060 = 0.509 (Table 6), q1_A = (0.519 - 0.119) + 1 - 0.509 = 0.891.
    bias = shared_calibration_bias(0.738, tpr_a=0.891, tnr_a=0.509, tpr_b=0.950, tnr_b=0.569)
    assert bias == pytest.approx((0.738 * -0.119 + 0.060) / 0.519)
    assert round(bias, 3) == -0.054  # exact: rounded to 3 decimals, off a rounding edge (-0.05361)
    # With Table 6's rounded rates (q1 0.887 / 0.947) the same formula gives -0.055.
    assert shared_calibration_bias(0.738, 0.887, 0.509, 0.947, 0.569) == pytest.approx(
        -0.0553, abs=5e-4
    )


@settings(max_examples=100, deadline=None)
@given(
    theta=st.floats(0, 1),
    q1a=st.floats(0, 1),
    q0a=st.floats(0, 1),
    q1b=st.floats(0.3, 1),
    q0b=st.floats(0.3, 1),
)
def test_bias_formula_equals_its_definition(theta, q1a, q0a, q1b, q0b):
    j_b = q1b + q0b - 1
    if j_b <= 0.05:
        return
    # App. C, first line: (p_A + q0_B - 1) / J_B - (p_A + q0_A - 1) / J_A, the second term = theta_A
    p_a = theta * q1a + (1 - theta) * (1 - q0a)
    expected = (p_a + q0b - 1) / j_b - theta
    assert shared_calibration_bias(theta, q1a, q0a, q1b, q0b) == pytest.approx(expected, abs=1e-9)
    # and the last line: theta Delta q1 / J_B - (1 - theta) Delta q0 / J_B
    last = (theta * (q1a - q1b) - (1 - theta) * (q0a - q0b)) / j_b
    assert shared_calibration_bias(theta, q1a, q0a, q1b, q0b) == pytest.approx(last, abs=1e-9)


def test_bias_vanishes_with_equal_calibration_and_broadcasts():
    assert shared_calibration_bias(0.6, 0.8, 0.7, 0.8, 0.7) == 0
    out = shared_calibration_bias(np.array([0.2, 0.5, 0.8]), 0.85, 0.7, 0.9, 0.7)
    assert out.shape == (3,) and np.all(np.diff(out) < 0)


def test_bias_bad_input():
    with pytest.raises(ValueError, match=r"J_B = tpr_b \+ tnr_b - 1 must be positive.*got -0.25"):
        shared_calibration_bias(0.5, 0.8, 0.8, 0.375, 0.375)
    with pytest.raises(ValueError, match=r"theta_a must lie in \[0, 1\]; got 1.5"):
        shared_calibration_bias(1.5, 0.8, 0.8, 0.8, 0.8)


def test_simulated_shared_calibration_bias_matches_app_c():
    # Fiedler section 5 mechanism: q0 = q1 per model, J_A = 0.3, J_B = 0.35, theta_B - theta_A
    # = 0.05. Large calibration sets, so the finite-m bias is negligible; 4000 replications.
    th_a, th_b, qa, qb = 0.7, 0.75, 0.65, 0.675
    sim = simulate_comparison(
        th_a, th_b, qa, qa, qb, qb, n=2000, m0=2000, m1=2000, n_rep=4000, seed=11
    )
    tpr = lambda c: c[:, 0] / (c[:, 0] + c[:, 1])  # noqa: E731
    tnr = lambda c: c[:, 3] / (c[:, 2] + c[:, 3])  # noqa: E731
    shared = rg_estimate(sim.p_a, tpr(sim.cal_b), tnr(sim.cal_b)) - rg_estimate(
        sim.p_b, tpr(sim.cal_b), tnr(sim.cal_b)
    )
    specific = rg_estimate(sim.p_a, tpr(sim.cal_a), tnr(sim.cal_a)) - rg_estimate(
        sim.p_b, tpr(sim.cal_b), tnr(sim.cal_b)
    )
    truth = th_a - th_b
    expected_bias = shared_calibration_bias(th_a, qa, qa, qb, qb)  # = -0.01 / 0.35 = -0.0286
    mcse = shared.std() / np.sqrt(4000)
    assert np.mean(shared) - truth == pytest.approx(expected_bias, abs=5 * mcse + 0.002)
    assert abs(np.mean(specific) - truth) < 5 * specific.std() / np.sqrt(4000) + 0.002


def _paired_example(seed=0, n=2000):
    rng = np.random.default_rng(seed)
    a = rng.random(n) < 0.65
    b = np.where(rng.random(n) < 0.6, a, rng.random(n) < 0.55)
    return a.astype(int), b.astype(int)


CAL_A = CalibrationTable(tp=300, fn=60, fp=80, tn=160)  # J = 0.5
CAL_B = CalibrationTable(tp=330, fn=30, fp=60, tn=180)  # J = 0.667


def test_compare_models_point_estimates_by_hand():
    a, b = _paired_example()
    res = compare_models(a, b, CAL_A, CAL_B, shared_calibration="b", n_boot=500, seed=0)
    pa, pb = a.mean(), b.mean()
    assert res["naive"].estimate == pytest.approx(pa - pb)
    assert res["rg-shared"].estimate == pytest.approx(
        rg_estimate(pa, CAL_B.tpr, CAL_B.tnr) - rg_estimate(pb, CAL_B.tpr, CAL_B.tnr)
    )
    assert res["rg-model-specific"].estimate == pytest.approx(
        rg_estimate(pa, CAL_A.tpr, CAL_A.tnr) - rg_estimate(pb, CAL_B.tpr, CAL_B.tnr)
    )
    assert res.shared_minus_specific == pytest.approx(
        res["rg-shared"].estimate - res["rg-model-specific"].estimate
    )
    assert [e.method for e in res.estimates] == list(COMPARISON_METHODS)
    pooled = compare_models(a, b, CAL_A, CAL_B, n_boot=200, seed=0)
    assert pooled.calibration_shared == CAL_A + CAL_B


def test_paired_bootstrap_resamples_both_models_on_the_same_items():
    a, _ = _paired_example()
    res = compare_models(a, a, CAL_A, CAL_A, n_boot=2000, seed=1)
    # identical labels: resampled on the same indices, the naive and shared-calibration
    # replicates are exactly 0; the model-specific ones are not, because the two
    # calibration tables are independent samples and are redrawn separately (App. E.4)
    for est in res.estimates:
        assert est.estimate == 0
    for method in ("naive", "rg-shared"):
        np.testing.assert_array_equal(  # exact: replicates of a constant are that constant
            res[method].bootstrap.replicates, 0.0
        )
    assert res["rg-model-specific"].bootstrap.se > 0.01
    # independent resampling would not keep them equal
    unpaired = compare_models(a, a, CAL_A, CAL_A, paired=False, n_boot=2000, seed=1)
    assert unpaired["naive"].bootstrap.se > 0.01


def test_delta_method_agrees_with_bootstrap():
    a, b = _paired_example(seed=2, n=4000)
    res = compare_models(a, b, CAL_A, CAL_B, n_boot=4000, seed=2)
    for est in res.estimates:
        # bootstrap SE known to ~1.1 % (MC); the delta method is first order: allow 12 %
        assert est.se_delta == pytest.approx(est.bootstrap.se, rel=0.12), est.method
        low, high = est.bounds(kind="delta")
        assert low < est.estimate < high
    frame = res.to_frame()
    assert list(frame.index) == list(COMPARISON_METHODS)
    assert {"low", "high", "boot_median", "se_delta", "delta_low", "delta_high"} <= set(
        frame.columns
    )
    narrow = res.to_frame(alpha=0.5)
    assert ((narrow["high"] - narrow["low"]) < (frame["high"] - frame["low"])).all()


def test_unpaired_with_counts_and_warnings():
    res = compare_models(
        JudgeCounts(120, 300),
        JudgeCounts(80, 280),
        CalibrationTable(tp=40, fn=35, fp=45, tn=55),  # J = 40/75 + 0.55 - 1 = 0.083
        CalibrationTable(tp=60, fn=15, fp=20, tn=80),  # J = 0.6
        paired=False,
        n_boot=2000,
        seed=0,
        labels=("flash", "pro"),
    )
    assert not res.paired
    text = "\n".join(res.warnings)
    assert "low judge quality: J = 0.083 < 0.3 (judge on flash)" in text
    assert "Delta J = J_flash - J_pro" in text and "excludes 0" in text
    summary = res.summary()
    assert isinstance(summary, Summary) and summary.warnings == res.warnings
    for piece in ("independent test sets", "rg-shared", "ppi++-model-specific", "App. C"):
        assert piece in str(summary)


def test_near_tie_and_dropped_pairs_are_reported():
    a, b = _paired_example(seed=4)
    b = a.astype(object).copy()
    b[:3] = None
    res = compare_models(a, b, CAL_A, CAL_A, n_boot=300, seed=0)
    assert res.paired_table.n_dropped == 3
    assert any(w.startswith("near-tie comparison") for w in res.warnings)
    assert any("3 test item(s) with a missing judge label" in w for w in res.warnings)


def test_bad_input():
    a, b = _paired_example()
    with pytest.raises(ValueError, match=r"shared_calibration \('c'\) not recognized"):
        compare_models(a, b, CAL_A, CAL_B, shared_calibration="c")
    with pytest.raises(ValueError, match=r"same length; got 2000 and 10"):
        compare_models(a, b[:10], CAL_A, CAL_B)
    with pytest.raises(ValueError, match=r"paired=True needs item-level labels"):
        compare_models(JudgeCounts(5, 10), JudgeCounts(5, 10), CAL_A, CAL_B)
    with pytest.raises(ValueError, match=r"n_boot \(-5\) must lie in 2\.\.1,000,000"):
        compare_models(a, b, CAL_A, CAL_B, n_boot=-5)
    res = compare_models(a, b, CAL_A, CAL_B, n_boot=100, seed=0)
    with pytest.raises(ValueError, match=r"kind \('normal'\) not recognized"):
        res["naive"].bounds(kind="normal")
    with pytest.raises(KeyError, match=r"method \('rg'\) not recognized"):
        res["rg"]


@settings(max_examples=40, deadline=None)
@given(n_boot=st.integers(2, 50), seed=st.integers(0, 2**32 - 1))
def test_few_replicates_never_give_an_unflagged_interval_that_misses_its_estimate(n_boot, seed):
    # Issue 14: a coarse percentile interval can exclude its own plug-in estimate; the
    # report must then say so, and always say that the replicates are too few.
    res = compare_models(
        [1] * 70 + [0] * 30, [1] * 60 + [0] * 40, CAL_A, CAL_B, n_boot=n_boot, seed=seed
    )
    assert any(w.startswith(f"too few bootstrap replicates ({n_boot})") for w in res.warnings)
    for est in res.estimates:
        low, high = est.bounds(est.alpha, est.alternative)
        if not low <= est.estimate <= high:
            assert any(w.startswith(f"{est.method}: the estimate") for w in res.warnings)


def test_an_interval_that_misses_its_estimate_is_named_in_the_warnings():
    # With seed 7 and 3 replicates (0.11, 0.13, 0.16) the naive interval misses its estimate 0.1.
    res = compare_models(
        [1] * 70 + [0] * 30, [1] * 60 + [0] * 40, CAL_A, CAL_B, paired=False, n_boot=3, seed=7
    )
    naive = res["naive"]
    assert not naive.bootstrap.contains_estimate
    assert any(w.startswith("naive: the estimate +0.100 lies outside") for w in res.warnings)
    plenty = compare_models(
        [1] * 70 + [0] * 30, [1] * 60 + [0] * 40, CAL_A, CAL_B, n_boot=2000, seed=0
    )
    assert not any("bootstrap replicates" in w for w in plenty.warnings)


def test_a_tiny_calibration_is_named_for_the_model_it_belongs_to():
    tiny = CalibrationTable(tp=3, fn=1, fp=1, tn=3)
    res = compare_models(
        [1] * 70 + [0] * 30,
        [1] * 60 + [0] * 40,
        tiny,
        CAL_B,
        n_boot=2000,
        seed=0,
        labels=("x", "y"),
    )
    texts = [w for w in res.warnings if w.startswith("PPI++ calibration")]
    assert texts == [texts[0]] and texts[0].startswith("PPI++ calibration on x has m1 = 4")
