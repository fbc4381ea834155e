"""ensemble.metrics: precision per generator and TPR / TNR / PPV / NPV (agreeableness paper, section 4)."""

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from ensemble import ensemble_precision, ensemble_rates, vote
from ensemble.metrics import Proportion
from regression.errors import DuplicateRowError
from regression.intervals import wilson_interval


def test_precision_by_hand():
    labels = [1, 1, 0, 1, 0, 0, np.nan]
    p = ensemble_precision(labels, generator=["a", "a", "a", "b", "b", "b", "b"])
    assert p.generators == ("a", "b")
    assert p.n_valid.tolist() == [2, 1]
    assert p.n_labelled.tolist() == [3, 3]
    assert p.n_unlabelled.tolist() == [0, 1]
    np.testing.assert_allclose(p.estimate, [2 / 3, 1 / 3])


def test_precision_interval_is_wilson_on_the_counts():
    p = ensemble_precision(
        [1] * 17 + [0] * 3 + [1] * 4 + [0] * 6, generator=["a"] * 20 + ["b"] * 10
    )
    for level, alternative in [(0.95, "two-sided"), (0.9, "less"), (0.99, "greater")]:
        table = p.interval(1 - level, alternative=alternative)
        low, high = table["low"], table["high"]
        ref = wilson_interval(np.array([17, 4]), np.array([20, 10]), 1 - level, alternative)
        np.testing.assert_allclose(low, ref.low)
        np.testing.assert_allclose(high, ref.high)
    frame = p.to_frame()
    assert list(frame.columns) == [
        "estimate",
        "low",
        "high",
        "method",
        "n_valid",
        "n_labelled",
        "n_unlabelled",
    ]
    assert frame.loc["a", "estimate"] == pytest.approx(0.85)
    table = p.interval(0.1, alternative="less")
    assert list(table.columns) == ["estimate", "low", "high", "method"]
    assert table.index.name == "generator" and set(table["method"]) == {"ensemble"}
    proportion = Proportion(np.array([17, 4]), np.array([20, 10]))
    np.testing.assert_allclose(table["high"], proportion.bounds(0.1, "less").high)


def test_precision_grouped_by_the_generator_level_of_vote_output():
    judgments = pd.DataFrame(
        {
            "generator": ["g", "g", "g", "g", "h", "h"],
            "item": [0, 0, 1, 1, 0, 0],
            "validator": ["a", "b"] * 3,
            "label": [1, 1, 1, 0, 0, 0],
        }
    )
    p = ensemble_precision(vote(judgments, "majority", 2))
    assert p.generators == ("g", "h")
    np.testing.assert_allclose(p.estimate, [0.5, 0.0])


def test_no_generator_gives_one_group():
    p = ensemble_precision(np.array([1.0, 0.0, 1.0, 1.0]))
    # exact: a share of integer counts, one rounding
    assert p.generators == ("all",) and p.estimate.tolist() == [0.75]


def test_all_unlabelled_group_has_nan_estimate_and_interval():
    p = ensemble_precision([1, np.nan], generator=["a", "b"])
    assert np.isnan(p.estimate[1])
    low, high = p.interval()["low"], p.interval()["high"]
    assert (
        np.isnan(low["b"])
        and np.isnan(high["b"])
        and high["a"] == 1.0  # exact: integer counts; a bound clipped to 1
    )
    # what was left out is on the result, as a warning and per generator
    assert any("1 item(s) without a label" in w for w in p.warnings)
    assert any("['b'] have no labelled item" in w for w in p.warnings)
    assert p.diagnostics().loc["b", ["n_items", "n_unlabelled"]].tolist() == [1, 1]
    assert "**Warnings:**" in p.summary().as_markdown()
    assert ensemble_precision([1, 0, 1]).warnings == ()


def test_rates_by_hand():
    #            tp tp fp tn fn tn  (no human)  (unlabelled)
    labels = [1, 1, 1, 0, 0, 0, 1, np.nan]
    human = [1, 1, 0, 0, 1, 0, np.nan, 1]
    r = ensemble_rates(labels, human)
    assert (r.tp, r.fn, r.fp, r.tn) == (2, 1, 1, 2)
    assert (r.n_without_human, r.n_unlabelled) == (1, 1)
    assert float(r.tpr.estimate) == pytest.approx(2 / 3)
    assert float(r.tnr.estimate) == pytest.approx(2 / 3)
    assert float(r.ppv.estimate) == pytest.approx(2 / 3)
    assert float(r.npv.estimate) == pytest.approx(2 / 3)
    assert r.balanced_accuracy == pytest.approx(2 / 3)
    frame = r.to_frame()
    assert frame.loc["tpr", "k"] == 2 and frame.loc["tpr", "n"] == 3
    low, high = wilson_interval(2, 3)
    assert frame.loc["tnr", "low"] == pytest.approx(float(low))
    assert frame.loc["tnr", "high"] == pytest.approx(float(high))


