"""Count tables and the single-judge report (regression.single_judge.tables, .estimators)."""

import numpy as np
import pandas as pd
import pytest

from regression import estimate_prevalence, ppi_mean, rg_interval
from regression.intervals import wald_interval, wilson_interval
from regression.single_judge import (
    CalibrationTable,
    JudgeCounts,
    PairedJudgeTable,
    naive_estimate,
    rg_estimate,
)

CAL = pd.DataFrame(
    {"human": [1] * 50 + [0] * 50, "judge": [1] * 45 + [0] * 5 + [1] * 15 + [0] * 35}
)
TEST = np.r_[np.ones(540), np.zeros(460)]


def test_calibration_table_from_labels_accepts_documented_forms():
    table = CalibrationTable.from_labels(
        human=["valid", "valid", "invalid", True, 0, 1],
        judge=[1, "invalid", "valid", None, False, np.nan],
    )
    assert table == CalibrationTable(tp=1, fn=1, fp=1, tn=1, n_dropped=2)
    assert (table.n_pos, table.n_neg, table.m) == (2, 2, 4)


def test_calibration_table_rates():
    t = CalibrationTable(tp=45, fn=5, fp=15, tn=35)
    assert (t.tpr, t.tnr) == (0.9, 0.7)  # exact: a share of integer counts, one rounding
    assert t.youden_j == pytest.approx(0.6)
    assert (t + t).cells.tolist() == [90, 10, 30, 70]


def test_table_errors_name_the_problem():
    with pytest.raises(ValueError, match=r"no item with both labels \(2 dropped"):
        CalibrationTable.from_labels([1, 0], [None, None])
    with pytest.raises(ValueError, match=r"rogan-gladen needs .* no human-valid item \(m1 = 0\)"):
        CalibrationTable(tp=0, fn=0, fp=3, tn=4).require_both_classes("rogan-gladen")
    with pytest.raises(ValueError, match=r"human has 1 missing label\(s\) \(first at position 1\)"):
        CalibrationTable.from_labels([1, None, 0], [1, 0, 0])
    with pytest.raises(ValueError, match=r"same length; got 3 and 2"):
        CalibrationTable.from_labels([1, 0, 1], [1, 0])
    with pytest.raises(ValueError, match=r"got 'maybe' at position 2"):
        CalibrationTable.from_labels([1, 0, 1], [1, 0, "maybe"])
    with pytest.raises(ValueError, match=r"missing column\(s\) \['judge'\]"):
        CalibrationTable.from_frame(pd.DataFrame({"human": [1, 0]}))
    with pytest.raises(ValueError, match=r"tp must be non-negative whole counts; got -1"):
        CalibrationTable(tp=-1, fn=1, fp=1, tn=1)
    with pytest.raises(ValueError, match=r"n must be positive; got 0 \(no test item"):
        JudgeCounts.from_labels([None, np.nan])
    with pytest.raises(ValueError, match=r"k \(5\) must not be greater than n \(4\)"):
        JudgeCounts(5, 4)
    with pytest.raises(
        ValueError, match=r"paired test labels must have the same length; got 2 and 3"
    ):
        PairedJudgeTable.from_labels([1, 0], [1, 0, 1])


def test_estimate_prevalence_matches_the_low_level_functions():
    res = estimate_prevalence(CAL, TEST, method="rogan-gladen", interval_method="normal")
    assert res.method == "rogan-gladen"
    assert (res.n, res.m1, res.m0) == (1000, 50, 50)
    assert (res.tpr, res.tnr) == (0.9, 0.7)  # exact: a share of integer counts, one rounding
    # (0.54 + 0.7 - 1) / 0.6 = 0.4
    assert res.estimate == pytest.approx(0.4) == rg_estimate(0.54, 0.9, 0.7)
    assert res.bounds(res.alpha, res.alternative) == pytest.approx(
        rg_interval(0.54, 0.9, 0.7, 1000, 50, 50)
    )
    row = res.interval().loc["theta"]
    assert (row["low"], row["high"]) == res.bounds(res.alpha, res.alternative) and row[
        "method"
    ] == "rogan-gladen"
    assert res.bounds(0.1) == pytest.approx(rg_interval(0.54, 0.9, 0.7, 1000, 50, 50, alpha=0.1))
    assert "calibration sampling" in res.covers
    # naive: Wilson by default, Wald on request
    assert (
        res.naive.estimate  # exact: a share of integer counts, one rounding; bounds clipped; one code path
        == 0.54
    )
    assert res.naive.bounds(res.naive.alpha, res.naive.alternative) == pytest.approx(
        [float(b) for b in wilson_interval(540, 1000)]
    )
    wald = estimate_prevalence(CAL, TEST, naive_interval="wald").naive
    assert wald.bounds(wald.alpha, wald.alternative) == pytest.approx(
        [float(b) for b in wald_interval(540, 1000)]
    )
    # PPI++ from counts equals ppi_mean on the rows
    rows = ppi_mean(CAL["human"], CAL["judge"], TEST)
    assert res.ppi.estimate == pytest.approx(rows.estimate, abs=1e-12)
    assert res.ppi.lam == pytest.approx(rows.lam, abs=1e-12)
    assert res.ppi.bounds(res.ppi.alpha, res.ppi.alternative) == pytest.approx(
        list(np.clip(rows.bounds(rows.alpha, rows.alternative), 0, 1)), abs=1e-12
    )
    # exact: one code path: the method picks the comparison's PPI++
    assert (
        estimate_prevalence(CAL, TEST, method="ppi++", interval_method="normal").estimate
        == res.ppi.estimate
    )


