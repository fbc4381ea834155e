"""Where :func:`~regression.labels.plan.plan_labels` lived while it fitted the transfer estimate.

The plan gives the transfer estimate no weight, as the fit's default does, so
it needs no transfer fit and lives in :mod:`regression.labels.plan` again.
``from regression import plan_labels`` is the way in; this path still
resolves, for one release, with a FutureWarning.
"""

from __future__ import annotations

from regression.lazy import moved

__getattr__ = moved(__name__, {"plan_labels": "regression"})  # its front door
