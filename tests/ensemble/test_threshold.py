"""ensemble.threshold: the paper's Fig. 5 numbers, reproduced row by row, and threshold picking.

Reference values: ``paper_ensemble_errors.csv`` (the agreeableness paper's own
ensemble results on its released item votes, 3 repair levels x 2 rule families
x k = 1..14). The file's ``valid_voting`` at k is ``vote(..., "majority",
threshold=k)`` here and its ``minority_veto`` at k is ``vote(..., "minority_veto",
threshold=k)``; precision errors are against ``human_precision`` of models.csv
(paper Table 1), TPR / TNR against the item labels.
"""

import numpy as np
import pandas as pd
import pytest

from ensemble import (
    ensemble_precision,
    ensemble_rates,
    pick_threshold,
    sweep_thresholds,
    vote,
    vote_matrix,
)
from regression.datasets import (
    VOTE_REPAIR_LEVELS,
    load_agreeableness_judgments,
    load_human_precision,
    load_paper_ensemble_errors,
)

PAPER_RULE = {"valid_voting": "majority", "minority_veto": "minority_veto"}
COLUMNS = ["max_abs_error", "mean_abs_error", "tpr", "tnr"]


@pytest.fixture(scope="module")
def paper():
    precision = load_human_precision()
    data = {level: load_agreeableness_judgments(level) for level in VOTE_REPAIR_LEVELS}
    return precision, data, load_paper_ensemble_errors()


def test_every_row_of_paper_ensemble_errors_through_vote(paper):
    precision, data, reference = paper
    assert len(reference) == 3 * 2 * 14
    seen = 0
    for level, (judgments, human) in data.items():
        wide = vote_matrix(judgments)  # pivot once per level
        for row in reference[reference["repair_level"] == level].itertuples():
            labels = vote(wide, PAPER_RULE[row.rule], threshold=int(row.threshold))
            estimate = ensemble_precision(labels)
            truth = precision.reindex(list(estimate.generators)).to_numpy()
            errors = np.abs(estimate.estimate - truth)
            rates = ensemble_rates(labels, human)
            got = [
                errors.max(),
                errors.mean(),
                float(rates.tpr.estimate),
                float(rates.tnr.estimate),
            ]
            want = [row.max_abs_error, row.mean_abs_error, row.tpr, row.tnr]
            np.testing.assert_allclose(
                got, want, rtol=0, atol=1e-9, err_msg=f"{level} {row.rule} {row.threshold}"
            )
            seen += 1
    assert seen == 84


def test_every_row_of_paper_ensemble_errors_through_the_sweep(paper):
    precision, data, reference = paper
    for level, (judgments, human) in data.items():
        sweep = sweep_thresholds(judgments, human, precision=precision)
        want = reference[reference["repair_level"] == level].assign(
            rule=lambda t: t["rule"].map(PAPER_RULE)
        )
        merged = want.merge(
            sweep, on=["rule", "threshold"], suffixes=("_paper", ""), validate="1:1"
        )
        assert len(merged) == 28
        for column in COLUMNS:
            np.testing.assert_allclose(merged[column], merged[f"{column}_paper"], rtol=0, atol=1e-9)


def test_paper_headline_numbers(paper):
    # Section 4: minority veto n = 4 gives max error 2.8 % after repair, TPR 95.5 %.
    precision, data, _ = paper
    judgments, human = data["feedback+lines+labels"]
    sweep = sweep_thresholds(judgments, human, precision=precision).set_index(["rule", "threshold"])
    assert (
        round(  # exact: rounded to 3 decimals, off a rounding edge
            sweep.loc[("minority_veto", 4), "max_abs_error"], 3
        )
        == 0.028
    )
    assert (
        round(  # exact: rounded to 3 decimals, off a rounding edge
            sweep.loc[("minority_veto", 4), "tpr"], 3
        )
        == 0.955
    )
    # Without missing votes the families would mirror; with 2.7 % missing they do not.
    assert (
        sweep.loc[("majority", 11), "max_abs_error"]
        != sweep.loc[("minority_veto", 4), "max_abs_error"]
    )


