"""The prediction-powered engine every estimator of jurycal stands on.

One implementation of the statistics that binary labels, pairwise battles
(and next, graded scores) share, each outcome type fed to it as an
*encoding*: which units (items, battles) were drawn with which inclusion
probabilities, which targets (generators) each unit counts for with which
sign, its human outcome and the judges' prediction of it, and their bounds.

- :mod:`regression.core.sampling`: sampling designs (inclusion probabilities,
  the active design, the systematic pi-ps draw, budgets) and the design
  weights of a drawn sample (the Hajek mean).
- :mod:`regression.core.tuning`: the power-tuning weight ``lam`` under one rule
  set (constant prediction, constant outcomes, clipping).
- :mod:`regression.core.covariance`: the degrees of freedom and the linearised
  joint covariance of several targets that share units.
- :mod:`regression.core.bounded`: the betting confidence interval of a bounded
  mean (Waudby-Smith & Ramdas, 2024), valid at any ``n`` for any distribution
  on known bounds, and the prediction-powered mean of a design with it
  (:func:`~regression.core.bounded.ppi_interval`).
- :mod:`regression.core.crossfit`: cross-fitting a predictor of the human
  outcome from the judges' outputs, no unit predicted from its own outcome.

The engine imports nothing of jurycal above regression's ground floor
(:mod:`regression.checks`, :mod:`regression.errors`, :mod:`regression.intervals`).
"""

from regression.core.bounded import betting_interval, design_lam, ppi_interval
from regression.core.covariance import (
    design_covariance,
    dof_scale,
    joint_covariance,
    linearised_terms,
)
from regression.core.crossfit import FOLDS, cross_fit, fold_of
from regression.core.sampling import (
    ACTIVE_FLOOR,
    BudgetWarning,
    active_probabilities,
    design_variance,
    design_weights,
    hajek_mean,
    systematic_sample,
)
from regression.core.tuning import (
    SAME_PREDICTION,
    design_moments,
    guarded_lam,
    lam_by_rule,
    with_pseudo_outcomes,
)

__all__ = [
    "ACTIVE_FLOOR",
    "FOLDS",
    "SAME_PREDICTION",
    "BudgetWarning",
    "active_probabilities",
    "betting_interval",
    "cross_fit",
    "design_covariance",
    "design_lam",
    "design_moments",
    "design_variance",
    "design_weights",
    "dof_scale",
    "fold_of",
    "guarded_lam",
    "hajek_mean",
    "joint_covariance",
    "lam_by_rule",
    "linearised_terms",
    "ppi_interval",
    "systematic_sample",
    "with_pseudo_outcomes",
]
