"""Estimators chosen by name, each with its own settings, declared once and refused in one place."""

import warnings

import pytest

import regression
from regression import REGISTRY, LatentTraitModel, TransferModel, make_estimator
from regression.latent import ALIAS_WARNING, LatentTraitResult
from regression.registry import DEFAULT
from regression.simulate import simulate_item_votes
from regression.transfer import TransferResult


def _world():
    return simulate_item_votes(5, 4, 60, n_annotated=3, difficulty=0.5, seed=4)


def test_every_name_builds_its_own_estimator_with_its_settings():
    assert list(REGISTRY) == ["transfer", "likelihood", "paper"] and DEFAULT == "transfer"
    assert isinstance(make_estimator("transfer"), TransferModel)
    fit = make_estimator("paper", n_restarts=2, seed=1)
    assert isinstance(fit, LatentTraitModel) and (fit.loss, fit.n_restarts) == ("paper", 2)
    assert REGISTRY["transfer"].settings == ("method",)
    assert "loss" not in REGISTRY["likelihood"].settings
    assert {"n_restarts", "backend", "seed"} <= set(REGISTRY["likelihood"].settings)
    assert fit.get_params()["n_restarts"] == 2


def test_a_setting_the_estimator_lacks_is_refused_by_name():
    with pytest.raises(ValueError, match=r"transfer estimator has no setting backend"):
        make_estimator("transfer", backend="torch")
    with pytest.raises(ValueError, match=r"likelihood estimator has no setting method"):
        make_estimator("likelihood", method="offset")
    with pytest.raises(ValueError, match=r"paper estimator has no setting loss"):
        make_estimator("paper", loss="likelihood")
    with pytest.raises(ValueError, match=r"estimator \('bayes'\) not recognized"):
        make_estimator("bayes")
    with pytest.raises(ValueError, match=r"backend \('jax'\) not recognized"):
        make_estimator("likelihood", backend="jax")


def test_the_one_line_entry_fits_the_default_estimator():
    world = _world()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = regression.fit(world.judgments, world.human_labels)
        direct = TransferModel().fit_table(world.judgments, world.human_labels)
        latent = regression.fit(
            world.judgments, world.human_labels, estimator="likelihood", n_restarts=1
        )
    assert isinstance(result, TransferResult)
    assert result.precision.equals(direct.precision)
    assert isinstance(latent, LatentTraitResult) and latent.loss_name == "likelihood"


def test_the_old_default_entry_is_an_alias_that_says_what_it_returns():
    world = _world()
    with pytest.warns(FutureWarning) as caught:
        result = LatentTraitModel().fit_table(world.judgments, world.human_labels)
    assert ALIAS_WARNING in [str(w.message) for w in caught]
    assert "returns TransferModel()'s TransferResult" in ALIAS_WARNING
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        direct = TransferModel().fit_table(world.judgments, world.human_labels)
    assert isinstance(result, TransferResult) and result.precision.equals(direct.precision)
    with pytest.raises(ValueError, match=r"transfer estimator has no setting n_restarts, backend"):
        LatentTraitModel(n_restarts=5, backend="torch").fit_table(
            world.judgments, world.human_labels
        )


def test_a_latent_trait_fit_never_returns_a_transfer_result():
    world = _world()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for loss in ("likelihood", "paper"):
            result = LatentTraitModel(loss=loss, n_restarts=1).fit_table(
                world.judgments, world.human_labels
            )
            assert isinstance(result, LatentTraitResult), loss