def test_pick_threshold_finds_the_papers_n_4(paper):
    # Section 4: "a minority veto with just n = 4 votes ... the choice of this
    # optimal threshold (n = 4) itself requires a calibration set".
    precision, data, _ = paper
    judgments, human = data["feedback+lines+labels"]
    choice = pick_threshold(judgments, human, "minority_veto", precision=precision)
    assert choice.threshold == 4
    assert choice.in_sample_score == pytest.approx(0.02792853778213933, abs=1e-12)  # csv row
    assert choice.held_out["threshold"].tolist() == [4] * 6
    assert choice.held_out_max_abs_error == pytest.approx(choice.in_sample_score)
    # the sweep stored with the choice is the rule's part of the full sweep
    assert choice.sweep["max_abs_error"].min() == pytest.approx(choice.in_sample_score)


def test_leave_one_generator_out_matches_picking_on_the_others(paper):
    precision, data, _ = paper
    judgments, human = data["feedback"]
    judgments = vote_matrix(judgments)  # the wide matrix indexed by (generator, item) works too
    for metric in ("max_abs_error", "mean_abs_error", "balanced_accuracy"):
        choice = pick_threshold(judgments, human, "majority", metric, precision=precision)
        sweep = choice.sweep.set_index("threshold")
        if metric != "balanced_accuracy":
            assert choice.threshold == sweep[metric].idxmin()
        for generator, row in choice.held_out.iterrows():
            others = precision.drop(generator)
            alone = pick_threshold(judgments, human, "majority", metric, precision=others)
            assert row["threshold"] == alone.threshold
            err = abs(
                ensemble_precision(vote(judgments, "majority", int(row["threshold"])))
                .to_frame()
                .loc[generator, "estimate"]
                - precision[generator]
            )
            assert row["abs_error"] == pytest.approx(err, abs=1e-12)


def small_case():
    # Two validators, two generators, three items each (hand-computed in the module docstring).
    judgments = pd.DataFrame(
        {
            "generator": ["a"] * 6 + ["b"] * 6,
            "item": [0, 0, 1, 1, 2, 2] * 2,
            "validator": ["x", "y"] * 6,
            "label": [1, 1, 1, 0, 0, 0, 1, 1, 1, 1, 1, 0],
        }
    )
    human = pd.DataFrame(
        {"generator": ["a"] * 3 + ["b"] * 3, "item": [0, 1, 2] * 2, "human": [1, 0, 0, 1, 1, 0]}
    )
    return judgments, human


def test_sweep_by_hand():
    judgments, human = small_case()
    sweep = sweep_thresholds(judgments, human, rules=("majority", "supermajority", "minority_veto"))
    # true precision a = 1/3, b = 2/3. majority k=1 labels a: 2/3, b: 3/3 -> errors 1/3, 1/3.
    np.testing.assert_allclose(sweep["max_abs_error"], [1 / 3, 0, 1 / 3, 0, 0, 1 / 3])
    np.testing.assert_allclose(sweep["tnr"], [1 / 3, 1, 1 / 3, 1, 1, 1 / 3])
    np.testing.assert_allclose(sweep["balanced_accuracy"], [2 / 3, 1, 2 / 3, 1, 1, 2 / 3])


def test_precision_series_as_human():
    judgments, _ = small_case()
    truth = pd.Series({"a": 1 / 3, "b": 2 / 3})
    sweep = sweep_thresholds(judgments, truth)
    np.testing.assert_allclose(sweep["max_abs_error"], [1 / 3, 0, 0, 1 / 3])
    assert sweep["tpr"].isna().all()
    choice = pick_threshold(judgments, truth, "majority")
    assert choice.threshold == 2 and choice.held_out["balanced_accuracy"].isna().all()


