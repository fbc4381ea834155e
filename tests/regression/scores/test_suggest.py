"""Which outputs to rate and how many: the engine's draw on the predictor's residual spread."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from regression import ScoreModel
from regression.core.sampling import BudgetWarning, design_probabilities
from regression.scores.estimate import cross_fitted_prediction
from regression.scores.simulate import score_world
from regression.scores.suggest import (
    ExtremeGaps,
    plan_labels,
    predicted_width,
    rating_spread,
    suggest_labels,
)
from regression.scores.table import check_scores


@pytest.fixture(scope="module")
def world():
    return score_world(n_generators=3, n_items=40, n_rated=8, seed=5)


def test_the_suggestion_is_the_budget_never_a_rated_output_and_seeded(world):
    picks = suggest_labels(world.scores, world.ratings, 20, scale=(1, 5), seed=3)
    assert len(picks) == 20 and not picks.duplicated(["generator", "item"]).any()
    rated = set(map(tuple, world.ratings[["generator", "item"]].to_numpy()))
    assert not rated & set(map(tuple, picks[["generator", "item"]].to_numpy()))
    assert picks["inclusion_probability"].between(0, 1, inclusive="right").all()
    again = suggest_labels(world.scores, world.ratings, 20, scale=(1, 5), seed=3)
    pd.testing.assert_frame_equal(picks, again, check_exact=True)  # exact: one seed, one path


def test_a_budget_past_the_unrated_outputs_suggests_them_all_with_a_warning(world):
    with pytest.warns(BudgetWarning, match="more than the 96 unrated outputs"):
        picks = suggest_labels(world.scores, world.ratings, 500, scale=(1, 5), seed=0)
    assert len(picks) == 96


def test_without_ratings_the_draw_is_uniform_and_needs_the_scale(world):
    picks = suggest_labels(world.scores, None, 9, scale=(1, 5), seed=0)
    # every output predicts the middle: one probability per generator, its n / N
    share = picks.groupby("generator")["inclusion_probability"]
    assert (share.nunique() == 1).all()
    # n / 40 times 40, to the rounding of one division and one product
    assert np.allclose(share.first() * 40, share.size(), rtol=0, atol=1e-12)
    with pytest.raises(ValueError, match="declare the rating scale"):
        suggest_labels(world.scores, None, 9)


def test_the_planned_width_falls_with_the_ratings_to_zero_when_all_are_rated():
    f = np.linspace(0.2, 0.9, 50)
    widths = predicted_width(f, 0.4, np.arange(0, 51, 10))
    # exact: every output rated (pi = 1) gives design weights (1 - 1) / 1 = 0
    assert np.all(np.diff(widths) < 0) and widths[-1] == 0.0


def test_the_plan_reaches_its_width_and_refuses_a_width_off_the_scale(world):
    plan = plan_labels(world.scores, world.ratings, 0.6, scale=(1, 5))
    assert list(plan.index) == ["model-0", "model-1", "model-2"]
    assert (plan["n_labels"] == 8).all()
    assert (plan["more_uniform"] == (plan["uniform"] - 8).clip(lower=0)).all()  # exact: counts
    # a generator already narrow enough needs what it holds
    assert (plan.loc[plan["width_now"] <= 0.6, "uniform"] == 8).all()  # exact: counts
    assert (plan[["uniform", "active"]] <= 40).all().all()
    with pytest.raises(ValueError, match=r"width must be in \(0, 4\)"):
        plan_labels(world.scores, world.ratings, 4.5, scale=(1, 5))


def test_the_width_now_is_the_interval_the_fit_shows_and_a_narrow_one_needs_nothing(world):
    shown = ScoreModel().fit_table(world.scores, world.ratings, scale=(1, 5)).interval()
    widths = (shown["high"] - shown["low"]).loc[["model-0", "model-1", "model-2"]]
    plan = plan_labels(world.scores, world.ratings, float(widths.max()) + 0.01, scale=(1, 5))
    assert np.allclose(plan["width_now"], widths, rtol=1e-12)
    assert (plan[["more_uniform", "more_active"]] == 0).all().all()  # exact: counts
    # needed in all: the ratings held, nothing more
    assert (plan[["uniform", "active"]] == 8).all().all()  # exact: counts
    narrower = plan_labels(world.scores, world.ratings, float(widths.min()) / 2, scale=(1, 5))
    assert (narrower["more_uniform"] > 0).all()


@pytest.mark.parametrize("design", ["uniform", "active"])
@pytest.mark.parametrize("lam", [0.0, 1.0])
def test_the_expected_gaps_are_those_of_drawn_samples(design, lam):
    # the plan's closed form against samples drawn from its own model: beta ratings of mean f
    # and variance k f (1 - f), each output drawn with its probability
    rng = np.random.default_rng(11)
    f, k = rng.uniform(0.3, 0.95, 300), 0.3
    pi = design_probabilities(f, 15, design)
    below, above = ExtremeGaps(f, k, np.array([lam])).expected(pi)
    size = 1 / k - 1
    ratings = rng.beta(f * size, (1 - f) * size, (4000, f.size))
    residual = np.where(rng.random((4000, f.size)) < pi, ratings - lam * f, np.nan)
    drawn_below = np.nanmin(residual, axis=1) + lam * f.max()
    drawn_above = 1 - lam * f.min() - np.nanmax(residual, axis=1)
    assert below[0] == pytest.approx(drawn_below.mean(), rel=0.03)
    assert above[0] == pytest.approx(drawn_above.mean(), rel=0.03)


def test_ratings_at_both_ends_leave_no_gap_and_agreeing_ones_leave_it_whole():
    f = np.full(200, 0.5)
    spread, _ = ExtremeGaps(f, 1.0, np.array([0.0])).expected(np.full(200, 0.2))
    agreeing, _ = ExtremeGaps(f, 1e-6, np.array([0.0])).expected(np.full(200, 0.2))
    # 40 two-valued ratings miss the bottom with chance 2^-40; ratings that all read the middle
    # leave the middle to the bottom
    assert spread[0] < 1e-3 and agreeing[0] == pytest.approx(0.5, abs=0.01)


def test_the_planned_width_is_the_default_intervals_on_a_simulated_world():
    world = score_world(n_generators=4, n_items=300, n_rated=20, seed=2, pile=0.3)
    scale = (1.0, 5.0)
    table = check_scores(world.scores, world.ratings, scale)
    f = cross_fitted_prediction(table)
    k = rating_spread(table, f)
    codes = table.generator_codes
    rng = np.random.default_rng(4)
    ratings = world.all_ratings
    for n in (10, 40):
        planned = np.mean([predicted_width(f[codes == g], k, n)[0] * 4 for g in range(4)])
        widths = []
        for _ in range(8):
            picks = ratings.groupby("generator").sample(n, random_state=rng)
            fit = ScoreModel().fit_table(world.scores, picks, scale=scale)
            widths.append((fit.interval()["high"] - fit.interval()["low"]).mean())
        assert planned == pytest.approx(np.mean(widths), rel=0.2), n
