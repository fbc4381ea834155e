"""The torch backend matches scipy (regression._latent_torch)."""

import warnings

import numpy as np
import pytest

from jurycal.datasets import load_agreeableness_judgments
from regression import Anchors, LatentTraitModel, simulate_latent_world


def _both(fit):
    results = {}
    for backend in ("scipy", "torch"):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            results[backend] = fit(LatentTraitModel(n_restarts=3, backend=backend))
    return results["scipy"], results["torch"]


def test_torch_matches_scipy_on_the_real_votes():
    judgments, human = load_agreeableness_judgments()
    scipy_fit, torch_fit = _both(
        lambda m: m.fit_table(judgments, human, ["gpt-4o", "gpt-4-turbo", "deepseek-chat"])
    )
    np.testing.assert_allclose(torch_fit.theta, scipy_fit.theta, atol=1e-4)
    assert torch_fit.loss == pytest.approx(scipy_fit.loss, rel=1e-9)
    assert torch_fit.converged and torch_fit.n_restarts_converged_to_best == 3


@pytest.mark.parametrize("observed", [1.0, 0.4])
def test_torch_matches_scipy_on_simulated_worlds(observed):
    world = simulate_latent_world(20, 12, 800, observed=observed, seed=5)
    cal = list(world.annotated[:2])
    anchors = Anchors.from_confusion(world.confusion, cal, precision=world.sample_precision[cal])
    scipy_fit, torch_fit = _both(lambda m: m.fit(world.counts, anchors=anchors))
    np.testing.assert_allclose(torch_fit.theta, scipy_fit.theta, atol=1e-4)


def test_a_batch_needs_shared_cells():
    from regression._latent_torch import solve_batch

    a = simulate_latent_world(5, 4, 100, n_annotated=0, seed=1)
    b = simulate_latent_world(6, 4, 100, n_annotated=0, seed=1)
    model = LatentTraitModel()
    datas = [
        model._data(w.counts.rates, w.counts.n_labeled.astype(float), Anchors()) for w in (a, b)
    ]
    with pytest.raises(ValueError, match="same observed cells"):
        solve_batch(
            datas,
            np.full((2, 13), 0.5),
            loss="likelihood",
            lambdas=(2, 1, 10),
            bounds=model.bounds,
            ftol=1e-9,
            gtol=1e-6,
            max_iter=10,
        )
