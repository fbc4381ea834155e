"""The torch backend matches scipy (regression.latent.torch_backend, torch_batch)."""

import warnings
from dataclasses import replace

import numpy as np
import pytest

from regression import Anchors, LatentTraitModel
from regression.datasets import (
    ANNOTATED_GENERATORS,
    load_agreeableness_judgments,
    load_confusion,
    load_human_precision,
    load_validator_rates,
)
from regression.simulate import simulate_latent_world


def _both(fit):
    results = {}
    for backend in ("scipy", "torch"):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            results[backend] = fit(
                LatentTraitModel(loss="likelihood", n_restarts=3, backend=backend)
            )
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


@pytest.mark.float_sensitive
@pytest.mark.slow  # stays: 12 paper-loss fits, the one check of torch's L-BFGS on the RMSE kink
def test_torch_paper_loss_stops_near_scipy_on_the_paper_matrix():
    """The paper loss's estimate is where the optimiser stops on its RMSE kink, so the backends
    cannot agree to 1e-4; the torch L-BFGS must stop as low and about as near as L-BFGS-B does.
    With a backtracking-only line search it stalled on a higher loss (+11 % with gpt-4-turbo as
    the calibration generator) up to 0.63 away; lengthening steps that fail the curvature
    condition brings it within 0.075 on every calibration subset of size 1.

    Why 0.075 and not less: both backends start from the same points (same seed, same jitter),
    yet where each stops on the kink moves with the jitter. With claude_3_opus as the
    calibration generator, scipy's own estimate moves by 0.028-0.060 between jitter seeds 0, 1
    and 2, and the backends differ by 0.044-0.070 over the same seeds, torch at the lower loss
    every time (measured with scipy 1.17.1 / torch 2.13 CPU). The bound is that seed spread of
    the estimator itself plus 0.015, and it holds under every OpenBLAS kernel `.ci/blas-check`
    runs; the last assertion checks that the spread is still there.
    """
    rates = load_validator_rates("none")
    truth = load_human_precision()
    fits = {}
    for generator in ANNOTATED_GENERATORS:
        anchors = Anchors.from_confusion(
            load_confusion("none"), [generator], precision=truth[[generator]]
        )
        fits[generator] = {
            backend: LatentTraitModel(loss="paper", backend=backend).fit(rates, anchors=anchors)
            for backend in ("scipy", "torch")
        }
        by = fits[generator]
        gap = (by["torch"].precision - by["scipy"].precision).abs().max()
        assert gap < 0.075, generator
        assert by["torch"].loss <= by["scipy"].loss * 1.01, generator
    generator = "claude_3_opus"
    anchors = Anchors.from_confusion(
        load_confusion("none"), [generator], precision=truth[[generator]]
    )
    other_seed = LatentTraitModel(loss="paper", seed=2).fit(rates, anchors=anchors)
    spread = (other_seed.precision - fits[generator]["scipy"].precision).abs().max()
    # scipy against itself from another jitter: the kink's own spread, far above the optimiser's
    # tolerance. Its size moves with the BLAS kernel (0.031 with OPENBLAS_CORETYPE=Prescott,
    # 0.04-0.06 with Haswell), so only its presence is asserted.
    assert spread > 0.01