def test_the_default_is_ppi_with_the_bounded_interval():
    res = estimate_prevalence(CAL, TEST)
    assert (res.method, res.ppi.interval_method) == ("ppi++", "floored")
    assert res.primary is res.ppi
    normal = estimate_prevalence(CAL, TEST, interval_method="normal")
    # the same PPI++ estimate (inside [0, 1] here, so clipping leaves it); 1e-12: two
    # additions in another order
    assert res.estimate == pytest.approx(normal.estimate, abs=1e-12)
    low, high = res.bounds(res.alpha, res.alternative)
    assert 0 <= low <= res.estimate <= high <= 1
    assert "Single-judge estimate of theta (ppi++ (floored interval))" in str(res.summary())
    assert "floored" in res.covers and "CLT" in normal.covers
    betting = estimate_prevalence(CAL, TEST, interval_method="betting")
    assert "any calibration size" in betting.covers
    # a narrower level gives a narrower interval, recomputed from the counts
    low_90, high_90 = res.bounds(0.1)
    assert high_90 - low_90 < high - low


def test_calibration_drawn_from_the_test_items_bounds_all_of_them():
    # the same 100 labelled items, once apart from 100 test items, once among them: the target
    # (all 100 items' rate, half of it known) is narrower to bound than that of 100 unseen ones
    cal = CalibrationTable(tp=45, fn=5, fp=15, tn=35)
    apart = estimate_prevalence(cal, JudgeCounts(54, 100))
    among = estimate_prevalence(cal, JudgeCounts(54, 100), calibration_in_test=True)
    apart_low, apart_high = apart.bounds()
    among_low, among_high = among.bounds()
    assert among_high - among_low < apart_high - apart_low
    assert among_low <= among.estimate <= among_high
    with pytest.raises(ValueError, match=r"the 100 calibration items must be among the 60 test"):
        estimate_prevalence(cal, JudgeCounts(30, 60), calibration_in_test=True)


def test_the_bounded_interval_does_not_collapse_on_a_sample_without_judge_error():
    # Issue 37: where the calibration sample shows no judge error the rectifier's sample
    # variance is 0 and the normal interval shrinks to the test sampling alone.
    perfect = CalibrationTable(tp=10, fn=0, fp=0, tn=10)
    normal = estimate_prevalence(perfect, TEST, interval_method="normal")
    bounded = estimate_prevalence(perfect, TEST)
    normal_low, normal_high = normal.bounds(normal.alpha, normal.alternative)
    low, high = bounded.bounds(bounded.alpha, bounded.alternative)
    assert normal_high - normal_low < 0.07
    # 20 error-free labels leave an error rate up to 1 - 0.025 ** (1 / 20) = 0.168 plausible
    # (Clopper-Pearson); an interval that honours it is wider than a few points
    assert high - low > 0.15


def test_input_forms_agree():
    base = estimate_prevalence(CAL, TEST)
    table = CalibrationTable.from_frame(CAL)
    for cal, test in [
        (table, JudgeCounts(540, 1000)),
        ((CAL["human"].to_numpy(), CAL["judge"].map({1: "valid", 0: "invalid"})), pd.Series(TEST)),
        (CAL.rename(columns={"judge": "llm"}), pd.DataFrame({"llm": TEST})),
    ]:
        judge = "llm" if isinstance(test, pd.DataFrame) else "judge"
        res = estimate_prevalence(cal, test, judge=judge)
        # exact: the same counts from each input form, one code path
        assert res.estimate == base.estimate and res.bounds(
            res.alpha, res.alternative
        ) == base.bounds(base.alpha, base.alternative)


