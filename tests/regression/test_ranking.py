"""Comparisons and rank sets from a joint error (regression.ranking)."""

import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from regression import InputError, JointError, LatentTraitModel
from regression.data.anchors import Anchors
from regression.datasets import load_agreeableness_judgments
from regression.latent.worlds import transfer_world
from regression.ranking import (
    bonferroni_rank_sets,
    compare,
    could_be_best,
    error_draws,
    projection_rank_sets,
    rank_sets,
)
from regression.transfer.model import TransferModel


def joint(estimate, covariance, **kwargs):
    index = pd.Index([f"g{i}" for i in range(len(estimate))], name="generator")
    return JointError(
        pd.Series(estimate, index=index, dtype=float),
        pd.DataFrame(np.asarray(covariance, dtype=float), index=index, columns=index),
        **kwargs,
    )


def test_independent_equal_errors_give_tukeys_studentized_range():
    # iid normal errors: the simultaneous max-|t| critical value of all pairwise differences is
    # Tukey's q(1 - alpha; G, inf) / sqrt(2) (Tukey's HSD)
    g, sd = 5, 0.01
    table = compare(joint(np.linspace(0.5, 0.9, g), np.eye(g) * sd**2), n_draws=40_000)
    half = (table["high"] - table["low"]) / 2
    critical = half / table["se"]
    tukey = stats.studentized_range.ppf(0.95, g, np.inf) / np.sqrt(2)
    assert critical.to_numpy() == pytest.approx(tukey, rel=0.03)
    alone = compare(joint(np.linspace(0.5, 0.9, g), np.eye(g) * sd**2), simultaneous=False)
    assert ((alone["high"] - alone["low"]) / 2 / alone["se"]).to_numpy() == pytest.approx(
        stats.norm.ppf(0.975), rel=0.03
    )


def test_a_shared_error_cancels_in_differences():
    g = 4
    shared, own = 0.02**2, 0.002**2
    covariance = np.full((g, g), shared) + np.eye(g) * own
    table = compare(joint([0.90, 0.91, 0.93, 0.96], covariance))
    assert table["var_ratio"].to_numpy() == pytest.approx(2 * own / (2 * (shared + own)))
    # 1-point gaps are decided though each level is known to +-4 points
    assert (table["decided"] != "undecided").all()
    ranks = rank_sets(joint([0.90, 0.91, 0.93, 0.96], covariance))
    assert (ranks["low_rank"] == ranks["high_rank"]).all()  # exact: integer ranks
    assert list(ranks.index) == ["g3", "g2", "g1", "g0"]
    bonferroni = bonferroni_rank_sets(
        pd.DataFrame(
            {"estimate": [0.90, 0.91, 0.93, 0.96], "low": 0.8, "high": 1.0},
            index=ranks.index[::-1],
        )
    )
    assert (bonferroni["high_rank"] - bonferroni["low_rank"] == 3).all()


def test_rank_sets_bracket_the_point_rank_and_tighten_as_alpha_grows():
    estimate = [0.80, 0.82, 0.85, 0.90, 0.91]
    covariance = np.eye(5) * 0.015**2
    wide = rank_sets(joint(estimate, covariance), alpha=0.01)
    narrow = rank_sets(joint(estimate, covariance), alpha=0.2)
    for table in (wide, narrow):
        assert (table["low_rank"] <= table["rank"]).all()
        assert (table["rank"] <= table["high_rank"]).all()
    assert (narrow["high_rank"] - narrow["low_rank"] <= wide["high_rank"] - wide["low_rank"]).all()
    best = could_be_best(joint(estimate, covariance), alpha=0.2)
    assert best == list(narrow.index[narrow["low_rank"] == 1])
    assert "g4" in best and "g0" not in best


