"""suggest_labels: exactly the budget, seeded, never a voted battle, and valid intervals under its draw."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from regression.labels.suggest import BudgetWarning
from regression.pairwise import PairwiseModel, suggest_labels
from regression.pairwise.plan import vote_probabilities
from regression.pairwise.simulate import pairwise_world

# every battle's vote is known, to reveal the chosen ones; two judges keep the test fast
WORLD = pairwise_world(
    5, 600, 600, accuracy=(0.6, 0.4), first_bias=(0.3, 0.1), tie=(0.2, 0.6), seed=7
)
KEYS = ["item", "generator_a", "generator_b"]


def held_votes(seed: int, n: int) -> pd.DataFrame:
    """A uniform sample of ``n`` votes, as the votes held before a suggestion."""
    rng = np.random.default_rng(seed)
    return WORLD.votes.iloc[np.sort(rng.choice(len(WORLD.votes), n, replace=False))]


def reveal(picks: pd.DataFrame, held: pd.DataFrame) -> pd.DataFrame:
    """The suggested battles voted, passed back with the held votes at probability 1."""
    voted = picks.merge(WORLD.votes, on=KEYS, how="left")
    return pd.concat([held.assign(inclusion_probability=1.0), voted], ignore_index=True)


def test_exact_budget_never_a_voted_battle_and_seeded() -> None:
    held = held_votes(0, 60)
    picks = suggest_labels(WORLD.verdicts, held, 150, seed=3)
    assert len(picks) == 150
    assert list(picks.columns) == ["item", "generator_a", "generator_b", "inclusion_probability"]
    assert not set(picks["item"]) & set(held["item"])
    assert not picks["item"].duplicated().any()
    assert picks["inclusion_probability"].between(0, 1, inclusive="right").all()
    pd.testing.assert_frame_equal(picks, suggest_labels(WORLD.verdicts, held, 150, seed=3))
    assert not picks.equals(suggest_labels(WORLD.verdicts, held, 150, seed=4))


def test_generators_restrict_the_battles() -> None:
    picks = suggest_labels(WORLD.verdicts, None, 40, generators=["g01"], seed=0)
    assert ((picks["generator_a"] == "g01") | (picks["generator_b"] == "g01")).all()


def test_budget_over_the_unvoted_battles_suggests_all_with_a_warning() -> None:
    mine = WORLD.verdicts[WORLD.verdicts["item"] < 30]
    held = WORLD.votes[WORLD.votes["item"] < 10]
    with pytest.warns(BudgetWarning, match="budget 50 is more than the 20 unvoted"):
        picks = suggest_labels(mine, held, 50)
    assert sorted(picks["item"]) == list(range(10, 30))
    assert (picks["inclusion_probability"] == 1).all()


@pytest.mark.parametrize("budget", [0, -3, 2.5, True, "10"])
def test_bad_budget_is_refused(budget: object) -> None:
    with pytest.raises(ValueError, match="budget must be a positive integer"):
        suggest_labels(WORLD.verdicts, None, budget)  # type: ignore[arg-type]


def test_unknown_generator_is_named() -> None:
    with pytest.raises(ValueError, match="generator 'nobody' has no battle"):
        suggest_labels(WORLD.verdicts, None, 10, generators=["nobody"])


def test_active_favours_uncertain_battles_uniform_when_alike() -> None:
    v = np.r_[np.full(50, 0.25), np.full(50, 0.01)]
    pi, design = vote_probabilities(v, 20)
    assert design == "active" and pi[:50].mean() > 2 * pi[50:].mean() and pi.min() > 0
    assert np.isclose(pi.sum(), 20)
    assert vote_probabilities(np.full(100, 0.2), 20)[1] == "uniform"


def test_win_rate_intervals_cover_under_the_active_draw() -> None:
    """Every generator's 95 % interval covers its true win rate, held votes plus an active draw."""
    hits, widths, reps = [], [], 40
    for rep in range(reps):
        held = held_votes(100 + rep, 60)
        picks = suggest_labels(WORLD.verdicts, held, 140, seed=rep)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            fit = PairwiseModel(seed=rep).fit_table(WORLD.verdicts, reveal(picks, held))
        iv = fit.interval(0.05).reindex(WORLD.truth.index)
        hits.append(((iv["low"] <= WORLD.truth) & (WORLD.truth <= iv["high"])).to_numpy())
        widths.append((iv["high"] - iv["low"]).mean())
    coverage = np.mean(hits, axis=0)
    floor = 0.95 - 3 * np.sqrt(0.95 * 0.05 / reps)
    assert coverage.min() >= floor, coverage
    assert 0 < np.mean(widths) < 0.5


@settings(max_examples=40, deadline=None)
@given(
    v=st.lists(st.floats(0.0, 0.25), min_size=2, max_size=60),
    share=st.floats(0.01, 1.0),
)
def test_vote_probabilities_sum_to_the_draw_and_follow_the_variance(v, share) -> None:
    v = np.array(v)
    n = max(1, int(share * v.size))
    pi, design = vote_probabilities(v, n)
    assert np.isclose(pi.sum(), n) and (pi > 0).all() and (pi <= 1 + 1e-12).all()
    if design == "active":  # never a battle of larger variance drawn less often
        order = np.argsort(v, kind="stable")
        assert (np.diff(pi[order]) >= -1e-12).all()


@settings(max_examples=15, deadline=None)
@given(budget=st.integers(1, 700), seed=st.integers(0, 2**16), held=st.integers(0, 80))
def test_any_budget_gives_that_many_unvoted_battles(budget, seed, held) -> None:
    votes = held_votes(seed, held) if held else None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", BudgetWarning)
        picks = suggest_labels(WORLD.verdicts, votes, budget, seed=seed)
    assert len(picks) == min(budget, 600 - held)
    assert not picks["item"].duplicated().any()
    if held:
        assert not set(picks["item"]) & set(votes["item"])
    assert picks["inclusion_probability"].between(0, 1, inclusive="right").all()
