"""Estimators chosen by name, each with its own settings, declared once and refused in one place."""

import subprocess
import sys
import warnings

import pytest
from hypothesis import given
from hypothesis import strategies as st

import regression
from jurycal.cli import COMMANDS, build_parser
from regression import REGISTRY, LatentTraitModel, TransferModel, make_estimator
from regression.errors import InputError
from regression.latent import LatentTraitResult
from regression.pairwise import PairwiseModel
from regression.registry import (
    DEFAULT,
    PAIRWISE_ESTIMANDS,
    SINGLE_JUDGE_DEFAULT,
    SINGLE_JUDGE_METHODS,
    TRANSFER_METHODS,
)
from regression.settings import Settings
from regression.simulate import simulate_item_votes
from regression.transfer import TransferResult


def _world():
    return simulate_item_votes(5, 4, 60, n_annotated=3, difficulty=0.5, seed=4)


def test_every_name_builds_its_own_estimator_with_its_settings():
    assert list(REGISTRY) == ["transfer", "likelihood", "paper"] and DEFAULT == "transfer"
    assert isinstance(make_estimator("transfer"), TransferModel)
    fit = make_estimator("paper", n_restarts=2, seed=1)
    assert isinstance(fit, LatentTraitModel) and (fit.loss, fit.n_restarts) == ("paper", 2)
    assert REGISTRY["transfer"].settings == ("method", "transfer_bias", "interval_method")
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
    # exact: one code path: fit makes the same TransferModel and calls fit_table
    assert result.precision.equals(direct.precision)
    assert isinstance(latent, LatentTraitResult) and latent.loss_name == "likelihood"


def test_the_latent_trait_model_is_the_likelihood_fit_by_default():
    """No alias: ``LatentTraitModel()`` is a latent-trait fit, and has no transfer setting."""
    assert LatentTraitModel().loss == "likelihood"
    with pytest.raises(ValueError, match=r"likelihood estimator has no setting transfer_bias"):
        make_estimator("likelihood", transfer_bias=0.05)


def test_a_latent_trait_fit_never_returns_a_transfer_result():
    world = _world()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for loss in ("likelihood", "paper"):
            result = LatentTraitModel(loss=loss, n_restarts=1).fit_table(
                world.judgments, world.human_labels
            )
            assert isinstance(result, LatentTraitResult), loss


# --- one registry: every name loads, builds and round-trips its settings ---------------------

FAMILIES = {
    "REGISTRY": REGISTRY,
    "TRANSFER_METHODS": TRANSFER_METHODS,
    "SINGLE_JUDGE_METHODS": SINGLE_JUDGE_METHODS,
    "PAIRWISE_ESTIMANDS": PAIRWISE_ESTIMANDS,
}


@pytest.mark.parametrize(
    ("family", "name"), [(f, n) for f, entries in FAMILIES.items() for n in entries]
)
def test_every_registered_name_loads_and_builds(family, name):
    target = FAMILIES[family][name].load()
    assert callable(target)
    # where the name chooses a setting of a class, that class builds with it and round-trips
    built = {
        "REGISTRY": lambda: make_estimator(name),
        "TRANSFER_METHODS": lambda: TransferModel(method=name),
        "PAIRWISE_ESTIMANDS": lambda: PairwiseModel(estimand=name),
    }.get(family)
    if built is None:
        return
    estimator = built()
    assert isinstance(estimator, Settings)
    estimator.check_settings()
    params = estimator.get_params()
    clone = type(estimator)(**params)
    assert clone.get_params() == params and repr(clone) == repr(estimator)
    assert type(estimator)().set_params(**params).get_params() == params


def test_the_library_reads_its_names_from_the_registry():
    from regression.single_judge import METHODS
    from regression.transfer import ESTIMATORS

    assert list(ESTIMATORS) == list(TRANSFER_METHODS)
    assert all(ESTIMATORS[n] is e.load() for n, e in TRANSFER_METHODS.items())
    assert METHODS == tuple(SINGLE_JUDGE_METHODS)


# --- one check of the settings' values: one error, one message ----------------------------

SETTINGS_OF = {
    TransferModel: ("method", "transfer_bias"),
    PairwiseModel: ("estimand", "judges", "seed"),
    LatentTraitModel: ("loss", "backend", "n_restarts"),
}
#: Strings a drawn value could hit that are valid for these settings.
VALID_WORDS = {"win_rate", "bradley_terry", "likelihood", "paper", "scipy", "torch"}
BAD = st.one_of(
    st.text(max_size=8).filter(lambda t: t not in ("held-out", *TRANSFER_METHODS)),
    st.floats(allow_nan=True).filter(lambda x: not 0 <= x <= 1),
    st.integers(max_value=-1),
    st.lists(st.integers(), max_size=2),
)


@given(model=st.sampled_from(list(SETTINGS_OF)), index=st.integers(0, 2), bad=BAD, data=st.data())
def test_a_bad_setting_raises_the_one_error_naming_it(model, index, bad, data):
    name = SETTINGS_OF[model][index % len(SETTINGS_OF[model])]
    if isinstance(bad, str) and bad in VALID_WORDS:
        return
    if name == "judges" and isinstance(bad, bool):
        return
    if name in ("seed", "n_restarts") and isinstance(bad, int) and bad >= 1:
        return
    estimator = model(**{name: bad})
    with pytest.raises(InputError) as caught:
        estimator.check_settings()
    error = caught.value
    assert error.column == name and (error.value is bad or error.value == bad)
    assert str(error).startswith(f"{name} ({bad!r}) not recognized; must be ")
    assert str(error).endswith(f"({model.__name__}).")


def test_an_unknown_estimator_name_is_the_same_error():
    with pytest.raises(InputError, match=r"estimator \('bayes'\) not recognized; must be one of"):
        make_estimator("bayes")
    with pytest.raises(InputError, match=r"method \('bayes'\) not recognized"):
        from regression.single_judge import estimate_prevalence

        estimate_prevalence([], [], method="bayes")


# --- the command line reads its choices from the registry, without numpy -------------------


def _choices(command, dest):
    parser = build_parser([command])
    sub = parser._subparsers._group_actions[0].choices[command]  # argparse keeps them here
    return next(a for a in sub._actions if a.dest == dest)


def test_the_cli_offers_the_registrys_choices_and_defaults():
    estimator = _choices("fit", "estimator")
    assert tuple(estimator.choices) == tuple(REGISTRY)
    assert all(entry.help in estimator.help for entry in REGISTRY.values())
    method = _choices("judge", "method")
    assert tuple(method.choices) == tuple(SINGLE_JUDGE_METHODS)
    assert method.default == SINGLE_JUDGE_DEFAULT


def test_building_the_parser_imports_no_numpy():
    code = (
        "import sys; from jurycal.cli import COMMANDS, build_parser; build_parser(COMMANDS); "
        "print(sorted({'numpy', 'pandas', 'scipy'} & set(sys.modules)))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == "[]"
    assert len(COMMANDS) > 10  # every command's options were registered
