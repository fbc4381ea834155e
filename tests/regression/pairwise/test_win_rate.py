"""Win rates from pairwise verdicts: limiting cases, invariances, the result contract and a
Monte Carlo check of coverage per generator."""

from __future__ import annotations

import warnings
from dataclasses import replace

import numpy as np
import pandas as pd
import pytest

from regression.pairwise import (
    FewVotesWarning,
    PairwiseModel,
    check_pairwise,
    win_rates,
)
from regression.results import INTERVAL_COLUMNS, JointError, Result, Summary

WORDS = np.array(["b", "tie", "a"])  # index: 2 * score of generator_a


def world(
    seed: int,
    *,
    n_gen: int = 6,
    n_battles: int = 1500,
    n_votes: int = 300,
    accuracy: tuple[float, ...] = (0.75, 0.65, 0.55),
    first_bias: tuple[float, ...] = (0.3, 0.0, 0.5),
) -> tuple[pd.DataFrame, pd.DataFrame, pd.Series]:
    """A simulated arena: Bradley-Terry strengths with ties, unbalanced pairs, three judges that
    copy the human verdict with their accuracy (else guess) unless their bias makes them pick the
    answer shown first, each judging both orders; a uniform sample of battles voted.
    Returns the verdicts, the human votes and the true win rates over the table."""
    rng = np.random.default_rng(seed)
    strength = rng.normal(0, 0.8, n_gen)
    popularity = rng.dirichlet(np.full(n_gen, 2.0))
    a = rng.choice(n_gen, n_battles, p=popularity)
    b = (a + 1 + rng.choice(n_gen - 1, n_battles)) % n_gen
    p_a = 1 / (1 + np.exp(-(strength[a] - strength[b])))
    tie = rng.random(n_battles) < 0.15
    truth = np.where(tie, 0.5, (rng.random(n_battles) < p_a).astype(float))
    names = np.array([f"g{g}" for g in range(n_gen)])
    blocks = []  # per judge, per order shown: the score of generator_a
    for acc, bias in zip(accuracy, first_bias, strict=True):
        for position in (0, 1):
            copy = rng.random(n_battles) < acc
            guess = rng.choice([0.0, 0.5, 1.0], n_battles)
            verdict = np.where(copy, truth, guess)
            first = 1.0 if position == 0 else 0.0  # a's score when the first shown wins
            blocks.append(np.where(rng.random(n_battles) < bias, first, verdict))
    verdicts = pd.DataFrame({
        "item": np.tile(np.arange(n_battles), len(blocks)),
        "generator_a": np.tile(names[a], len(blocks)),
        "generator_b": np.tile(names[b], len(blocks)),
        "validator": np.repeat([f"j{j}" for j in range(len(accuracy))], 2 * n_battles),
        "verdict": WORDS[(2 * np.concatenate(blocks)).astype(int)],
        "position": np.tile(np.repeat(["ab", "ba"], n_battles), len(accuracy)),
    })  # fmt: skip
    voted = rng.choice(n_battles, n_votes, replace=False)
    human = pd.DataFrame({
        "item": voted, "generator_a": names[a[voted]], "generator_b": names[b[voted]],
        "human": WORDS[(2 * truth[voted]).astype(int)],
    })  # fmt: skip
    score = np.concatenate([truth, 1 - truth])
    player = np.concatenate([a, b])
    true = pd.Series(
        np.bincount(player, score) / np.bincount(player), index=[f"g{g}" for g in range(n_gen)]
    )
    return verdicts, human, true


def test_every_battle_voted_gives_the_humans_own_win_rates_exactly() -> None:
    verdicts, human, true = world(0, n_battles=200, n_votes=200)
    fit = PairwiseModel().fit_table(verdicts, human)
    np.testing.assert_allclose(fit.estimate.reindex(true.index), true, atol=1e-12)
    np.testing.assert_allclose(fit.se, 0.0, atol=1e-12)  # the whole table is known


