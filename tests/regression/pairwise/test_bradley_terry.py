"""Bradley-Terry-Davidson strengths: reference values against a direct minimisation of
Davidson's likelihood, the limiting cases, the loss's derivatives, invariances, the result
contract, bad input and a Monte Carlo check of coverage per generator."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.optimize import approx_fprime, check_grad, minimize

from regression.errors import ConvergenceWarning, UnidentifiedWarning
from regression.pairwise import (
    FewVotesWarning,
    PairwiseModel,
    PairwiseStrengths,
    PairwiseTable,
    bradley_terry,
    check_pairwise,
)
from regression.pairwise.davidson import (
    SPARSE_STRENGTH_VOTES,
    DavidsonLoss,
    GeneratorPairs,
    davidson_probabilities,
    identified_strengths,
)
from regression.results import INTERVAL_COLUMNS, JointError, Result

World = Callable[..., Any]  # the fixtures of conftest.py
SampleVotes = Callable[[PairwiseTable, int, int], PairwiseTable]
FLIP = {"a": "b", "b": "a", "tie": "tie"}


def davidson_mle(
    table_a: np.ndarray, table_b: np.ndarray, score: np.ndarray, weight: np.ndarray, n_gen: int
) -> tuple[np.ndarray, float]:
    """The weighted Davidson MLE by a generic minimisation of the likelihood as Davidson (1970)
    writes it, P(i > j) = pi_i / (pi_i + pi_j + nu sqrt(pi_i pi_j)), with log pi
    centred to sum to zero (G - 1 free strengths) and log nu free."""

    def nll(x: np.ndarray) -> float:
        log_pi = np.append(x[: n_gen - 1], -x[: n_gen - 1].sum())
        pi_a, pi_b, nu = np.exp(log_pi[table_a]), np.exp(log_pi[table_b]), np.exp(x[-1])
        tie = nu * np.sqrt(pi_a * pi_b)
        p = np.select(
            [score == 1.0, score == 0.0],  # exact: lam 0 by construction; scores are 0, 0.5 or 1
            [pi_a, pi_b],
            tie,
        ) / (pi_a + pi_b + tie)
        return float(-np.sum(weight * np.log(p)))

    fit = minimize(nll, np.zeros(n_gen), method="BFGS", options={"gtol": 1e-9})
    return np.append(fit.x[: n_gen - 1], -fit.x[: n_gen - 1].sum()), float(np.exp(fit.x[-1]))


def humans_own(table_frame: pd.DataFrame, fit: PairwiseStrengths, weight: np.ndarray | None):
    table = fit.table
    voted = table.human_row >= 0
    w = np.ones(voted.sum()) if weight is None else weight
    return davidson_mle(
        table.battle_a[voted], table.battle_b[voted], table.human[voted], w, len(table.generators)
    )


@pytest.mark.parametrize("judges", [True, False])
def test_every_battle_voted_gives_the_humans_own_davidson_mle(judges: bool, world: World) -> None:
    verdicts, human, _ = world(0, n_battles=200, n_votes=200)
    fit = PairwiseModel(estimand="bradley_terry", judges=judges).fit_table(verdicts, human)
    beta, nu = humans_own(human, fit, None)
    np.testing.assert_allclose(fit.estimate, beta, atol=1e-5)  # BFGS's tolerance on 200 votes
    assert fit.tie_parameter == pytest.approx(nu, rel=1e-4)
    assert abs(fit.estimate.sum()) < 1e-9  # centred
    np.testing.assert_allclose(fit.se, 0.0, atol=1e-12)  # the whole table is known


@pytest.mark.float_sensitive  # an optimiser's stop against hand-checked figures to 1e-5
def test_a_hand_checked_table() -> None:
    """x beats y once and loses once, beats z once and ties once; y and z split two. By symmetry
    beta_y = 0 and beta_x = -beta_z; the likelihood's stationary point is beta_x = 0.4155,
    nu = 0.4172 (the direct minimisation below agrees to 1e-5)."""
    verdicts = pd.DataFrame({"item": range(6), "generator_a": ["x", "y", "x"] * 2,
                             "generator_b": ["y", "z", "z"] * 2, "validator": "j",
                             "verdict": ["a", "a", "a", "a", "b", "tie"]})  # fmt: skip
    human = verdicts[["item", "generator_a", "generator_b"]].assign(
        human=["a", "b", "tie", "b", "a", "a"]
    )
    fit = bradley_terry(check_pairwise(verdicts, human))
    np.testing.assert_allclose(fit.estimate, [0.41554, 0.0, -0.41554], atol=1e-5)
    assert fit.tie_parameter == pytest.approx(0.41715, abs=1e-5)
    beta, nu = humans_own(human, fit, None)
    np.testing.assert_allclose(fit.estimate, beta, atol=1e-5)


def test_weighted_votes_alone_are_the_weighted_mle(world: World) -> None:
    verdicts, human, _ = world(3, n_battles=400, n_votes=200)
    rng = np.random.default_rng(0)
    human = human.assign(inclusion_probability=rng.uniform(0.2, 0.9, len(human)))
    fit = PairwiseModel(estimand="bradley_terry", judges=False).fit_table(verdicts, human)
    weight = 1.0 / human["inclusion_probability"].to_numpy()
    order = fit.table.human_row[fit.table.human_row >= 0]  # the votes in battle order
    beta, nu = humans_own(human, fit, weight[order])
    np.testing.assert_allclose(fit.estimate, beta, atol=1e-5)
    assert fit.tie_parameter == pytest.approx(nu, rel=1e-4)
    assert (
        fit.method == "labels_only"
        and fit.lam.eq(0).all()  # exact: lam 0 by construction; scores are 0, 0.5 or 1
    )


def test_the_loss_has_its_exact_gradient_and_hessian() -> None:
    rng = np.random.default_rng(1)
    a = rng.integers(0, 5, 40)
    b = (a + 1 + rng.integers(0, 4, 40)) % 5
    loss = DavidsonLoss(GeneratorPairs(a, b, 5), rng.uniform(0, 1, 40), rng.normal(0, 0.3, 40),
                        rng.uniform(0, 0.4, 40))  # fmt: skip
    for theta in rng.normal(0, 1, (5, 6)):
        assert check_grad(lambda x: loss(x)[0], lambda x: loss(x)[1], theta) < 1e-5
        numeric = np.array([approx_fprime(theta, lambda x, i=i: loss(x)[1][i], 1e-7)
                            for i in range(6)])  # fmt: skip
        np.testing.assert_allclose(loss.hessian(theta), numeric, atol=1e-5)
    # Davidson's three probabilities sum to 1; equal strengths tie with probability nu / (2 + nu)
    win, tie, lose = davidson_probabilities(np.linspace(-3, 3, 7), np.log(0.5))
    np.testing.assert_allclose(win + tie + lose, 1.0)
    assert tie[3] == pytest.approx(0.5 / 2.5)


def test_judges_that_guess_cost_nothing_and_useful_ones_narrow_the_intervals(world: World) -> None:
    verdicts, human, _ = world(4, accuracy=(0.0, 0.0, 0.0))
    guessing = PairwiseModel(estimand="bradley_terry").fit_table(verdicts, human)
    assert guessing.method == "ppi++" and guessing.lam.iloc[0] < 0.2
    assert (guessing.se <= 1.02 * guessing.se_labels_only).all()
    verdicts, human, _ = world(4, accuracy=(0.9, 0.85, 0.8), first_bias=(0.0, 0.1, 0.0))
    useful = PairwiseModel(estimand="bradley_terry").fit_table(verdicts, human)
    assert useful.lam.iloc[0] > 0.5 and (useful.se < 0.8 * useful.se_labels_only).all()
    assert useful.total_worth() > 0.5 * useful.table.n_labels
    assert "The judges are worth about" in useful.summary().as_text()


def test_the_result_keeps_the_contract_and_ranks(world: World) -> None:
    verdicts, human, _ = world(5)
    fit = PairwiseModel(estimand="bradley_terry").fit_table(verdicts, human)
    assert isinstance(fit, Result) and isinstance(fit, PairwiseStrengths)
    interval = fit.interval(0.1)
    assert list(interval.columns) == [*INTERVAL_COLUMNS, "n_labels"]
    assert (interval["low"] < interval["estimate"]).all()
    assert (interval["estimate"] < interval["high"]).all()
    assert (interval["low"] < 0).any()  # log-strengths: not clipped to [0, 1]
    assert list(fit.to_frame().columns) == [
        *INTERVAL_COLUMNS, "n_labels", "se", "n_battles", "lam", "judges_worth", "reason",
    ]  # fmt: skip
    joint = fit.joint_error()
    assert isinstance(joint, JointError)
    # the strengths sum to zero, so does their error: the covariance's rows sum to zero
    np.testing.assert_allclose(joint.covariance.sum(axis=1), 0.0, atol=1e-12)
    text = fit.summary().as_text()
    assert "Bradley-Terry strengths" in text and "centred to sum to zero" in text
    board = fit.leaderboard()
    assert list(board.table.index) == list(fit.estimate.sort_values(ascending=False).index)
    assert list(fit.diagnostics().index) == ["j0", "j1", "j2", "human voters"]


def test_the_elo_scale_is_the_strengths_in_arena_points(world: World) -> None:
    verdicts, human, _ = world(10)
    fit = PairwiseModel(estimand="bradley_terry").fit_table(verdicts, human)
    elo, interval = fit.elo(0.1, centre=1500), fit.interval(0.1)
    for column in ("estimate", "low", "high"):
        np.testing.assert_allclose(elo[column], 1500 + 400 / np.log(10) * interval[column])
    # 400 points apart: odds of 10 to 1 in Davidson's model, ties aside
    win, _, loss = davidson_probabilities(np.array([np.log(10.0)]), 0.0)  # 400 points
    assert win[0] / loss[0] == pytest.approx(10.0)
    assert elo["estimate"].mean() == pytest.approx(1500)  # the strengths sum to zero


def test_no_human_votes_give_the_judges_own_strengths_with_a_warning(world: World) -> None:
    verdicts, _, _ = world(6, n_battles=400)
    with pytest.warns(FewVotesWarning, match="no human votes"):
        fit = PairwiseModel(estimand="bradley_terry").fit_table(verdicts)
    assert fit.method == "mean_of_judges"
    assert fit.interval()[["low", "high"]].isna().all().all()
    assert np.isfinite(fit.estimate).all() and abs(fit.estimate.sum()) < 1e-9
    with pytest.raises(ValueError, match="'mean_of_judges'"):
        fit.leaderboard()


def test_a_generator_that_won_every_vote_is_not_identified(world: World) -> None:
    """Its strength runs off to infinity (before: to -372,369 with a ConvergenceWarning, the
    others moving with it through the centre): now it gets no estimate and a reason, one
    warning names it, the solver converges, and the others are the fit without it, centred
    over themselves."""
    verdicts, human, _ = world(7, n_battles=300, n_votes=120)
    top = human["generator_a"].iloc[0]
    human = human.assign(
        human=np.where(human["generator_a"] == top, "a",
                       np.where(human["generator_b"] == top, "b", human["human"]))
    )  # fmt: skip
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        fit = PairwiseModel(estimand="bradley_terry", judges=False).fit_table(verdicts, human)
    assert not [w for w in caught if w.category is ConvergenceWarning]
    named = [str(w.message) for w in caught if w.category is UnidentifiedWarning]
    assert len(named) == 1 and f"{top!r}: every vote places it above" in named[0]
    assert np.isnan(fit.estimate[top]) and fit.reasons[top].startswith("every vote places it")
    others = fit.estimate.drop(top)
    assert np.isfinite(others).all() and abs(others.sum()) < 1e-9  # centred over the others
    without = human[(human["generator_a"] != top) & (human["generator_b"] != top)]
    keep = (verdicts["generator_a"] != top) & (verdicts["generator_b"] != top)
    alone = PairwiseModel(estimand="bradley_terry", judges=False).fit_table(
        verdicts[keep], without.assign(inclusion_probability=len(human) / 300)
    )
    # the same Davidson objective minimised twice to gtol 1e-10: the optimiser's tolerance
    np.testing.assert_allclose(others, alone.estimate.reindex(others.index), atol=1e-6)
    assert np.isfinite(fit.interval()["low"].drop(top)).all()


def test_an_estimand_outside_the_set_is_named(world: World) -> None:
    verdicts, human, _ = world(8, n_battles=100, n_votes=20)
    with pytest.raises(
        ValueError,
        match="estimand \\('elo'\\) not recognized; must be one of 'win_rate', 'bradley_terry'",
    ):
        PairwiseModel(estimand="elo").fit_table(verdicts, human)


def mirror(verdicts: pd.DataFrame, human: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Every pair listed the other way round, its verdicts and positions flipped."""
    return (
        verdicts.assign(
            generator_a=verdicts["generator_b"], generator_b=verdicts["generator_a"],
            verdict=verdicts["verdict"].map(FLIP),
            position=verdicts["position"].map({"ab": "ba", "ba": "ab"}),
        ),
        human.assign(
            generator_a=human["generator_b"], generator_b=human["generator_a"],
            human=human["human"].map(FLIP),
        ),
    )  # fmt: skip


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 10_000), n_votes=st.integers(60, 200), order=st.permutations(range(6)))
def test_mirroring_or_relabelling_the_table_gives_the_same_strengths(
    seed: int, n_votes: int, order: list[int], world: World
) -> None:
    verdicts, human, _ = world(seed, n_battles=200, n_votes=n_votes)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FewVotesWarning)
        model = PairwiseModel(estimand="bradley_terry", seed=seed)
        fit = model.fit_table(verdicts, human)
        mirrored = model.fit_table(*mirror(verdicts, human))
        names = {f"g{g}": f"h{order[g]}" for g in range(6)}
        renamed = model.fit_table(
            verdicts.replace({"generator_a": names, "generator_b": names}),
            human.replace({"generator_a": names, "generator_b": names}),
        )
    np.testing.assert_allclose(mirrored.estimate.reindex(fit.estimate.index), fit.estimate,
                               atol=1e-7)  # fmt: skip
    np.testing.assert_allclose(renamed.estimate.rename(lambda h: f"g{order.index(int(h[1]))}")
                               .reindex(fit.estimate.index), fit.estimate, atol=1e-7)  # fmt: skip
    assert mirrored.lam.iloc[0] == pytest.approx(fit.lam.iloc[0], abs=1e-7)


