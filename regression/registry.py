"""Every estimator chosen by name, in one place: its name, its class and its help, loaded lazily.

Five families, each a mapping of name -> :class:`Entry`; an entry names its
class (or function) as a ``"module:Name"`` string, imported on first use, so
the CLI builds its choices and help from here without importing numpy:

* :data:`REGISTRY`, the generators' precision from many judges
  (:func:`make_estimator`, :func:`fit`, the CLI's ``--estimator``):
  ``"transfer"`` (the default), :class:`~regression.transfer.model.TransferModel`,
  which holds when the judges' TPR / TNR move between generators
  (``docs/new-generators.md``); ``"likelihood"`` and ``"paper"``, the
  latent-trait fit of the agreeableness paper (section 5),
  :class:`~regression.latent.model.LatentTraitModel` with that ``loss``;
* :data:`TRANSFER_METHODS`, ``TransferModel(method=)``: the functions of
  :mod:`regression.transfer.estimators`;
* :data:`SINGLE_JUDGE_METHODS`, ``estimate_prevalence(method=)``;
* :data:`PAIRWISE_ESTIMANDS`, ``PairwiseModel(estimand=)``;
* :data:`SCORE_ESTIMATORS`, graded scores: :class:`~regression.scores.model.ScoreModel`.

Adding an estimator: one entry here, its class a
:class:`~regression.settings.Settings` with its ``parameter_constraints``
(docs/design.md, "Adding an estimator").
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from regression.settings import Options, check_params

if TYPE_CHECKING:
    import pandas as pd

    from regression.results import Result

__all__ = [
    "DEFAULT",
    "PAIRWISE_ESTIMANDS",
    "REGISTRY",
    "SINGLE_JUDGE_DEFAULT",
    "SINGLE_JUDGE_METHODS",
    "TRANSFER_METHODS",
    "BACKENDS",
    "BOUNDED_INTERVAL_METHODS",
    "COMPARISON_N_BOOT",
    "DEFAULT_N_BOOT",
    "DEFAULT_RESTARTS",
    "INTERVAL_METHODS",
    "MAX_N_BOOT",
    "MIN_N_BOOT",
    "PAIRWISE_OBJECTIVES",
    "SCORE_ESTIMATORS",
    "SHARED_CALIBRATIONS",
    "Entry",
    "fit",
    "make_estimator",
]

# The estimators' option vocabularies, declared here once (the registry imports nothing heavy,
# so the CLI offers them without importing numpy) and used by the estimators themselves.
#: The latent-trait fit's optimiser libraries (``LatentTraitModel(backend=)``; the first is
#: the default).
BACKENDS = ("scipy", "torch")
#: A latent-trait fit's starts of the optimiser (section 5.2: 25), the default of ``n_restarts``.
DEFAULT_RESTARTS = 25
#: A latent-trait fit's interval methods (``LatentTraitResult.interval(method=)``; the first is
#: the default).
INTERVAL_METHODS = ("auto", "profile", "parametric", "nonparametric", "items")
#: The interval of a prediction-powered mean of bounded outcomes (the first is the default;
#: docs/intervals.md): ``"floored"`` is the normal interval with each side at least the shift
#: of a share of units the sample may have missed (:func:`regression.core.floor.floored_ppi_interval`);
#: ``"betting"`` holds at any n for any distribution on the outcome's bounds
#: (:func:`regression.core.bounded.ppi_interval`); ``"normal"`` rests on the sample's own
#: spread alone (each estimator's own normal form).
BOUNDED_INTERVAL_METHODS = ("floored", "betting", "normal")
#: A latent-trait fit's bootstrap replicates unless told (``LatentTraitResult.interval(n_boot=)``).
DEFAULT_N_BOOT = 200
#: Whose calibration two models' comparison shares (``compare_models(shared_calibration=)``;
#: the first is the default).
SHARED_CALIBRATIONS = ("pooled", "a", "b")
#: Bootstrap replicates of two models' comparison unless told (``compare_models(n_boot=)``).
COMPARISON_N_BOOT = 10_000
#: What the pairwise ``suggest_labels`` aims at (the first is the default).
PAIRWISE_OBJECTIVES = ("win rates", "undecided pairs")
#: A bootstrap needs two replicates for a spread; fewer gives a zero-width interval.
MIN_N_BOOT = 2
#: More replicates than this cost memory without changing an interval's digits.
MAX_N_BOOT = 1_000_000


@dataclass(frozen=True)
class Entry:
    """One estimator: where its class lives, what the CLI says of it, the settings its name fixes.

    Attributes
    ----------
    target : str
        ``"module:Name"``: the class (a :class:`~regression.settings.Settings`
        with ``fit_table``) or function, imported by :meth:`load`.
    help : str
        One line for ``--help``.
    fixed : Mapping
        Settings the name sets (``loss="likelihood"``); a caller cannot give them.
    result : str
        ``"module:Name"`` of what ``fit`` returns (estimators of :data:`REGISTRY`):
        its ``SUMMARY_OPTIONS`` and ``JOINT_OPTIONS`` say which interval options it takes.
    """

    target: str
    help: str
    fixed: Mapping[str, Any] = field(default_factory=dict)
    result: str = ""

    def load(self) -> Any:
        """The class or function ``target`` names (imports its module)."""
        return _load(self.target)

    def load_result(self) -> Any:
        """The result class ``result`` names (imports its module)."""
        return _load(self.result)

    @property
    def settings(self) -> tuple[str, ...]:
        """The settings a caller may give this estimator (imports its class)."""
        return tuple(s for s in self.load().setting_names() if s not in self.fixed)


def _load(target: str) -> Any:
    module, _, name = target.partition(":")
    return getattr(importlib.import_module(module), name)


_LATENT = "regression.latent.model:LatentTraitModel"
_LATENT_RESULT = "regression.latent.result:LatentTraitResult"

#: Name -> estimator of the generators' precision, in the order the CLI lists them.
REGISTRY: dict[str, Entry] = {
    "transfer": Entry(
        "regression.transfer.model:TransferModel",
        "the estimator for new generators, with its self-check on the calibration generators",
        result="regression.transfer.result:TransferResult",
    ),
    "likelihood": Entry(
        _LATENT,
        "the latent-trait fit of section 5, by likelihood",
        {"loss": "likelihood"},
        _LATENT_RESULT,
    ),
    "paper": Entry(
        _LATENT,
        "the latent-trait fit of section 5, the paper's loss",
        {"loss": "paper"},
        _LATENT_RESULT,
    ),
}
#: The estimator :func:`fit` and the CLI use when none is named.
DEFAULT = "transfer"

_TRANSFER = "regression.transfer.estimators:"
#: ``TransferModel(method=)``: name -> estimator function, in the order reports list them.
TRANSFER_METHODS: dict[str, Entry] = {
    "transfer": Entry(_TRANSFER + "transfer", "the stacked transfer estimator (default)"),
    "hierarchical": Entry(_TRANSFER + "hierarchical", "partial pooling of the judges' rates"),
    "offset": Entry(_TRANSFER + "offset_mean", "the offset-corrected mean of judges"),
    "rogan_gladen_pooled": Entry(
        _TRANSFER + "rogan_gladen_pooled", "Rogan-Gladen with pooled TPR / TNR"
    ),
    "calibration_mean": Entry(_TRANSFER + "calibration_mean", "the calibration generators' mean"),
    "mean_of_judges": Entry(_TRANSFER + "mean_of_judges", "the judges' mean valid rate"),
}

_SINGLE = "regression.single_judge."
#: ``estimate_prevalence(method=)``: one judge's prevalence; name -> the function it runs.
SINGLE_JUDGE_METHODS: dict[str, Entry] = {
    "ppi++": Entry(
        _SINGLE + "ppi:ppi_binary_from_counts",
        "prediction-powered, with power-tuned lam and the engine's floored interval",
    ),
    "rogan-gladen": Entry(
        _SINGLE + "rogan_gladen:rg_estimate", "corrected by the judge's sensitivity and specificity"
    ),
    "naive": Entry(_SINGLE + "prevalence:naive_estimate", "the judge's valid rate, uncorrected"),
}
#: The method ``estimate_prevalence`` and ``jurycal judge`` report when none is named: the
#: narrowest with an interval valid at any n (docs/single-judge.md, "Which method").
SINGLE_JUDGE_DEFAULT = "ppi++"

#: ``PairwiseModel(estimand=)``: name -> the function that fits it.
PAIRWISE_ESTIMANDS: dict[str, Entry] = {
    "win_rate": Entry(
        "regression.pairwise.win_rate:win_rates", "the generator's mean human score (tie 1/2)"
    ),
    "bradley_terry": Entry(
        "regression.pairwise.davidson:bradley_terry", "Davidson's Bradley-Terry model with ties"
    ),
}

#: Graded scores (``jurycal rank SCORES HUMAN``): name -> the estimator of each generator's mean
#: human rating from judges' scores and a few ratings.
SCORE_ESTIMATORS: dict[str, Entry] = {
    "scores": Entry(
        "regression.scores.model:ScoreModel",
        "each generator's mean human rating: judges' scores calibrated, prediction-powered",
        result="regression.scores.result:ScoreResult",
    ),
}


def make_estimator(name: str = DEFAULT, **settings: Any) -> Any:
    """The estimator called ``name`` with ``settings``.

    Raises
    ------
    ValueError
        An unknown name, or a setting that estimator does not have (named).

    Examples
    --------
    >>> make_estimator("likelihood", n_restarts=3).n_restarts
    3
    >>> make_estimator("transfer", n_restarts=3)
    Traceback (most recent call last):
    ...
    ValueError: the transfer estimator has no setting n_restarts; its settings are ['method', 'transfer_bias', 'interval_method'].
    """
    check_params("make_estimator", {"estimator": name}, {"estimator": [Options(tuple(REGISTRY))]})
    entry = REGISTRY[name]
    estimator_class = entry.load()
    estimator_class.refuse_unknown(settings, name, fixed=tuple(entry.fixed))
    estimator = estimator_class(**entry.fixed, **settings)
    estimator.check_settings()
    return estimator


def fit(
    judgments: pd.DataFrame,
    human_labels: pd.DataFrame,
    calibration_generators: Iterable[str] | None = None,
    *,
    estimator: str = DEFAULT,
    shared_items: bool = False,
    **settings: Any,
) -> Result:
    """Every generator's precision from the judgments table and the human labels, in one line.

    ``make_estimator(estimator, **settings).fit_table(judgments, human_labels, ...)``.

    Parameters
    ----------
    judgments : DataFrame
        ``generator, item, validator, label``.
    human_labels : DataFrame
        ``generator, item, human`` (optionally ``inclusion_probability``).
    calibration_generators : iterable of str, optional
        Default: every generator with all its judged items labelled (transfer)
        or with human labels (likelihood, paper).
    estimator : str
        A name in :data:`REGISTRY`; default ``"transfer"``.
    shared_items : bool
        An item id names the same prompt for every generator.
    **settings
        The estimator's settings (refused by name when it has not that one).

    Returns
    -------
    Result
        A :class:`~regression.transfer.result.TransferResult` for ``"transfer"``,
        a :class:`~regression.latent.result.LatentTraitResult` for the others.

    Examples
    --------
    >>> from regression.simulate import simulate_item_votes
    >>> world = simulate_item_votes(6, 4, 200, n_annotated=3, seed=0)
    >>> result = fit(world.judgments, world.human_labels)
    >>> type(result).__name__, result.method
    ('TransferResult', 'transfer')
    """
    model = make_estimator(estimator, **settings)
    result: Result = model.fit_table(
        judgments, human_labels, calibration_generators, shared_items=shared_items
    )
    return result
