"""Losses and exact gradients of the latent-trait model (regression.latent.losses)."""

import numpy as np
import pytest
from scipy.optimize import check_grad
from scipy.optimize._numdiff import approx_derivative

from regression import LatentTraitModel
from regression.data.anchors import Anchors
from regression.datasets import load_confusion, load_human_precision, load_validator_rates
from regression.latent.losses import likelihood_loss, paper_loss
from regression.latent.simulate import simulate_latent_world


def _real_data(loss="paper", calibration=("gpt-4o", "gpt-4-turbo")):
    rates = load_validator_rates("none")
    truth = load_human_precision()
    anchors = Anchors.from_confusion(
        load_confusion("none"), list(calibration), precision=truth[list(calibration)]
    )
    return LatentTraitModel(loss=loss).data(rates, None, anchors), rates, anchors


def _released_loss(theta, rates, anchors, lambdas=(2, 1, 10)):
    """App. C.4 eqs. (11)-(13) written as the released code does (loss.py, total_loss)."""
    gv = rates.to_numpy()
    n_gen, n_val = gv.shape
    g, tpr, tnr = theta[:n_gen], theta[n_gen : n_gen + n_val], theta[n_gen + n_val :]
    hat = np.outer(g, tpr) + np.outer(1 - g, 1 - tnr)
    bce = -np.mean(
        gv * np.log(np.clip(hat, 1e-9, 1)) + (1 - gv) * np.log(np.clip(1 - hat, 1e-9, 1))
    )
    pos = [list(rates.index).index(k) for k in anchors.precision.index]
    rg = np.sqrt(np.mean((g[pos] - anchors.precision.to_numpy()) ** 2))
    rp = np.sqrt(np.mean((tpr - anchors.tpr.reindex(rates.columns).to_numpy()) ** 2))
    rn = np.sqrt(np.mean((tnr - anchors.tnr.reindex(rates.columns).to_numpy()) ** 2))
    return bce + lambdas[0] * rg + lambdas[1] * rp + lambdas[2] * rn


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_paper_loss_value_is_the_released_formula(seed):
    data, rates, anchors = _real_data()
    theta = np.random.default_rng(seed).uniform(0.05, 0.95, data.n_params)
    assert paper_loss(theta, data)[0] == pytest.approx(
        _released_loss(theta, rates, anchors), rel=1e-12
    )


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_paper_gradient_is_exact(seed):
    data, _, _ = _real_data()
    theta = np.random.default_rng(seed).uniform(0.05, 0.95, data.n_params)
    err = check_grad(lambda t: paper_loss(t, data)[0], lambda t: paper_loss(t, data)[1], theta)
    assert err < 1e-6 * max(1.0, np.linalg.norm(paper_loss(theta, data)[1]))


@pytest.mark.parametrize("observed", [1.0, 0.3])
def test_likelihood_gradient_is_exact_dense_and_sparse(observed):
    world = simulate_latent_world(12, 9, 300, n_annotated=3, observed=observed, seed=4)
    anchors = Anchors.from_confusion(
        world.confusion,
        world.annotated[:2],
        precision=world.sample_precision[list(world.annotated[:2])],
    )
    model = LatentTraitModel(loss="likelihood")
    data = model.data(world.counts.rates, world.counts.n_labelled.astype(float), anchors)
    assert data.rows.size < 12 * 9 or observed == 1.0  # exact: a share of all rows
    theta = np.random.default_rng(3).uniform(0.1, 0.9, data.n_params)
    grad = likelihood_loss(theta, data)[1]
    err = check_grad(
        lambda t: likelihood_loss(t, data)[0], lambda t: likelihood_loss(t, data)[1], theta
    )
    assert err < 1e-6 * max(1.0, np.linalg.norm(grad))


@pytest.mark.float_sensitive  # a forward difference to 2e-6, and one loss value spelt twice
def test_released_gradient_equals_scipys_forward_difference():
    # The released code passed no jac: scipy's 2-point rule with abs step 1e-8 inside [0, 1].
    data, _, _ = _real_data()
    rng = np.random.default_rng(5)
    theta = rng.uniform(0.0, 1.0, data.n_params)
    theta[:3] = 1.0  # at the upper bound scipy steps backwards
    numeric = approx_derivative(
        lambda t: paper_loss(t, data)[0], theta, method="2-point", abs_step=1e-8, bounds=(0.0, 1.0)
    )
    closed_form = paper_loss(theta, data, gradient="released")[1]
    np.testing.assert_allclose(closed_form, numeric, atol=2e-6)
    # the same loss value: the RMSE term is sqrt(mean(r^2)) on one path, sqrt(sum(r^2) / n) on the
    # other, the same operations spelt twice, so at most a last-bit difference
    assert paper_loss(theta, data, gradient="released")[0] == pytest.approx(
        paper_loss(theta, data)[0], rel=1e-14
    )


def test_rmse_kink_gives_a_zero_subgradient_and_unknown_gradient_mode_is_named():
    data, _, anchors = _real_data()
    theta = np.concatenate(
        [np.full(data.n_gen, 0.9), anchors.tpr.to_numpy(), anchors.tnr.to_numpy()]
    )
    theta[data.g_idx] = data.g_val
    value, grad = paper_loss(theta, data)
    assert np.isfinite(grad).all() and np.isfinite(value)
    with pytest.raises(ValueError, match=r"gradient \('central'\) not recognized"):
        paper_loss(theta, data, gradient="central")
