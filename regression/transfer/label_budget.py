"""Where :func:`~regression.labels.plan.plan_labels` lived while it fitted the transfer estimate.

The plan gives the transfer estimate no weight, as the fit's default does, so
it needs no transfer fit and lives in :mod:`regression.labels.plan` again.
``from regression import plan_labels`` is the way in; this path still
resolves, for one release, with a FutureWarning.
"""

from __future__ import annotations

import importlib
import warnings
from typing import Any

#: Names that left this module, and the module that has them now.
_MOVED = {"plan_labels": "regression.labels.plan"}


def __getattr__(name: str) -> Any:
    if name in _MOVED:
        warnings.warn(
            f"regression.transfer.label_budget.{name} moved to {_MOVED[name]}; write "
            f"'from regression import {name}'. The alias goes in the next release.",
            FutureWarning,
            stacklevel=2,
        )
        return getattr(importlib.import_module(_MOVED[name]), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
