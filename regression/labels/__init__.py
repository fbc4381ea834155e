"""Partial human labels: one estimate from a few labels, all the votes and the other generators.

:mod:`~regression.labels.design` checks partial labels and their inclusion
probabilities; :mod:`~regression.labels.predict` predicts each item's human
label from the votes without its own label; :mod:`~regression.labels.partial`
is the estimator; :mod:`~regression.labels.interval` its interval (betting or
normal); :mod:`~regression.labels.suggest` chooses
the items to label next; :mod:`~regression.labels.plan` says how many. The
sampling designs, power tuning and cross-fitting are the engine's
(:mod:`regression.core`).
"""

from regression.core.sampling import BudgetWarning, active_probabilities, systematic_sample
from regression.labels.design import PROBABILITY_COLUMN, LabelDesign, label_design
from regression.labels.interval import score_interval
from regression.labels.partial import PartialEstimate, combine_transfer, ppi_design_mean
from regression.labels.plan import predicted_width
from regression.labels.result import LABELS_NOTE, PartialLabels, fit_partial
from regression.labels.suggest import suggest_labels

__all__ = [
    "LABELS_NOTE",
    "BudgetWarning",
    "PROBABILITY_COLUMN",
    "LabelDesign",
    "PartialEstimate",
    "PartialLabels",
    "active_probabilities",
    "combine_transfer",
    "fit_partial",
    "label_design",
    "ppi_design_mean",
    "predicted_width",
    "score_interval",
    "suggest_labels",
    "systematic_sample",
]
