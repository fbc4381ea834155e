"""The pairwise simulator and the machinery of benchmarks/bench_pairwise_study.py, small and fast."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

from regression.pairwise import PairwiseModel
from regression.simulate import pairwise_world


@pytest.fixture(scope="module")
def study(benchmark):
    return benchmark("bench_pairwise_study")


def test_world_is_seeded_and_its_truth_is_the_mean_human_score() -> None:
    world = pairwise_world(8, 1200, 200, seed=5)
    again = pairwise_world(8, 1200, 200, seed=5)
    pd.testing.assert_frame_equal(  # exact: same seed, same path; integer counts
        world.verdicts, again.verdicts
    )
    pd.testing.assert_frame_equal(  # exact: same seed, same path; integer counts
        world.human, again.human
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        everyone = PairwiseModel(judges=False).fit_table(world.verdicts, world.votes)
    pd.testing.assert_series_equal(  # exact: same seed, same path; integer counts
        everyone.estimate.reindex(world.truth.index), world.truth, check_names=False
    )
    assert len(world.human) == 200 and world.human["item"].isin(world.votes["item"]).all()


def test_world_has_unbalanced_pairs_ties_and_biased_judges() -> None:
    world = pairwise_world(10, 3000, 600, seed=2)
    pairs = world.votes.apply(lambda r: tuple(sorted((r.generator_a, r.generator_b))), axis=1)
    counts = pairs.value_counts()
    assert counts.max() > 4 * counts.min()
    assert 0.05 < (world.votes["human"] == "tie").mean() < 0.3
    assert (world.strength.value_counts() > 1).any()  # generators tied in strength
    fit = PairwiseModel().fit_table(world.verdicts, world.human)
    judges = fit.diagnostics()
    assert judges.loc["judge-1", "first_shown_rate"] > 0.6  # its 30 % pull to the first answer
    assert judges.loc["judge-2", "tie_rate"] > judges.loc["judge-3", "tie_rate"]
    assert (judges["agreement"].drop("human voters") > 0.45).all()


def test_noise_judges_predict_nothing() -> None:
    world = pairwise_world(8, 2000, 400, noise=True, seed=3)
    fit = PairwiseModel().fit_table(world.verdicts, world.human)
    ratio = fit.se / fit.se_labels_only  # lam may be anything: the prediction barely varies
    assert ratio.max() < 1.05 and ratio.min() > 0.9, ratio


@pytest.mark.parametrize("size", [1, 5000])
def test_bad_sizes_are_refused(size: int) -> None:
    with pytest.raises(ValueError, match="must be in"):
        pairwise_world(size if size == 1 else 4, 100, size if size > 1 else 10)


def test_a_rank_set_covers_a_tie_only_with_every_shared_rank(study) -> None:
    truth = pd.Series([0.7, 0.5, 0.5], index=["x", "y", "z"])
    sets = pd.DataFrame({"low_rank": [1, 2, 3], "high_rank": [1, 3, 3]}, index=truth.index)
    held, size = study.score_sets(sets, truth)
    assert held.tolist() == [True, True, False] and size == 4


def test_simulated_study_machinery(study) -> None:
    table = study.simulated_study({"useful": 1, "noise": 1}, generators=(4, 5), n_draws=1000)
    assert len(table) == 6 and set(table["method"]) == set(study.METHODS)
    assert table["generators"].between(4, 5).all()
    assert table["marginal"].between(0, 1).all() and (table["size"] >= 1).all()
    summary = study.summarise(table, ["judges"])
    assert (summary.xs("votes alone", level="method")["size_vs_votes_alone"] == 1).all()
    assert summary.loc[("useful", "jurycal"), "worlds"] == 1


def test_arena_study_machinery(study) -> None:
    table = study.arena_study((200,), 1, n_draws=1000)
    assert len(table) == 3 and (table["votes"] == 200).all()
    assert np.isfinite(table["size"]).all() and table["size"].between(1, 4).all()


def test_arena_like_world_matches_the_real_set(study) -> None:
    verdicts, human, votes = study.arena_like_world(0)
    assert len(votes) == 15_000 and len(human) == 1_000 and (verdicts["position"] == "ab").all()
    assert (
        verdicts.groupby("validator")  # exact: same seed, same path; integer counts
        .size()
        .eq(15_000)
        .all()
    )  # every judge on every battle
    judges = study.describe_arena_like(verdicts, votes)
    assert 0.83 < judges.loc["judge-1", "a"] < 0.9  # the real set's 86 %
    assert judges.loc["judge-2", "b"] > judges.loc["judge-2", "a"] + 0.1  # leans to b
    assert judges["agreement"].drop("human voters").between(0.35, 0.7).all()
    assert judges["agreement"].drop("human voters").mean() == pytest.approx(0.5, abs=0.1)
    assert judges["r2_of_three"].iloc[0] == pytest.approx(0.29, abs=0.03)


def test_arena_like_study_machinery(study) -> None:
    table = study.with_best_judge(study.arena_like_study(1, estimands=("win_rate",), n_draws=1000))
    chi = table[table["method"].str.startswith("chi-square, judge")]
    assert len(table) == 6 and (table["estimand"] == "win_rate").all()
    best = table.loc[table["method"] == "chi-square, best of the three", "size"]
    assert best.tolist() == [chi["size"].min()]
    assert table["size"].between(1, 12).all() and table["marginal"].between(0, 1).all()


def test_chatbot_arena_study_machinery(study) -> None:
    table = study.with_best_judge(
        study.chatbot_arena_study((300,), 1, estimands=("win_rate",), n_draws=1000)
    )
    judges = {"claude-3-opus", "gpt-4-0125-preview", "gpt-3.5-turbo"}
    chi = table[table["method"].str.removeprefix("chi-square, ").isin(judges)]
    assert len(chi) == 3 and len(table) == 6 and (table["votes"] == 300).all()
    best = table.loc[table["method"] == "chi-square, best of the three", "size"]
    assert best.tolist() == [chi["size"].min()]
    assert table["size"].between(1, 12).all() and table["marginal"].between(0, 1).all()
