"""Youden's J, Delta J and the warnings of Fiedler sections 4.4 / 7 (regression.single_judge.diagnostics)."""

import numpy as np
import pytest

from regression.single_judge import (
    CalibrationTable,
    delta_j_warnings,
    delta_youden_j,
    judge_warnings,
    near_tie_warnings,
    youden_j,
)


def test_youden_j_agresti_caffo_by_hand():
    table = CalibrationTable(tp=80, fn=20, fp=30, tn=70)
    res = youden_j(table)
    assert res.estimate == pytest.approx(0.5)  # 0.8 + 0.7 - 1
    # Agresti and Caffo (2000): q~1 = 81/102, q~0 = 71/102, J~ = 0.490196,
    # SE = sqrt(q~1 (1 - q~1) / 102 + q~0 (1 - q~0) / 102) = 0.059740
    q1, q0 = 81 / 102, 71 / 102
    se = np.sqrt(q1 * (1 - q1) / 102 + q0 * (1 - q0) / 102)
    assert res.se == pytest.approx(se)
    assert res.bounds(res.alpha, res.alternative) == pytest.approx(
        (q1 + q0 - 1 - 1.959964 * se, q1 + q0 - 1 + 1.959964 * se), abs=1e-6
    )
    # exact: bounds clipped to the limits by construction
    assert res.bounds(0.05, "less")[0] == -1.0


def test_youden_j_interval_coverage_is_near_nominal():
    # seeded Monte Carlo: q1 = 0.7, q0 = 0.6, m1 = 60, m0 = 40 (J = 0.3), 4000 replications;
    # the tolerance 0.02 is ~6 Monte Carlo standard errors (sqrt(.95 .05 / 4000) = 0.0034)
    rng = np.random.default_rng(3)
    tp, tn = rng.binomial(60, 0.7, 4000), rng.binomial(40, 0.6, 4000)
    hits = 0
    for a, b in zip(tp, tn, strict=True):
        low, high = youden_j(CalibrationTable(int(a), 60 - int(a), 40 - int(b), int(b))).bounds()
        hits += low <= 0.3 <= high
    assert abs(hits / 4000 - 0.95) < 0.02


def test_delta_j_bootstrap_matches_its_standard_error():
    a = CalibrationTable(tp=400, fn=100, fp=150, tn=350)  # J_A = 0.5
    b = CalibrationTable(tp=450, fn=50, fp=100, tn=400)  # J_B = 0.7
    res = delta_youden_j(a, b, n_boot=4000, seed=1)
    assert res.estimate == pytest.approx(-0.2)
    # multinomial items bootstrap ~ sum of the four binomial variances
    se = np.sqrt(sum(q * (1 - q) / 500 for q in (0.8, 0.7, 0.9, 0.8)))
    # the bootstrap SE's own relative MC error is ~ 1/sqrt(2 * 4000) = 1.1 %; allow 6 %
    assert res.bootstrap.se == pytest.approx(se, rel=0.06)
    assert res.excludes_zero
    assert res.j_a.estimate == pytest.approx(0.5) and res.j_b.estimate == pytest.approx(0.7)
    # the same seed gives the same replicates
    again = delta_youden_j(a, b, n_boot=4000, seed=1)
    np.testing.assert_array_equal(  # exact: same seed, same path
        res.bootstrap.replicates, again.bootstrap.replicates
    )


def test_delta_j_including_zero_gives_no_warning():
    a = CalibrationTable(tp=40, fn=10, fp=15, tn=35)
    res = delta_youden_j(a, a, n_boot=2000, seed=0)
    assert res.estimate == 0 and not res.excludes_zero
    assert delta_j_warnings(res) == []


def test_delta_j_empty_class_replicates_are_counted():
    tiny = CalibrationTable(tp=1, fn=0, fp=1, tn=8)  # m1 = 1: many replicates lose the class
    res = delta_youden_j(tiny, CalibrationTable(40, 10, 15, 35), n_boot=1000, seed=0)
    assert 0 < res.bootstrap.n_invalid < 1000
    assert np.isfinite(res.bounds(res.alpha, res.alternative)).all()


def test_judge_warnings():
    assert judge_warnings(youden_j(CalibrationTable(45, 5, 15, 35))) == []  # J = 0.6
    low = judge_warnings(youden_j(CalibrationTable(30, 20, 25, 25)), label="gpt")  # J = 0.1
    assert low[0].startswith("low judge quality: J = 0.100 < 0.3 (gpt)")
    assert "includes 0" in low[1]
    assert judge_warnings(youden_j(CalibrationTable(30, 20, 25, 25)), low_j=0.05)[0].startswith(
        "judge's J interval"
    )
    chance = judge_warnings(youden_j(CalibrationTable(20, 30, 30, 20)))
    assert len(chance) == 1 and "no better than chance: J = -0.200 <= 0" in chance[0]


def test_delta_j_warning_text():
    a, b = CalibrationTable(50, 50, 40, 60), CalibrationTable(80, 20, 20, 80)
    (text,) = delta_j_warnings(delta_youden_j(a, b, n_boot=2000, seed=0), labels=("flash", "pro"))
    assert text.startswith("Delta J = J_flash - J_pro = -0.500")
    assert "shared calibration is not defensible" in text


def test_near_tie_warnings():
    (tie,) = near_tie_warnings({"ppi++": 0.01, "naive": 0.03})
    assert tie.startswith("near-tie comparison: Delta theta = 0.010 (ppi++)")
    both = near_tie_warnings({"rg": -0.08, "ppi++": 0.01}, reference="ppi++")
    assert len(both) == 2 and "disagree on the direction" in both[1]
    assert near_tie_warnings({"ppi++": 0.2, "rg": 0.3}) == []
    assert near_tie_warnings({"rg": np.nan}) == []


def test_bad_input():
    with pytest.raises(ValueError, match=r"alpha \(2\) must lie strictly between 0 and 1"):
        youden_j(CalibrationTable(1, 1, 1, 1), alpha=2)
    with pytest.raises(ValueError, match=r"n_boot \(0\) must lie in 2\.\.1,000,000"):
        delta_youden_j(CalibrationTable(1, 1, 1, 1), CalibrationTable(1, 1, 1, 1), n_boot=0)
    with pytest.raises(ValueError, match=r"Delta J \(model B\) needs .* no human-valid item"):
        delta_youden_j(CalibrationTable(1, 1, 1, 1), ([0, 0], [1, 0]), n_boot=10)


def test_j_of_one_class_is_unknown_not_refused():
    one_class = youden_j(([0, 0, 0], [1, 0, 0]))
    assert np.isnan(one_class.estimate)
    assert one_class.bounds() == (-1.0, 1.0)  # exact: a rate of an empty class is anywhere
    assert judge_warnings(one_class)[0].startswith("judge's J cannot be estimated")
