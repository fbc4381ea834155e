"""Profile-likelihood intervals of LatentTraitResult.interval(method="profile")."""

import numpy as np
import pytest
from scipy import stats
from scipy.optimize import minimize

from regression import Anchors, LatentTraitModel
from regression.errors import UnidentifiedWarning
from regression.latent.losses import likelihood_loss, likelihood_weight
from regression.simulate import simulate_latent_world


def _fit(world, n_cal=3, **settings):
    cal = list(world.annotated[:n_cal])
    anchors = Anchors.from_confusion(world.confusion, cal, precision=world.sample_precision[cal])
    return LatentTraitModel(**{"loss": "likelihood", "n_restarts": 2, **settings}).fit(
        world.counts, anchors=anchors
    )


def _profile_deviance(result, i, gamma):
    """2 W (min over the rest with g_i = gamma - the minimum): an independent scipy refit."""
    data = result.inputs.data()
    theta = result.theta
    free = np.arange(data.n_params) != i

    def loss(rest):
        full = theta.copy()
        full[free], full[i] = rest, gamma
        value, grad = likelihood_loss(full, data)
        return value, grad[free]

    rest = minimize(
        loss,
        theta[free],
        jac=True,
        method="L-BFGS-B",
        bounds=[(1e-6, 1 - 1e-6)] * int(free.sum()),
        options={"ftol": 1e-15, "gtol": 1e-10},
    )
    return 2 * likelihood_weight(data) * (rest.fun - likelihood_loss(theta, data)[0])


def test_profile_ends_are_where_the_deviance_reaches_the_chi_square_quantile():
    world = simulate_latent_world(8, 6, 400, n_annotated=3, seed=4)
    result = _fit(world)
    table = result.interval(0.05, method="profile", quasi=False)
    assert "no dispersion scaling" in result.interval_covers("profile", quasi=False)
    target = stats.chi2.ppf(0.95, 1)
    for i, generator in enumerate(table.index[:4]):
        for end in ("low", "high"):
            assert _profile_deviance(result, i, table.loc[generator, end]) == pytest.approx(
                target, abs=2e-3
            )


def test_one_sided_profile_end_is_the_two_sided_end_at_twice_alpha():
    result = _fit(simulate_latent_world(8, 6, 400, n_annotated=3, seed=5))
    two = result.interval(0.10, method="profile")
    upper = result.interval(0.05, method="profile", alternative="less")
    lower = result.interval(0.05, method="profile", alternative="greater")
    assert (upper.low == 0).all() and (lower.high == 1).all()
    np.testing.assert_allclose(upper.high, two.high, atol=1e-4)
    np.testing.assert_allclose(lower.low, two.low, atol=1e-4)


def test_profile_scipy_and_torch_agree():
    world = simulate_latent_world(8, 6, 400, n_annotated=3, seed=6)
    a = _fit(world, backend="scipy").interval(0.1, method="profile")
    b = _fit(world, backend="torch").interval(0.1, method="profile")
    bounds = ["estimate", "low", "high"]
    np.testing.assert_allclose(a[bounds].to_numpy(), b[bounds].to_numpy(), atol=1e-4)


def test_quasi_profile_widens_by_the_dispersion_and_auto_picks_profile():
    world = simulate_latent_world(8, 6, 400, n_annotated=3, spread=0.5, seed=7)
    result = _fit(world)
    assert result.dispersion > 1.5
    plain = result.interval(0.1, method="profile", quasi=False)
    quasi = result.interval(0.1)
    assert result.interval_method() == "profile"
    assert f"Pearson dispersion {result.dispersion:.2f}" in result.covers
    assert ((quasi.high - quasi.low) > (plain.high - plain.low)).all()
    paper = LatentTraitModel(loss="paper", n_restarts=1).fit(
        world.counts.rates, anchors=result.inputs.anchors
    )
    assert paper.interval_method() == "nonparametric"
    with pytest.warns(UnidentifiedWarning):
        unanchored = LatentTraitModel(loss="likelihood", n_restarts=1).fit(world.counts)
    assert unanchored.interval_method() == "parametric"


def test_profile_covers_where_the_model_holds_and_quasi_covers_under_spread():
    # 90 % intervals for every generator without human labels; 3 Monte Carlo SEs.
    # spread = 0: eq. (1) holds; spread = 0.5: each generator has its own TPR / TNR
    # (logit s.d. 0.5), the plain interval undercovers and the quasi one does not.
    coverage = {}
    for spread, quasi in [(0.0, False), (0.5, False), (0.5, True)]:
        hits = total = 0
        for seed in range(8):
            world = simulate_latent_world(10, 8, 500, n_annotated=3, spread=spread, seed=seed)
            table = _fit(world, backend="torch", n_restarts=1).interval(
                0.1, method="profile", quasi=quasi
            )
            free = [g for g in table.index if g not in world.annotated]
            truth = world.sample_precision[free]
            hits += int(((table.low[free] <= truth) & (truth <= table.high[free])).sum())
            total += len(free)
        coverage[spread, quasi] = hits / total
    se = np.sqrt(0.9 * 0.1 / total)
    assert coverage[0.0, False] >= 0.9 - 3 * se
    assert coverage[0.5, True] >= 0.9 - 3 * se
    assert coverage[0.5, False] < coverage[0.5, True] - 2 * se


def test_profile_refuses_the_paper_loss_and_unanchored_fits():
    world = simulate_latent_world(8, 6, 300, n_annotated=3, seed=8)
    paper = _fit(world, loss="paper", n_restarts=1)
    with pytest.raises(ValueError, match="loss='likelihood'.*loss='paper'"):
        paper.interval(method="profile")
    with pytest.warns(UserWarning):
        unanchored = LatentTraitModel(loss="likelihood", n_restarts=1).fit(world.counts)
    with pytest.raises(ValueError, match="needs anchors"):
        unanchored.interval(method="profile")
    assert unanchored.interval_method() == "parametric"
    with pytest.raises(ValueError, match=r"method \('wald'\) not recognized"):
        paper.interval(method="wald")