@given(
    st.lists(st.tuples(st.sampled_from([0, 1]), st.sampled_from([0, 1])), min_size=1, max_size=60)
)
def test_rates_swap_under_relabelling(pairs):
    # Relabelling valid <-> invalid in both the ensemble and the humans swaps
    # TPR with TNR and PPV with NPV: which class is called positive is a convention.
    labels, human = (np.array(x, dtype=float) for x in zip(*pairs, strict=True))
    r, s = ensemble_rates(labels, human), ensemble_rates(1 - labels, 1 - human)
    assert (r.tp, r.fn, r.fp, r.tn) == (s.tn, s.fp, s.fn, s.tp)
    np.testing.assert_array_equal(r.tpr.k, s.tnr.k)  # exact: integer counts; a bound clipped to 1
    np.testing.assert_array_equal(r.ppv.n, s.npv.n)  # exact: integer counts; a bound clipped to 1


def test_rates_against_the_human_table():
    from regression.datasets import load_agreeableness_judgments

    judgments, human = load_agreeableness_judgments("feedback+lines+labels")
    labels = vote(judgments, "minority_veto", 4)
    r = ensemble_rates(labels, human.sample(frac=1.0, random_state=0))  # order does not matter
    assert r.tp + r.fn + r.fp + r.tn == len(human) == 5972
    assert r.tp + r.fn == int(human["human"].sum())
    # paper_ensemble_errors.csv, feedback+lines+labels, minority_veto, k = 4
    assert float(r.tpr.estimate) == pytest.approx(0.9554267077369089, abs=1e-9)
    assert float(r.tnr.estimate) == pytest.approx(0.3090507726269316, abs=1e-9)
    # A subset of human labels: only those items count.
    part = ensemble_rates(labels, human.iloc[:100])
    assert part.tp + part.fn + part.fp + part.tn == 100 and part.n_without_human == 5872


# -- bad input -------------------------------------------------------------------------------


def table_labels():
    index = pd.MultiIndex.from_tuples([("g", 0), ("g", 1), ("h", 0)], names=["generator", "item"])
    return pd.Series([1.0, 0.0, 1.0], index=index)


def test_human_labels_for_items_that_have_no_votes():
    human = pd.DataFrame({"generator": ["g", "g", "h"], "item": [0, 5, 0], "human": [1, 0, 1]})
    with pytest.raises(
        ValueError,
        match=r"human labels for 1 item\(s\) that have no votes; first: generator 'g', item 5",
    ):
        ensemble_rates(table_labels(), human)


def test_mismatched_generator_names():
    human = pd.DataFrame({"generator": ["g", "gpt4"], "item": [0, 0], "human": [1, 0]})
    with pytest.raises(
        ValueError, match=r"human labels name generator\(s\) \['gpt4'\] that the votes do not have"
    ):
        ensemble_rates(table_labels(), human)


def test_repeated_human_labels():
    human = pd.DataFrame({"generator": ["g", "g"], "item": [0, 0], "human": [1, 0]})
    with pytest.raises(
        DuplicateRowError,
        match=r"human repeats \(generator, item\) = \('g', 0\) at row 1, first seen at row 0",
    ):
        ensemble_rates(table_labels(), human)


def test_bad_human_values():
    human = pd.DataFrame({"generator": ["g"], "item": [0], "human": ["maybe"]})
    with pytest.raises(ValueError, match=r"got 'maybe' at position 0"):
        ensemble_rates(table_labels(), human)
    with pytest.raises(
        ValueError, match=r"human must give one label per item \(3\); got shape \(2,\)"
    ):
        ensemble_rates(table_labels(), [1, 0])


def test_human_table_needs_indexed_labels():
    human = pd.DataFrame({"generator": ["g"], "item": [0], "human": [1]})
    with pytest.raises(ValueError, match=r"labels indexed by \(generator, item\)"):
        ensemble_rates(np.array([1.0]), human)


@pytest.mark.parametrize("bad", [2.0, -1.0, 0.5])
def test_labels_other_than_0_1_nan(bad):
    with pytest.raises(ValueError, match=rf"labels must be 1, 0 or NaN; got {bad!r} at position 1"):
        ensemble_precision([1.0, bad])
    with pytest.raises(ValueError, match=rf"got {bad!r} at position 1"):
        ensemble_rates([1.0, bad], [1, 1])


def test_empty_and_misshapen_labels():
    with pytest.raises(ValueError, match=r"labels is empty"):
        ensemble_precision([])
    with pytest.raises(ValueError, match=r"labels must be 1-D"):
        ensemble_precision(np.ones((2, 2)))
    with pytest.raises(
        ValueError, match=r"generator must give one name per item \(2\); got shape \(3,\)"
    ):
        ensemble_precision([1, 0], generator=["a", "b", "c"])


def test_string_labels_and_bad_confidence_level():
    with pytest.raises(
        ValueError,
        match=r"labels must be 0/1, bool or 'valid'/'invalid'; got 'maybe' at position 1",
    ):
        ensemble_precision(pd.Series([1, "maybe"]))
    p = ensemble_precision([1, 0, 1])
    with pytest.raises(ValueError, match=r"alpha \(95\) must lie strictly between 0 and 1"):
        p.interval(95)