def test_missing_judge_labels_are_dropped_and_reported():
    test = np.r_[TEST, [np.nan, np.nan]].astype(object)
    test[-1] = None
    cal = CAL.astype({"judge": object})
    cal.loc[0, "judge"] = pd.NA
    res = estimate_prevalence(cal, test)
    assert (res.n, res.n_dropped, res.calibration.n_dropped) == (1000, 2, 1)
    assert any("2 test item(s) with a missing judge label were dropped" in w for w in res.warnings)
    assert any("1 calibration item(s)" in w for w in res.warnings)


def test_no_better_than_chance_warns_and_gives_zero_one():
    cal = CalibrationTable(tp=20, fn=30, fp=30, tn=20)  # TPR 0.4, TNR 0.4, J = -0.2
    res = estimate_prevalence(cal, TEST, method="rogan-gladen")
    assert np.isnan(res.estimate)
    # exact: bounds clipped to the limits by construction
    assert res.bounds(res.alpha, res.alternative) == (0.0, 1.0)
    assert any("no better than chance" in w for w in res.warnings)
    assert "no better than chance" in str(res.summary())


def test_low_j_warning_and_clipping_warning():
    res = estimate_prevalence(CalibrationTable(tp=30, fn=20, fp=25, tn=25), TEST)  # J = 0.1
    assert any(w.startswith("low judge quality: J = 0.100 < 0.3") for w in res.warnings)
    assert any("J interval" in w and "includes 0" in w for w in res.warnings)
    assert not estimate_prevalence(CAL, TEST).warnings
    clipped = estimate_prevalence(CAL, np.r_[np.ones(950), np.zeros(50)], method="rogan-gladen")
    assert (
        clipped.estimate  # exact: a share of integer counts, one rounding; bounds clipped; one code path
        == 1.0
    )
    assert any("fell outside [0, 1] and was clipped" in w for w in clipped.warnings)


def test_summary_and_frame_show_three_methods():
    res = estimate_prevalence(CAL, TEST)
    summary = res.summary()
    text = str(summary)
    for piece in ("naive", "reported estimate: ppi++ (floored interval)", "m1 = 50", "lam"):
        assert piece in text
    judge = summary.tables["judge"]
    assert (
        judge.loc[  # exact: a share of integer counts, one rounding; bounds clipped; one code path
            "tpr", "estimate"
        ]
        == 0.9
    )
    assert judge.loc["youden_j", "estimate"] == pytest.approx(0.6)
    assert judge.loc["youden_j", "low"] == pytest.approx(
        res.youden.bounds(res.youden.alpha, res.youden.alternative)[0]
    )
    frame = res.estimators()
    pd.testing.assert_frame_equal(  # exact: a share of integer counts, one rounding; bounds clipped; one code path
        summary.tables["estimators"], frame.drop(columns="covers")
    )
    assert list(frame.index) == ["naive", "rogan-gladen", "ppi++"]
    assert frame.loc["rogan-gladen", "estimate"] == pytest.approx(0.4)
    assert (frame.loc["ppi++", "low"], frame.loc["ppi++", "high"]) == res.bounds(
        res.alpha, res.alternative
    )
    assert frame.loc["ppi++", "lam"] == pytest.approx(res.ppi.lam)
    # to_frame is the reported estimate's interval with its SE beside it
    assert res.to_frame().loc["theta", ["low", "high"]].tolist() == list(res.bounds())
    assert str(res) == text


def test_diagnostics_show_the_sizes_j_and_the_clipping():
    clipped = estimate_prevalence(CAL, np.r_[np.ones(950), np.zeros(50)]).diagnostics()
    row = clipped.iloc[0]
    assert (row["n"], row["m0"], row["m1"]) == (1000, 50, 50)
    assert row["rg_clipped"] and row["rg_ratio"] == pytest.approx((0.95 + 0.7 - 1) / 0.6)
    assert not estimate_prevalence(CAL, TEST).diagnostics().iloc[0]["rg_clipped"]


def test_one_sided_report():
    res = estimate_prevalence(CAL, TEST, alternative="less")
    lows = [r.bounds(r.alpha, r.alternative)[0] for r in (res, res.naive, res.ppi)]
    assert all(low == 0.0 for low in lows)  # exact: a one-sided lower bound is 0 by construction