def test_coverage_per_generator(world: World, sample_votes: SampleVotes) -> None:
    """20 worlds; each generator's 95 % interval covers its strength in the Davidson fit to the
    human votes on every battle, at least 93 % minus 3 Monte Carlo standard errors of the time
    (docs/pairwise.md gives the same check over 300 worlds)."""
    n_worlds, alpha = 20, 0.05
    hits = []
    with warnings.catch_warnings():
        warnings.simplefilter("error", FewVotesWarning)
        # no generator may lose its estimate; the strengths may set the judges aside (a
        # generator may have fewer than 20 votes here), and this test measures what it is about
        warnings.filterwarnings(
            "ignore", "the strengths are the human votes' alone", FewVotesWarning
        )
        for seed in range(n_worlds):
            full = check_pairwise(*world(3000 + seed, n_battles=240, n_votes=240)[:2])
            true = bradley_terry(full, judges=False).estimate
            fit = bradley_terry(sample_votes(full, 100, seed), seed=seed)
            interval = fit.interval(alpha).reindex(true.index)
            hits.append(((interval["low"] <= true) & (true <= interval["high"])).to_numpy())
    floor = 0.93 - 3 * np.sqrt(alpha * (1 - alpha) / n_worlds)
    assert np.mean(hits, axis=0).min() >= floor, np.mean(hits, axis=0)


