"""Ranking on any board: generators without an interval, the draws' Monte Carlo error, n_draws on
every result (regression.ranking)."""

import warnings

import numpy as np
import pandas as pd
import pytest

from regression import JointError, LatentTraitModel
from regression.data.anchors import Anchors
from regression.latent.worlds import transfer_world
from regression.pairwise import PairwiseModel
from regression.pairwise.simulate import pairwise_world
from regression.ranking import compare, leaderboard, rank_sets
from regression.ranking.family import level_error, ranked_part
from regression.transfer.model import TransferModel


def joint(estimate, covariance, **kwargs):
    index = pd.Index([f"g{i:03d}" for i in range(len(estimate))], name="generator")
    return JointError(
        pd.Series(estimate, index=index, dtype=float),
        pd.DataFrame(np.asarray(covariance, dtype=float), index=index, columns=index),
        **kwargs,
    )


def sparse_arena(seed: int = 3):
    """24 generators, 45 human votes over 2,000 battles: several generators have fewer than three."""
    world = pairwise_world(24, 2000, 45, seed=seed)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return PairwiseModel().fit_table(world.verdicts, world.human)


def test_a_generator_without_an_interval_gets_the_full_range_and_says_why():
    fit = sparse_arena()
    sets = fit.rank_sets()
    unranked = sets[sets["estimate"].isna()]
    assert 1 <= len(unranked) < len(sets)  # the board this test is about
    assert (unranked["low_rank"] == 1).all() and (unranked["high_rank"] == len(sets)).all()
    assert unranked["reason"].str.contains(r"^\d human vote\(s\): too few for an interval").all()
    assert list(sets.index[-len(unranked) :]) == list(unranked.index)  # unranked come last
    assert (sets.loc[sets["estimate"].notna(), "reason"] == "").all()


def test_the_others_rank_among_themselves_and_allow_for_the_unranked():
    # the rule: a ranked generator's set among the R ranked ones, [l, h], becomes [l, h + U]
    fit = sparse_arena()
    error = fit.joint_error()
    ranked, keep, reasons = ranked_part(error)
    u = len(error.estimate) - len(keep)
    assert u == len(reasons) > 0
    whole = rank_sets(error, seed=4)
    alone = rank_sets(ranked, seed=4)  # the same draws: ranked_part is what rank_sets ranks
    on_both = whole.loc[alone.index]
    assert (on_both["low_rank"] == alone["low_rank"]).all()  # exact: integer ranks
    assert (on_both["high_rank"] == alone["high_rank"] + u).all()  # exact: integer ranks
    assert list(fit.rank_sets(seed=4).columns) == list(whole.columns)


def test_a_board_whose_unranked_leave_fewer_than_two_gives_everyone_the_full_range():
    one = joint([0.8, np.nan], np.diag([1e-4, np.nan]))
    sets = rank_sets(one)
    assert (sets["low_rank"] == 1).all() and (sets["high_rank"] == 2).all()
    assert sets.loc["g001", "reason"] == "no finite estimate"
    pairs = compare(one)
    assert len(pairs) == 1 and pairs["low"].isna().all() and (pairs["decided"] == "undecided").all()


def test_compare_leaves_the_pairs_of_an_unranked_generator_undecided():
    error = joint([0.9, 0.5, 0.1], np.diag([1e-4, np.nan, 1e-4]), reasons={"g001": "no votes"})
    pairs = compare(error)
    touching = (pairs["generator_a"] == "g001") | (pairs["generator_b"] == "g001")
    assert pairs.loc[touching, ["estimate", "low", "high"]].isna().all().all()
    assert (pairs.loc[touching, "decided"] == "undecided").all()
    assert pairs.loc[~touching, "decided"].tolist() == ["a higher"]
    sets = rank_sets(error)
    assert sets.loc["g001", "reason"] == "no votes"
    # g000 above g002 among the two ranked; g001 (a finite estimate, no variance) anywhere
    assert sets.loc[["g000", "g002", "g001"], ["low_rank", "high_rank"]].to_numpy().tolist() == [
        [1, 2],
        [2, 3],
        [1, 3],
    ]