def test_naive_estimate_alone():
    res = naive_estimate(["valid", "invalid", "valid", None])
    # exact: a share of integer counts, one rounding
    assert (res.estimate, res.test.n, res.test.n_dropped) == (2 / 3, 3, 1)
    assert "ignores judge error" in res.covers


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"method": "bayes"}, r"method \('bayes'\) not recognized"),
        ({"alpha": 0.0}, r"alpha \(0.0\) must lie strictly between 0 and 1"),
        ({"alternative": "above"}, r"alternative \('above'\) not recognized"),
        ({"naive_interval": "exact"}, r"interval \('exact'\) not recognized"),
        ({"interval_method": "wald"}, r"interval_method \('wald'\) not recognized"),
    ],
)
def test_estimate_prevalence_bad_options(kwargs, message):
    with pytest.raises(ValueError, match=message):
        estimate_prevalence(CAL, TEST, **kwargs)


def test_estimate_prevalence_bad_data():
    with pytest.raises(ValueError, match=r"calibration is missing column\(s\) \['human'\]"):
        estimate_prevalence(CAL.rename(columns={"human": "gold"}), TEST)
    with pytest.raises(ValueError, match=r"judge must be 0/1, bool or 'valid'/'invalid'; got 2"):
        estimate_prevalence(CAL, [1, 0, 2])
    with pytest.raises(ValueError, match=r"calibration must be a CalibrationTable"):
        estimate_prevalence([1, 0, 1], TEST)
    with pytest.raises(
        ValueError,
        match=r"rogan-gladen needs calibration items of both human classes: the calibration "
        r"has no human-invalid item \(m0 = 0\).*method 'ppi\+\+' or 'naive'",
    ):
        estimate_prevalence(CAL[CAL["human"] == 1], TEST, method="rogan-gladen")


@pytest.mark.parametrize("method", ["ppi++", "naive"])
@pytest.mark.parametrize("human_class", [1, 0])
def test_methods_that_need_no_second_class_answer_with_one(method, human_class):
    # Issue 37 item 5: PPI++ and naive refused a calibration with no human-invalid item.
    one_class = CAL[CAL["human"] == human_class]
    res = estimate_prevalence(one_class, TEST, method=method)
    low, high = res.bounds(res.alpha, res.alternative)
    assert 0 <= low <= res.estimate <= high <= 1
    if method == "ppi++":
        # every label agrees, so lam is 0 and the estimate is their mean (exact: lam = 0 by rule)
        assert res.ppi.lam == 0
        assert res.estimate == human_class
        # 50 labels of one class happen with probability 0.95 ** 50 = 0.077 > 0.05 when 5 % are
        # of the other: an interval that excluded that rate would undercover there
        assert (low < 0.95) if human_class == 1 else (high > 0.05)
    assert np.isnan(res.rogan_gladen.estimate)
    assert res.rogan_gladen.bounds() == (0.0, 1.0)  # exact: no TPR or TNR, theta is anywhere
    assert np.isnan(res.youden_j)
    assert any(w.startswith("judge's J cannot be estimated") for w in res.warnings)
    quality = res.judge_quality()
    empty = "tnr" if human_class == 1 else "tpr"
    # exact: an empty class's rate is [0, 1] by construction
    assert quality.loc[empty, ["low", "high"]].tolist() == [0.0, 1.0]


def test_a_two_item_calibration_gets_no_ppi_interval_as_narrow_as_the_naive_one():
    # Issue 14: from one human-valid and one human-invalid item PPI++'s rectifier variance is
    # 0 by accident; the floor (regression.core.floor) keeps what the 998 items two labels
    # cannot speak for could move: nearly the whole scale
    test = [1] * 600 + [0] * 400
    res = estimate_prevalence(([1, 0], [1, 0]), test, method="ppi++")
    naive_low, naive_high = res.naive.bounds(res.naive.alpha, res.naive.alternative)
    assert naive_high - naive_low < 0.07
    low, high = res.bounds(res.alpha, res.alternative)
    assert high - low > 0.9 and low < 0.1 and high > 0.95
    assert any(
        w.startswith("PPI++ calibration has m1 = 1 human-valid and m0 = 1") for w in res.warnings
    )
    enough = estimate_prevalence(CAL, TEST, method="ppi++")
    assert not any(w.startswith("PPI++ calibration") for w in enough.warnings)