def test_a_batch_needs_shared_cells():
    from regression.latent.torch_backend import solve_batch

    a = simulate_latent_world(5, 4, 100, n_annotated=0, seed=1)
    b = simulate_latent_world(6, 4, 100, n_annotated=0, seed=1)
    model = LatentTraitModel(loss="likelihood")
    datas = [
        model.data(w.counts.rates, w.counts.n_labelled.astype(float), Anchors()) for w in (a, b)
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


def _dense_hessian(hessian, n_gen, n_val):
    """The block form of regression.latent.torch_batch.Hessian as a full matrix (problem 0)."""
    dim = n_gen + 2 * n_val
    full = np.zeros((dim, dim))
    full[np.arange(n_gen), np.arange(n_gen)] = hessian.g[0].numpy()
    t = n_gen + np.arange(n_val)
    u = t + n_val
    full[t, t] = hessian.tt[0].numpy()
    full[u, u] = hessian.uu[0].numpy()
    full[t, u] = full[u, t] = hessian.tu[0].numpy()
    full[:n_gen, n_gen:] = hessian.coupling[0].numpy()
    full[n_gen:, :n_gen] = hessian.coupling[0].numpy().T
    return full


@pytest.mark.parametrize("observed", [1.0, 0.5])
def test_likelihood_hessian_is_the_derivative_of_the_gradient(observed):
    """The Newton solver's Hessian against central differences of the numpy gradient."""
    import torch

    from regression.latent.losses import likelihood_loss
    from regression.latent.torch_batch import Batch

    world = simulate_latent_world(7, 5, 300, observed=observed, seed=3)
    cal = list(world.annotated[:2])
    anchors = Anchors.from_confusion(world.confusion, cal, precision=world.sample_precision[cal])
    data = LatentTraitModel(loss="likelihood").data(
        world.counts.rates, world.counts.n_labelled.astype(float), anchors
    )
    theta = np.random.default_rng(0).uniform(0.2, 0.9, data.n_params)
    hessian = Batch([data]).likelihood_hessian(torch.as_tensor(theta[None, :]))
    step = 1e-6
    numeric = np.empty((data.n_params, data.n_params))
    for k in range(data.n_params):
        shift = np.zeros(data.n_params)
        shift[k] = step
        numeric[:, k] = (
            likelihood_loss(theta + shift, data)[1] - likelihood_loss(theta - shift, data)[1]
        ) / (2 * step)
    exact = _dense_hessian(hessian, data.n_gen, data.n_val)
    np.testing.assert_allclose(exact, numeric, atol=1e-6 * np.abs(numeric).max())


def test_fisher_information_is_the_hessian_where_the_counts_equal_their_expectation():
    """With k = n P_hat (and anchor hits = m q) the observed information is the expected one."""
    import torch

    from regression.latent.losses import predicted_rates, split_theta
    from regression.latent.torch_batch import Batch

    world = simulate_latent_world(6, 4, 200, seed=2)
    cal = list(world.annotated[:2])
    anchors = Anchors.from_confusion(world.confusion, cal, precision=world.sample_precision[cal])
    data = LatentTraitModel(loss="likelihood").data(
        world.counts.rates, world.counts.n_labelled.astype(float), anchors
    )
    theta = np.random.default_rng(1).uniform(0.2, 0.9, data.n_params)
    g, tpr, tnr = split_theta(theta, data.n_gen)
    exact_data = replace(
        data,
        rate=predicted_rates(theta, data),
        g_val=g[data.g_idx],
        tpr_val=tpr[data.tpr_idx],
        tnr_val=tnr[data.tnr_idx],
    )
    batch = Batch([exact_data])
    point = torch.as_tensor(theta[None, :])
    observed = _dense_hessian(batch.likelihood_hessian(point), data.n_gen, data.n_val)
    expected = _dense_hessian(
        batch.likelihood_hessian(point, expected=True), data.n_gen, data.n_val
    )
    np.testing.assert_allclose(observed, expected, rtol=1e-10, atol=1e-12)
    assert np.linalg.eigvalsh(expected).min() > 0


@pytest.mark.filterwarnings("ignore::regression.errors.MisfitWarning")
def test_newton_reaches_the_same_optimum_from_the_boundary_start():
    """Starting the validators at TPR = TNR = 1 (App. D) instead of 0.5 changes nothing anchored."""
    judgments, human = load_agreeableness_judgments()
    cal = ["gpt-4o", "claude_3_opus"]
    fits = [
        LatentTraitModel(loss="likelihood", n_restarts=2, backend="torch", start=start).fit_table(
            judgments, human, cal
        )
        for start in ("paper", "released")
    ]
    assert all(fit.converged for fit in fits)
    np.testing.assert_allclose(fits[0].theta, fits[1].theta, atol=1e-5)
