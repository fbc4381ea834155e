"""ScoreModel: each generator's mean rating, prediction-powered, transported where unrated."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from regression.core.sampling import hajek_mean
from regression.errors import InputError
from regression.scores import ScoreModel, ScoreResult
from regression.scores.estimate import estimate_rated
from regression.scores.simulate import score_world


def _fit(world, **settings):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return ScoreModel(interval="normal", **settings).fit_table(
            world.scores, world.ratings, scale=world.scale
        )


@pytest.fixture(scope="module")
def world():
    return score_world(n_generators=4, n_items=60, n_rated=15, unrated=1, seed=2)


def test_lam_zero_is_the_ratings_weighted_mean_exactly():
    y = np.array([0.25, 1.0, 1.0, 0.5, 0.75])
    f = np.array([0.3, 0.9, 0.8, 0.6, 0.7])
    pi = np.array([0.5, 0.5, 0.25, 0.5, 1.0])
    fit = estimate_rated(y, f, np.r_[f, 0.2, 0.4], pi, judges=False)
    # exact: the same Hajek mean on the same input, by structure (no lam * f term at lam = 0)
    assert fit.lam == 0.0 and fit.estimate == hajek_mean(y, 1 / pi)


def test_a_constant_prediction_leaves_the_ratings_alone():
    y = np.array([0.25, 1.0, 1.0, 0.75])
    fit = estimate_rated(y, np.full(4, 0.7), np.full(12, 0.7), np.full(4, 1 / 3))
    # exact: lam set to 0 by the guard, then the same Hajek mean on the same weights
    assert fit.lam == 0.0 and fit.estimate == hajek_mean(y, np.full(4, 3.0))


def test_ratings_that_all_agree_give_lam_zero():
    fit = estimate_rated(np.ones(6), np.linspace(0.5, 1, 6), np.linspace(0, 1, 30), np.full(6, 0.2))
    assert fit.lam == 0.0 and fit.estimate == 1.0  # exact: the guard's 0; sum(w) / sum(w)


def test_a_fit_is_a_score_result_with_roles_and_the_scale(world):
    fit = _fit(world)
    assert isinstance(fit, ScoreResult)
    table = fit.interval()
    assert list(table.columns) == ["estimate", "low", "high", "method", "role", "n_labels"]
    assert table.loc["model-3", "role"] == "transported"
    assert table.loc["model-3", "method"] == "transported"
    assert set(table.loc[["model-0", "model-1", "model-2"], "method"]) == {"ppi++"}
    assert table["n_labels"].tolist() == [15, 15, 15, 0]
    assert ((table["low"] >= 1) & (table["high"] <= 5)).all()
    assert ((table["low"] <= table["estimate"]) & (table["estimate"] <= table["high"])).all()
    diagnostics = fit.diagnostics()
    assert set(diagnostics["carries_over"]) <= {"yes", "no", ""}
    assert diagnostics.loc["model-3", "carries_over"] == ""
    judges = fit.judges()
    assert (judges["weight"] >= 0).all() and judges.loc["noise", "weight"] < 0.1


def test_every_output_rated_gives_the_ratings_mean(world):
    ratings = world.all_ratings[world.all_ratings["generator"] != "model-3"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        fit = ScoreModel(interval="normal").fit_table(world.scores, ratings, scale=(1, 5))
    # pi = 1 everywhere: the prediction's mean cancels its Hajek mean over the same outputs
    # (to the rounding of two means of 60 values)
    mean = ratings.groupby("generator")["human"].mean()
    assert np.allclose(fit.estimate[mean.index], mean, rtol=0, atol=1e-12)
    assert fit.interval().loc["model-0", "role"] == "calibration"


def test_the_ratings_alone_ignore_the_judges(world):
    fit = _fit(world, judges=False)
    own = world.ratings.groupby("generator")["human"].mean()
    # uniform weights: the Hajek mean is the plain mean (to the rounding of a sum of 15 ratings)
    assert np.allclose(fit.estimate[own.index], own, rtol=0, atol=1e-12)
    assert fit.method == "labels_only" and (fit.diagnostics()["judges_worth"].dropna() == 0).all()


def test_the_transport_bound_is_learnt_from_the_held_out_generators(world):
    fit = _fit(world)
    errors = fit.held_out_errors().dropna()
    assert len(errors) == 3
    assert fit.transport_bound() >= errors.abs().max()
    low, high = fit.interval().loc["model-3", ["low", "high"]]
    assert high - low <= 2 * fit.transport_bound() + 1e-12  # clipped to the scale at most
    # exact: no bound: the interval is the scale's ends, set by construction
    assert _fit(world, transport_bias=None).interval().loc["model-3", ["low", "high"]].tolist() == [
        1.0,
        5.0,
    ]
    given = _fit(world, transport_bias=0.25).interval().loc["model-3"]
    assert given["high"] - given["low"] <= 0.5 + 1e-12


def test_comparisons_are_paired_on_shared_items(world):
    fit = _fit(world)
    joint = fit.joint_error()
    # the same items are rated for several generators here only by chance; the covariance of
    # two rated generators is non-zero exactly where they share a rated item
    shared = set(world.ratings.query("generator == 'model-0'")["item"]) & set(
        world.ratings.query("generator == 'model-1'")["item"]
    )
    assert (joint.covariance.loc["model-0", "model-1"] != 0) == bool(shared)
    assert len(fit.compare()) == 6 and set(fit.rank_sets().index) == set(fit.estimate.index)


def test_bad_settings_are_refused_by_name():
    with pytest.raises(InputError, match="interval"):
        ScoreModel(interval="wald").check_settings()
    with pytest.raises(InputError, match="transport_bias"):
        ScoreModel(transport_bias=-1.0).check_settings()


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10_000), st.sampled_from([(1, 5), (0, 1), (1, 10)]))
@example(5564, (1, 5))  # judges in another order once stacked to other weights
@example(2077, (1, 5))  # residuals 1e-10 apart around 1 once divided by zero in the skewed side
def test_estimates_lie_in_the_scale_inside_their_intervals_and_ignore_row_order(seed, scale):
    world = score_world(n_generators=3, n_items=25, n_rated=6, scale=scale, seed=seed)
    fit = _fit(world)
    table = fit.interval()
    low, high = scale
    for interval in (
        table,
        ScoreModel().fit_table(world.scores, world.ratings, scale=scale).interval(),
    ):
        assert ((interval["estimate"] >= low) & (interval["estimate"] <= high)).all()
        assert (
            (interval["low"] <= interval["estimate"]) & (interval["estimate"] <= interval["high"])
        ).all()
        assert ((interval["low"] >= low) & (interval["high"] <= high)).all()
    shuffled = type(world)(
        world.scores.sample(frac=1, random_state=seed).iloc[::-1],
        world.ratings.sample(frac=1, random_state=seed),
        world.all_ratings,
        world.truth,
        world.scale,
    )
    again = _fit(shuffled).interval().reindex(table.index)
    # the units are put in one order: the same arithmetic on the same numbers
    pd.testing.assert_frame_equal(again, table, rtol=0, atol=1e-12)


def test_the_registry_names_the_score_model_and_its_result():
    from regression.registry import BOUNDED_INTERVAL_METHODS, SCORE_ESTIMATORS

    entry = SCORE_ESTIMATORS["scores"]
    assert entry.load() is ScoreModel and entry.load_result() is ScoreResult
    assert entry.settings == ("interval", "judges", "transport_bias", "seed")
    assert ScoreModel().interval == BOUNDED_INTERVAL_METHODS[0] == "floored"
    params = ScoreModel(judges=False, transport_bias=0.3).get_params()
    assert ScoreModel().set_params(**params).get_params() == params


def test_a_monotone_rescaling_of_a_judge_changes_no_estimate(world):
    rescaled = world.scores.copy()
    reward = rescaled["validator"] == "reward"
    rescaled.loc[reward, "score"] = np.exp(rescaled.loc[reward, "score"])  # increasing
    again = type(world)(rescaled, world.ratings, world.all_ratings, world.truth, world.scale)
    # the calibration reads a judge's scores by position only: the same arithmetic after
    pd.testing.assert_frame_equal(
        _fit(again).interval(), _fit(world).interval(), rtol=0, atol=1e-12
    )


def test_ten_ratings_all_at_the_top_keep_a_betting_interval_below_the_top():
    world = score_world(n_generators=2, n_items=50, n_rated=10, pile=0.95, seed=4)
    ratings = world.ratings.assign(human=5.0)  # ten 5s: no spread to read a variance from
    fit = ScoreModel().fit_table(world.scores, ratings, scale=(1, 5))
    table = fit.interval()
    # exact: lam = 0 and the weighted mean of ones, sum(w) / sum(w) = 1, is 5 on the scale
    assert (table["estimate"] == 5.0).all()
    # exact: the interval's top is clipped to the scale's
    assert (table["low"] < 4.9).all() and (table["high"] == 5.0).all()
    # exact: ratings that all agree: lam set to 0 by the engine's guard
    assert (fit.diagnostics()["lam"] == 0.0).all()


def test_one_rated_generator_transports_without_a_bound_and_says_so():
    world = score_world(n_generators=3, n_items=40, n_rated=12, unrated=2, seed=6)
    fit = ScoreModel().fit_table(world.scores, world.ratings, scale=(1, 5))
    table = fit.interval()
    assert list(table["role"]) == ["partially labelled", "transported", "transported"]
    # exact: no held-out generator: the bound is infinite and the interval the scale's ends
    assert table.loc["model-1", ["low", "high"]].tolist() == [1.0, 5.0]
    assert set(fit.joint_error().reasons) == {"model-1", "model-2"}
    text = fit.summary().as_text()
    assert "No transport bound could be learnt: it needs two rated generators" in text
    assert "Transport bound: inf" not in text
    unbounded = ScoreModel(transport_bias=None).fit_table(world.scores, world.ratings, scale=(1, 5))
    assert "No transport bound (transport_bias=None)" in unbounded.summary().as_text()


def test_too_few_ratings_transport_the_generator_with_a_warning_kept_on_the_result():
    world = score_world(n_generators=3, n_items=40, n_rated=12, seed=6)
    ratings = world.ratings.drop(world.ratings.index[world.ratings["generator"] == "model-2"][2:])
    from regression.scores import FewRatingsWarning, ScaleWarning

    with pytest.warns(FewRatingsWarning, match="'model-2' has 2 rating"):
        with pytest.warns(ScaleWarning, match="not declared"):
            fit = ScoreModel().fit_table(world.scores, ratings)
    assert fit.interval().loc["model-2", "role"] == "transported"
    assert any("not declared" in w for w in fit.warnings)
    assert any("'model-2' has 2 rating" in w for w in fit.warnings)


def test_bad_tables_reach_the_caller_with_their_row_and_column():
    world = score_world(n_generators=2, n_items=20, n_rated=5, seed=0)
    ratings = world.ratings.astype({"human": object})
    ratings.loc[ratings.index[3], "human"] = 7
    with pytest.raises(InputError, match="human 7 at row 3, outside the rating scale") as caught:
        ScoreModel().fit_table(world.scores, ratings, scale=(1, 5))
    assert (caught.value.row, caught.value.column) == (3, "human")


def test_a_judge_lenient_to_one_generator_is_corrected_by_its_ratings_and_flagged():
    world = score_world(n_generators=4, n_items=200, n_rated=60, leniency=3.0, noise=0.3, seed=0)
    fit = ScoreModel(interval="normal").fit_table(world.scores, world.ratings, scale=(1, 5))
    diagnostics = fit.diagnostics()
    # the lenient judge lifts model-0's transported mean well past its truth; its own ratings
    # pull the prediction-powered estimate back (seeded world: the margins are several se)
    assert diagnostics.loc["model-0", "held_out_error"] > 0.2
    assert diagnostics.loc["model-0", "carries_over"] == "no"
    assert abs(fit.estimate["model-0"] - world.truth["model-0"]) < 0.1
    assert "does not carry over to model-0" in " ".join(fit.summary_notes(0.05))


def test_generators_named_by_numbers_and_too_few_ratings():
    world = score_world(n_generators=3, n_items=30, n_rated=8, unrated=1, seed=2)
    number = {"model-0": 10, "model-1": 20, "model-2": 30}
    scores = world.scores.assign(generator=world.scores["generator"].map(number))
    ratings = world.ratings.assign(generator=world.ratings["generator"].map(number))
    table = ScoreModel().fit_table(scores, ratings, scale=(1, 5)).interval()
    assert list(table.index) == [10, 20, 30] and table.loc[30, "role"] == "transported"
    with pytest.raises(InputError, match="1 rated output"):
        ScoreModel().fit_table(scores, ratings.iloc[:1], scale=(1, 5))