def test_the_step_down_decides_at_least_what_the_projection_decides():
    rng = np.random.default_rng(3)
    for _ in range(5):
        g = 6
        a = rng.normal(size=(g, g))
        covariance = (a @ a.T / g + np.eye(g)) * 0.01**2
        estimate = rng.uniform(0.7, 0.95, g)
        step_down = rank_sets(joint(estimate, covariance))
        projection = projection_rank_sets(joint(estimate, covariance))
        size = step_down["high_rank"] - step_down["low_rank"]
        assert (size <= (projection["high_rank"] - projection["low_rank"]).loc[size.index]).all()


@pytest.mark.parametrize("df", [np.inf, 3.0])
def test_simultaneous_coverage_holds_when_the_errors_share_a_part(df):
    # 250 data sets: truth with ties, errors with a strong shared part; both the pair intervals
    # and the rank sets must hold for all generators at once in >= 95 % (minus Monte Carlo error)
    rng = np.random.default_rng(11)
    g = 6
    truth = np.array([0.90, 0.90, 0.92, 0.93, 0.95, 0.95])
    covariance = np.full((g, g), 0.015**2) + np.diag(rng.uniform(0.004, 0.01, g) ** 2)
    root = np.linalg.cholesky(covariance)
    diff_cover, rank_cover = [], []
    true_best = pd.Series(truth).rank(ascending=False, method="min").to_numpy()
    true_worst = pd.Series(truth).rank(ascending=False, method="max").to_numpy()
    for rep in range(250):
        error = root @ rng.standard_normal(g)
        if np.isfinite(df):
            error /= np.sqrt(rng.chisquare(df) / df)
        j = joint(truth + error, covariance, df=df)
        pairs = compare(j, n_draws=3000, seed=rep)
        a = pairs["generator_a"].str[1:].astype(int).to_numpy()
        b = pairs["generator_b"].str[1:].astype(int).to_numpy()
        gap = truth[a] - truth[b]
        diff_cover.append(((pairs["low"] <= gap) & (gap <= pairs["high"])).all())
        ranks = rank_sets(j, n_draws=3000, seed=rep)
        order = ranks.index.str[1:].astype(int).to_numpy()
        # every rank the tied generators share lies in the set (not merely one of them)
        rank_cover.append(
            (
                (ranks["low_rank"] <= true_best[order]) & (true_worst[order] <= ranks["high_rank"])
            ).all()
        )
    assert np.mean(diff_cover) >= 0.91
    assert np.mean(rank_cover) >= 0.91


def test_draws_follow_the_joint_law_and_the_seed():
    covariance = [[1e-4, 5e-5], [5e-5, 2e-4]]
    draws = error_draws(joint([0.5, 0.6], covariance), 50_000, seed=1)
    assert np.cov(draws, rowvar=False) == pytest.approx(np.asarray(covariance), rel=0.05)
    again = error_draws(joint([0.5, 0.6], covariance), 50_000, seed=1)
    np.testing.assert_array_equal(draws, again)  # exact: same seed, same path; strings
    pd.testing.assert_frame_equal(  # exact: same seed, same path; strings
        compare(joint([0.5, 0.6], covariance), seed=4),
        compare(joint([0.5, 0.6], covariance), seed=4),
    )


def test_bad_input_is_named():
    two = joint([0.5, 0.6], np.eye(2) * 1e-4)
    with pytest.raises(InputError, match="at least two; this result has 1"):
        compare(joint([0.5], [[1e-4]]))
    for alpha in (0, 1, -0.1, 1.5):
        with pytest.raises(ValueError, match=f"alpha \\({alpha!r}\\)"):
            rank_sets(two, alpha=alpha)
    with pytest.raises(InputError, match="names generator 'nope'") as caught:
        compare(two, pairs=[("g0", "nope")])
    assert caught.value.value == "nope"
    with pytest.raises(InputError, match="names one generator twice"):
        compare(two, pairs=[("g0", "g0")])
    with pytest.raises(InputError, match="pairs is empty"):
        compare(two, pairs=[])
    with pytest.raises(InputError, match="must name two generators"):
        compare(two, pairs=["g0"])


