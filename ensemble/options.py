"""The ensemble's option vocabularies, declared once, in a module that imports nothing heavy.

:mod:`ensemble.rules` and :mod:`ensemble.threshold` use them, and the ``jurycal``
command offers them as its choices without importing numpy (``--help`` stays fast).
"""

from __future__ import annotations

__all__ = ["MAXIMISED_METRICS", "METRICS", "MISSING_POLICIES", "RULES"]

#: The voting rules :func:`ensemble.vote` knows.
RULES = ("majority", "supermajority", "minority_veto")
#: The missing-vote policies: ``None`` (the paper's) and ``"ignore"``.
MISSING_POLICIES = (None, "ignore")
#: The scores :func:`ensemble.pick_threshold` can optimise.
METRICS = ("max_abs_error", "mean_abs_error", "balanced_accuracy")
#: The scores among :data:`METRICS` that are best when highest; the others are errors, minimised.
MAXIMISED_METRICS = ("balanced_accuracy",)