def test_judges_that_say_nothing_give_the_human_votes_alone() -> None:
    verdicts, human, _ = world(1)
    fit = PairwiseModel().fit_table(verdicts.assign(verdict="tie"), human)
    assert fit.method == "labels_only"
    table = check_pairwise(verdicts, human)
    sides = pd.concat([
        pd.DataFrame({"g": table.battles["generator_a"], "s": table.human}),
        pd.DataFrame({"g": table.battles["generator_b"], "s": 1 - table.human}),
    ]).dropna()  # fmt: skip
    np.testing.assert_allclose(
        fit.estimate, sides.groupby("g")["s"].mean().reindex(fit.estimate.index)
    )


@pytest.mark.float_sensitive
def test_judges_off_is_the_votes_alone_with_the_same_joint_error() -> None:
    verdicts, human, _ = world(9)
    alone = PairwiseModel(judges=False).fit_table(verdicts, human)
    silent = PairwiseModel().fit_table(verdicts.assign(verdict="tie"), human)
    assert (
        alone.method == "labels_only"
        and alone.lam.eq(0).all()  # exact: lam 0 and a bound clipped to 1 by construction
    )
    # the labels-only path against the tuned path at lam 0: other sums, same values
    pd.testing.assert_series_equal(alone.estimate, silent.estimate, check_exact=False, rtol=1e-12)
    pd.testing.assert_frame_equal(
        alone.covariance, silent.covariance, check_exact=False, rtol=1e-12
    )
    np.testing.assert_allclose(alone.se, alone.se_labels_only)
    # a battle counts for both its generators: their errors are correlated (the difference
    # coverage test checks these terms)
    off = alone.covariance.to_numpy()[~np.eye(len(alone.estimate), dtype=bool)]
    assert (off < 0).any()


def test_listing_every_pair_the_other_way_changes_nothing() -> None:
    verdicts, human, _ = world(2)
    flip = {"a": "b", "b": "a", "tie": "tie"}
    mirrored = verdicts.assign(
        generator_a=verdicts["generator_b"], generator_b=verdicts["generator_a"],
        verdict=verdicts["verdict"].map(flip), position=verdicts["position"].map({"ab": "ba", "ba": "ab"}),
    )  # fmt: skip
    human_m = human.assign(
        generator_a=human["generator_b"],
        generator_b=human["generator_a"],
        human=human["human"].map(flip),
    )
    one = PairwiseModel(seed=3).fit_table(verdicts, human)
    two = PairwiseModel(seed=3).fit_table(mirrored, human_m)
    pd.testing.assert_series_equal(
        one.estimate, two.estimate.reindex(one.estimate.index), atol=1e-12
    )
    pd.testing.assert_frame_equal(
        one.covariance,
        two.covariance.reindex(index=one.covariance.index, columns=one.covariance.columns),
        atol=1e-14,
    )


def test_informative_judges_narrow_the_intervals_and_say_what_they_are_worth() -> None:
    verdicts, human, _ = world(4, accuracy=(0.9, 0.85, 0.8), first_bias=(0.0, 0.1, 0.0))
    fit = PairwiseModel().fit_table(verdicts, human)
    assert fit.method == "ppi++"
    assert (fit.se < fit.se_labels_only).all()
    assert (fit.lam > 0.5).all()
    assert (fit.worth() > 0.5 * fit.n_labels).all()  # judges worth at least half the votes again


def test_the_result_keeps_the_contract() -> None:
    verdicts, human, _ = world(5)
    fit = PairwiseModel().fit_table(verdicts, human)
    assert isinstance(fit, Result)
    interval = fit.interval(0.1)
    assert list(interval.columns) == [*INTERVAL_COLUMNS, "n_labels"]
    assert (interval["low"] <= interval["estimate"]).all() and (
        interval["estimate"] <= interval["high"]
    ).all()
    assert (
        fit.interval(  # exact: lam 0 and a bound clipped to 1 by construction
            0.1, alternative="greater"
        )[  # exact: lam 0 and a bound clipped to 1 by construction
            "high"
        ]
        .eq(1.0)
        .all()
    )
    assert interval["n_labels"].sum() == 2 * len(human)  # a vote counts for both generators
    assert isinstance(fit.joint_error(), JointError)
    assert isinstance(fit.summary(), Summary) and "Win rates" in fit.summary().as_text()
    diagnostics = fit.diagnostics()
    assert list(diagnostics.index) == ["j0", "j1", "j2", "human voters"]
    # j2 picks the first answer shown half the time on top of its guesses; j1 has no bias
    assert diagnostics.loc["j2", "first_shown_rate"] > 0.65
    assert abs(diagnostics.loc["j1", "first_shown_rate"] - 0.5) < 0.05
    assert diagnostics.loc["j0", "agreement"] > diagnostics.loc["j2", "agreement"]


