"""The voting baselines plug into the latent-trait leave-s-out evaluation."""

import pytest

from ensemble import VOTING_BASELINES, ensemble_precision, vote, vote_matrix
from regression import leave_out_evaluation
from regression.datasets import load_agreeableness_judgments
from regression.leave_out import DEFAULT_BASELINES


@pytest.fixture(scope="module")
def table():
    judgments, human = load_agreeableness_judgments("feedback+lines+labels")
    return (
        leave_out_evaluation(
            judgments,
            human,
            sizes=[0, 1, 5],
            models={},
            baselines={**DEFAULT_BASELINES, **VOTING_BASELINES},
        ),
        judgments,
        human,
    )


def test_majority_baseline_is_the_majority_vote(table):
    result, judgments, human = table
    truth = human.groupby("generator")["human"].mean()
    precision = ensemble_precision(vote(vote_matrix(judgments), "majority")).to_frame()["estimate"]
    rows = result[(result["method"] == "majority") & (result["s"] == 1)]
    for _, row in rows.iterrows():
        held = [g for g in truth.index if g != row["calibration_generators"]]
        expected = (precision[held] - truth[held]).abs().max()
        assert row["max_abs_error"] == pytest.approx(expected)


def test_minority_veto_is_tuned_on_calibration_and_undefined_without_it(table):
    result, _, _ = table
    veto = result[result["method"] == "minority_veto"]
    assert veto.loc[veto["s"] == 0, "max_abs_error"].isna().all()
    # agreeableness section 4: a tuned veto (2.8 %) beats the majority vote (5.7 %) at s = 5
    at5 = result[result["s"] == 5].groupby("method")["max_abs_error"].mean()
    assert at5["minority_veto"] < at5["majority"]