def test_fewer_votes_than_parameters_give_no_interval(world: World) -> None:
    """Five votes on four generators: three or more for two of them, but too few in all for the
    four parameters (three strengths and nu); no generator gets an estimate, each is named (the
    fit may also say the strengths are not identified)."""
    verdicts = pd.DataFrame({"item": range(12), "generator_a": ["x", "y", "x", "w"] * 3,
                             "generator_b": ["y", "z", "z", "x"] * 3, "validator": "j",
                             "verdict": ["a", "b", "tie", "a"] * 3})  # fmt: skip
    human = (
        verdicts[["item", "generator_a", "generator_b"]]
        .iloc[:5]
        .assign(human=["a", "b", "tie", "b", "b"])
    )
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        fit = PairwiseModel(estimand="bradley_terry").fit_table(verdicts, human)
    few = [str(w.message) for w in caught if w.category is FewVotesWarning]
    # one for each of the four generators, and the judges set aside on so sparse a board
    assert few == list(fit.warnings) and len(few) == 5
    assert "the strengths are the human votes' alone" in few[0]
    assert "'x' has 4 human vote(s): too few for an interval of this model" in few[1]
    assert fit.estimate.isna().all()


def _votes(pairs: list[tuple[str, str, str]]) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Verdicts (one judge agreeing) and human votes on battles ``(a, b, vote)``, one item each."""
    verdicts = pd.DataFrame(
        {"item": range(len(pairs)), "generator_a": [a for a, _, _ in pairs],
         "generator_b": [b for _, b, _ in pairs], "validator": "j",
         "verdict": [v for _, _, v in pairs]}
    )  # fmt: skip
    human = verdicts[["item", "generator_a", "generator_b"]].assign(human=verdicts["verdict"])
    return verdicts, human


def test_the_largest_strongly_connected_group_is_kept_and_the_others_are_placed() -> None:
    """x, y, z beat each other in a cycle (each pair both ways); w lost every battle; u and v split
    two battles between themselves and met no one else. Kept: x, y, z (the largest group); w is
    below them, u and v apart from them."""
    cycle = [("x", "y", "a"), ("y", "x", "a"), ("y", "z", "a"), ("z", "y", "a"),
             ("x", "z", "a"), ("z", "x", "a")]  # fmt: skip
    verdicts, human = _votes(
        cycle * 2 + [("x", "w", "a"), ("w", "y", "b"), ("z", "w", "a"), ("u", "v", "a"),
                     ("u", "v", "b"), ("v", "u", "tie")]
    )  # fmt: skip
    table = check_pairwise(verdicts, human)
    identified, reasons = identified_strengths(table)
    names = dict(zip(table.generators, identified, strict=True))
    assert names == {"x": True, "y": True, "z": True, "w": False, "u": False, "v": False}
    by_name = {table.generators[g]: why for g, why in reasons.items()}
    assert by_name["w"] == "every vote places it below the generators estimated"
    assert by_name["u"] == by_name["v"] == "no vote connects it to the generators estimated"
    with pytest.warns(UnidentifiedWarning, match="'w': every vote places it below"):
        fit = PairwiseModel(estimand="bradley_terry", judges=False).fit_table(verdicts, human)
    assert fit.estimate[["w", "u", "v"]].isna().all()
    # x, y, z each won as often as they lost against the others: equal, centred at exactly 0 up
    # to the solver's tolerance (gtol 1e-10)
    np.testing.assert_allclose(fit.estimate[["x", "y", "z"]], 0.0, atol=1e-8)


def test_a_tie_places_a_generator_both_ways() -> None:
    """w lost to x and tied y: the tie bounds its strength both ways, so it is identified."""
    verdicts, human = _votes(
        [("x", "y", "a"), ("y", "x", "a"), ("x", "w", "a"), ("w", "y", "tie")] * 2
    )
    identified, reasons = identified_strengths(check_pairwise(verdicts, human))
    assert identified.all() and reasons == {}


def test_sparse_strengths_set_the_judges_aside(world: World, sample_votes: SampleVotes) -> None:
    """Under SPARSE_STRENGTH_VOTES votes for some generator of a sampled board, the strengths are
    the votes' alone, as judges=False gives them, and the fit says so (a FewVotesWarning, kept
    in the result's warnings); every battle voted, or enough votes, and the judges keep their
    weight."""
    full = check_pairwise(*world(3000, n_battles=240, n_votes=240)[:2])
    sparse = sample_votes(full, 40, 0)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        fit = bradley_terry(sparse, seed=0)
        alone = bradley_terry(sparse, judges=False, seed=0)
        census = bradley_terry(full, seed=0)
        ample = bradley_terry(sample_votes(full, 200, 0), seed=0)
    said = [str(w.message) for w in caught if "the human votes' alone" in str(w.message)]
    assert fit.n_labels.min() < SPARSE_STRENGTH_VOTES
    assert len(said) == 1 and said[0] in fit.warnings
    assert fit.method == "labels_only" and (fit.lam == 0).all()  # exact: set, not fitted
    # the same objective and solver as judges=False: equal to the solver's tolerance
    np.testing.assert_allclose(fit.estimate, alone.estimate, atol=1e-8)
    assert ample.n_labels.min() >= SPARSE_STRENGTH_VOTES and ample.lam.iloc[0] > 0
    assert not any("alone" in w for w in (*alone.warnings, *census.warnings, *ample.warnings))