@settings(max_examples=30, deadline=None)
@given(
    st.lists(st.floats(0.05, 0.95), min_size=2, max_size=6),
    st.floats(1e-4, 0.05),
    st.permutations(range(6)),
)
def test_rank_sets_do_not_depend_on_the_order_of_generators(estimates, sd, order):
    g = len(estimates)
    perm = [i for i in order if i < g]
    j = joint(estimates, np.eye(g) * sd**2)
    shuffled = JointError(
        j.estimate.iloc[perm],
        j.covariance.iloc[perm, perm],
        draws=error_draws(j, 4000, seed=0)[:, perm],
    )
    first = rank_sets(JointError(j.estimate, j.covariance, draws=error_draws(j, 4000, seed=0)))
    second = rank_sets(shuffled)
    pd.testing.assert_frame_equal(  # exact: same seed, same path; strings
        first.sort_index(), second.sort_index()
    )
    assert (first["low_rank"] <= first["rank"]).all() and (
        first["rank"] <= first["high_rank"]
    ).all()


# ------------------------------------------------------------------ the estimators' joint errors


def world_fit(kind="random", seed=2, validators=5, calibration=4):
    world = transfer_world(
        kind, seed=seed, n_generators=8, n_validators=validators, n_items=300, n_annotated=8
    )
    cal = list(world.precision.index[:calibration])
    anchors = Anchors.from_confusion(world.confusion, cal, precision=world.sample_precision[cal])
    return world, TransferModel().fit(world.counts, anchors=anchors)


def test_the_transfer_joint_error_keeps_the_marginal_intervals():
    world, result = world_fit()
    error = result.joint_error()
    interval = result.interval()
    unlabelled = interval["role"] == "unlabelled"
    scale = np.sqrt(np.diag(error.covariance))[unlabelled.to_numpy()]
    # the interval's scale (and the labels' small share): no more certain than the interval
    assert scale == pytest.approx(result.estimate.se[unlabelled.to_numpy()], rel=0.02)
    assert (scale >= result.estimate.se[unlabelled.to_numpy()] * (1 - 1e-12)).all()
    assert error.df == result.estimate.df  # exact: the degrees of freedom passed through
    residuals = result.loo_errors["transfer"]
    pairs = compare(error)
    both = pairs["generator_a"].map(interval["role"]).eq(  # exact: same seed, same path; strings
        "unlabelled"
    ) & pairs[  # exact: same seed, same path; strings
        "generator_b"
    ].map(interval["role"]).eq("unlabelled")
    # a difference of two unlabelled generators has the held-out errors' spread, twice, at most
    # the levels' (plus the calibration labels' small share through the estimates that lean on
    # them)
    se = result.estimate.se[unlabelled.to_numpy()][0]
    expected = np.sqrt(2 * min(np.var(residuals, ddof=1), se**2))
    assert pairs.loc[both, "se"].to_numpy() == pytest.approx(expected, rel=0.02)
    assert error.draws.shape[1] == len(interval)
    assert set(could_be_best(error)) <= set(interval.index)


def test_the_degrees_of_freedom_can_be_replaced_for_an_ablation():
    _, result = world_fit()
    own, normal = result.joint_error(), result.joint_error(df=np.inf)
    # exact: the degrees of freedom passed through
    assert own.df == result.estimate.df and normal.df == np.inf
    assert normal.covariance.to_numpy() == pytest.approx(own.covariance.to_numpy())
    # a normal scale has lighter tails: narrower simultaneous intervals wherever the transfer
    # error enters (a pair of labelled generators moves with the family's shared level only)
    role = result.interval()["role"]
    pairs = compare(normal)
    transfer = (
        pairs[["generator_a", "generator_b"]].apply(lambda c: c.map(role)) != "calibration"
    ).any(axis=1)
    width = pairs["high"] - pairs["low"]
    before = compare(own)["high"] - compare(own)["low"]
    assert transfer.sum() >= 10
    assert (width[transfer] < before[transfer]).all()


