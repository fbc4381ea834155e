"""Which outputs to rate and how many: the engine's draw on the predictor's residual spread."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from regression.core.sampling import BudgetWarning
from regression.scores.simulate import score_world
from regression.scores.suggest import plan_labels, predicted_width, suggest_labels


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
    pd.testing.assert_frame_equal(picks, again)


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
    assert np.all(np.diff(widths) < 0) and widths[-1] == 0.0


def test_the_plan_reaches_its_width_and_refuses_a_width_off_the_scale(world):
    plan = plan_labels(world.scores, world.ratings, 0.6, scale=(1, 5))
    assert list(plan.index) == ["model-0", "model-1", "model-2"]
    assert (plan["n_labels"] == 8).all()
    assert (plan["more_uniform"] == (plan["uniform"] - 8).clip(lower=0)).all()
    assert (plan[["uniform", "active"]] <= 40).all().all()
    with pytest.raises(ValueError, match=r"width must be in \(0, 4\)"):
        plan_labels(world.scores, world.ratings, 4.5, scale=(1, 5))
