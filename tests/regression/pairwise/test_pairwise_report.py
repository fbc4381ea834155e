"""What a pairwise result tells its reader: the judges' diagnostics beside the human voters', what
the judges are worth in human votes, and the summary's sentences, for both estimands."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd
import pytest

from regression.pairwise import FewVotesWarning, PairwiseModel
from regression.pairwise.board import position_bias

World = Callable[..., Any]  # the fixture of conftest.py


def test_the_diagnostics_of_a_table_counted_by_hand() -> None:
    """Two judges on three battles, both orders: j1 always picks the answer shown first (a at ab,
    b at ba), j2 says what the humans say and ties once."""
    verdicts = pd.DataFrame({
        "item": np.repeat([1, 2, 3], 4), "generator_a": "x", "generator_b": "y",
        "validator": ["j1", "j1", "j2", "j2"] * 3, "position": ["ab", "ba"] * 6,
        "verdict": ["a", "b", "a", "a",  "a", "b", "b", "b",  "a", "b", "tie", None],
    })  # fmt: skip
    human = pd.DataFrame({"item": [1, 2, 3], "generator_a": "x", "generator_b": "y",
                          "human": ["a", "b", "tie"]})  # fmt: skip
    fit = PairwiseModel().fit_table(verdicts, human)
    d = fit.diagnostics()
    assert d["n_verdicts"].to_dict() == {"j1": 6, "j2": 5, "human voters": 3}
    assert (
        d.loc["j1", "first_shown_rate"]  # exact: shares of integer counts; set by construction
        == 1.0  # exact: shares of integer counts; set by construction
        and d.loc["j1", "tie_rate"] == 0.0  # exact: shares of integer counts; set by construction
    )
    # j2's decisive verdicts: a at ab (first), a at ba (second), b at ab, b at ba (first)
    assert (
        d.loc["j2", "first_shown_rate"]  # exact: shares of integer counts; set by construction
        == 0.5  # exact: shares of integer counts; set by construction
        and d.loc["j2", "tie_rate"] == 0.2  # exact: shares of integer counts; set by construction
    )
    assert d.loc["j1", "agreement"] == pytest.approx(2 / 6)  # a = a at 1, b = b at 2
    assert d.loc["j2", "agreement"] == 1.0  # exact: shares of integer counts; set by construction
    assert d.loc["human voters", "tie_rate"] == pytest.approx(1 / 3)
    assert np.isnan(d.loc["human voters", ["first_shown_rate", "agreement"]].astype(float)).all()


@pytest.mark.float_sensitive  # two variances from two code paths, compared to 1e-12
@pytest.mark.parametrize("estimand", ["win_rate", "bradley_terry"])
def test_what_the_judges_are_worth_per_generator_and_in_all(estimand: str, world: World) -> None:
    verdicts, human, _ = world(11, accuracy=(0.85, 0.75, 0.6))
    fit = PairwiseModel(estimand=estimand).fit_table(verdicts, human)
    ratio = fit.se_labels_only**2 / fit.se**2
    # the formula, except where lam is 0: there worth() is 0 by structure and the formula's ratio
    # of two variances from two code paths is 1 to about 1e-13 (times n_labels votes)
    pd.testing.assert_series_equal(
        fit.worth(),
        (fit.n_labels * (ratio - 1)).clip(lower=0).rename("judges_worth"),
        check_exact=False,
        rtol=1e-12,
        atol=1e-9,
    )
    total = len(human) * ((fit.se_labels_only**2).sum() / (fit.se**2).sum() - 1)
    assert fit.total_worth() == pytest.approx(total) and total > 0
    summary = fit.summary()
    assert list(summary.tables) == [fit.ESTIMATES, "judges"]
    text = " ".join(summary.notes)
    assert f"The judges are worth about {total:.0f} human votes" in text
    assert (
        f"the {len(human)} votes give the total variance of about {len(human) + total:.0f}" in text
    )
    assert 0.2 < fit.explained() < 1.0 and "cross-fitted prediction explains" in text


@pytest.mark.float_sensitive
@pytest.mark.parametrize("estimand", ["win_rate", "bradley_terry"])
def test_judges_left_out_are_worth_nothing_and_explain_nothing(estimand: str, world: World) -> None:
    verdicts, human, _ = world(12)
    fit = PairwiseModel(estimand=estimand, judges=False).fit_table(verdicts, human)
    # no judges: lam is 0 by construction, and the worth 0 by structure where lam is 0, not
    # left to the ratio of two variances from two code paths (1.2e-13 under AVX-512 kernels)
    assert fit.method == "labels_only" and fit.lam.eq(0).all()  # exact: set to 0 by construction
    assert fit.worth().eq(0).all() and fit.total_worth() == 0  # exact: set to 0 by structure
    assert np.isnan(fit.explained()) and fit.prediction is None
    assert not any("worth" in note or "explains" in note for note in fit.summary().notes)


@pytest.mark.parametrize("estimand", ["win_rate", "bradley_terry"])
def test_without_votes_the_summary_says_the_estimates_are_uncorrected(
    estimand: str, world: World
) -> None:
    verdicts, _, _ = world(13, n_battles=400)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        fit = PairwiseModel(estimand=estimand).fit_table(verdicts)
    assert [w.category for w in caught] == [FewVotesWarning]
    summary = fit.summary()
    assert summary.warnings == fit.warnings and "no human votes" in summary.warnings[0]
    assert "nothing: no human votes" in summary.notes[0]
    assert fit.to_frame()["judges_worth"].isna().all()


def test_without_ties_the_strengths_are_plain_bradley_terry(world: World) -> None:
    verdicts, human, _ = world(14)
    human = human.assign(human=human["human"].replace("tie", "a"))
    fit = PairwiseModel(estimand="bradley_terry").fit_table(verdicts, human)
    assert fit.tie_parameter < 1e-6
    assert "no ties: the tie parameter nu is 0, plain Bradley-Terry" in fit.summary().notes[-1]
    assert np.isfinite(fit.se).all()


def test_a_judge_is_flagged_where_its_first_shown_share_departs_from_a_half_beyond_chance() -> None:
    """100 decisive verdicts: 61 for the first answer is past the two-sided 5 % binomial test
    (p = 0.035), 60 is not (p = 0.057); 39 is as far on the other side."""
    judges = pd.DataFrame(
        {
            "n_verdicts": [125, 100, 100, 1000],
            "tie_rate": [0.2, 0.0, 0.0, np.nan],
            "first_shown_rate": [0.61, 0.60, 0.39, np.nan],
        },
        index=["past", "within", "second", "human voters"],
    )
    table, warned = position_bias(judges, alpha=0.05)
    assert list(table["position_bias"][:3]) == [
        "first shown (p = 0.035)",
        "none detected (p = 0.057)",
        "second shown (p = 0.035)",
    ]
    assert pd.isna(table.loc["human voters", "position_bias"])  # their order is not recorded
    assert len(warned) == 2
    assert warned[0].startswith("judge past picks the answer shown first in 61.0% of its 100 ")
    assert warned[1].startswith("judge second picks the answer shown second in 61.0% of its 100")
    assert "level 0.05" in warned[0]
    # at a stricter level the same judge passes
    assert position_bias(judges, alpha=0.01)[1] == []
