"""The estimators of the generators' precision from many judges, chosen by name: the one selector.

Each entry names a class with its own settings (:class:`~regression.settings.Settings`:
the keyword-only ``__init__`` parameters, declared once) and the result it returns:

* ``"transfer"`` (the default): :class:`~regression.transfer.model.TransferModel`
  (``method``), which holds when the judges' TPR / TNR move between generators
  (``docs/new-generators.md``);
* ``"likelihood"`` and ``"paper"``: the latent-trait fit of the agreeableness
  paper (section 5), :class:`~regression.latent.model.LatentTraitModel` with
  that ``loss`` (the optimiser's settings: ``n_restarts``, ``backend``, ``seed``, ...).

:func:`make_estimator` builds one by name and is the only place that refuses a
setting the estimator has not, naming it; :func:`fit` is the one-line entry.
The CLI's ``--estimator`` lists :data:`REGISTRY`. Adding an estimator: one entry
here (docs/design.md, "Adding an estimator").
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from regression.latent.model import LatentTraitModel
from regression.latent.result import LatentTraitResult
from regression.results import Result
from regression.settings import Settings
from regression.transfer.model import TransferModel
from regression.transfer.result import TransferResult

__all__ = ["DEFAULT", "REGISTRY", "Entry", "fit", "make_estimator"]


@dataclass(frozen=True)
class Entry:
    """One estimator: its class, the result it returns, the settings its name fixes.

    Attributes
    ----------
    estimator : type
        A :class:`~regression.settings.Settings` class with ``fit`` and ``fit_table``.
    result : type
        What ``fit`` returns; its ``SUMMARY_OPTIONS`` and ``JOINT_OPTIONS`` say
        which interval options it takes.
    fixed : Mapping
        Settings the name sets (``loss="likelihood"``); a caller cannot give them.
    """

    estimator: type[Settings]
    result: type[Any]
    fixed: Mapping[str, Any] = field(default_factory=dict)

    @property
    def settings(self) -> tuple[str, ...]:
        """The settings a caller may give this estimator."""
        return tuple(s for s in self.estimator.setting_names() if s not in self.fixed)


#: Name -> estimator, in the order the CLI lists them.
REGISTRY: dict[str, Entry] = {
    "transfer": Entry(TransferModel, TransferResult),
    "likelihood": Entry(LatentTraitModel, LatentTraitResult, {"loss": "likelihood"}),
    "paper": Entry(LatentTraitModel, LatentTraitResult, {"loss": "paper"}),
}
#: The estimator :func:`fit` and the CLI use when none is named.
DEFAULT = "transfer"


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
    ValueError: the transfer estimator has no setting n_restarts; its settings are ['method'].
    """
    if name not in REGISTRY:
        raise ValueError(f"estimator ({name!r}) not recognized; must be one of {list(REGISTRY)}.")
    entry = REGISTRY[name]
    entry.estimator.refuse_unknown(settings, name, fixed=tuple(entry.fixed))
    estimator = entry.estimator(**entry.fixed, **settings)
    estimator.check_settings()  # type: ignore[attr-defined]  # every registered class has it
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