def test_one_judge_ranks_too():
    _, result = world_fit(validators=1)
    table = result.rank_sets()
    assert len(table) == 8 and (table["low_rank"] >= 1).all()


def test_a_latent_trait_fit_ranks_from_its_bootstrap():
    world = transfer_world(
        "fixed", seed=1, n_generators=5, n_validators=4, n_items=300, n_annotated=5
    )
    cal = list(world.annotated[:3])
    anchors = Anchors.from_confusion(world.confusion, cal, precision=world.sample_precision[cal])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = LatentTraitModel(loss="likelihood", n_restarts=2).fit(
            world.counts.rates, world.counts.n_labelled, anchors=anchors
        )
        error = result.joint_error(n_boot=40, seed=1)
        board = result.leaderboard(n_boot=40, seed=1)
    assert error.draws.shape == (40, 5)
    assert "bootstrap" in error.covers
    assert list(board.table.columns)[:7] == [
        "estimate",
        "low",
        "high",
        "rank",
        "low_rank",
        "high_rank",
        "could_be_best",
    ]


def test_simulated_study_holds_its_level(benchmark):
    study_module = benchmark("ranking_study")
    study = study_module.simulated_ranking_study(
        16, n_generators=6, n_items=300, seed=5, progress=False
    )
    summary = study_module.summarise(study).iloc[0]
    assert summary["rank_cover"] >= 0.85
    assert summary["wrong_sign"] <= 1
    assert summary["rank_size"] <= summary["projection_size"] + 1e-9


def test_a_mix_of_calibration_partially_labelled_and_unlabelled_generators_ranks():
    judgments, human = load_agreeableness_judgments()
    calibration = ["claude_3_opus", "gpt-4-turbo", "gemini-1.5-pro"]
    own = human[human["generator"] == "gpt-4o"].sample(80, random_state=0)
    labels = pd.concat([human[human["generator"].isin(calibration)], own], ignore_index=True)
    result = TransferModel().fit_table(judgments, labels)
    board = result.leaderboard()
    assert board.table.loc["gpt-4o", "role"] == "partially labelled"
    assert set(board.table["role"]) == {"calibration", "partially labelled", "unlabelled"}
    error = result.joint_error()
    # the partially labelled row keeps its own interval's scale (a Wilson interval at n_eff)
    row = result.interval().loc["gpt-4o"]
    sd = np.sqrt(error.covariance.loc["gpt-4o", "gpt-4o"])
    assert 1.5 * sd < row["high"] - row["low"] < 6 * sd
    draws = error.draws[:, error.estimate.index.get_loc("gpt-4o")]
    # its draws have that scale (robustly: the part it takes from the transfer is a t with 2 df)
    assert np.median(np.abs(draws)) / stats.norm.ppf(0.75) == pytest.approx(sd, rel=0.3)
    # labelled against labelled: the 9-point gap between the calibration ends is decided
    pairs = board.pairs.set_index(["generator_a", "generator_b"])
    decided = pairs["decided"].get(("gpt-4-turbo", "claude_3_opus"))
    if decided is None:
        decided = {"a higher": "b higher", "b higher": "a higher"}.get(
            pairs.loc[("claude_3_opus", "gpt-4-turbo"), "decided"], "undecided"
        )
    assert decided == "b higher"


def test_a_rank_set_covers_tied_generators_only_when_it_holds_every_rank_they_share(
    benchmark,
):
    covers = benchmark("ranking_study").covers_ranks
    truth = pd.Series([0.9, 0.9, 0.9], index=["a", "b", "c"])  # all tied: each may be 1, 2 or 3
    meets = pd.DataFrame({"low_rank": [1, 2, 3], "high_rank": [1, 2, 3]}, index=truth.index)
    assert not covers(meets, truth)
    whole = pd.DataFrame({"low_rank": [1, 1, 1], "high_rank": [3, 3, 3]}, index=truth.index)
    assert covers(whole, truth)
    untied = pd.Series([0.9, 0.8, 0.7], index=truth.index)
    assert covers(meets, untied)