def test_the_others_sets_hold_with_unranked_generators_on_the_board():
    """100 seeded boards of 8 generators, 3 of them without an interval (their true values drawn
    like the others'): every generator's true rank among all 8 lies in its 90 % set, all at once,
    in at least 90 % minus 3 Monte Carlo standard errors of the boards."""
    n_boards, alpha, g, u = 100, 0.1, 8, 3
    rng = np.random.default_rng(11)
    held = []
    for board in range(n_boards):
        truth = rng.normal(0, 0.03, g)
        sd = rng.uniform(0.01, 0.03, g)
        estimate = truth + sd * rng.standard_normal(g)
        estimate[:u] = np.nan  # the first u have no interval, wherever their truth lies
        variance = np.where(np.isnan(estimate), np.nan, sd**2)
        sets = rank_sets(joint(estimate, np.diag(variance)), alpha, n_draws=1000, seed=board)
        true_rank = pd.Series(truth, index=sets.index.sort_values()).rank(ascending=False)
        true_rank = true_rank.reindex(sets.index)
        held.append(
            bool(((sets["low_rank"] <= true_rank) & (true_rank <= sets["high_rank"])).all())
        )
    floor = 1 - alpha - 3 * np.sqrt(alpha * (1 - alpha) / n_boards)
    assert np.mean(held) >= floor, np.mean(held)


def test_a_large_board_given_by_its_law_is_resolved_by_few_draws():
    # 300 generators (89,700 ordered pairs): percentiles read off the draws would need millions
    # of draws; the known law needs only the maximum's quantile, so no warning even at 100 draws
    # (the default 20,000 at 1,000 generators: benchmarks/bench_ranking_sparse.py), and the
    # level's Monte Carlo error is said
    rng = np.random.default_rng(2)
    g = 300
    error = joint(np.sort(rng.uniform(0.2, 0.8, g))[::-1], np.diag(rng.uniform(0.02, 0.06, g) ** 2))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        sets = rank_sets(error, n_draws=100, seed=1)
    assert sets.attrs["n_draws"] == 100
    assert sets.attrs["level_error"] == pytest.approx(np.sqrt(0.05 * 0.95 / 100), rel=0.05)
    assert (sets["low_rank"] <= sets["rank"]).all() and (sets["rank"] <= sets["high_rank"]).all()


def test_the_level_error_is_that_of_the_order_statistic():
    # Beta(n - j + 1, j): about sqrt(alpha (1 - alpha) / n), the same on a board of any size
    for alpha, n in ((0.05, 20_000), (0.1, 1000), (0.2, 250)):
        assert level_error(alpha, n) == pytest.approx(np.sqrt(alpha * (1 - alpha) / n), rel=0.05)


def test_every_result_accepts_n_draws_where_the_warning_points():
    fit = sparse_arena()
    assert fit.rank_sets(n_draws=500).attrs["n_draws"] == 500
    assert fit.leaderboard(n_draws=500).n_draws == 500
    assert len(fit.compare(n_draws=500)) == 24 * 23 // 2
    assert isinstance(fit.could_be_best(n_draws=500), list)

    world = transfer_world("random", seed=5, n_generators=8, n_validators=5, n_items=300)
    calibration = list(world.precision.index[:4])
    anchors = Anchors.from_confusion(
        world.confusion, calibration, precision=world.sample_precision[calibration]
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        transfer = TransferModel().fit(world.counts, anchors=anchors)
        latent = LatentTraitModel(loss="likelihood", n_restarts=2).fit(
            world.counts.rates, world.counts.n_labelled, anchors=anchors
        )
        # a transfer fit makes its draws: n_draws reaches its joint_error
        assert transfer.rank_sets(n_draws=700).attrs["n_draws"] == 700
        # a latent-trait fit's draws are its bootstrap replicates
        board = latent.leaderboard(n_draws=30, seed=1)
        assert board.n_draws == 30 and board.joint is not None
        assert board.joint.draws is not None and board.joint.draws.shape == (30, 8)
    with pytest.raises(ValueError, match=r"n_draws \(30\) and n_boot \(40\) both set"):
        latent.rank_sets(n_draws=30, n_boot=40)


def test_the_leaderboard_says_the_level_error_and_the_unranked():
    fit = sparse_arena()
    board = leaderboard(fit)
    text = board.summary().as_text()
    assert "Monte Carlo standard error of 0.15 points (20,000 draws" in text
    assert "without an interval may hold any rank (1 to 24" in text
    unranked = board.table[board.table["reason"] != ""]
    assert len(unranked) and (unranked["high_rank"] == 24).all()
