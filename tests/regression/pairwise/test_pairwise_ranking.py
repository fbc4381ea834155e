"""Ranking pairwise results through regression.ranking: the leaderboard's shape, the refusal
without human votes, and a Monte Carlo check that the step-down rank sets hold for every
generator at once."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd
import pytest

from regression.pairwise import (
    FewVotesWarning,
    PairwiseModel,
    PairwiseTable,
    check_pairwise,
)
from regression.ranking import Leaderboard, rank_sets
from regression.registry import PAIRWISE_ESTIMANDS

World = Callable[..., Any]  # the fixtures of conftest.py
SampleVotes = Callable[[PairwiseTable, int, int], PairwiseTable]


def test_the_leaderboard_is_the_one_of_every_estimator(world: World) -> None:
    verdicts, human, _ = world(3, n_battles=600, n_votes=240)
    fit = PairwiseModel().fit_table(verdicts, human)
    board = fit.leaderboard(0.1)
    assert isinstance(board, Leaderboard)
    assert list(board.table.columns) == [
        "estimate", "low", "high", "rank", "low_rank", "high_rank", "could_be_best", "n_labels",
        "reason",
    ]  # fmt: skip
    assert (board.table["low_rank"] <= board.table["rank"]).all()
    assert (board.table["rank"] <= board.table["high_rank"]).all()
    assert board.method == "ppi++" and "voted battles" in board.covers
    pd.testing.assert_frame_equal(  # exact: one code path: the board's table
        fit.rank_sets(0.1), board.table[fit.rank_sets(0.1).columns]
    )
    assert fit.could_be_best(0.1) == list(board.table.index[board.table["could_be_best"]])
    pairs = fit.compare(0.1)
    assert len(pairs) == 15 and set(pairs["decided"]) <= {"a higher", "b higher", "undecided"}
    assert "Leaderboard (ppi++)" in board.summary(board.alpha).as_text()


def test_without_human_votes_the_ranking_is_refused(world: World) -> None:
    verdicts, _, _ = world(6, n_battles=400)
    with pytest.warns(FewVotesWarning):
        fit = PairwiseModel().fit_table(verdicts)
    for rank in (fit.leaderboard, fit.rank_sets, fit.could_be_best, fit.compare):
        with pytest.raises(ValueError, match="'mean_of_judges': no human votes.*cannot be"):
            rank()


@pytest.mark.parametrize("estimand", list(PAIRWISE_ESTIMANDS))
def test_step_down_rank_sets_hold_for_every_generator_at_once(
    estimand: str, world: World, sample_votes: SampleVotes
) -> None:
    """20 worlds of 6 generators, 100 of 220 battles voted: every generator's true rank (of its
    estimand fitted to the human votes on every battle) lies in its 90 % rank set, all at once,
    in at least 90 % minus 3 Monte Carlo standard errors of the worlds; and the sets decide
    something (mean size below 4 of 6)."""
    n_worlds, alpha = 20, 0.1
    held, size = [], []
    with warnings.catch_warnings():
        warnings.simplefilter("error", FewVotesWarning)
        # no generator may lose its estimate; the strengths may set the judges aside (a
        # generator may have fewer than 20 votes here), and this test measures what it is about
        warnings.filterwarnings(
            "ignore", "the strengths are the human votes' alone", FewVotesWarning
        )
        for seed in range(n_worlds):
            full = check_pairwise(
                *world(2000 + seed, n_battles=220, n_votes=220, accuracy=(0.8, 0.7, 0.0))[:2]
            )
            true = PAIRWISE_ESTIMANDS[estimand].load()(full, judges=False).estimate
            fit = PAIRWISE_ESTIMANDS[estimand].load()(sample_votes(full, 100, seed), seed=seed)
            sets = rank_sets(fit.joint_error(), alpha, n_draws=2000, seed=seed)
            true_rank = true.rank(ascending=False).reindex(sets.index)
            held.append(
                bool(((sets["low_rank"] <= true_rank) & (true_rank <= sets["high_rank"])).all())
            )
            size.append((sets["high_rank"] - sets["low_rank"] + 1).mean())
    floor = 1 - alpha - 3 * np.sqrt(alpha * (1 - alpha) / n_worlds)
    assert np.mean(held) >= floor, np.mean(held)
    assert np.mean(size) < 4.0, np.mean(size)