def test_no_human_votes_give_the_judges_own_rates_with_a_warning() -> None:
    verdicts, _, _ = world(6)
    with pytest.warns(FewVotesWarning, match="no human votes"):
        fit = PairwiseModel().fit_table(verdicts)
    assert fit.method == "mean_of_judges"
    assert fit.interval()[["low", "high"]].isna().all().all()
    assert fit.estimate.between(0, 1).all()


def test_a_generator_with_one_vote_has_no_interval() -> None:
    verdicts, human, _ = world(7, n_votes=200)
    lone = human["generator_a"].iloc[0]
    keep = (human["generator_a"] != lone) & (human["generator_b"] != lone)
    human = pd.concat([human[keep], human[~keep].iloc[:1]])
    with pytest.warns(FewVotesWarning, match=f"'{lone}' has 1 human vote"):
        fit = PairwiseModel().fit_table(verdicts, human)
    assert np.isnan(fit.estimate[lone]) and fit.estimate.drop(lone).notna().all()


@pytest.mark.parametrize("accuracy", [(0.75, 0.65, 0.55), (0.0, 0.0, 0.0)])
def test_coverage_per_generator_and_per_difference(accuracy: tuple[float, ...]) -> None:
    """The first 60 of the 300 worlds of docs/pairwise.md; each generator's 95 % interval covers
    its true win rate over the table, and each difference's interval from the joint covariance
    covers the true difference, at least 93 % minus 3 Monte Carlo standard errors of the time,
    with useful judges and with judges that only guess (accuracy 0), the betting interval (the
    default) and the normal one; the guessing judges' normal intervals are no wider than the
    votes' own (lam near 0: they cost nothing), the useful judges' 30 % narrower at least."""
    n_worlds, alpha, z = 60, 0.05, 1.959964
    hits, betting_hits, pair_hits, width, width_votes = [], [], [], [], []
    with warnings.catch_warnings():
        warnings.simplefilter("error", FewVotesWarning)
        for seed in range(n_worlds):
            verdicts, human, true = world(
                1000 + seed, n_battles=600, n_votes=240, accuracy=accuracy
            )
            fit = win_rates(check_pairwise(verdicts, human), seed=seed)
            betting = fit.interval(alpha).reindex(true.index)
            betting_hits.append(((betting["low"] <= true) & (true <= betting["high"])).to_numpy())
            interval = replace(fit, interval_method="normal").interval(alpha).reindex(true.index)
            hits.append(((interval["low"] <= true) & (true <= interval["high"])).to_numpy())
            est = fit.estimate.reindex(true.index).to_numpy()
            cov = fit.covariance.reindex(index=true.index, columns=true.index).to_numpy()
            var = np.diag(cov)[:, None] + np.diag(cov)[None, :] - 2 * cov
            error = (est[:, None] - est[None, :]) - (
                true.to_numpy()[:, None] - true.to_numpy()[None, :]
            )
            upper = np.triu_indices(len(est), 1)
            pair_hits.append(np.abs(error[upper]) <= z * np.sqrt(var[upper]))
            width.append((interval["high"] - interval["low"]).mean())
            width_votes.append(2 * z * fit.se_labels_only.mean())
    floor = 0.93 - 3 * np.sqrt(alpha * (1 - alpha) / n_worlds)
    assert np.mean(hits, axis=0).min() >= floor, np.mean(hits, axis=0)
    assert np.mean(betting_hits, axis=0).min() >= floor, np.mean(betting_hits, axis=0)
    assert np.mean(pair_hits, axis=0).min() >= floor, np.mean(pair_hits, axis=0)
    if max(accuracy) == 0:
        assert np.mean(width) <= 1.01 * np.mean(width_votes)
    else:
        assert np.mean(width) <= 0.7 * np.mean(width_votes)
