"""Estimators chosen by name, each with its own settings."""

import pytest

from regression import REGISTRY, LatentTraitModel, TransferModel, make_estimator
from regression.latent import MODEL_LOSSES


def test_every_loss_of_the_documented_entry_is_a_registered_estimator():
    assert tuple(REGISTRY) == MODEL_LOSSES
    assert isinstance(make_estimator("transfer"), TransferModel)
    fit = make_estimator("paper", n_restarts=2, seed=1)
    assert isinstance(fit, LatentTraitModel) and (fit.loss, fit.n_restarts) == ("paper", 2)


def test_a_setting_the_estimator_lacks_is_refused_by_name():
    with pytest.raises(ValueError, match=r"transfer estimator has no setting backend"):
        make_estimator("transfer", backend="torch")
    with pytest.raises(ValueError, match=r"likelihood estimator has no setting method"):
        make_estimator("likelihood", method="offset")
    with pytest.raises(ValueError, match=r"estimator \('bayes'\) not recognized"):
        make_estimator("bayes")
