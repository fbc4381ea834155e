"""The estimators of the generators' precision from many judges, chosen by name.

Each estimator lives in its own home with its own settings:

* ``"transfer"``: :class:`~regression.transfer.TransferModel` (``method``), the
  default for new generators, which holds when the judges move between generators;
* ``"likelihood"`` and ``"paper"``: the latent-trait fit of the agreeableness
  paper (section 5) with that loss, :class:`~regression.latent.LatentTraitModel`
  (the optimiser's settings: ``n_restarts``, ``backend``, ``seed``, ...).

:func:`make_estimator` builds one by name and refuses a setting the estimator
does not have, naming it, so that no setting means different things per
estimator. ``LatentTraitModel(loss=...)`` remains the documented entry and
picks the same estimators by its ``loss``.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

from regression.latent.model import LatentTraitModel
from regression.latent.solver import Solver
from regression.transfer.model import TransferModel

__all__ = ["REGISTRY", "make_estimator"]

#: Name -> the class that estimates, in the order the CLI lists them; the first is the default.
REGISTRY: dict[str, type] = {
    "transfer": TransferModel,
    "likelihood": LatentTraitModel,
    "paper": LatentTraitModel,
}


def _settings_of(name: str) -> Callable[..., Any]:
    return TransferModel.__init__ if name == "transfer" else Solver.__init__


def make_estimator(name: str, **settings: Any) -> Any:
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
    known = [
        p for p in inspect.signature(_settings_of(name)).parameters if p not in ("self", "loss")
    ]
    unknown = [key for key in settings if key not in known]
    if unknown:
        raise ValueError(
            f"the {name} estimator has no setting {', '.join(unknown)}; its settings are {known}."
        )
    if name == "transfer":
        return TransferModel(**settings)
    return LatentTraitModel(loss=name, **settings)