def test_ties_go_to_the_smallest_threshold():
    judgments, _ = small_case()
    choice = pick_threshold(judgments, pd.Series({"a": 0.5, "b": 0.5}), "majority")
    # k=1: |2/3-1/2|, |1-1/2| -> max 1/2; k=2: |1/3-1/2|, |2/3-1/2| -> max 1/6
    assert choice.threshold == 2
    flat = pick_threshold(judgments, pd.Series({"a": 0.5, "b": 5 / 6}), "majority")
    # k=1: 1/6, 1/6; k=2: 1/6, 1/6 -> a tie, the smaller k wins
    assert flat.threshold == 1


def test_missing_ignore_policy_in_the_sweep(paper):
    precision, data, _ = paper
    judgments, human = data["feedback"]
    paper_policy = sweep_thresholds(judgments, human, precision=precision)
    ignored = sweep_thresholds(judgments, human, precision=precision, missing="ignore")
    assert len(ignored) == len(paper_policy) == 28
    # fractions of the votes cast give every item at least as many "valid" labels
    # under valid voting (a missing vote no longer counts against it)
    majority = ignored["rule"] == "majority"
    assert (
        ignored.loc[majority, "tpr"].to_numpy() >= paper_policy.loc[majority, "tpr"].to_numpy()
    ).all()


# -- bad input -------------------------------------------------------------------------------


def test_mismatched_generator_names_in_precision():
    judgments, human = small_case()
    with pytest.raises(
        ValueError,
        match=r"names generator\(s\) \['c'\] that the votes do not have; the votes have \['a', 'b'\]",
    ):
        sweep_thresholds(judgments, pd.Series({"a": 0.5, "c": 0.5}))
    with pytest.raises(ValueError, match=r"names generator\(s\) \['z'\]"):
        pick_threshold(judgments, human, "majority", precision=pd.Series({"z": 0.9, "a": 0.1}))


def test_mismatched_generator_names_in_human_labels():
    judgments, human = small_case()
    human.loc[0, "generator"] = "A"
    with pytest.raises(ValueError, match=r"human labels name generator\(s\) \['A'\]"):
        sweep_thresholds(judgments, human)


def test_human_labels_for_items_without_votes():
    judgments, human = small_case()
    human.loc[5, "item"] = 99
    with pytest.raises(
        ValueError,
        match=r"human labels for 1 item\(s\) that have no votes; first: generator 'b', item 99",
    ):
        pick_threshold(judgments, human, "minority_veto")


def test_bad_threshold_picking_arguments():
    judgments, human = small_case()
    with pytest.raises(ValueError, match=r"metric \('accuracy'\) not recognized"):
        pick_threshold(judgments, human, "majority", "accuracy")
    with pytest.raises(ValueError, match=r"rule \('veto'\) not recognized"):
        pick_threshold(judgments, human, "veto")
    with pytest.raises(
        ValueError, match=r"at least two calibration generators .* got 1 \(\['a'\]\)"
    ):
        pick_threshold(judgments, pd.Series({"a": 0.5}), "majority")
    with pytest.raises(ValueError, match=r"'balanced_accuracy' needs human item labels"):
        pick_threshold(judgments, pd.Series({"a": 0.5, "b": 0.5}), "majority", "balanced_accuracy")
    with pytest.raises(ValueError, match=r"precision must lie in \[0, 1\]; got 1.5"):
        sweep_thresholds(judgments, pd.Series({"a": 0.5, "b": 1.5}))


def test_votes_must_name_generators():
    with pytest.raises(ValueError, match=r"votes must say which generator each item belongs to"):
        sweep_thresholds(np.ones((3, 2)), pd.Series({"a": 0.5}))


def test_generator_with_no_vote_cast():
    judgments, human = small_case()
    judgments.loc[judgments["generator"] == "b", "label"] = np.nan
    with pytest.raises(ValueError, match=r"calibration generator 'b' has no vote cast on any item"):
        sweep_thresholds(judgments, human)
